#!/usr/bin/env python3
"""Qt 5 apps (FeatherPad, SpeedCrunch) observed and acted on, judged from outside the tool.

FeatherPad opens a file; the check snapshots it, sets the editor's text (verified), types
more, activates File > Save by its ref, and reads the file the app wrote. It toggles the
search bar's "Match Case" check box and reads its state with an independent AT-SPI walk
(Properties.Get one at a time: Qt 5.15's bridge crashes the app on GetAll). A stopped app
(SIGSTOP) answers APP_UNRESPONSIVE within the deadline, and the app is alive after every
step. A Qt combo box's option is picked by set-value through the open list's keys (refused,
nothing changed, with physical input off). SpeedCrunch's window is snapshotted and its
controls found. Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import os
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from real_app import (Daemon, RealApp, answers_independently, check_stopped_app, atspi_probe, cli, data,  # noqa: E402
                      error, one, open_and_escape, open_surfaces, outcome, save_through_file_menu, wait_for)
from checks import Checker  # noqa: E402
from fixture_app import read_text  # noqa: E402


def check_featherpad(check, tmp):
    path = os.path.join(tmp, "notes.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write("original\n")
    with RealApp("FeatherPad", ["featherpad", "--standalone", path]) as app:
        snap, nodes = app.snapshot()
        check.expect(snap["node_count"] > 50, f"snapshot reads the whole window "
                                               f"({snap['node_count']} nodes)")
        refs = [n["ref"] for n in nodes]
        check.expect(len(refs) == len(set(refs)), "every ref is unique")
        editors = [n for n in nodes if n["role"] == "text" and "multi-line" in n["states"]]
        check.expect(len(editors) == 1, f"one multi-line editor ({len(editors)})")
        editor = editors[0]
        rc, env = cli("set-value", editor["ref"], "written by companyOS")
        check.expect(rc == 0 and outcome(env) == "delivered_verified",
                     f"set-value on the editor is verified ({outcome(env)}, {error(env)})")
        rc, env = cli("type", editor["ref"], " and typed")
        check.expect(rc == 0 and outcome(env) == "delivered_verified",
                     f"type into the editor is verified ({outcome(env)}, {error(env)})")

        # Save through the open File menu's item: Qt adds the popup menu under its menu
        # item; listed as a surface, its Save is clicked by the surface's ref, and the file
        # is the outside judge.
        snap, nodes = app.snapshot()
        save_through_file_menu(check, "FeatherPad", nodes)
        try:
            saved = wait_for("the saved file", lambda: read_text(path) if
                             read_text(path) != "original\n" else None)
        except atspi_probe.ProbeError:
            saved = read_text(path)
        check.expect(saved is not None and saved.rstrip("\n") == "written by companyOS and typed",
                     f"the file FeatherPad saved holds the text ({saved!r})")

        # Toggle, judged by an independent read of the check box's state.
        match_case = one(nodes, "Match Case", role="check box", description="Match Case (F5)")
        rc, env = cli("toggle", match_case["ref"])
        check.expect(rc == 0 and outcome(env) == "delivered_verified",
                     f"toggle of Match Case is verified ({outcome(env)}, {error(env)})")
        bus = atspi_probe.a11y_bus()
        bus_name = app.bus_name(bus)
        boxes = [n for n in atspi_probe.walk(bus, bus_name, one_property_at_a_time=True,
                                                   skip_vanished=True)
                 if n.role == "check box"]
        checked = [n for n in boxes
                   if bus.get_property(bus_name, n.path, "org.a11y.atspi.Accessible",
                                       "Description") == "Match Case (F5)"]
        check.expect(len(checked) == 1 and "checked" in atspi_probe.states(bus, checked[0]),
                     "an independent read finds Match Case checked")
        check.expect(app.alive(), "FeatherPad is alive after the independent walk")

        # File > Open runs Qt's file dialog inside the action call: the click answers
        # (answered: false), names the dialog, a key closes it, and FeatherPad answers after.
        _, nodes = app.snapshot()
        opener = one(nodes, "File > Open", role="menu item", name="Open")
        open_and_escape(check, "FeatherPad", opener["ref"], "Open file...", "FeatherPad")
        check.expect(answers_independently(bus, bus_name), "FeatherPad answers an independent AT-SPI read")

        check_stopped_app(check, app)


def check_combo_box_pick(check, tmp):
    """set-value on a Qt combo box with an option's label: with physical input off it is
    refused (option_needs_the_keyboard) and nothing changes; on, the list is opened, moved by
    keys and committed, the reply is verified, and an independent AT-SPI walk finds the combo
    box named by its new item (Qt names a combo box by its current text). An unknown label is
    refused and the combo box keeps its item."""
    with RealApp("FeatherPad", ["featherpad", "--standalone", os.path.join(tmp, "prefs.txt")]) as app:
        _, nodes = app.snapshot()
        preferences = one(nodes, "Preferences", role="menu item", name="Preferences")
        cli("action", preferences["ref"], "Press")
        names = lambda: [e["name"] for e in data(cli("find", "--app", "FeatherPad", "--role", "combo box")[1])
                         .get("elements", [])]
        try:
            wait_for("the Preferences dialog's combo boxes", lambda: "North" in names() or None, timeout=30)
        except atspi_probe.ProbeError:
            check.expect(False, f"the Preferences dialog shows its North combo box ({names()})")
            return
        pick = ("set-value", "--app", "FeatherPad", "--role", "combo box", "--name", "North", "West")

        cli("settings", "set", "physical_input", "false")
        rc, env = cli(*pick)
        details = error(env).get("details", {})
        check.expect(rc != 0 and details.get("kind") == "option_needs_the_keyboard" and
                     details.get("delivery") == "not_delivered" and "physical_input" in error(env).get("suggestion", ""),
                     f"with physical input off, set-value West is refused and says why ({error(env)})")
        check.expect("North" in names() and "West" not in names(), f"the combo box still shows North ({names()})")
        cli("settings", "set", "physical_input", "true")

        rc, env = cli("set-value", "--app", "FeatherPad", "--role", "combo box", "--name", "North", "Nowhere")
        check.expect(rc != 0 and error(env).get("code") == "ELEMENT_NOT_FOUND",
                     f"an option the combo box lacks is refused ({error(env)})")
        check.expect("North" in names(), f"the combo box still shows North ({names()})")

        rc, env = cli(*pick)
        check.expect(rc == 0 and outcome(env) == "delivered_verified" and
                     data(env).get("route") == "xtest:keyboard:list",
                     f"set-value West picks it with the list's keys, verified ({outcome(env)}, {error(env)})")
        bus = atspi_probe.a11y_bus()
        shown = lambda: sorted(n.name for n in atspi_probe.walk(bus, app.bus_name(bus), one_property_at_a_time=True,
                                                                 skip_vanished=True)
                               if n.role == "combo box" and n.name in ("North", "West"))
        check.expect(shown() == ["West"], f"an independent read finds the combo box showing West ({shown()})")
        check.expect(open_surfaces("FeatherPad") == [], "the list is closed after the pick")
        check.expect(app.alive(), "FeatherPad is alive after the pick")


def check_speedcrunch(check):
    with RealApp("SpeedCrunch", ["speedcrunch"]) as app:
        snap, nodes = app.snapshot()
        check.expect(snap["node_count"] > 20, f"SpeedCrunch's window is read "
                                               f"({snap['node_count']} nodes)")
        rc, env = cli("find", "--app", "SpeedCrunch", "--role", "text")
        found = data(env).get("elements", []) if rc == 0 else []
        check.expect(len(found) >= 1, f"find sees its text fields ({len(found)}, {error(env)})")
        check.expect(app.alive(), "SpeedCrunch is alive after the reads")


def main():
    check = Checker("qt5")
    daemon = Daemon()
    daemon.start()
    try:
        rc, env = cli("settings", "set", "physical_input", "true")
        check.expect(rc == 0, f"physical input is allowed for --headed ({error(env)})")
        with tempfile.TemporaryDirectory() as tmp:
            check_featherpad(check, tmp)
            check_combo_box_pick(check, tmp)
        check_speedcrunch(check)
    finally:
        daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
