#!/usr/bin/env python3
"""LibreOffice Calc (VCL's GTK 3 plugin): a sheet of 1,048,576 rows × 16,384 columns is read
by what is on screen, never child by child, judged from outside.

Calc opens a flat ODF spreadsheet (tests/fixtures/calc/prices.fods: a few cells of text, numbers
and a formula in A1:C3, and "far away" in Z500). The sheet claims 2,147,483,647 children:
listing them makes Calc build every cell and stop answering for minutes, so a snapshot that
answers at all, with Calc answering an independent read right after, shows it never asked.
The snapshot answers within its deadline with the sheet's size, the rows and columns shown,
and one line per row of the cells with content; an independent read (descending by
GetAccessibleAtPoint from the window to the cell under A1's centre) finds the cell the
snapshot names there. Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import os
import re
import shutil
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from real_app import RealApp, atspi_probe, cli, data, error, wait_for, Daemon  # noqa: E402
from daemon_cli import cli_text  # noqa: E402
from checks import Checker  # noqa: E402

APP = "soffice"
SHEET = os.path.join(HERE, "..", "fixtures", "calc", "prices.fods")
ROLE_TABLE_CELL = 56  # ATSPI_ROLE_TABLE_CELL
ANSWER_BOUND_S = 5  # an independent call of an app that is not busy takes milliseconds


def flatten(node, out):
    out.append(node)
    for child in node.get("children", []):
        flatten(child, out)
    return out


def sheet_of(snap):
    """The table node the snapshot read by what it shows, and every node."""
    nodes = flatten(snap["tree"], [])
    tables = [n for n in nodes if n["role"] == "table" and n.get("shown")]
    return (tables[0] if len(tables) == 1 else None), nodes


def cell_at(bus, bus_name, x, y):
    """(name, text) of the table cell at (x, y), found by descending GetAccessibleAtPoint from
    each of the app's windows — never listing the sheet's children."""
    (windows,) = bus.call(bus_name, atspi_probe.ROOT_PATH, "org.a11y.atspi.Accessible.GetChildren",
                          timeout=ANSWER_BOUND_S)
    for _, window in windows:
        path = window
        for _ in range(20):
            try:
                ((_, hit),) = bus.call(bus_name, path, "org.a11y.atspi.Component.GetAccessibleAtPoint",
                                       str(x), str(y), "0", timeout=ANSWER_BOUND_S)
            except atspi_probe.ProbeError:
                break
            if hit in ("/org/a11y/atspi/null", path):
                break
            path = hit
            (role,) = bus.call(bus_name, path, "org.a11y.atspi.Accessible.GetRole", timeout=ANSWER_BOUND_S)
            if role == ROLE_TABLE_CELL:
                name = bus.get_property(bus_name, path, "org.a11y.atspi.Accessible", "Name")
                count = bus.get_property(bus_name, path, "org.a11y.atspi.Text", "CharacterCount")
                (text,) = bus.call(bus_name, path, "org.a11y.atspi.Text.GetText", "0", str(count))
                return name, text
    return None


def check_reading(check, app):
    def loaded():
        rc, env = cli("snapshot", "--app", APP)
        sheet, nodes = sheet_of(data(env)) if rc == 0 else (None, [])
        cells = {n["cell"]["address"]: n for n in nodes if n.get("cell")}
        return (data(env), sheet, cells) if sheet and cells.get("A1", {}).get("value") == "Item" else None
    snap, sheet, cells = wait_for("the sheet with its cells", loaded, timeout=60)
    shown = sheet["shown"]
    print(f"  snapshot: {snap['stats']['milliseconds']:.0f} ms, {snap['node_count']} nodes, sheet {shown}",
          flush=True)
    check.expect(shown["rows"] == 1_048_576 and shown["columns"] == 16_384,
                 f"the snapshot gives the sheet's size ({shown['rows']} × {shown['columns']})")
    check.expect(shown["first_row"] == 1 and shown["first_column"] == 1 and shown["row_count"] >= 20 and
                 shown["column_count"] >= 5,
                 f"and the rows and columns on screen, from A1 ({shown})")
    check.expect(len(cells) == shown["row_count"] * shown["column_count"],
                 f"the cells shown, and no others, are read ({len(cells)})")
    check.expect(snap["stats"].get("shown_regions") == 1 and not snap["stats"]["truncated"],
                 f"one region read, the snapshot whole ({snap['stats']})")
    values = {address: cells.get(address, {}).get("value") for address in ("A1", "B1", "C2", "A3", "B3", "D9")}
    check.expect(values == {"A1": "Item", "B1": "Price", "C2": "4", "A3": "total", "B3": "6", "D9": ""},
                 f"cells read by address hold what they show: text, numbers, a formula's result ({values})")
    check.expect("Z500" not in cells, "a cell far off screen is not read")

    rc, out, _ = cli_text("snapshot", "--app", APP)
    line = next((l for l in out.splitlines() if 'table "Sheet Prices"' in l), "")
    check.expect(rc == 0 and re.search(r"rows 1–\d+ of 1,048,576, columns A–[A-Z]+ of 16,384 shown", line),
                 f"the table's line says what is shown of how much ({line.strip()})")
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\s+row (\d+): (.*)$", out, re.MULTILINE)}
    check.expect(set(rows) == {"1", "2", "3"} and re.fullmatch(r'e\d+ A1 "Item" \| e\d+ B1 "Price" \| e\d+ C1 "Count"',
                                                                rows.get("1", "")) is not None,
                 f"one line per row with content, its cells by address and value ({rows})")
    check.expect(len(out) < 200_000, f"the whole window's outline stays bounded ({len(out)} characters)")

    # Independent: the cell under A1's centre, found without the tool, is the one it named.
    a1 = cells["A1"]
    bus = atspi_probe.a11y_bus()
    bus_name = app.bus_name(bus)
    bounds = a1.get("bounds") or {}
    found = None
    if bounds:
        found = cell_at(bus, bus_name, bounds["x"] + bounds["width"] // 2, bounds["y"] + bounds["height"] // 2)
    check.expect(found == ("A1", "Item"), f"an independent read finds A1 holding Item where the snapshot put it ({found})")
    # Calc answers at once: nothing asked it to build its two billion cells.
    started = time.monotonic()
    try:
        bus.call(bus_name, atspi_probe.ROOT_PATH, "org.a11y.atspi.Accessible.GetChildren", timeout=ANSWER_BOUND_S)
        answered = time.monotonic() - started
    except atspi_probe.ProbeError:
        answered = None
    check.expect(answered is not None, f"Calc answers an independent call right after ({answered})")
    check.expect(app.alive(), "Calc is alive")


def main():
    check = Checker("calc")
    daemon = Daemon()
    daemon.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            sheet = os.path.join(tmp, "prices.fods")
            shutil.copy(SHEET, sheet)
            argv = ["soffice", "--calc", "--norestore", "--nologo", "--nodefault",
                    "-env:UserInstallation=file://" + os.path.join(tmp, "profile"), sheet]
            with RealApp(APP, argv, env={"SAL_USE_VCLPLUGIN": "gtk3"}) as app:
                check_reading(check, app)
    finally:
        daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
