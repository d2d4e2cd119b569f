#!/usr/bin/env python3
"""focus-window, close-window and press through the CLI, judged from outside: the root
window's _NET_ACTIVE_WINDOW (xprop), the fixture's effect file, the process exiting.
Also the physical-input gate, the session-chord block and one audit row per action."""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from checks import Checker  # noqa: E402
from fixture_app import FixtureApp, read_bytes  # noqa: E402
from observe_cli_check import CLI, DAEMON, FIXTURE, cli, wait_for, the_window  # noqa: E402


def root_active_window():
    out = subprocess.run(["xprop", "-root", "_NET_ACTIVE_WINDOW"], capture_output=True, text=True).stdout
    return int(out.strip().split()[-1], 16) if "#" in out else None


def main():
    check = Checker("window-actions")
    daemon = subprocess.Popen([DAEMON, "--log-level", "warn"], stdin=subprocess.DEVNULL)
    try:
        wait_for("daemon", lambda: cli("ping")[0] == 0)
        with tempfile.TemporaryDirectory() as tmp:
            effect_a = os.path.join(tmp, "a.txt")
            with FixtureApp(FIXTURE, "act-alpha", effect_a, "--title", "Alpha"), \
                 FixtureApp(FIXTURE, "act-beta", os.path.join(tmp, "b.txt"), "--title", "Beta") as beta:
                alpha_x = wait_for("alpha", lambda: the_window("act-alpha"))["x11_window"]
                beta_x = wait_for("beta", lambda: the_window("act-beta"))["x11_window"]

                for name, xid in (("act-alpha", alpha_x), ("act-beta", beta_x), ("act-alpha", alpha_x)):
                    rc, env, _ = cli("focus-window", "--app", name)
                    check.expect(rc == 0 and env["data"]["delivery"] == "delivered_verified",
                                 f"focus-window {name} is verified")
                    check.expect(root_active_window() == xid, f"xprop agrees {name} is active")

                rc, env, _ = cli("press", "h", "--app", "act-alpha", "--headed")
                check.expect(rc == 1 and env["error"]["details"].get("reason") == "physical_input_disabled",
                             "press is refused while physical_input is off")
                cli("settings", "set", "physical_input", "true")
                rc, env, _ = cli("press", "h", "--app", "act-alpha")
                check.expect(rc == 1 and env["error"]["details"].get("reason") == "physical_input_disabled",
                             "press without --headed is refused")
                rc, env, _ = cli("press", "ctrl+alt+BackSpace", "--app", "act-alpha", "--headed")
                check.expect(rc == 1 and env["error"]["details"].get("reason") == "session_chord",
                             "a session chord is refused without --force")
                rc, env, _ = cli("press", "ctrl+nosuchkey", "--app", "act-alpha", "--headed")
                check.expect(rc == 1 and env["error"]["code"] == "INVALID_ARGS" and
                             "nosuchkey" in env["error"]["message"], "an unknown key is named")

                # Beta in front: press must bring Alpha forward before typing into it.
                cli("focus-window", "--app", "act-beta")
                for chord in ("h", "i", "shift+1", "Tab", "Return"):
                    rc, env, _ = cli("press", chord, "--app", "act-alpha", "--headed")
                    check.expect(rc == 0 and env["data"]["delivery"] == "delivered_unverified",
                                 f"press {chord} is delivered (unverified)")
                try:
                    wait_for("effect file", lambda: read_bytes(effect_a) is not None, timeout=10)
                except TimeoutError:
                    pass
                check.expect(read_bytes(effect_a) == b"hi!", f"the typed text reached the app {read_bytes(effect_a)!r}")

                rc, env, _ = cli("close-window", "--app", "act-beta")
                check.expect(rc == 0 and env["data"]["delivery"] == "delivered_verified",
                             "close-window is verified")
                try:
                    beta.process.wait(10)
                except subprocess.TimeoutExpired:
                    pass
                check.expect(beta.process.poll() is not None, "the closed app's process exited")

                rc, env, _ = cli("audit", "--limit", "100")
                rows = env["data"]["rows"] if rc == 0 else []
                methods = [r["method"] for r in rows]
                check.expect(methods.count("focus_window") == 4 and methods.count("press") == 9 and
                             methods.count("close_window") == 1, f"one audit row per action {methods}")
                check.expect(all(set(r) == {"at", "method", "app", "target_role", "outcome", "error_code",
                                            "duration_ms"} for r in rows), "audit rows hold no text")
        rc, env, _ = cli("focus-window", "--app", "act-alpha")
        check.expect(rc == 1 and env["error"]["code"] == "APP_NOT_FOUND", "a gone app is APP_NOT_FOUND")
    finally:
        daemon.terminate()
        daemon.wait(10)
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
