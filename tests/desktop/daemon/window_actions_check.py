#!/usr/bin/env python3
"""focus-window, close-window, press, type-text and click-at through the CLI, judged from
outside: the root window's _NET_ACTIVE_WINDOW (xprop), the client's position (xwininfo), the
fixture's effect file, the process exiting.
Also the physical-input gate, the session-chord block and one audit row per action."""

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from checks import Checker  # noqa: E402
from fixture_app import FixtureApp, read_bytes  # noqa: E402
from observe_cli_check import CLI, DAEMON, FIXTURE, cli, wait_for, the_window  # noqa: E402
from x_server import client_origin, picture_point, root_active_window  # noqa: E402


def check_type_text_and_click_at(check, effect, xid):
    """type-text into the focused entry, press with punctuation, click-at the Write button:
    the fixture's effect file says what arrived."""
    rc, env, _ = cli("focus", "--app", "act-alpha", "--role", "text", "--name", "Text", "--id", "text-entry")
    check.expect(rc == 0, "the entry has the focus")
    rc, env, _ = cli("type-text", "x", "--app", "act-alpha")
    check.expect(rc == 1 and env["error"]["details"].get("reason") == "physical_input_disabled",
                 "type-text without --headed is refused")
    rc, env, _ = cli("type-text", "a\x01b", "--app", "act-alpha", "--headed")
    check.expect(rc == 1 and env["error"]["code"] == "INVALID_ARGS" and
                 env["error"]["details"].get("delivery") == "not_delivered",
                 "a control character is refused before anything is typed")
    cli("press", "End", "--app", "act-alpha", "--headed")  # GTK selects the text on focus
    cli("focus-window", "--app", "act-beta")
    typed = " /.-_ é€"
    rc, env, _ = cli("type-text", typed, "--app", "act-alpha", "--headed")
    check.expect(rc == 0 and env["data"]["delivery"] == "delivered_unverified" and
                 env["data"]["typed"] == len(typed) and env["data"]["route"] == "xtest:keyboard",
                 f"type-text is delivered (unverified) and counts {len(typed)} characters")
    check.expect(typed not in json.dumps(env, ensure_ascii=False), "the reply does not hold the typed text")
    rc, env, _ = cli("press", "/", "--app", "act-alpha", "--headed")
    check.expect(rc == 0, "press takes a punctuation key (/)")

    rc, env, _ = cli("find", "--app", "act-alpha", "--role", "push button", "--name", "Write effect")
    matches = env["data"]["elements"] if rc == 0 else []
    check.expect(len(matches) == 1 and matches[0].get("bounds"), "find gives the Write button's bounds")
    if not matches or not matches[0].get("bounds"):
        return
    x, y = picture_point(matches[0]["bounds"], xid)
    left, top = client_origin(xid)
    rc, env, _ = cli("click-at", "--app", "act-alpha", "--x", "100000", "--y", "5", "--headed")
    check.expect(rc == 2 or (rc == 1 and env["error"]["code"] == "INVALID_ARGS"),
                 "click-at refuses a coordinate past any screen")
    rc, env, _ = cli("click-at", "--app", "act-alpha", "--x", "3000", "--y", "5", "--headed")
    check.expect(rc == 1 and env["error"]["details"].get("reason") == "outside_window" and
                 env["error"]["details"].get("delivery") == "not_delivered",
                 "click-at refuses a point outside the window")
    rc, env, _ = cli("click-at", "--app", "act-alpha", "--x", str(x), "--y", str(y))
    check.expect(rc == 1 and env["error"]["details"].get("reason") == "physical_input_disabled",
                 "click-at without --headed is refused")
    cli("focus-window", "--app", "act-beta")
    rc, env, _ = cli("click-at", "--app", "act-alpha", "--x", str(x), "--y", str(y), "--headed")
    check.expect(rc == 0 and env["data"]["delivery"] == "delivered_unverified" and
                 env["data"]["point"] == {"x": x + left, "y": y + top},
                 f"click-at ({x}, {y}) is delivered at the screen point {x + left}, {y + top}")
    expected = ("hi!" + typed + "/").encode()
    try:
        wait_for("the Write button's effect", lambda: read_bytes(effect) == expected, timeout=10)
    except TimeoutError:
        pass
    check.expect(read_bytes(effect) == expected,
                 f"the typed text and the click reached the app: {read_bytes(effect)!r}")


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

                check_type_text_and_click_at(check, effect_a, alpha_x)

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
                check.expect(methods.count("focus_window") == 6 and methods.count("press") == 11 and
                             methods.count("type_text") == 3 and methods.count("click_at") == 3 and
                             methods.count("close_window") == 1, f"one audit row per action {methods}")
                check.expect(all(set(r) == {"at", "method", "app", "target_role", "outcome", "error_code",
                                            "duration_ms", "origin"} for r in rows), "audit rows hold no text")
        rc, env, _ = cli("focus-window", "--app", "act-alpha")
        check.expect(rc == 1 and env["error"]["code"] == "APP_NOT_FOUND", "a gone app is APP_NOT_FOUND")
    finally:
        daemon.terminate()
        daemon.wait(10)
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
