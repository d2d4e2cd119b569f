#!/usr/bin/env python3
"""An agent's task on mousepad through `companyos mcp` only, every claim judged from outside
the tool: look (get_app_state), set the editor's text (set_value, read back), click the File
menu and read the new state (its items now listed), close it and save with a keypress
(physical input on) — the file on disk holds exactly the text. The test itself only turns
physical input on (a person's setting) and reads the file. Runs inside
scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import os
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "desktop", "mcp"))
from real_app import Daemon, RealApp, atspi_probe, cli, wait_for  # noqa: E402
from checks import Checker  # noqa: E402
from mcp_session import McpSession, element_number, text_of, view_of  # noqa: E402

TEXT = "Written by an agent through MCP — ✓"


def first_line(reply):
    return text_of(reply).split("\n", 1)[0]


def editor_number(state_text):
    found = [line.strip().split(" ", 1)[0][1:] for line in state_text.splitlines()
             if line.strip().startswith("e") and " text " in f" {line.strip()} " and "multi-line" in line]
    return int(found[0]) if len(found) == 1 else None


def main():
    check = Checker("mcp-mousepad")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "note.txt")
        daemon = Daemon()
        daemon.start()
        try:
            cli("settings", "set", "physical_input", "true")
            with RealApp("mousepad", ["mousepad", "--disable-server", path]):
                cli("focus-window", "--app", "mousepad")
                s = McpSession()
                s.initialize()
                state = s.call("get_app_state", {"app": "mousepad"})
                text = text_of(state)
                editor = editor_number(text)
                check.expect(editor is not None and "(closed, " in text,
                             f"the state lists the editor (e{editor}) and folds the closed menus")
                set_reply = s.call("set_value", {"app": "mousepad", "element": editor, "value": TEXT})
                check.expect(first_line(set_reply) == "Done (set_value), and read back.",
                             f"set_value on the editor is read back ({first_line(set_reply)})")

                file_menu = element_number(view_of(set_reply), "menu", "File")
                clicked = s.call("click", {"app": "mousepad", "element": file_menu})
                check.expect(first_line(clicked).startswith("The element's own action ran (click)"),
                             f"click File says the action ran ({first_line(clicked)})")
                try:
                    items = wait_for("File's items in a new state", lambda: (lambda t: t if "menu item \"Save" in t
                                                                              else None)(text_of(
                        s.call("get_app_state", {"app": "mousepad", "screenshot": False}))))
                except atspi_probe.ProbeError:
                    items = ""
                check.expect("menu item \"Save" in items, "after the click, the state lists File's items")
                escape = s.call("keypress", {"app": "mousepad", "keys": ["Escape"]})
                check.expect(first_line(escape) == "Input was posted (keypress Escape); nothing confirmed the effect.",
                             "Escape is posted, unconfirmed")
                saved = s.call("keypress", {"app": "mousepad", "keys": ["cmdorctrl", "s"]})
                check.expect(first_line(saved) == "Input was posted (keypress ctrl+s); nothing confirmed the effect.",
                             f"ctrl+s is posted, unconfirmed ({first_line(saved)})")

                def saved_text():
                    try:
                        with open(path, encoding="utf-8") as f:
                            content = f.read()
                    except FileNotFoundError:
                        return None
                    return content if content.rstrip("\n") == TEXT else None
                try:
                    wait_for("the saved file", saved_text)
                    on_disk = True
                except atspi_probe.ProbeError:
                    on_disk = False
                check.expect(on_disk, "the file on disk holds exactly the text set")
                check.expect(s.close() == 0 and not s.stray, "the server ends cleanly at EOF")
        finally:
            cli("settings", "set", "physical_input", "false")
            daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
