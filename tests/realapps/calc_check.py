#!/usr/bin/env python3
"""LibreOffice Calc (VCL's GTK 3 plugin): a sheet of 1,048,576 rows × 16,384 columns is read
by what is on screen, never child by child, and filled by cell address, judged from outside.

Calc opens a spreadsheet made from tests/fixtures/calc/prices.fods (a few cells of text,
numbers and a formula in A1:C3, two empty percent-formatted cells D2 and D3, and "far away"
in Z500) as an .ods. The sheet claims 2,147,483,647 children:
listing them makes Calc build every cell and stop answering for minutes, so a snapshot that
answers at all, with Calc answering an independent read right after, shows it never asked.
The snapshot answers within its deadline with the sheet's size, the rows and columns shown,
and one line per row of the cells with content; an independent read (descending by
GetAccessibleAtPoint from the window to the cell under A1's centre) finds the cell the
snapshot names there. Then `set-value --cell` enters 2 and 3 into A1 and A2 by the cells'
Value, =A1*A2+SUM(A1:A2) into A3 and text into Z500, far off screen, through the input line
(each verified by the tool, and judged by an independent read); 5 into the percent cell D2
goes by its Value, shows otherwise (500%) and is entered again as typed, so D2 ends as D3 does
given "05", which goes through the input line at once. `get --cell A3` gives 11 and the
formula, `get --cells` the rows, and the file Calc saves (File > Save, clicked by ref) holds
them in its content.xml.
Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import os
import re
import sys
import tempfile
import time
import zipfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from real_app import RealApp, atspi_probe, cli, data, error, wait_for, Daemon  # noqa: E402
from daemon_cli import cli_text  # noqa: E402
from checks import Checker  # noqa: E402

APP = "soffice"
SHEET = os.path.join(HERE, "..", "fixtures", "calc", "prices.fods")
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


def ods_from(fods, ods):
    """An .ods holding the flat document's body, as Calc writes one: mimetype first, stored."""
    with open(fods, encoding="utf-8") as f:
        flat = f.read()
    content = flat.replace("<office:document ", "<office:document-content ", 1).replace(
        "</office:document>", "</office:document-content>").replace(
        ' office:mimetype="application/vnd.oasis.opendocument.spreadsheet"', "")
    manifest = ('<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest '
                'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
                '<manifest:file-entry manifest:full-path="/" manifest:media-type='
                '"application/vnd.oasis.opendocument.spreadsheet"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                '</manifest:manifest>')
    with zipfile.ZipFile(ods, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("META-INF/manifest.xml", manifest, compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)


def content_xml(ods):
    """content.xml of the .ods, as `unzip -p x.ods content.xml` prints it ("" while unreadable)."""
    try:
        with zipfile.ZipFile(ods) as z:
            return z.read("content.xml").decode("utf-8")
    except (OSError, KeyError, zipfile.BadZipFile):
        return ""


def cell_at(bus, bus_name, x, y):
    """(name, text, path) of the table cell at (x, y), or None: found by descending
    GetAccessibleAtPoint, never listing the sheet's children."""
    path = atspi_probe.table_cell_at(bus, bus_name, x, y, timeout=ANSWER_BOUND_S)
    if path is None:
        return None
    name = bus.get_property(bus_name, path, "org.a11y.atspi.Accessible", "Name")
    count = bus.get_property(bus_name, path, "org.a11y.atspi.Text", "CharacterCount")
    (text,) = bus.call(bus_name, path, "org.a11y.atspi.Text.GetText", "0", str(count))
    return name, text, path


def text_of_cell(bus, bus_name, sheet, row, column):
    """The text of the sheet's cell at (row, column), fetched from the sheet by Table."""
    ((_, path),) = bus.call(bus_name, sheet, "org.a11y.atspi.Table.GetAccessibleAt", str(row), str(column),
                            timeout=ANSWER_BOUND_S)
    count = bus.get_property(bus_name, path, "org.a11y.atspi.Text", "CharacterCount")
    (text,) = bus.call(bus_name, path, "org.a11y.atspi.Text.GetText", "0", str(count))
    return text


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
    check.expect(found is not None and found[:2] == ("A1", "Item"),
                 f"an independent read finds A1 holding Item where the snapshot put it ({found and found[:2]})")
    # Calc answers at once: nothing asked it to build its two billion cells.
    started = time.monotonic()
    try:
        bus.call(bus_name, atspi_probe.ROOT_PATH, "org.a11y.atspi.Accessible.GetChildren", timeout=ANSWER_BOUND_S)
        answered = time.monotonic() - started
    except atspi_probe.ProbeError:
        answered = None
    check.expect(answered is not None, f"Calc answers an independent call right after ({answered})")
    check.expect(app.alive(), "Calc is alive")
    return cells, (found[2] if found else None)


def check_entering(check, app, cells, a1_path, ods):
    bus = atspi_probe.a11y_bus()
    bus_name = app.bus_name(bus)
    sheet = bus.get_property(bus_name, a1_path, "org.a11y.atspi.Accessible", "Parent")[1] if a1_path else None
    def enter(address, value, route):
        started = time.monotonic()
        rc, env = cli("set-value", "--app", APP, "--cell", address, value)
        took = time.monotonic() - started
        verification = data(env).get("verification") or {}
        check.expect(rc == 0 and data(env).get("delivery") == "delivered_verified" and data(env).get("route") == route
                     and "first_route" not in data(env),
                     f"set-value --cell {address} {value} is verified through {route} in {took:.2f} s "
                     f"({data(env).get('delivery')}, {data(env).get('route')}, {verification.get('check')}, {error(env)})")

    for address, value, route in (("A1", "2", "Value.CurrentValue"), ("A2", "3", "Value.CurrentValue"),
                                  ("A3", "=A1*A2+SUM(A1:A2)", "input_line")):
        enter(address, value, route)
    rc, env = cli("get", "--app", APP, "--cell", "A3")
    got = data(env)
    check.expect(rc == 0 and got.get("text") == "11" and got.get("formula") == "=A1*A2+SUM(A1:A2)" and
                 got.get("cell", {}).get("address") == "A3",
                 f"get --cell A3 gives the value 11 and the formula ({got.get('text')}, {got.get('formula')}, "
                 f"{error(env)})")
    enter("Z500", "far, far away", "input_line")
    # A number its cell shows otherwise (a percent format): entered again as typed, so it ends
    # as the same number typed does — "05" goes through the input line from the start.
    started = time.monotonic()
    rc, env = cli("set-value", "--app", APP, "--cell", "D2", "5")
    took = time.monotonic() - started
    d2 = data(env)
    rc3, env3 = cli("set-value", "--app", APP, "--cell", "D3", "05")
    d3 = data(env3)
    check.expect(rc == 0 and d2.get("first_route") == "Value.CurrentValue" and d2.get("route") == "input_line",
                 f"5 in a percent cell goes by its Value, then through the input line as typed, in {took:.2f} s "
                 f"({d2.get('first_route')}, {d2.get('route')}, {d2.get('delivery')}, {d2.get('timings')}, {error(env)})")
    check.expect(rc3 == 0 and d3.get("route") == "input_line" and "first_route" not in d3,
                 f"05 goes through the input line at once ({d3.get('route')}, {error(env3)})")
    shown = {}
    if sheet:
        shown = {address: text_of_cell(bus, bus_name, sheet, row, 3) for address, row in (("D2", 1), ("D3", 2))}
    check.expect(shown.get("D2") not in (None, "") and shown.get("D2") == shown.get("D3"),
                 f"an independent read finds D2 as typing leaves it, as D3 ({shown})")
    said = (d2.get("verification") or {}).get("read")
    check.expect(d2.get("delivery") == ("delivered_verified" if shown.get("D2") == "5" else "delivered_unverified")
                 and said == shown.get("D2"),
                 f"and the reply says what the cell shows ({d2.get('delivery')}, {said})")
    # Calc's Formula attribute ends at a ":"; the whole formula shows in the input line, for the
    # cell with the cursor only, so a read elsewhere says it has only part.
    rc, env = cli("get", "--app", APP, "--cell", "A3")
    check.expect(rc == 0 and data(env).get("formula") is None and data(env).get("formula_cut") is True,
                 f"with the cursor elsewhere, get says A3's formula was cut ({data(env).get('formula')}, "
                 f"{data(env).get('formula_cut')})")
    rc, env = cli("focus", "--app", APP, "--cell", "A3")
    check.expect(rc == 0 and data(env).get("delivery") == "delivered_verified",
                 f"focus --cell A3 moves the cursor there ({data(env).get('delivery')}, {error(env)})")
    rc, env = cli("get", "--app", APP, "--cell", "A3")
    check.expect(rc == 0 and data(env).get("formula") == "=A1*A2+SUM(A1:A2)",
                 f"and get reads its whole formula ({data(env).get('formula')})")
    # Independent: the sheet's own cells, by Table, hold what was entered.
    read = {}
    if sheet:
        for address, row, column in (("A1", 0, 0), ("A2", 1, 0), ("A3", 2, 0), ("Z500", 499, 25)):
            read[address] = text_of_cell(bus, bus_name, sheet, row, column)
    check.expect(read == {"A1": "2", "A2": "3", "A3": "11", "Z500": "far, far away"},
                 f"an independent read of the sheet finds 2, 3, 11 and the far cell's text ({read})")

    rc, env = cli("get", "--app", APP, "--cell", "Z500")
    check.expect(rc == 0 and data(env).get("text") == "far, far away",
                 f"get --cell Z500 reads the far cell ({data(env).get('text')}, {error(env)})")
    # find --cell: the far cell of the sheet as an element whose ref reaches it again.
    rc, env = cli("find", "--app", APP, "--cell", "Z500")
    found = data(env).get("elements", []) if rc == 0 else []
    far = found[0] if len(found) == 1 else {}
    check.expect(far.get("cell", {}).get("address") == "Z500" and far.get("value") == "far, far away",
                 f"find --cell Z500 gives the far cell with its text ({far.get('cell')}, {far.get('value')}, {error(env)})")
    rc, env = cli("get", far.get("ref", "@s0:e1"))
    check.expect(rc == 0 and data(env).get("text") == "far, far away",
                 f"its ref reads it again, through the sheet ({data(env).get('text')}, {error(env)})")
    rc, env = cli("get", "--app", APP, "--cells", "A1:C3")
    check.expect(rc == 0 and data(env).get("rows") == [["2", "Price", "Count"], ["3", "1.5", "4"], ["11", "6", ""]],
                 f"get --cells A1:C3 gives the rows ({data(env).get('rows')}, {error(env)})")
    rc, env = cli("get", "--app", APP, "--cell", "XFE1")
    check.expect(rc == 1 and error(env).get("code") == "ELEMENT_NOT_FOUND" and
                 error(env).get("details", {}).get("kind") == "cell_outside_table",
                 f"a cell past the sheet's last column is not found, and says why ({error(env).get('message')})")
    rc, env = cli("set-value", "--app", APP, "--cell", "B", "1")
    check.expect(rc == 1 and error(env).get("code") == "INVALID_ARGS" and error(env).get("details", {}).get("param") == "cell",
                 f"a malformed address is refused before anything is sent ({error(env).get('message')})")

    # Saved through the app: File > Save in the root pane, by ref.
    _, nodes = app.snapshot()
    pane = [n for n in nodes if n["role"] == "root pane"]
    saves = []
    for root in pane[:1]:
        stack = [root]
        while stack:
            node = stack.pop()
            if node["role"] == "menu item" and node["name"] == "Save":
                saves.append(node)
            stack.extend(node.get("children", []))
    before = os.path.getmtime(ods)
    if saves:
        rc, env = cli("click", saves[0]["ref"], "--within", pane[0]["ref"])
        check.expect(rc == 0, f"File > Save is clicked ({error(env)})")
    try:
        content = wait_for("the saved sheet", lambda: (lambda c: c if os.path.getmtime(ods) > before and
                                                      "far, far away" in c else None)(content_xml(ods)), timeout=20)
    except atspi_probe.ProbeError:
        content = content_xml(ods)
    check.expect('table:formula="of:=[.A1]*[.A2]+SUM([.A1:.A2])"' in content and 'office:value="11"' in content,
                 "the saved file holds A3's formula and its value 11")
    check.expect("far, far away" in content and 'office:value="2"' in content and 'office:value="3"' in content,
                 "and A1, A2 and Z500")
    percents = re.findall(r'office:value-type="percentage" office:value="([^"]*)"', content)
    check.expect(len(percents) == 2 and percents[0] == percents[1],
                 f"and the same number in D2 and D3 ({percents})")
    check.expect(app.alive(), "Calc is alive at the end")


def main():
    check = Checker("calc")
    daemon = Daemon()
    daemon.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            sheet = os.path.join(tmp, "prices.ods")
            ods_from(SHEET, sheet)
            argv = ["soffice", "--calc", "--norestore", "--nologo", "--nodefault",
                    "-env:UserInstallation=file://" + os.path.join(tmp, "profile"), sheet]
            with RealApp(APP, argv, env={"SAL_USE_VCLPLUGIN": "gtk3"}) as app:
                cells, a1_path = check_reading(check, app)
                check_entering(check, app, cells, a1_path, sheet)
    finally:
        daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
