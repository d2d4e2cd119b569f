#!/usr/bin/env python3
"""LibreOffice Writer through `companyos mcp` alone: type a sentence into a new document
and save it under a path with Save As, in its shortest sequence — one look, type,
ctrl+shift+s, set_value on the dialog's name field (within the element its line names:
the field is a twin), click Save (5 calls, at most 7). Judged from outside: the saved
.odt's content.xml holds the sentence. After every action the returned state must
already show its effect: the sentence in the paragraph, the Save dialog (a window the
action opened, said so), the path in the field, the document window titled by the file.

Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import os
import re
import sys
import tempfile
import zipfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "realapps"))
sys.path.insert(0, os.path.join(HERE, "..", "desktop", "mcp"))
from agent_task import AgentCalls, daemon_for_agent, title_of, wait_for_content  # noqa: E402
from real_app import RealApp, wait_for  # noqa: E402
from checks import Checker  # noqa: E402
from mcp_session import McpSession, text_of  # noqa: E402

APP = "soffice"
SENTENCE = "An agent wrote this sentence."


def name_field(state_text):
    """(N, within) of the dialog's one editable single-line text, its line's scope or None."""
    found = [line for line in state_text.splitlines() if re.match(r"\s*e\d+ text \[[^\]]*editable", line)
             and "single-line" in line]
    if len(found) != 1:
        return None, None
    number = int(found[0].strip().split(" ", 1)[0][1:])
    within = re.search(r" within e(\d+)", found[0])
    return number, int(within.group(1)) if within else None


def saved_content(path):
    try:
        with zipfile.ZipFile(path) as odt:
            return odt.read("content.xml").decode("utf-8")
    except (FileNotFoundError, zipfile.BadZipFile, KeyError):
        return None


def main():
    check = Checker("agent-writer")
    with daemon_for_agent(), tempfile.TemporaryDirectory() as tmp:
        target = os.path.join(tmp, "saved.odt")
        argv = ["soffice", "--writer", "--norestore", "--nologo",
                "-env:UserInstallation=file://" + os.path.join(tmp, "profile")]
        with RealApp(APP, argv, env={"SAL_USE_VCLPLUGIN": "gtk3"}):
            s = McpSession()
            s.initialize()
            call = AgentCalls(s, APP)

            # Writer lists its window before the document is in: the look that counts
            # is the first one showing the document's paragraph.
            state = wait_for("Writer's document", lambda: (lambda t: t if " paragraph " in t else None)(
                text_of(s.call("get_app_state", {"app": APP, "screenshot": False}))), timeout=60, interval=1)
            call.count += 1
            call.sent += len(state)
            call.whole += len(state)
            check.expect(len(state) <= 6000, f"the first view is at most 6,000 characters ({len(state)})")

            state = call("type", {"text": SENTENCE})
            check.expect(f'value="{SENTENCE}"' in state, "after type, the state shows the sentence in the paragraph")

            state = call("keypress", {"keys": ["cmdorctrl", "shift", "s"]})
            check.expect("A new window opened in front of" in state and title_of(state) == "Save",
                         f"after ctrl+shift+s, the state is the Save dialog's, said to be new ({title_of(state)!r})")
            number, within = name_field(state)
            check.expect(number is not None, f"the dialog lists one name field (e{number}, within e{within})")
            if number is None:
                print(state, flush=True)
                return check.summary()
            arguments = {"element": number, "value": target}
            if within is not None:
                arguments["within"] = within
            state = call("set_value", arguments)
            check.expect(state.startswith("Done (set_value), and read back.") and f'value="{target}"' in state,
                         f"set_value puts the path in the field, read back ({state.splitlines()[0]})")

            save = next((int(m.group(1)) for m in re.finditer(r'^\s*e(\d+) push button "Save"', state, re.M)), None)
            check.expect(save is not None, "the dialog lists its Save button")
            if save is None:
                return check.summary()
            state = call("click", {"element": save})
            check.expect((title_of(state) or "").startswith("saved.odt"),
                         f"after Save, the state is the document's, titled by its file ({title_of(state)!r})")
            check.expect(call.count <= 7, f"the task took {call.count} calls (at most 7)")
            call.report("writer")
            content = wait_for_content("the saved document", lambda: saved_content(target),
                                       lambda text: SENTENCE in text)
            check.expect(content is not None and SENTENCE in content,
                         "the saved .odt's content.xml holds the sentence")
            check.expect(s.close() == 0 and not s.stray, "the server ends cleanly at EOF")
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
