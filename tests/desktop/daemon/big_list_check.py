#!/usr/bin/env python3
"""A table of 50,000 rows × 3 columns is read by what is on screen, never child by child,
judged from outside: a GTK 3 tree view (tests/fixtures/gtk3_big_list.c, ChildCount 150,003)
or a Qt 5 or Qt 6 table view (tests/fixtures/qt_big_table.py, through PyQt), as the first
argument says (gtk3, qt5, qt6).

- `snapshot` answers within its default deadline with the table's size, the rows shown
  (a screenful, from the top), every column, and one outline line per row; the window's
  node count stays a few dozen plus the cells shown.
- An independent read — descending by GetAccessibleAtPoint from the window to the cell
  under the first row's first cell, then that cell's parent's Table — finds the same size
  and the text the snapshot gave; by the table's own geometry, the last row the snapshot
  says is shown starts above the table's bottom edge, and the next one does not.
- `get --cell C50000` reads the last row's third cell, far below the screen, and a cell
  past the end is ELEMENT_NOT_FOUND cell_outside_table; `find --cell` gives it as an
  element whose ref reads it again.
- The app answers an independent call at once after (nothing made it build 150,003
  accessibles).
- (GTK 3) With a second table on a notebook page not picked, `find` lists both tables and
  `get --cell A1` reads the one on screen; once the other page is picked, the other one.
Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "harness"))
from checks import Checker  # noqa: E402
from daemon_cli import BUILD, Daemon, cli, cli_text, data, error  # noqa: E402
from fixture_app import StartedProcess, unique_name  # noqa: E402
import atspi_probe  # noqa: E402

ROWS = 50_000
ANSWER_BOUND_S = 5
# The fixture's command for each toolkit; the Qt one runs on Debian's Python, which
# python3-pyqt5 and python3-pyqt6 are built for.
QT_TABLE = ["/usr/bin/python3", os.path.join(HERE, "..", "..", "fixtures", "qt_big_table.py")]
FIXTURES = {
    "gtk3": [os.path.join(BUILD, "tests", "fixtures", "companyos-fixture-big-list")],
    "qt5": [*QT_TABLE, "--qt", "5"],
    "qt6": [*QT_TABLE, "--qt", "6"],
}


class BigList(StartedProcess):
    def __init__(self, toolkit, app_name, rows=ROWS, extra=()):
        self.app_name = app_name
        env = dict(os.environ)
        if toolkit == "qt6":
            # Qt 6.4 connects to the bus this names but never registers with it; without it,
            # it finds the bus through the session bus (org.a11y.Bus), as on a user's desktop.
            env.pop("AT_SPI_BUS_ADDRESS", None)
        self.process = subprocess.Popen([*FIXTURES[toolkit], "--rows", str(rows), "--class", app_name, *extra], env=env,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
        self.banner = self.process.stdout.readline().strip()
        try:
            self.bus = atspi_probe.a11y_bus()
            self.bus_name, self.root_path = atspi_probe.wait_for_app(self.bus, app_name, timeout=60)
        except BaseException:
            self.stop()
            raise


def flatten(node, out):
    out.append(node)
    for child in node.get("children", []):
        flatten(child, out)
    return out


def cell_under(bus, bus_name, x, y):
    """(path, name) of the table cell at (x, y), or None."""
    path = atspi_probe.table_cell_at(bus, bus_name, x, y, timeout=ANSWER_BOUND_S)
    return (path, bus.get_property(bus_name, path, "org.a11y.atspi.Accessible", "Name")) if path else None


def check_table_on_screen(check):
    """A cell with no table named is of the one table on screen, whatever else the window holds."""
    name = unique_name("twolists")
    with BigList("gtk3", name, rows=100, extra=("--second-page",)):
        atspi_probe.wait_for("the two lists' window", 30, lambda: cli("windows", "--app", name)[0] == 0)
        rc, env = cli("find", "--app", name, "--role", "table")
        tables = data(env).get("elements", []) if rc == 0 else []
        showing = sorted("showing" in t.get("states", []) for t in tables)
        check.expect(showing == [False, True], f"the window holds two tables, one on screen ({len(tables)}, {showing}, {error(env)})")
        rc, env = cli("get", "--app", name, "--cell", "A1")
        check.expect(rc == 0 and "Item 1" in (data(env).get("text"), data(env).get("name")),
                     f"get --cell A1 reads the table on screen ({data(env).get('name')}, {error(env)})")
        rc, env = cli("select", "--app", name, "--role", "page tab", "--name", "Others")
        check.expect(rc == 0, f"the other page is picked ({data(env).get('delivery')}, {error(env)})")
        rc, env = cli("get", "--app", name, "--cell", "A1")
        check.expect(rc == 0 and "Other 1" in (data(env).get("text"), data(env).get("name")),
                     f"and get --cell A1 reads the other table, now on screen ({data(env).get('name')}, {error(env)})")


def main():
    toolkit = sys.argv[1] if len(sys.argv) > 1 else "gtk3"
    if toolkit not in FIXTURES:
        print(f"usage: {sys.argv[0]} [{'|'.join(FIXTURES)}]", file=sys.stderr)
        return 2
    check = Checker(f"big list ({toolkit})")
    daemon = Daemon()
    daemon.start()
    try:
        name = unique_name("biglist")
        with BigList(toolkit, name) as app:
            atspi_probe.wait_for("the big list's window", 30, lambda: cli("windows", "--app", name)[0] == 0)
            started = time.monotonic()
            rc, env = cli("snapshot", "--app", name)
            took = time.monotonic() - started
            snap = data(env)
            nodes = flatten(snap["tree"], []) if rc == 0 else []
            tables = [n for n in nodes if n.get("shown")]
            print(f"  snapshot: {took:.2f} s, {snap.get('node_count')} nodes, {tables and tables[0]['shown']}, "
                  f"{error(env)}", flush=True)
            check.expect(rc == 0 and len(tables) == 1, f"the snapshot answers, one table read by what it shows ({error(env)})")
            if not tables:
                return check.summary()
            shown = tables[0]["shown"]
            check.expect(shown["rows"] == ROWS and shown["columns"] == 3,
                         f"with the table's size, 50,000 × 3 ({shown['rows']} × {shown['columns']})")
            check.expect(shown["first_row"] == 1 and 10 <= shown["row_count"] <= 40 and shown["column_count"] == 3,
                         f"the rows on screen from the first, every column ({shown})")
            cells = [n for n in nodes if n.get("cell")]
            check.expect(len(cells) == shown["row_count"] * 3 and snap["node_count"] < 200,
                         f"only the cells shown are read ({len(cells)} cells, {snap['node_count']} nodes)")
            by_address = {c["cell"]["address"]: c for c in cells}
            first = by_address.get("A1", {})
            texts = (first.get("value") or first.get("name"), (by_address.get("B2", {}).get("value") or
                                                               by_address.get("B2", {}).get("name")))
            check.expect(texts == ("Item 1", "14"), f"cells hold their rows' texts ({texts})")
            rc, out, _ = cli_text("snapshot", "--app", name)
            line = next((l for l in out.splitlines() if "of 50,000" in l), "")
            check.expect(re.search(r"rows 1–\d+ of 50,000, columns A–C of 3 shown", line) is not None,
                         f"the table's line says what is shown of how much ({line.strip()})")
            check.expect(re.search(r'^\s+row 2: e\d+ A2 "Item 2" \| e\d+ B2 "14" \| e\d+ C2 "row 2"$', out, re.MULTILINE)
                         is not None, "one line per row, its cells by address and text")

            # Independent: the cell under A1's centre, its table's size.
            bounds = first.get("bounds") or {}
            found = cell_under(app.bus, app.bus_name, bounds.get("x", 0) + bounds.get("width", 0) // 2,
                               bounds.get("y", 0) + bounds.get("height", 0) // 2) if bounds else None
            size = None
            parent = None
            if found:
                parent = app.bus.get_property(app.bus_name, found[0], "org.a11y.atspi.Accessible", "Parent")[1]
                size = (app.bus.get_property(app.bus_name, parent, "org.a11y.atspi.Table", "NRows"),
                        app.bus.get_property(app.bus_name, parent, "org.a11y.atspi.Table", "NColumns"))
            check.expect(found is not None and found[1] == "Item 1" and size == (ROWS, 3),
                         f"an independent read finds Item 1 there, in a table of 50,000 × 3 ({found and found[1]}, {size})")
            # Independent: by the table's own geometry, the last row shown starts above the
            # table's bottom edge and the row after it at or below.
            table_bounds = tables[0].get("bounds") or {}
            bottom_edge = table_bounds.get("y", 0) + table_bounds.get("height", 0)
            last_row = shown["first_row"] + shown["row_count"] - 1
            tops = []
            if found:
                for row in (last_row - 1, last_row):  # counted from 0: the last shown, the next
                    ((_, cell),) = app.bus.call(app.bus_name, parent, "org.a11y.atspi.Table.GetAccessibleAt",
                                                str(row), "0")
                    ((_, top, _, _),) = app.bus.call(app.bus_name, cell, "org.a11y.atspi.Component.GetExtents", "0")
                    tops.append(top)
            off_screen = -2**31  # GTK's place for a row not on screen
            check.expect(len(tops) == 2 and tops[0] < bottom_edge and (tops[1] >= bottom_edge or tops[1] == off_screen),
                         f"row {last_row}, the last shown, starts above the table's bottom edge and the next "
                         f"does not ({tops}, {bottom_edge})")
            rc, env = cli("get", "--app", name, "--cell", "C50000")
            check.expect(rc == 0 and (data(env).get("text") == "row 50000" or data(env).get("name") == "row 50000"),
                         f"get --cell C50000 reads the last row, far off screen ({data(env).get('text')}, {error(env)})")
            rc, env = cli("get", "--app", name, "--cell", "A50001")
            check.expect(rc == 1 and error(env).get("details", {}).get("kind") == "cell_outside_table",
                         f"a cell past the last row is not found, and says why ({error(env).get('message')})")

            # find --cell: the far cell as an element with a ref, which reaches it again; a
            # shown one where the snapshot saw it (its width may have changed: GTK sizes a
            # column again as it measures more rows).
            rc, env = cli("find", "--app", name, "--cell", "C50000")
            found_cells = data(env).get("elements", []) if rc == 0 else []
            far = found_cells[0] if len(found_cells) == 1 else {}
            check.expect(far.get("cell", {}).get("address") == "C50000" and "row 50000" in (far.get("value"), far.get("name")),
                         f"find --cell C50000 gives the far cell with its text ({far.get('cell')}, {far.get('name')}, {error(env)})")
            rc, env = cli("get", far.get("ref", "@s0:e1"))
            check.expect(rc == 0 and "row 50000" in (data(env).get("text"), data(env).get("name")),
                         f"its ref reads it again, through the table ({data(env).get('name')}, {error(env)})")
            rc, env = cli("find", "--app", name, "--cell", "A1")
            found_cells = data(env).get("elements", []) if rc == 0 else []
            near = found_cells[0] if len(found_cells) == 1 else {}
            check.expect("Item 1" in (near.get("value"), near.get("name")) and \
                         {k: (near.get("bounds") or {}).get(k) for k in "xy"} == {k: (first.get("bounds") or {}).get(k) for k in "xy"},
                         f"find --cell A1 gives the shown cell, where the snapshot saw it ({near.get('bounds')}, {first.get('bounds')}, {error(env)})")
            rc, env = cli("find", "--app", name, "--role", "table cell", "--cell", "A1")
            check.expect(rc == 1 and error(env).get("code") == "INVALID_ARGS" and
                         error(env).get("details", {}).get("param") == "cell",
                         f"a cell of what has no rows and columns is refused ({error(env).get('message')})")
            rc, env = cli("find", "--app", name, "--cell", "3B")
            check.expect(rc == 1 and error(env).get("code") == "INVALID_ARGS" and
                         error(env).get("details", {}).get("param") == "cell",
                         f"a malformed address is refused ({error(env).get('message')})")
            started = time.monotonic()
            try:
                app.bus.call(app.bus_name, atspi_probe.ROOT_PATH, "org.a11y.atspi.Accessible.GetChildren",
                             timeout=ANSWER_BOUND_S)
                answered = time.monotonic() - started
            except atspi_probe.ProbeError:
                answered = None
            check.expect(answered is not None, f"the app answers an independent call at once after ({answered})")
        if toolkit == "gtk3":
            check_table_on_screen(check)
    finally:
        daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
