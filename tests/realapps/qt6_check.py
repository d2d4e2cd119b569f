#!/usr/bin/env python3
"""Qt 6 (Tetzle, Qt 6.4) observed and acted on, judged from outside the tool.

Qt 6.4 connects to the bus AT_SPI_BUS_ADDRESS names but never registers with it, so it is
started without that variable and finds the bus through the session bus (org.a11y.Bus),
as on a user's desktop. Tetzle opens a "Choose Game" dialog: the snapshot reads it, its two
"Cancel" buttons are marked twins, a value outside the zoom slider's range is refused
and one inside it verified, as an independent AT-SPI read finds, the "Untagged" tag selected (verified,
and so an independent read finds it), the "Current Games" tab pressed by ref is
selected as an independent read finds it, and a stopped app answers APP_UNRESPONSIVE.
Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from real_app import Daemon, RealApp, check_stopped_app, atspi_probe, cli, data, error, one, outcome, wait_for  # noqa: E402
from checks import Checker  # noqa: E402

APP = "Tetzle"
DIALOG = "Choose Game"


class Tetzle(RealApp):
    def window(self):
        rc, env = cli("windows", "--app", APP)
        windows = data(env).get("windows", []) if rc == 0 else []
        return next((w for w in windows if w["title"] == DIALOG), None)


def main():
    check = Checker("qt6")
    daemon = Daemon()
    daemon.start()
    env = {k: v for k, v in os.environ.items() if k != "AT_SPI_BUS_ADDRESS"}
    try:
        app = Tetzle(APP, ["/usr/games/tetzle"])
        app.env = env
        with app:
            snap, nodes = app.snapshot("--title", DIALOG)
            check.expect(snap["node_count"] > 15, f"the dialog is read ({snap['node_count']} nodes)")
            cancels = [n for n in nodes if n["role"] == "push button" and n["name"] == "Cancel"]
            check.expect(len(cancels) == 2 and all(n.get("twin") for n in cancels),
                         f"its two Cancel buttons are marked twins ({[n.get('twin') for n in cancels]})")
            rc, env_ = cli("click", cancels[0]["ref"]) if cancels else (1, None)
            check.expect(rc != 0 and error(env_).get("code") == "AMBIGUOUS_TARGET",
                         f"a click on a twin is refused ({error(env_).get('code')})")

            bus = atspi_probe.a11y_bus()
            bus_name = app.bus_name(bus)
            (windows,) = bus.call(bus_name, atspi_probe.ROOT_PATH,
                                  "org.a11y.atspi.Accessible.GetChildren")
            dialogs = [path for _, path in windows
                       if bus.get_property(bus_name, path, "org.a11y.atspi.Accessible", "Name") == DIALOG]
            walked = (atspi_probe.walk(bus, bus_name, path=dialogs[0], max_depth=20,
                                       one_property_at_a_time=True, skip_vanished=True)
                      if len(dialogs) == 1 else [])
            check.expect(len(dialogs) == 1, f"an independent read finds the dialog ({len(dialogs)})")

            # The zoom slider's range is 1 to 1 with no image yet: the range is read from the
            # app, a value outside it refused, and the app's own value unchanged.
            slider = one(nodes, "slider", role="slider")
            rc, env_ = cli("set-value", slider["ref"], "3")
            details = error(env_).get("details", {})
            check.expect(rc != 0 and details.get("reason") == "out_of_range"
                         and details.get("delivery") == "not_delivered",
                         f"set-value 3 outside the slider's range is refused ({details.get('reason')}, "
                         f"range {details.get('minimum')}..{details.get('maximum')})")
            rc, env_ = cli("set-value", slider["ref"], "1")
            check.expect(rc == 0 and outcome(env_) == "delivered_verified",
                         f"set-value 1 on the slider is verified ({outcome(env_)}, {error(env_)})")
            sliders = [n for n in walked if n.role == "slider"]
            value = (bus.get_property(bus_name, sliders[0].path, "org.a11y.atspi.Value",
                                      "CurrentValue") if len(sliders) == 1 else None)
            check.expect(value == 1, f"an independent read finds the slider at 1 ({value})")

            # The image tags are list items with a Toggle action: select picks Untagged,
            # verified, and an independent read finds it selected.
            untagged = one(nodes, "the Untagged tag", role="list item", name="Untagged")
            rc, env_ = cli("select", untagged["ref"])
            check.expect(rc == 0 and outcome(env_) == "delivered_verified",
                         f"select of Untagged is verified ({outcome(env_)}, {data(env_).get('route')}, {error(env_)})")
            items = [n for n in walked if n.role == "list item" and n.name == "Untagged"]
            try:
                picked = wait_for("Untagged selected", lambda: len(items) == 1 and
                                  "selected" in atspi_probe.states(bus, items[0]))
            except atspi_probe.ProbeError:
                picked = False
            check.expect(bool(picked), "an independent read finds Untagged selected")

            tab = one(nodes, "Current Games", role="page tab", name="Current Games")
            rc, env_ = cli("click", tab["ref"])
            check.expect(rc == 0, f"the Current Games tab is pressed ({outcome(env_)}, {error(env_)})")
            tabs = [n for n in walked if n.role == "page tab" and n.name == "Current Games"]
            try:
                selected = wait_for("the tab selected", lambda: len(tabs) == 1 and (
                    {"selected", "focused"} & atspi_probe.states(bus, tabs[0])))
            except atspi_probe.ProbeError:
                selected = False
            check.expect(bool(selected), "an independent read finds the tab selected")
            check.expect(app.alive(), "Tetzle is alive after the reads and actions")

            check_stopped_app(check, app, "--title", DIALOG)
    finally:
        daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
