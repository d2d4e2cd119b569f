#!/usr/bin/env python3
"""LibreOffice Calc through `companyos mcp` alone: on a sheet fuller than a screen, put a
formula in D2 (price × count) and a note in Z500, far off screen, by the sheet's number and
cell addresses; read D2's value and formula and a range back by address; save with the
tool bar's Save button, listed in its row of buttons (6 calls, at most 8). Judged from outside: the saved .ods's content.xml holds the formula,
its value and the note. Every state an agent is handed stays within 6,000 characters — the
sheet's rows take what the window's other lines leave and the rest are counted — and each
action's returned state already shows its effect.

Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "realapps"))
sys.path.insert(0, os.path.join(HERE, "..", "desktop", "mcp"))
from agent_task import AgentCalls, daemon_for_agent, wait_for_content  # noqa: E402
from calc_check import content_xml, ods_from  # noqa: E402
from real_app import RealApp, wait_for  # noqa: E402
from checks import Checker  # noqa: E402
from mcp_session import McpSession, text_of  # noqa: E402

APP = "soffice"
ROWS = 80          # more than a screen holds
NOTE_COLUMNS = 12  # E..P, each cell a short note: a screen full of text
NOTE = "checked by an agent"


def cell(text=None, number=None):
    if number is not None:
        return (f'<table:table-cell office:value-type="float" office:value="{number}">'
                f"<text:p>{number}</text:p></table:table-cell>")
    return f'<table:table-cell office:value-type="string"><text:p>{text}</text:p></table:table-cell>'


def stock_sheet(path):
    """A flat .fods: row 1 headers Item, Price, Count, Total, notes; rows 2..ROWS an item, its
    price and count, D empty, then NOTE_COLUMNS notes."""
    header = [cell("Item"), cell("Price"), cell("Count"), cell("Total")] + \
        [cell(f"Note {c}") for c in range(NOTE_COLUMNS)]
    rows = ["<table:table-row>" + "".join(header) + "</table:table-row>"]
    for r in range(2, ROWS + 1):
        items = [cell(f"item {r}"), cell(number=r % 7 + 1), cell(number=r % 5 + 2), "<table:table-cell/>"]
        items += [cell(f"row {r} note {c}") for c in range(NOTE_COLUMNS)]
        rows.append("<table:table-row>" + "".join(items) + "</table:table-row>")
    with open(path, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
                'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
                'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3" '
                'office:mimetype="application/vnd.oasis.opendocument.spreadsheet">'
                '<office:body><office:spreadsheet><table:table table:name="Stock">' + "".join(rows) +
                "</table:table></office:spreadsheet></office:body></office:document>\n")


def sheet_number(state_text):
    numbers = re.findall(r'^\s*e(\d+) table "Sheet Stock"', state_text, re.MULTILINE)
    return int(numbers[0]) if len(numbers) == 1 else None


def renumbered(state_text, number):
    """The number element NUMBER of the state acted on has in an answer given as changes
    ("= e16-e43 unchanged, were e13-e40", "=   e16 unchanged, was e13"), or NUMBER when
    no such line moved it."""
    for m in re.finditer(r"^\s*=\s+e(\d+)(?:-e\d+)? unchanged, (?:was|were) e(\d+)(?:-e(\d+))?", state_text, re.MULTILINE):
        now, was_first = int(m.group(1)), int(m.group(2))
        was_last = int(m.group(3) or m.group(2))
        if was_first <= number <= was_last:
            return now + number - was_first
    return number


def tool_bar_button(state_text, name):
    """N of the button NAME in a tool bar's row ("push buttons: e5 \"New\" | e7 \"Save\""),
    or None when not exactly one."""
    found = [int(m.group(1)) for line in state_text.splitlines() if line.strip().startswith("push buttons: ")
             for m in re.finditer(r'\be(\d+) "' + re.escape(name) + '"', line)]
    return found[0] if len(found) == 1 else None


def main():
    check = Checker("agent-calc")
    with daemon_for_agent(physical_input=False), tempfile.TemporaryDirectory() as tmp:
        flat, sheet = os.path.join(tmp, "stock.fods"), os.path.join(tmp, "stock.ods")
        stock_sheet(flat)
        ods_from(flat, sheet)
        argv = ["soffice", "--calc", "--norestore", "--nologo", "--nodefault",
                "-env:UserInstallation=file://" + os.path.join(tmp, "profile"), sheet]
        with RealApp(APP, argv, env={"SAL_USE_VCLPLUGIN": "gtk3"}):
            s = McpSession()
            s.initialize()
            call = AgentCalls(s, APP)

            # Calc lists its window before the sheet is in: the look that counts is the first
            # one showing the sheet's rows.
            state = wait_for("the sheet's rows", lambda: (lambda t: t if "row 1: A1" in t else None)(
                text_of(s.call("get_app_state", {"app": APP, "screenshot": False}))), timeout=60, interval=1)
            call.count += 1
            call.sent += len(state)
            call.whole += len(state)
            print(f"  the first view: {len(state)} characters", flush=True)
            check.expect(len(state) <= 6000, f"the first view is at most 6,000 characters ({len(state)})")
            table_line = next((line for line in state.splitlines() if 'table "Sheet Stock"' in line), "")
            check.expect(re.search(r"rows 1–\d+ of 1,048,576, columns A–[A-Z]+ of 16,384 shown", table_line),
                         f"the sheet's line says what is shown of how much ({table_line.strip()})")
            check.expect(re.search(r'^\s+row 1: A1 "Item" \| B1 "Price" \| C1 "Count" \| D1 "Total" \| E1 "Note 0"',
                                   state, re.MULTILINE) is not None,
                         "one line per row, its cells by address and what they show")
            check.expect(re.search(r"\(\+\d+ more rows with content; read or set any cell by its address\)", state),
                         "the rows the view leaves out are counted")
            table = sheet_number(state)
            check.expect(table is not None, f"the state lists the sheet once (e{table})")
            if table is None:
                print(state, flush=True)
                return check.summary()

            state = call("set_value", {"element": table, "cell": "D2", "value": "=B2*C2"})
            first = state.splitlines()[0] if state else ""
            check.expect(first.startswith("Done (set_value), and read back."),
                         f"set_value enters the formula in D2, read back ({first})")
            check.expect(re.search(r'^\s+row 2: A2 "item 2" \| B2 "3" \| C2 "4" \| D2 "12"', state, re.MULTILINE),
                         "the returned state already shows D2's value, 12")
            check.expect(len(state) <= 6000, f"that state is at most 6,000 characters ({len(state)})")
            if len(state) > 6000:
                print(state, flush=True)

            # Element numbers belong to the newest state: the one the action answered with,
            # renumbered when Calc's tool bars came back with more or fewer buttons.
            table = sheet_number(state) or renumbered(state, table)
            state = call("set_value", {"element": table, "cell": "Z500", "value": NOTE})
            first = state.splitlines()[0] if state else ""
            check.expect(first.startswith("Done (set_value), and read back."),
                         f"set_value writes Z500, far off screen, read back ({first})")

            answer = call("get_app_state", {"cells": "d2"})
            check.expect(answer == 'Cell D2 shows "12"; formula "=B2*C2".\n',
                         f"get_app_state with a cell reads its value and formula ({answer.strip()})")
            answer = call("get_app_state", {"cells": "A1:D3"})
            check.expect(answer.startswith("Cells A1:D3 (empty cells left out):\n") and
                         'row 2: A2 "item 2" | B2 "3" | C2 "4" | D2 "12"' in answer and
                         'row 3: A3 "item 3" | B3 "4" | C3 "5"\n' in answer,
                         f"and a range as rows ({answer!r})")

            save = tool_bar_button(state, "Save")
            check.expect(save is not None, f"the Standard tool bar's row lists Save (e{save})")
            if save is None:
                return check.summary()
            state = call("click", {"element": save})
            first = state.splitlines()[0] if state else ""
            check.expect(not first.startswith("Nothing was done"), f"Save is pressed ({first})")
            check.expect(call.count <= 8, f"the task took {call.count} calls (at most 8)")
            call.report("calc")
            content = wait_for_content("the saved sheet", lambda: content_xml(sheet),
                                       lambda text: NOTE in text)
            check.expect('table:formula="of:=[.B2]*[.C2]"' in content and 'office:value="12"' in content,
                         "the saved .ods holds D2's formula and its value")
            check.expect(NOTE in content, "and the note in Z500")
            check.expect(s.close() == 0 and not s.stray, "the server ends cleanly at EOF")
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
