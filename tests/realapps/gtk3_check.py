#!/usr/bin/env python3
"""GTK 3 apps (mousepad, and the GTK 3 fixture's modal dialog) observed and acted on,
judged from outside the tool.

mousepad: the snapshot sees the menus; set-value on the editor is verified; File >
Open... clicked by its ref answers at once although the app runs the file chooser inside
that action (gtk_dialog_run), the chooser is listed, a key pressed into it (Escape)
closes it — the X server's client list no longer has it — and the app keeps answering
the daemon, an independent AT-SPI read, and a second round of the same. That key used to
hang mousepad for good (the daemon closed the connection the app was still dispatching).
The fixture's "Open dialog…" button does the same with a plain GtkDialog, and the file the
fixture writes says the dialog was dismissed by the key. Runs inside
scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import os
import sys
import tempfile
import threading

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from real_app import (Daemon, RealApp, answers_independently, atspi_probe, cli, data, error, one,  # noqa: E402
                      check_fixture_dialog, open_and_escape, open_surfaces, outcome, surface_tree,
                      wait_for, wait_for_surface, x_client_titles)
from checks import Checker  # noqa: E402
from daemon_cli import FIXTURE  # noqa: E402

def check_mousepad(check):
    with RealApp("mousepad", ["mousepad", "--disable-server"]) as app:
        snap, nodes = app.snapshot()
        check.expect(snap["node_count"] > 100, f"mousepad's window is read ({snap['node_count']} nodes)")
        editors = [n for n in nodes if n["role"] == "text" and "multi-line" in n.get("states", [])]
        check.expect(len(editors) == 1, f"one editor ({len(editors)})")
        if editors:
            rc, env = cli("set-value", editors[0]["ref"], "written by companyOS")
            check.expect(rc == 0 and outcome(env) == "delivered_verified",
                         f"set-value on the editor is verified ({outcome(env)}, {error(env)})")
            # mousepad marks the title modified; get says the title as it is now, as the X
            # server has it, not as the snapshot saw it.
            try:
                x_title = wait_for("the modified title", lambda: next(
                    (t for t in x_client_titles() if t.startswith("*") and "Mousepad" in t), None))
            except atspi_probe.ProbeError:
                x_title = None
            rc, env = cli("get", editors[0]["ref"])
            got = data(env).get("window", {}).get("title")
            check.expect(x_title is not None and got == x_title,
                         f"get gives the window's live title ({got!r}, X: {x_title!r})")
        # GTK 3 pads menu item names; the exact name is said when a near one was asked.
        rc, env = cli("click", "--app", "mousepad", "--role", "menu item", "--name", "Open...")
        near = error(env).get("details", {}).get("near_matches", [])
        check.expect(rc != 0 and error(env).get("code") == "ELEMENT_NOT_FOUND"
                     and len(near) == 1 and near[0].strip() == "Open..." and near[0] != "Open...",
                     f"--name Open... is refused, naming the padded name ({near})")
        bus = atspi_probe.a11y_bus()
        bus_name = app.bus_name(bus)
        for round_number in (1, 2):
            snap, nodes = app.snapshot("--title", app.window()["title"])
            opener = [n for n in nodes if n["role"] == "menu item"
                      and n["name"].strip() == "Open..."]
            check.expect(len(opener) == 1, f"round {round_number}: File > Open... is in the snapshot")
            if not opener:
                return
            open_and_escape(check, "mousepad", opener[0]["ref"], "Open File",
                            f"mousepad round {round_number}")
            check.expect(answers_independently(bus, bus_name),
                         f"round {round_number}: mousepad answers an independent AT-SPI read")
        check_menu_surface(check, app, bus, bus_name)
        check.expect(app.alive(), "mousepad is alive at the end")


def check_menu_surface(check, app, bus, bus_name):
    """File opens as a surface: listed with its opener, its tree alone by --surface menu, an
    item activated by the surface's ref (the X server's title is the judge), closed after."""
    check.expect(open_surfaces("mousepad") == [], "no surface is open before the menu opens")
    waited = {}
    waiter = threading.Thread(target=lambda: waited.update(
        result=cli("wait", "--app", "mousepad", "--menu", "--timeout", "15000")))
    waiter.start()
    rc, env = cli("click", "--app", "mousepad", "--role", "menu", "--name", "File")
    check.expect(rc == 0, f"click on the File menu is delivered ({error(env)})")
    named = (data(env).get("opened") or {}).get("surface") or {}
    check.expect(named.get("kind") == "menu" and named.get("name") == "File" and named.get("items", 0) > 10,
                 f"the click's reply names the menu it opened ({named or data(env).get('opened')})")
    waiter.join()
    rc, env = waited["result"]
    evidence = data(env).get("evidence", {})
    check.expect(rc == 0 and evidence.get("kind") == "menu" and evidence.get("name") == "File",
                 f"wait --menu sees File open ({evidence or error(env)})")
    surfaces = wait_for_surface("mousepad") or []
    check.expect(len(surfaces) == 1 and surfaces[0]["kind"] == "menu" and surfaces[0]["name"] == "File"
                 and surfaces[0]["items"] > 10,
                 f"surfaces lists the open File menu ({[(s['kind'], s['name'], s['items']) for s in surfaces]})")
    # Independently: the menu's items show now (GTK 3 keeps them in the tree when closed).
    items = [n for n in atspi_probe.walk(bus, bus_name) if n.role == "menu item"
             and n.name.strip() == "New Window"]
    check.expect(len(items) == 1 and "showing" in atspi_probe.states(bus, items[0]),
                 "an independent read finds File > New Window showing")
    tree, nodes = surface_tree("mousepad")
    surface = tree.get("surface", {}) if nodes else {}
    check.expect(nodes and nodes[0]["role"] == "menu" and nodes[0]["name"] == "File"
                 and surface.get("ref") == nodes[0]["ref"],
                 f"snapshot --surface menu starts at the menu ({surface or tree})")
    new_tab = [n for n in nodes if n["role"] == "menu item" and n["name"].strip() == "New"]
    check.expect(len(new_tab) == 1, "the surface holds File > New")
    if not new_tab:
        return
    rc, env = cli("click", new_tab[0]["ref"])
    check.expect(rc == 0, f"click on the surface's New is delivered ({error(env)})")
    try:
        x_title = wait_for("a second document's title", lambda: next(
            (t for t in x_client_titles() if t.startswith("Untitled 2")), None))
    except atspi_probe.ProbeError:
        x_title = None
    check.expect(x_title is not None, f"the X server shows the new document ({x_client_titles()})")
    check.expect(wait_for_surface("mousepad", present=False), "the menu is no longer listed once closed")
    rc, env = cli("wait", "--app", "mousepad", "--menu", "--timeout", "500")
    check.expect(rc != 0 and error(env).get("code") == "TIMEOUT" and
                 "surfaces_open" in error(env).get("details", {}).get("last_seen", {}),
                 f"wait --menu with no menu open ends in TIMEOUT, saying what it saw ({error(env)})")


def main():
    check = Checker("gtk3")
    daemon = Daemon()
    daemon.start()
    try:
        rc, env = cli("settings", "set", "physical_input", "true")
        check.expect(rc == 0, f"physical input is allowed for the key presses ({error(env)})")
        check_mousepad(check)
        with tempfile.TemporaryDirectory() as tmp:
            check_fixture_dialog(check, tmp, FIXTURE)
    finally:
        daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
