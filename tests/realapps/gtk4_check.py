#!/usr/bin/env python3
"""GTK 4 (GNOME Calculator) observed and acted on, judged from outside the tool.

`apps` names its desktop entry although its AT-SPI name ("gnome-calculator") is not the
entry's id (org.gnome.Calculator.desktop): matched by its executable. The snapshot reads
the window (GetItems lists a fraction on GTK 4: the rest is walked); 7 + 8 = clicked by
ref shows 15 on the display as an independent AT-SPI walk reads it; a stopped app
(SIGSTOP) answers APP_UNRESPONSIVE within the deadline. Runs inside
scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import os
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from real_app import (Daemon, RealApp, check_fixture_dialog, check_stopped_app, cli, data,  # noqa: E402
                      error, outcome, wait_until_displays)
from checks import Checker  # noqa: E402
from daemon_cli import BUILD  # noqa: E402

APP = "gnome-calculator"
FIXTURE_GTK4 = os.path.join(BUILD, "tests", "fixtures", "companyos-fixture-gtk4")


def main():
    check = Checker("gtk4")
    daemon = Daemon()
    daemon.start()
    try:
        with RealApp(APP, [APP]) as app:
            rc, env = cli("apps")
            entry = {a["name"]: a.get("desktop_entry") for a in data(env).get("apps", [])}.get(APP)
            check.expect(entry == "org.gnome.Calculator.desktop",
                         f"apps names the desktop entry by the executable ({entry})")
            snap, nodes = app.snapshot()
            check.expect(snap["node_count"] > 50, f"the window is read ({snap['node_count']} nodes)")
            buttons = {n["name"]: n for n in nodes if n["role"] == "push button"}
            # GTK 4.8 names the buttons "7 7" (the .ui's label joined to the label child's
            # text): shown once, as the label child has it.
            repeated = [n["name"] for n in nodes if n["role"] == "push button" and
                        len(n["name"]) >= 3 and n["name"][:len(n["name"]) // 2] ==
                        n["name"][len(n["name"]) // 2 + 1:]]
            check.expect(not repeated and all(k in buttons for k in ("7", "8", "+", "=", "mod")),
                         f"button names are shown once ({repeated[:5]}, {sorted(buttons)[:12]})")
            seven = buttons.get("7", {})
            check.expect([c["name"] for c in seven.get("children", [])] == ["7"],
                         f"the button named 7 holds the label 7 ({seven.get('children')})")
            rc, env = cli("find", "--app", APP, "--role", "push button", "--name", "7")
            check.expect(rc == 0 and data(env).get("count") == 1, f"find --name 7 finds the button ({error(env)})")
            _, interactive = app.snapshot("-i")
            kept_labels = [n for n in interactive if n["role"] == "label"]
            kept_buttons = [n for n in interactive if n["role"] == "push button"]
            all_buttons = [n for n in nodes if n["role"] == "push button"]
            check.expect(not kept_labels and len(kept_buttons) == len(all_buttons),
                         f"-i keeps every button ({len(kept_buttons)} of {len(all_buttons)}) and no label "
                         f"whose only actions are GTK 4's text actions ({len(kept_labels)} kept)")
            for key in ("7", "+", "8", "="):
                if key not in buttons:
                    check.expect(False, f"button {key!r} is in the snapshot")
                    continue
                rc, env = cli("click", buttons[key]["ref"])
                check.expect(rc == 0, f"click {key} ({outcome(env)}, {error(env)})")
            check.expect(wait_until_displays(app, "15"), "an independent read finds 15 on the display")
            rc, env = cli("click", "--app", APP, "--role", "push button", "--name", "mod")
            check.expect(rc == 0, f"a click by the name shown once is delivered ({error(env)})")
            check.expect(wait_until_displays(app, "mod"), "an independent read finds mod on the display")

            check_stopped_app(check, app)
        # GTK 4's dialog: the fixture's "Open dialog…" presents it after the click answers.
        rc, env = cli("settings", "set", "physical_input", "true")
        check.expect(rc == 0, f"physical input is allowed for the key press ({error(env)})")
        with tempfile.TemporaryDirectory() as tmp:
            check_fixture_dialog(check, tmp, FIXTURE_GTK4)
    finally:
        daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
