#!/usr/bin/env python3
"""Runs inside scripts/desktop-session: checks the fixture modes other desktop tests rely
on (--ambiguous, --stale, --add-twin pack|add, --rows/--add-rows-after,
--close-after-control), reading the live AT-SPI tree and the effect files.

Usage: fixture_modes.py FIXTURE_EXECUTABLE...   (companyos-fixture-gtk3, -gtk4)
"""

import os
import sys

# The helper modules sit beside this script; keep their bytecode out of the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import atspi_probe  # noqa: E402
from checks import Checker  # noqa: E402
from fixture_app import FixtureApp, unique_name  # noqa: E402

TEXT = "mode text"


def write_buttons(nodes):
    return atspi_probe.find(nodes, "push button", "Write effect")


def type_text(app, nodes):
    atspi_probe.set_text(app.bus, atspi_probe.find_one(nodes, "text", "Text"), TEXT)


def touch(path):
    with open(path, "w"):
        pass


class Modes:
    def __init__(self, executable, check, work_dir):
        self.executable = executable
        self.check = check
        self.work_dir = work_dir
        self.count = 0

    def start(self, *options):
        """A fresh fixture with its own effect path and control file path."""
        self.count += 1
        self.control = os.path.join(self.work_dir, f"control-{self.count}")
        effect = os.path.join(self.work_dir, f"effect-{self.count}")
        return FixtureApp(self.executable, unique_name("ModesFixture"), effect,
                          *[self.control if option == "CONTROL" else option
                            for option in options])

    def ambiguous(self):
        with self.start("--ambiguous") as app:
            nodes = app.nodes()
            buttons = write_buttons(nodes)
            self.check.expect(len(buttons) == 2, f"--ambiguous: two Write effect buttons "
                              f"({len(buttons)})")
            type_text(app, nodes)
            atspi_probe.do_named_action(app.bus, buttons[-1], "click")
            self.check.expect(app.wait_for_effect("", TEXT.encode()),
                              "--ambiguous: the second button writes the effect too")

    def stale(self):
        with self.start("--stale", "CONTROL") as app:
            nodes = app.nodes()
            (before,) = write_buttons(nodes)
            bounds_before = atspi_probe.extents(app.bus, before)
            touch(self.control)
            nodes = app.wait_for_nodes("the Inserted label",
                                       lambda nodes: atspi_probe.find(nodes, "label", "Inserted"))
            buttons = write_buttons(nodes)
            self.check.expect(len(buttons) == 1, f"--stale: the button stays unique "
                              f"({len(buttons)})")
            if len(buttons) != 1:
                return
            bounds_after = atspi_probe.extents(app.bus, buttons[0])
            self.check.expect(bounds_after != bounds_before,
                              f"--stale: bounds changed {bounds_before} -> {bounds_after}")
            self.check.expect(buttons[0].parent_path != before.parent_path,
                              "--stale: the button moved to another container")
            type_text(app, nodes)
            atspi_probe.do_named_action(app.bus, buttons[0], "click")
            self.check.expect(app.wait_for_effect("", TEXT.encode()),
                              "--stale: the moved button still writes the effect")

    def twin(self, method):
        with self.start("--add-twin", "CONTROL", "--twin-method", method) as app:
            nodes = app.nodes()
            self.check.expect(len(write_buttons(nodes)) == 1,
                              f"--add-twin {method}: one button before the control file")
            touch(self.control)
            nodes = app.wait_for_nodes("a twin button",
                                       lambda nodes: len(write_buttons(nodes)) == 2)
            type_text(app, nodes)
            for button in write_buttons(nodes):
                atspi_probe.do_named_action(app.bus, button, "click")
            self.check.expect(app.wait_for_effect(".twin", TEXT.encode()),
                              f"--add-twin {method}: the twin writes FILE.twin")
            self.check.expect(app.wait_for_effect("", TEXT.encode()),
                              f"--add-twin {method}: the original still writes FILE")

    def rows(self):
        with self.start("--rows", "2", "--add-rows-after", "300", "1") as app:
            nodes = app.wait_for_nodes(
                "Button 3", lambda nodes: atspi_probe.find(nodes, "push button", "Button 3"))
            for index in (1, 2, 3):
                button = atspi_probe.find_one(nodes, "push button", f"Button {index}")
                siblings = {(node.role, node.name) for node in nodes
                            if node.parent_path == button.parent_path}
                self.check.expect(siblings == {("label", f"Row {index}"),
                                               ("push button", f"Button {index}"),
                                               ("text", f"Entry {index}")},
                                  f"--rows: row {index} is its own box {sorted(siblings)}")
            atspi_probe.do_named_action(
                app.bus, atspi_probe.find_one(nodes, "push button", "Button 3"), "click")
            self.check.expect(app.wait_for_effect(".row", b"Button 3"),
                              "--add-rows-after: a late row's button writes FILE.row")

    def close(self):
        with self.start("--close-after-control", "CONTROL") as app:
            touch(self.control)
            status = app.wait_for_exit(timeout=30)
            self.check.expect(status == 0, f"--close-after-control: exits with 0 ({status})")
            gone = atspi_probe.wait_for(
                "the app to leave the registry", 30,
                lambda: app.app_name not in atspi_probe.application_names(app.bus))
            self.check.expect(gone, "--close-after-control: gone from the registry")


def run(executable):
    toolkit = "gtk4" if executable.endswith("gtk4") else "gtk3"
    check = Checker(toolkit)
    work_dir = os.path.join(os.environ["COMPANYOS_DESKTOP_DIR"], f"modes-{toolkit}")
    os.makedirs(work_dir)
    modes = Modes(executable, check, work_dir)
    for name, case in (("ambiguous", modes.ambiguous), ("stale", modes.stale),
                       ("twin pack", lambda: modes.twin("pack")),
                       ("twin add", lambda: modes.twin("add")),
                       ("rows", modes.rows), ("close", modes.close)):
        try:
            case()
        except atspi_probe.ProbeError as error:
            check.expect(False, f"{name}: {error}")
    return check.failures


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    overall = Checker()
    overall.failures = sum(run(executable) for executable in sys.argv[1:])
    return overall.summary()


if __name__ == "__main__":
    sys.exit(main())
