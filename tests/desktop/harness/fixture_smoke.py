#!/usr/bin/env python3
"""Runs inside scripts/desktop-session: starts each fixture app given on the command line,
waits until it is on the AT-SPI registry under its --class name, sets the entry's text
through EditableText.SetTextContents, clicks "Write effect" through Action.DoAction and
checks the bytes of the effect file. The other controls are driven the same way where the
toolkit exposes an action for them.

Usage: fixture_smoke.py FIXTURE_EXECUTABLE...   (companyos-fixture-gtk3, -gtk4)
"""

import os
import subprocess
import sys

# The helper modules sit beside this script; keep their bytecode out of the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import atspi_probe  # noqa: E402
from checks import Checker  # noqa: E402
from fixture_app import FixtureApp, unique_name  # noqa: E402

TEXT = "smoke ✓ 'quoted' \"double\" $HOME"


def window_class():
    """WM_CLASS of the most recently managed client window, read from X11."""
    clients = subprocess.run(["xprop", "-root", "_NET_CLIENT_LIST"], capture_output=True,
                             text=True).stdout
    window = clients.rsplit("#", 1)[-1].strip()
    return subprocess.run(["xprop", "-id", window, "WM_CLASS"], capture_output=True,
                          text=True).stdout.strip()


def set_value(app, node, value):
    app.bus.call(node.bus_name, node.path, "org.freedesktop.DBus.Properties.Set",
                 "org.a11y.atspi.Value", "CurrentValue", f"<{float(value)}>")


def check_text_and_button(check, app, nodes):
    entry = atspi_probe.find_one(nodes, "text", "Text")
    button = atspi_probe.find_one(nodes, "push button", "Write effect")
    check.expect(bool(atspi_probe.find(nodes, "password text", "Password")),
                 "password entry has the password text role")
    check.expect(atspi_probe.set_text(app.bus, entry, TEXT), "SetTextContents accepted")
    check.expect(atspi_probe.get_text(app.bus, entry) == TEXT, "entry text reads back")
    check.expect(atspi_probe.do_named_action(app.bus, button, "click"), "click accepted")
    check.expect(app.wait_for_effect("", TEXT.encode()), "effect file holds the entry text")
    siblings = sorted(name for name in os.listdir(os.path.dirname(app.effect_path)))
    check.expect(siblings == ["effect"], f"atomic write left no temp file {siblings}")


def check_gtk3_controls(check, app, nodes):
    entry = atspi_probe.find_one(nodes, "text", "Text")
    button = atspi_probe.find_one(nodes, "push button", "Write effect")
    check.expect((entry.accessible_id, button.accessible_id) == ("text-entry", "write-effect"),
                 "accessible ids exposed as AccessibleId")
    feature = atspi_probe.find_one(nodes, "check box", "Enable feature")
    atspi_probe.do_named_action(app.bus, feature, "click")
    check.expect(app.wait_for_effect(".check", b"1"), "check box click writes .check = 1")

    color = atspi_probe.find_one(nodes, "combo box", "Color")
    app.bus.call(color.bus_name, color.path, "org.a11y.atspi.Selection.SelectChild", "1")
    check.expect(app.wait_for_effect(".combo", b"Green"), "combo selection writes .combo")

    parent = atspi_probe.find_one(nodes, "table cell", "Parent")
    atspi_probe.do_named_action(app.bus, parent, "expand or contract")
    check.expect(app.wait_for_effect(".tree", b"1"), "tree expansion writes .tree = 1")

    set_value(app, atspi_probe.find_one(nodes, "spin button", "Level"), 7)
    check.expect(app.wait_for_effect(".value", b"7"), "Level value writes .value = 7")


def check_gtk4_controls(check, app, nodes):
    # GTK 4.8 exposes no AT-SPI action on check buttons and no Selection on GtkDropDown,
    # so .check and .combo cannot be driven through AT-SPI here.
    parent = atspi_probe.find_one(nodes, "panel", "Parent")
    atspi_probe.do_named_action(app.bus, parent, "listitem.expand")
    check.expect(app.wait_for_effect(".tree", b"1"), "tree expansion writes .tree = 1")

    set_value(app, atspi_probe.find_one(nodes, "spin button", "Level"), 7)
    check.expect(app.wait_for_effect(".value", b"7"), "Level value writes .value = 7")


def smoke(executable):
    toolkit = "gtk4" if executable.endswith("gtk4") else "gtk3"
    check = Checker(toolkit)
    effect_dir = os.path.join(os.environ["COMPANYOS_DESKTOP_DIR"], f"smoke-{toolkit}")
    os.makedirs(effect_dir)
    app_name = unique_name("SmokeFixture")
    try:
        with FixtureApp(executable, app_name, os.path.join(effect_dir, "effect"),
                        "--title", f"Smoke {toolkit}") as app:
            check.expect(app.banner == f"pid={app.process.pid} title=Smoke {toolkit}",
                         f"prints its pid and title ({app.banner!r})")
            check.expect(True, f"on the AT-SPI registry as {app_name!r}")
            # The registry can list the app before the window manager has managed its
            # window (seen under ASan), so the class is judged once the window is listed.
            expected_class = f'WM_CLASS(STRING) = "{app_name}", "{app_name}"'
            try:
                atspi_probe.wait_for("the window manager lists the window", 30,
                                     lambda: window_class() == expected_class)
            except atspi_probe.ProbeError:
                pass
            check.expect(window_class() == expected_class,
                         f"WM_CLASS is the --class name ({window_class()!r})")
            nodes = app.nodes()
            check_text_and_button(check, app, nodes)
            if toolkit == "gtk3":
                check_gtk3_controls(check, app, nodes)
            else:
                check_gtk4_controls(check, app, nodes)
    except atspi_probe.ProbeError as error:
        check.expect(False, str(error))
    return check.failures


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    overall = Checker()
    overall.failures = sum(smoke(executable) for executable in sys.argv[1:])
    return overall.summary()


if __name__ == "__main__":
    sys.exit(main())
