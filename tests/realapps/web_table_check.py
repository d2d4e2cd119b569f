#!/usr/bin/env python3
"""A web table of 10,000 rows × 3 columns in Firefox ESR and in Chromium, read by what is
on screen (issue: spreadsheets and big tables).

Both browsers' caches list every row and cell of such a table (40,000 records), and the
table says 10,001 rows × 3 columns. A snapshot must answer within its deadline with the
table's size and only the rows on screen, one line per row, each cell by address; an
independent read (Table.GetAccessibleAt through gdbus, never the tool) finds at row 2,
column A the text the snapshot put at A2, and on screen; a cell far below (C10001) is read
by address; the browser answers at once after.
Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import os
import re
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from real_app import Daemon, answers_independently, atspi_probe, cli, data, error, wait_for  # noqa: E402
from checks import Checker  # noqa: E402
from web_page import Browser, chromium_argv, firefox_argv  # noqa: E402

ROWS = 10_000
ROLE_TABLE = 55  # ATSPI_ROLE_TABLE
# A browser builds its tree of the page on the first ask: that read may take longer.
SNAPSHOT_TIMEOUT_MS = "5000"


def write_table_page(directory):
    body = "".join(f"<tr><td>item {i}</td><td>{i * 3}</td><td>note {i}</td></tr>" for i in range(1, ROWS + 1))
    path = os.path.join(directory, "table.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write("<!doctype html><html><head><meta charset=\"utf-8\"><title>stock table</title></head><body>"
                "<h1>Stock</h1><table><thead><tr><th>Item</th><th>Count</th><th>Note</th></tr></thead>"
                f"<tbody>{body}</tbody></table></body></html>")
    return "file://" + path


def the_table(browser):
    """(snapshot data, the table node, its cells) once the page's table is read."""
    def read():
        try:
            snap, nodes = browser.snapshot("--timeout", SNAPSHOT_TIMEOUT_MS, "--loaded")
        except atspi_probe.ProbeError:
            return None
        tables = [n for n in nodes if n["role"] == "table" and n.get("shown", {}).get("row_count")]
        if len(tables) != 1:
            return None
        return snap, tables[0], [n for n in nodes if n.get("cell")]
    return wait_for("the table read by what it shows", read, timeout=60, interval=1)


def independent_cell(bus, bus_name, row, column):
    """(text, extents) of the cell at (ROW, COLUMN) of the page's one table, read with gdbus."""
    tables = atspi_probe.with_role(bus, bus_name, atspi_probe.ROOT_PATH, ROLE_TABLE)
    if len(tables) != 1:
        return None
    name, table = tables[0]
    ((_, cell),) = bus.call(name, table, "org.a11y.atspi.Table.GetAccessibleAt", str(row), str(column))
    node = atspi_probe.Node(name, cell, table, "table cell", 56, "", "", "")
    text = atspi_probe.get_text(bus, node)
    (extents,) = bus.call(name, cell, "org.a11y.atspi.Component.GetExtents", "0")
    return text, extents


def check_browser(check, label, app_name, argv):
    with Browser(app_name, argv) as browser:
        snap, table, cells = the_table(browser)
        shown = table["shown"]
        print(f"  {label}: snapshot {snap['stats']['milliseconds']:.0f} ms, {snap['node_count']} nodes, "
              f"table {shown}", flush=True)
        check.expect(shown["rows"] == ROWS + 1 and shown["columns"] == 3,
                     f"{label}: the snapshot gives the table's size, header row included ({shown})")
        check.expect(shown["first_row"] == 1 and 10 <= shown["row_count"] <= 250 and shown["column_count"] == 3,
                     f"{label}: only the rows on screen are read, from the first ({shown})")
        check.expect(len(cells) == shown["row_count"] * 3 and snap["node_count"] < 1000 and
                     not snap["stats"]["truncated"],
                     f"{label}: a few hundred nodes, not 40,000 ({snap['node_count']} nodes, {len(cells)} cells, "
                     f"truncated {snap['stats']['truncated']})")
        a2 = next((c for c in cells if c["cell"]["address"] == "A2"), None)
        check.expect(a2 is not None and (a2.get("value") or a2.get("name")) == "item 1",
                     f"{label}: A2 holds the first item ({a2 and (a2.get('value'), a2.get('name'))})")

        window = browser.window()
        rc, env = cli("snapshot", "--app", app_name, "--window", window["id"], "--timeout", SNAPSHOT_TIMEOUT_MS,
                      "--format", "outline")
        out = data(env).get("outline", "") if rc == 0 else ""
        line = next((l for l in out.splitlines() if " table " in l and "of 10,001" in l), "")
        check.expect(re.search(r"rows 1–\d+ of 10,001, columns A–C of 3 shown", line) is not None,
                     f"{label}: the table's line says what is shown of how much ({line.strip()})")
        check.expect(re.search(r'^\s+row 2: e\d+ A2 "item 1" \| e\d+ B2 "3" \| e\d+ C2 "note 1"$', out, re.M),
                     f"{label}: one line per row, its cells by address and text")

        bus = atspi_probe.a11y_bus()
        bus_name = browser.bus_name(bus)
        found = independent_cell(bus, bus_name, 1, 0)
        x, y, w, h = found[1] if found else (0, 0, 0, 0)
        bounds = window.get("bounds") or {}
        on_screen = bounds and bounds["y"] <= y and y + h <= bounds["y"] + bounds["height"]
        check.expect(found is not None and found[0] == "item 1" and on_screen,
                     f"{label}: an independent read finds item 1 at row 2, column A, on screen ({found}, {bounds})")

        ref = table["ref"]
        started = time.monotonic()
        rc, env = cli("get", ref, "--cell", f"C{ROWS + 1}")
        check.expect(rc == 0 and data(env).get("text") == f"note {ROWS}",
                     f"{label}: a cell far below is read by address, C10001 ({data(env).get('text')!r}, "
                     f"{error(env)}, {time.monotonic() - started:.2f} s)")
        check.expect(answers_independently(bus, bus_name), f"{label}: the browser answers at once after")


def main():
    check = Checker("web-table")
    daemon = Daemon()
    daemon.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            url = write_table_page(tmp)
            check_browser(check, "Firefox", "Firefox", firefox_argv(tmp, url))
            check_browser(check, "Chromium", "Chromium", chromium_argv(tmp, url))
    finally:
        daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
