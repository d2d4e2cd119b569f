#!/usr/bin/env python3
"""A text editor through `companyos mcp` alone: replace a file's text with two lines and
save it, in its shortest sequence — one look, set_value on the editor, ctrl+s (3 calls).
Judged from outside: the file's bytes on disk. Each action's returned state must already
show its effect (the editor's new text; after the save, the title without the unsaved
mark "*"), the first view must be at most 6,000 characters, and it must lose no showing
actionable element an independent AT-SPI walk finds. The person switches physical input
on (ctrl+s is a key); the test reads the file.

Usage: editor_task.py mousepad|featherpad   (inside scripts/desktop-session)"""

import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "realapps"))
sys.path.insert(0, os.path.join(HERE, "..", "desktop", "mcp"))
from agent_task import AgentCalls, daemon_for_agent, title_of, wait_for_content  # noqa: E402
from real_app import RealApp, atspi_probe  # noqa: E402
from fixture_app import read_text  # noqa: E402
from checks import Checker  # noqa: E402
from mcp_session import McpSession  # noqa: E402
from view_check import missing_from_view, showing_actionable  # noqa: E402

EDITORS = {
    # app name as listed, and how it is started on a file
    "mousepad": ["mousepad", "--disable-server"],
    "featherpad": ["featherpad"],
}
OLD = "the old text\n"
NEW = "first line — ✓\nsecond line"
VIEW_LIMIT = 6000


def editor_number(state_text):
    found = [int(line.strip().split(" ", 1)[0][1:]) for line in state_text.splitlines()
             if re.match(r"\s*e\d+ text \[", line) and "multi-line" in line]
    return found[0] if len(found) == 1 else None


def editor_value(state_text, number):
    line = next((line for line in state_text.splitlines() if line.strip().startswith(f"e{number} ")), "")
    match = re.search(r' value="((?:[^"\\]|\\.)*)"', line)
    return match.group(1).replace("\\n", "\n") if match else None


def main():
    app = sys.argv[1] if len(sys.argv) == 2 else ""
    if app not in EDITORS:
        print(__doc__, file=sys.stderr)
        return 2
    check = Checker(f"agent-{app}")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "note.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write(OLD)
        with daemon_for_agent(), RealApp(app, EDITORS[app] + [path]):
            s = McpSession()
            s.initialize()
            call = AgentCalls(s, app)
            state = call("get_app_state", {"screenshot": False})
            print(f"  the first view: {len(state)} characters", flush=True)
            check.expect(len(state) <= VIEW_LIMIT, f"the view is at most 6,000 characters ({len(state)})")
            elements = showing_actionable(atspi_probe.a11y_bus(), app)
            lost = missing_from_view(state, elements)
            check.expect(elements and not lost,
                         f"it shows every one of the {len(elements)} showing actionable elements "
                         f"an independent walk finds (missing: {lost})")
            editor = editor_number(state)
            check.expect(editor is not None, f"the state lists one multi-line editor (e{editor})")
            if editor is None:
                return check.summary()

            state = call("set_value", {"element": editor, "value": NEW})
            check.expect(state.splitlines()[0] == "Done (set_value), and read back.",
                         f"set_value is read back ({state.splitlines()[0]})")
            shown = editor_value(state, editor)
            check.expect(shown is not None and shown.rstrip("\n") == NEW,
                         f"the returned state already shows the new text ({shown!r})")
            check.expect((title_of(state) or "").startswith("*"),
                         f"and the title marks it unsaved ({title_of(state)!r})")

            state = call("keypress", {"keys": ["cmdorctrl", "s"]})
            title = title_of(state)
            check.expect(title is not None and not title.startswith("*"),
                         f"after ctrl+s the returned state already shows it saved ({title!r})")
            saved = wait_for_content("the saved file", lambda: read_text(path), lambda text: text.rstrip("\n") == NEW)
            check.expect(saved is not None and saved.rstrip("\n") == NEW, f"the file holds exactly the new text ({saved!r})")
            check.expect(s.close() == 0 and not s.stray, "the server ends cleanly at EOF")
            check.expect(call.count == 3, f"the task took {call.count} calls")
            call.report(app)
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
