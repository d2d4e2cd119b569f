#!/usr/bin/env python3
"""A CLIPBOARD owner is untrusted (docs/reliability.md, "Hostile input"). With the hostile
owner (tests/fixtures/hostile_clipboard_owner.c) holding the clipboard:

- an owner that drips an INCR transfer a byte at a time, or never answers, ends a read at
  the daemon's bound for the whole read (5 s), where it used to hold it as long as it
  dripped;
- two clients reading at once each end at their own bound: one does not wait behind the
  other;
- a paste whose caller gave up waiting (its reply timeout passed while the clipboard was
  being saved) is never delivered: the app's entry never gets the text.

Times are printed as measured; the checks bound them loosely (an order of magnitude above
the bound), since they check that a read ends, not how fast.
"""

import os
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "harness"))
from checks import Checker  # noqa: E402
from daemon_cli import BUILD, CLI, FIXTURE, Daemon, cli, data, error  # noqa: E402
from fixture_app import FixtureApp, StartedProcess, read_bytes  # noqa: E402
import atspi_probe  # noqa: E402

OWNER = os.path.join(BUILD, "tests", "fixtures", "companyos-hostile-clipboard-owner")
ENDS_WITHIN_S = 15  # the daemon's bound is 5 s; without one the drip goes on for good


class HostileOwner(StartedProcess):
    def __init__(self, mode):
        self.process = subprocess.Popen([OWNER, "--mode", mode], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        text=True)
        if self.process.stdout.readline().strip() != "ready":
            self.stop()
            raise RuntimeError("the hostile clipboard owner did not start")


def timed_get():
    started = time.monotonic()
    rc, env = cli("clipboard", "get", timeout=180)
    return rc, env, time.monotonic() - started


def check_reads(check, mode):
    with HostileOwner(mode):
        rc, env, seconds = timed_get()
        print(f"  {mode}: clipboard get ended after {seconds:.1f} s: {error(env).get('code')}", flush=True)
        check.expect(rc == 1 and error(env).get("code") == "TIMEOUT" and seconds < ENDS_WITHIN_S,
                     f"{mode}: a read ends at the daemon's bound with TIMEOUT ({seconds:.1f} s)")

        results = {}

        def read(name):
            results[name] = timed_get()

        first = threading.Thread(target=read, args=("first",))
        first.start()
        time.sleep(0.5)  # the second client asks while the first read is under way
        second_started = time.monotonic()
        read("second")
        first.join()
        waited = time.monotonic() - second_started
        print(f"  {mode}: two readers: {results['first'][2]:.1f} s and {results['second'][2]:.1f} s", flush=True)
        check.expect(all(r[0] == 1 for r in results.values()) and waited < ENDS_WITHIN_S,
                     f"{mode}: a second reader ends at its own bound, not behind the first ({waited:.1f} s)")


def check_paste_after_caller_left(check, tmp):
    app = "clip-hostile"
    effect = os.path.join(tmp, "entry.txt")
    with FixtureApp(FIXTURE, app, effect, "--title", "Hostile clipboard"):
        atspi_probe.wait_for("the fixture's window", 30, lambda: cli("windows", "--app", app)[0] == 0)
        cli("set-value", "--app", app, "--role", "text", "--name", "Text", "--id", "text-entry", "")
        cli("focus", "--app", app, "--role", "text", "--name", "Text", "--id", "text-entry")
        cli("settings", "set", "physical_input", "true")
        with HostileOwner("drip"):
            started = time.monotonic()
            gave_up = subprocess.run([CLI, "--json", "--reply-timeout", "1000", "type-text", "too late", "--paste",
                                      "--app", app, "--headed"], capture_output=True, text=True, timeout=60)
            check.expect(gave_up.returncode != 0, f"the caller gives up after 1 s (exit {gave_up.returncode})")

            # The daemon's paste ends once its save of the clipboard hits the bound; its audit
            # row is then complete.
            def paste_ended():
                rows = data(cli("audit", "--limit", "5")[1]).get("rows", [])
                row = next((r for r in rows if r["method"] == "type_text"), None)
                return row if row and row["outcome"] != "pending" else None

            row = atspi_probe.wait_for("the paste's audit row", 30, paste_ended, interval=0.2)
            print(f"  the abandoned paste ended after {time.monotonic() - started:.1f} s: {row}", flush=True)
            check.expect(row["outcome"] == "not_delivered" and row["error_code"] == "TIMEOUT",
                         f"the paste whose caller left was not delivered: {row}")
        cli("settings", "set", "physical_input", "false")
        cli("click", "--app", app, "--role", "push button", "--name", "Write effect")
        atspi_probe.wait_for("the effect file", 10, lambda: read_bytes(effect) is not None, interval=0.1)
        check.expect(b"too late" not in (read_bytes(effect) or b""),
                     f"the app's entry never got the text: {read_bytes(effect)!r}")


def main():
    check = Checker("hostile clipboard")
    daemon = Daemon()
    daemon.start()
    try:
        check_reads(check, "drip")
        check_reads(check, "silent")
        with tempfile.TemporaryDirectory() as tmp:
            check_paste_after_caller_left(check, tmp)
    finally:
        daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
