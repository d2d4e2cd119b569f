#!/usr/bin/env python3
"""companyos doctor in the headless desktop, judged from outside where it can be: with no
daemon it finds that problem and exits 1; with one, every check is there, the display it
names is the session's, the apps it lists include the fixture the test started, and it
exits 0; accessibility switched off (IsEnabled set false from outside with busctl) is a
problem with its fix, exit 1, and status points to doctor; a notification server started
from outside (python3-dbusmock's notification_daemon template) is found with or without
actions. Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from checks import Checker  # noqa: E402
from fixture_app import FixtureApp  # noqa: E402
from observe_cli_check import CLI, DAEMON, FIXTURE, cli, wait_for  # noqa: E402

CHECKS = ["display", "XTest", "window manager", "accessibility bus", "registry", "accessibility switched on",
          "apps", "gio launch", "store", "socket", "socket unit", "notifications"]
# python3-dbusmock is Debian's python3 module: run with Debian's interpreter.
DEBIAN_PYTHON = "/usr/bin/python3"


def checks_of(envelope):
    data = (envelope or {}).get("data", {})
    return {c["check"]: c for c in data.get("checks", [])}, data.get("ready")


def set_accessibility(enabled):
    subprocess.run(["busctl", "--user", "set-property", "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Status",
                    "IsEnabled", "b", "true" if enabled else "false"], check=True)


def notification_server(capabilities):
    """python3-dbusmock's notification server on the session bus, answering once it does."""
    server = subprocess.Popen([DEBIAN_PYTHON, "-m", "dbusmock", "--session", "--template", "notification_daemon",
                               "--parameters", '{"capabilities": "%s"}' % capabilities],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for("the notification server", lambda: subprocess.run(
        ["busctl", "--user", "status", "org.freedesktop.Notifications"], capture_output=True).returncode == 0)
    return server


def main():
    check = Checker("doctor")
    rc, env, _ = cli("doctor")
    found, ready = checks_of(env)
    check.expect(rc == 1 and ready is False and list(found) == ["daemon"] and found["daemon"]["state"] == "problem"
                 and "companyosd" in (found["daemon"]["fix"] or ""),
                 f"with no daemon, doctor finds that, with its fix, and exits 1 ({rc}, {env})")
    human = subprocess.run([CLI, "doctor"], capture_output=True, text=True)
    check.expect(human.returncode == 1 and "PROBLEM" in human.stdout and "fix:" in human.stdout,
                 f"the table says PROBLEM and the fix ({human.stdout!r})")

    with tempfile.TemporaryDirectory() as tmp:
        daemon = subprocess.Popen([DAEMON, "--log-level", "warn"], stdin=subprocess.DEVNULL)
        try:
            wait_for("daemon", lambda: cli("ping")[0] == 0)
            with FixtureApp(FIXTURE, "DoctorFixture", os.path.join(tmp, "effect")):
                rc, env, _ = cli("doctor", timeout=60)
                found, ready = checks_of(env)
                check.expect(list(found) == CHECKS, f"every check is there, in order ({list(found)})")
                check.expect(rc == 0 and ready is True and
                             all(c["state"] != "problem" for c in found.values()),
                             f"the headless desktop is ready: exit 0 ({rc}, {[c for c in found.values() if c['state'] != 'ok']})")
                display = found.get("display", {})
                check.expect(display.get("state") == "ok" and os.environ["DISPLAY"] in display.get("found", ""),
                             f"the display it names is the session's ({display})")
                apps = found.get("apps", {})
                check.expect("DoctorFixture" in apps.get("found", ""), f"the apps include the fixture ({apps})")
                check.expect(all((c["fix"] is None) == (c["state"] == "ok") for c in found.values()),
                             "every check that is not ok has a fix, and no ok one has")

            set_accessibility(False)
            try:
                rc, env, _ = cli("doctor")
                found, ready = checks_of(env)
                switch = found.get("accessibility switched on", {})
                check.expect(rc == 1 and ready is False and switch.get("state") == "problem" and
                             "IsEnabled b true" in (switch.get("fix") or ""),
                             f"accessibility switched off is a problem with its fix, exit 1 ({rc}, {switch})")
                status = subprocess.run([CLI, "status"], capture_output=True, text=True)
                check.expect(status.returncode == 0 and "companyos doctor" in status.stdout,
                             f"status points to doctor ({status.stdout[-200:]!r})")
            finally:
                set_accessibility(True)
            status = subprocess.run([CLI, "status"], capture_output=True, text=True)
            check.expect("companyos doctor" not in status.stdout, "status does not point to doctor when all is well")

            for capabilities, state in (("body", "warning"), ("body actions", "ok")):
                server = notification_server(capabilities)
                try:
                    rc, env, _ = cli("doctor")
                    found, _ = checks_of(env)
                    notifications = found.get("notifications", {})
                    check.expect(notifications.get("state") == state and "mock-notify" in notifications.get("found", ""),
                                 f"a notification server with '{capabilities}' is found: {state} ({notifications})")
                finally:
                    server.terminate()
                    server.wait(10)
        finally:
            daemon.terminate()
            daemon.wait(10)
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
