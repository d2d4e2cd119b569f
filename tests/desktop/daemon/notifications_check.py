#!/usr/bin/env python3
"""Desktop notifications for runs waiting for approval, against python3-dbusmock's
notification server (its notification_daemon template, with actions) on the session's bus,
judged from outside: the Notify call's arguments as the server recorded them; approve and
deny through ActionInvoked sent by the server itself (the touched file says whether the
command ran, run show how the run ended); a forged ActionInvoked from another connection
ignored (the run still waits); the notification closed when its wait ends (approved, denied
here or elsewhere); the `notifications` setting off closes what was posted and posts nothing
more. Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from checks import Checker  # noqa: E402
from doctor_check import notification_server  # noqa: E402
from observe_cli_check import DAEMON, cli, wait_for  # noqa: E402

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


def mock_calls(method):
    """The server's recorded calls of METHOD: each call's arguments, oldest first."""
    done = subprocess.run(["busctl", "--user", "--json=short", "call", NAME, PATH, "org.freedesktop.DBus.Mock",
                           "GetMethodCalls", "s", method], capture_output=True, text=True)
    if done.returncode != 0:
        return []
    calls = json.loads(done.stdout)["data"][0]
    return [[argument["data"] for argument in call[1]] for call in calls]


def server_emits(signal, signature, *args):
    """The server itself (the name's owner) emits SIGNAL, as it does when a person clicks."""
    subprocess.run(["busctl", "--user", "call", NAME, PATH, "org.freedesktop.DBus.Mock", "EmitSignal", "sssav",
                    NAME, signal, signature, str(len(args)), *[x for a in args for x in a]], check=True)


def forged_action(notification_id, action):
    """Another connection of the session sends the same signal."""
    subprocess.run(["gdbus", "emit", "--session", "--object-path", PATH, "--signal", f"{NAME}.ActionInvoked",
                    f"uint32 {notification_id}", f"'{action}'"], check=True, capture_output=True)


def closed(notification_id):
    """Whether the server is asked to close the notification (waits up to 15 s)."""
    try:
        return bool(wait_for(f"CloseNotification({notification_id})", lambda: any(
            c[0] == notification_id for c in mock_calls("CloseNotification")), timeout=15))
    except TimeoutError:
        return False


def data(envelope):
    return (envelope or {}).get("data", {})


def run_status(run_id):
    return data(cli("run", "show", str(run_id))[1]).get("status")


def main():
    check = Checker("notifications")
    server = notification_server("body actions")
    with tempfile.TemporaryDirectory() as tmp:
        log_path = os.path.join(tmp, "daemon.log")
        with open(log_path, "w") as log:
            daemon = subprocess.Popen([DAEMON, "--log-level", "info"], stdin=subprocess.DEVNULL, stderr=log)
        try:
            wait_for("daemon", lambda: cli("ping")[0] == 0)
            marker = os.path.join(tmp, "marker")
            definition = {"name": "tidy <reports>", "actions": [
                {"type": "command", "executable": "touch", "argv": [marker], "cwd": tmp,
                 "description": "touch the marker & go on"}]}
            with open(os.path.join(tmp, "def.json"), "w") as f:
                json.dump(definition, f)
            rc, env, _ = cli("automation", "create", os.path.join(tmp, "def.json"))
            automation = data(env).get("id")
            rc2, _, _ = cli("automation", "raise", str(automation))
            check.expect(rc == 0 and rc2 == 0, f"an automation at level 2 (assist) ({env})")

            def start_waiting():
                _, started, _ = cli("automation", "start", str(automation))
                run_id = data(started).get("id")
                wait_for("the run to wait", lambda: run_status(run_id) == "waiting")
                return run_id

            def notified(count):
                return wait_for(f"Notify call {count}", lambda: len(mock_calls("Notify")) >= count and
                                mock_calls("Notify"), timeout=15)[count - 1]


            # 1. Posted with its words and actions; a forged approve ignored; the server's approves.
            run_id = start_waiting()
            app_name, replaces, icon, summary, body, actions, hints, expires = notified(1)
            check.expect(app_name == "companyOS" and replaces == 0 and summary ==
                         "companyOS: tidy <reports> waits for your approval",
                         f"the summary names the automation ({app_name!r}, {summary!r})")
            check.expect("touch the marker & go on" in body and f"Run {run_id}" in body,
                         f"the body has the step's description and the run ({body!r})")
            check.expect(actions == ["approve", "Approve", "deny", "Deny"] and expires == 0,
                         f"approve and deny as actions; it does not expire on its own ({actions}, {expires})")
            first_id = 1  # the mock numbers from 1
            forged_action(first_id, "approve")
            wait_for("the forged signal to be seen", lambda: "ignored ActionInvoked" in open(log_path).read())
            check.expect(run_status(run_id) == "waiting" and not os.path.exists(marker),
                         "a forged ActionInvoked from another connection is ignored: the run still waits")
            server_emits("ActionInvoked", "us", ("u", str(first_id)), ("s", "approve"))
            wait_for("the approved run to end", lambda: run_status(run_id) == "succeeded", timeout=20)
            check.expect(os.path.exists(marker), "approved from the notification: the command ran (the file)")
            check.expect(closed(first_id), "its notification is closed once the wait ended")

            # 2. Denied from the notification: blocked, nothing ran, closed.
            os.unlink(marker)
            run_id = start_waiting()
            notified(2)
            server_emits("ActionInvoked", "us", ("u", "2"), ("s", "deny"))
            wait_for("the denied run to end", lambda: run_status(run_id) == "blocked", timeout=20)
            check.expect(closed(2) and not os.path.exists(marker),
                         "denied from the notification: blocked, the command never ran, closed")

            # 3. Denied elsewhere (the CLI): the notification closes too.
            run_id = start_waiting()
            notified(3)
            cli("run", "deny", str(run_id))
            check.expect(closed(3) and run_status(run_id) == "blocked", "denied with the CLI: its notification closes")

            # 4. The setting off: what was posted closes, nothing more is posted.
            run_id = start_waiting()
            notified(4)
            cli("settings", "set", "notifications", "false")
            check.expect(closed(4), "the setting off closes what was posted")
            posted = len(mock_calls("Notify"))
            cli("run", "deny", str(run_id))
            run_id = start_waiting()
            cli("run", "deny", str(run_id))
            wait_for("the last run to end", lambda: run_status(run_id) == "blocked")
            check.expect(len(mock_calls("Notify")) == posted, "with notifications off nothing more is posted")
        except TimeoutError as e:
            check.expect(False, f"gave up waiting: {e}")
        finally:
            daemon.terminate()
            daemon.wait(10)

        # 5. Expiry: a daemon whose runs wait 4 s closes the notification when the wait expires.
        daemon = subprocess.Popen([DAEMON, "--approval-timeout", "4"], stdin=subprocess.DEVNULL)
        try:
            wait_for("daemon", lambda: cli("ping")[0] == 0)
            cli("settings", "set", "notifications", "true")
            posted = len(mock_calls("Notify"))
            _, started, _ = cli("automation", "start", str(automation))
            run_id = data(started).get("id")
            expired_id = posted + 1
            wait_for("its notification", lambda: len(mock_calls("Notify")) > posted, timeout=15)
            wait_for("the wait to expire", lambda: run_status(run_id) == "blocked", timeout=20)
            reason = data(cli("run", "show", str(run_id))[1]).get("reason") or ""
            check.expect("not approved within 4 s" in reason and closed(expired_id),
                         f"an expired wait ends blocked and closes its notification ({reason!r})")
        except TimeoutError as e:
            check.expect(False, f"gave up waiting: {e}")
        finally:
            daemon.terminate()
            daemon.wait(10)
            server.terminate()
            server.wait(10)
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
