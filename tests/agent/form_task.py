#!/usr/bin/env python3
"""A web form through `companyos mcp` alone: type a name, choose a colour in a <select>,
tick a check box and press the button, in its shortest sequence — one look, set_value on
the name, set_value on the <select> with the option's label (the daemon opens Firefox's
list itself and picks its copy), perform_action check on the box, click the button (5
calls). Judged from outside: the page copies its form into its
title, which the X server shows (web_page.py). After every action the returned state must
already show its effect (the entry's value, the page's title saying Green, the box checked,
then the title saying it was clicked). The person switches physical input on
(set_value types on a web input).

Usage: form_task.py chromium|firefox   (inside scripts/desktop-session)"""

import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "realapps"))
sys.path.insert(0, os.path.join(HERE, "..", "desktop", "mcp"))
from agent_task import AgentCalls, daemon_for_agent, title_of, wait_for_content  # noqa: E402
from real_app import RealApp, wait_for, x_client_titles  # noqa: E402
from checks import Checker  # noqa: E402
from mcp_session import McpSession, element_number  # noqa: E402
from web_page import chromium_argv, firefox_argv, page_state, write_page  # noqa: E402

BROWSERS = {"chromium": ("Chromium", chromium_argv), "firefox": ("Firefox", firefox_argv)}


def line_of(state_text, role, name):
    """The state's line for the one element ROLE "NAME", or ''."""
    number = element_number(state_text, role, name)
    if number is None:
        return ""
    return next((line for line in state_text.splitlines() if line.strip().startswith(f"e{number} ")), "")


def states_of(line):
    match = re.search(r" \[([^\]]*)\]", line)
    return set(match.group(1).split(",")) if match else set()


def main():
    browser = sys.argv[1] if len(sys.argv) == 2 else ""
    if browser not in BROWSERS:
        print(__doc__, file=sys.stderr)
        return 2
    app, argv_for = BROWSERS[browser]
    check = Checker(f"agent-form-{browser}")
    with daemon_for_agent(), tempfile.TemporaryDirectory() as tmp, RealApp(app, argv_for(tmp, write_page(tmp))):
        wait_for("the page's title", lambda: any("form start" in t for t in x_client_titles()), timeout=30)
        s = McpSession()
        s.initialize()
        call = AgentCalls(s, app)

        state = call("get_app_state", {"screenshot": False})
        check.expect('push button "Go"' in state, "the first look holds the whole form")
        if 'push button "Go"' not in state:
            print(state, flush=True)
        steps = [
            ("set_value", "entry", "Name", {"value": "Ada"},
             lambda st: 'value="Ada"' in line_of(st, "entry", "Name"), "the entry's value is Ada"),
            ("set_value", "combo box", "Colour", {"value": "Green"},
             lambda st: '"colour":"Green"' in (title_of(st) or ""), "the page's title says Green"),
            ("perform_action", "check box", "Subscribe", {"action": "check"},
             lambda st: "checked" in states_of(line_of(st, "check box", "Subscribe")), "the box is checked"),
            ("click", "push button", "Go", {},
             lambda st: '"clicked":true' in (title_of(st) or ""), "the page's title says it was clicked"),
        ]
        for tool, role, name, extra, shows, effect in steps:
            number = element_number(state, role, name)
            check.expect(number is not None, f"the state lists {role} {name!r} once")
            if number is None:
                print(state, flush=True)
                break
            state = call(tool, dict({"element": number}, **extra))
            check.expect(shows(state), f"after {tool} on {name!r}, the returned state already shows {effect} "
                                       f"({state.splitlines()[0]})")
        check.expect(call.count <= 5, f"the task took {call.count} calls (at most 5)")
        call.report(f"form-{browser}")
        seen = wait_for_content("the page's own account of the form", page_state,
                                lambda state: state.get("clicked")) or {}
        check.expect((seen.get("name"), seen.get("colour"), seen.get("subscribe"), seen.get("clicked")) ==
                     ("Ada", "Green", True, True), f"the page saw the whole form filled and sent ({seen})")
        check.expect(s.close() == 0 and not s.stray, "the server ends cleanly at EOF")
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
