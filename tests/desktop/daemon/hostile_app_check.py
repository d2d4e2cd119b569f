#!/usr/bin/env python3
"""An accessibility app is untrusted (docs/reliability.md, "Hostile input"): the hostile
fixture (tests/fixtures/hostile_app.py) answers AT-SPI itself and tries what an app can.
Judged from outside: a marker file the app's address would create, the names the app
really serves against those an impostor serves, and the bytes a terminal would get.

- Its bus address names a program to run (`unixexec:`): the program never runs, and the
  app is still read, through the bus.
- Its bus address names a socket another process of the same user serves: nothing that
  process answers is believed; the app is read through the bus.
- Its window's ChildCount says 5 while listing its children fails: the window is read
  (not "the window is gone") and the snapshot says its children could not be read.
- Its names carry terminal controls and a bidi override: human output (tables, the
  outline, find) shows them escaped, `--json` keeps them exact.
"""

import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "harness"))
from checks import Checker  # noqa: E402
from daemon_cli import SOURCE, Daemon, cli, cli_text, data, error  # noqa: E402
from fixture_app import StartedProcess  # noqa: E402
import atspi_probe  # noqa: E402

HOSTILE = os.path.join(SOURCE, "tests", "fixtures", "hostile_app.py")
TERMINAL_CONTROLS = ("\x1b", "\x07", "\u202e", "\x9b")


class HostileApp(StartedProcess):
    def __init__(self, name, *options):
        self.name = name
        self.process = subprocess.Popen([HOSTILE, "--name", name, *options], stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, text=True)
        banner = self.process.stdout.readline().strip()
        if not banner.startswith("ready"):
            self.stop()
            raise RuntimeError(f"the hostile app {name} did not start: {banner!r}")
        # A generous listing deadline: an app with 100,000 windows answers slowly.
        listed = lambda: cli("windows", "--app", name, "--timeout", "30000")[0] == 0  # noqa: E731
        atspi_probe.wait_for(f"{name} on the bus", 60, listed, interval=0.1)


def never_appears(path, seconds=2.0):
    """True when PATH does not exist at any look within SECONDS (a program started by the
    daemon would have created it by then: `touch` takes milliseconds)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if os.path.exists(path):
            return False
        time.sleep(0.05)
    return not os.path.exists(path)


def outline_names(app):
    rc, env = cli("snapshot", "--app", app, "--format", "outline")
    return rc, data(env).get("outline", "")


def check_unixexec(check, tmp):
    marker = os.path.join(tmp, "unixexec-ran")
    with HostileApp("hostile-exec", "--address", "unixexec", "--marker", marker, "--button", "Real button"):
        rc, outline = outline_names("hostile-exec")
        check.expect(rc == 0 and '"Real button"' in outline,
                     f"the app that gave a unixexec: address is read through the bus (rc {rc})")
        cli("click", "--app", "hostile-exec", "--role", "push button", "--name", "Real button")
        cli("windows", "--app", "hostile-exec")
        check.expect(never_appears(marker), "the program its address names never ran")


def check_impostor(check):
    with HostileApp("hostile-impostor", "--address", "impostor", "--button", "Real button"):
        rc, outline = outline_names("hostile-impostor")
        check.expect(rc == 0 and '"Real button"' in outline and "impostor" not in outline,
                     f"what another process serves at the app's address is not believed (rc {rc}): {outline!r}")
        rc, env = cli("find", "--app", "hostile-impostor", "--role", "push button")
        check.expect(rc == 0 and [e.get("name") for e in data(env).get("elements", [])] == ["Real button"],
                     "find sees only the app's own elements")


def check_lying_child_count(check):
    with HostileApp("hostile-liar", "--lying-children", "--button", "Hidden"):
        rc, env = cli("snapshot", "--app", "hostile-liar")
        stats = data(env).get("stats", {})
        check.expect(rc == 0 and data(env).get("node_count") == 1 and stats.get("children_unread") == 1,
                     f"a window whose children cannot be read is read, not 'gone' ({error(env) or stats})")
        rc, out, _ = cli_text("snapshot", "--app", "hostile-liar")
        check.expect(rc == 0 and "incomplete: 1 node(s) answered but their children did not" in out,
                     "the person is told the snapshot is incomplete")


def check_names(check):
    title = "\x1b]0;pwned\x07Evil\u202etxt.exe"
    button = "\x1b[2J\x1b[31mred\x9b"
    escaped_title = "\\x1b]0;pwned\\x07Evil\\u202etxt.exe"
    with HostileApp("hostile-names", "--title", "\\x1b]0;pwned\\x07Evil\\u202etxt.exe",
                    "--button", "\\x1b[2J\\x1b[31mred\\x9b"):
        rc, env = cli("windows", "--app", "hostile-names")
        windows = data(env).get("windows", [])
        check.expect(rc == 0 and [w.get("title") for w in windows] == [title], "--json keeps the title exact")
        rc, env = cli("snapshot", "--app", "hostile-names", "--format", "tree")
        names = [child.get("name") for child in data(env).get("tree", {}).get("children", [])]
        check.expect(rc == 0 and names == [button], "--json keeps the button's name exact")

        for args in (("windows", "--app", "hostile-names"), ("snapshot", "--app", "hostile-names"),
                     ("snapshot", "--app", "hostile-names", "-i", "--compact"),
                     ("find", "--app", "hostile-names", "--role", "push button"),
                     ("apps",)):
            rc, out, err = cli_text(*args)
            raw = [c for c in TERMINAL_CONTROLS if c in out or c in err]
            check.expect(rc == 0 and not raw, f"`companyos {' '.join(args)}` prints no raw control ({raw})")
        rc, out, _ = cli_text("windows", "--app", "hostile-names")
        check.expect(escaped_title in out, "the title is shown with visible escapes")
        rc, out, _ = cli_text("snapshot", "--app", "hostile-names")
        check.expect("\\x1b[2J\\x1b[31mred\\u009b" in out, "the outline shows the button's name escaped")
        # A window that is not there: the refusal lists the app's windows, titles and all.
        rc, env = cli("snapshot", "--app", "hostile-names", "--title", "nope")
        candidates = error(env).get("details", {}).get("candidates", [])
        check.expect(rc == 1 and [c.get("title") for c in candidates] == [title],
                     "the refusal's JSON names the window exactly")
        rc, out, err = cli_text("snapshot", "--app", "hostile-names", "--title", "nope")
        check.expect(rc == 1 and "pwned" in out + err and
                     not [c for c in TERMINAL_CONTROLS if c in out or c in err],
                     f"the refusal is printed with the title escaped: {err!r}")


def main():
    check = Checker("hostile app")
    daemon = Daemon()
    daemon.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            check_unixexec(check, tmp)
            check_impostor(check)
            check_lying_child_count(check)
            check_names(check)
    finally:
        daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
