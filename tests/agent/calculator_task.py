#!/usr/bin/env python3
"""GNOME Calculator through `companyos mcp` alone: 12 × 34 − 5 = 403 in its shortest
sequence — one look, then a click per key (9 calls), its view at most 3,000 characters. After every click the state the tool
returns must already show that click's effect in the display (it used to be one step
behind: GTK 4 runs a button's "clicked" 250 ms after answering the action), and at the end
an independent AT-SPI read of the calculator finds 403. Runs inside scripts/desktop-session
(COMPANYOS_BUILD_DIR set by CTest)."""

import os
import re
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "realapps"))
sys.path.insert(0, os.path.join(HERE, "..", "desktop", "mcp"))
from real_app import Daemon, RealApp, atspi_probe, wait_for  # noqa: E402
from checks import Checker  # noqa: E402
from mcp_session import McpSession, element_number  # noqa: E402
from agent_task import AgentCalls  # noqa: E402

APP = "gnome-calculator"
# Each key, and what the display shows once the calculator has taken it.
KEYS = [("1", "1"), ("2", "12"), ("×", "12×"), ("3", "12×3"), ("4", "12×34"), ("−", "12×34−"),
        ("5", "12×34−5"), ("=", "403")]


def displayed(state_text):
    """Every value="…" of a text element in the state: the display is one of them."""
    return [m.group(1) for line in state_text.splitlines() if " text" in line
            for m in [re.search(r'value="([^"]*)"', line)] if m]


def independent_values(bus, app):
    """The text of every text element of the calculator, read live without the tool."""
    bus_name, _ = atspi_probe.wait_for_app(bus, app)
    values = []
    for node in atspi_probe.walk(bus, bus_name, max_depth=30, skip_vanished=True):
        if node.role == "text":
            try:
                values.append(atspi_probe.get_text(bus, node))
            except atspi_probe.ProbeError:
                pass
    return values


def main():
    check = Checker("agent-calculator")
    daemon = Daemon()
    daemon.start()
    try:
        with RealApp(APP, [APP]):
            s = McpSession()
            s.initialize()
            call = AgentCalls(s, APP)
            state = call("get_app_state", {"screenshot": False})
            print(f"  the first view: {len(state)} characters", flush=True)
            check.expect(len(state) <= 3000, f"the view is at most 3,000 characters ({len(state)})")
            check.expect("GtkSourceView" not in state and "AdwGizmo" not in state,
                         "a toolkit class name is not shown as a name")
            for key, shown in KEYS:
                number = element_number(state, "push button", key)
                check.expect(number is not None, f"the state lists the {key} button once")
                if number is None:
                    break
                state = call("click", {"element": number})
                values = displayed(state)
                check.expect(shown in values,
                             f"after {key}, the returned state already shows {shown!r} ({values})")
            check.expect(call.count == 9, f"the task took {call.count} calls")
            call.report("calculator")
            bus = atspi_probe.a11y_bus()
            try:
                found = wait_for("403 in the calculator", lambda: "403" in independent_values(bus, APP) or None)
            except atspi_probe.ProbeError:
                found = False
            check.expect(found is True, "an independent read finds 403 in the calculator")
    finally:
        daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
