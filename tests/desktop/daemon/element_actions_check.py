#!/usr/bin/env python3
"""Element actions through the CLI, judged from outside the tool: the fixture writes every
effect to a file (FILE, FILE.check, FILE.combo, FILE.tree, FILE.value, FILE.disabled), and
state without an outside effect (focus) is read afresh with `get`. Also the physical-input
gate and XTest input (press, click --headed), batch with --stop-on-error, refusals that
deliver nothing and are safe to retry, and audit rows and logs that never hold a value.
Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
import atspi_probe  # noqa: E402
from checks import Checker  # noqa: E402
from fixture_app import FixtureApp, unique_name  # noqa: E402
from observe_cli_check import CLI, DAEMON, FIXTURE, cli, flatten, wait_for  # noqa: E402

SECRET = "hunter2-sëcret"
TYPED_SECRET = "xyzzy-typed"
WATCH_S = 0.5  # how long an effect file that must not appear is watched


def human(*args):
    """Runs `companyos ARGS` without --json; returns (exit status, stdout + stderr)."""
    done = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout + done.stderr


def stays_absent(app, suffix=""):
    """Watches FILE+SUFFIX for a while; True if it never appeared."""
    deadline = time.monotonic() + WATCH_S
    while time.monotonic() < deadline:
        if app.effect(suffix) is not None:
            return False
        time.sleep(0.02)
    return True


def remove_effect(app, suffix=""):
    try:
        os.remove(app.effect_path + suffix)
    except FileNotFoundError:
        pass


class Snapshot:
    def __init__(self, envelope):
        self.id = envelope["data"]["snapshot"]
        self.nodes = flatten(envelope["data"]["tree"], [])

    def ref(self, role, name):
        refs = [n["ref"] for n in self.nodes if n["role"] == role and n["name"] == name]
        return refs[0] if len(refs) == 1 else None


def snapshot(app):
    def probe():
        rc, env, _ = cli("snapshot", "--app", app.app_name)
        if rc != 0:
            return None
        taken = Snapshot(env)
        return taken if any(n["name"] == "Write effect" for n in taken.nodes) else None
    return wait_for(f"a snapshot of {app.app_name}", probe)


def delivered(rc, env, delivery):
    return rc == 0 and env["data"]["delivery"] == delivery


def refused(rc, env, code):
    """A refusal with this code that delivered nothing and says a retry is safe."""
    return (rc == 1 and env is not None and env["error"]["code"] == code and
            env["error"]["details"].get("delivery") == "not_delivered" and env["error"]["retry"] == "safe")


def sel(app, role, name):
    return ["--app", app.app_name, "--role", role, "--name", name]


def check_semantic_actions(check, app):
    shot = snapshot(app)
    entry, button = shot.ref("text", "Text"), shot.ref("push button", "Write effect")
    text = 'cost $5; "quoted" \'single\' — ünïcödé'
    rc, env, _ = cli("set-value", entry, text)
    check.expect(delivered(rc, env, "delivered_verified") and env["data"]["verification"]["read"] == text and
                 env["data"]["route"] == "EditableText.SetTextContents",
                 "set-value by ref is verified by reading the text back")
    rc, env, _ = cli("click", button)
    check.expect(delivered(rc, env, "delivered_unverified") and env["data"]["route"] == "action:click",
                 "click by ref is delivered (unverified without an expectation)")
    check.expect(app.wait_for_effect("", text.encode()), "the effect file holds exactly the text set")

    # A bare ref: with --snapshot, and with --app (that window's newest snapshot).
    remove_effect(app)
    bare_entry, bare_button = entry.split(":")[-1], button.split(":")[-1]
    rc, env, _ = cli("set-value", bare_entry, "--snapshot", shot.id, "bare one")
    check.expect(delivered(rc, env, "delivered_verified"), "set-value e<N> --snapshot ID")
    rc, env, _ = cli("click", bare_button, "--app", app.app_name)
    check.expect(delivered(rc, env, "delivered_unverified") and env["data"]["target"]["ref"] == button,
                 "click e<N> --app resolves against the window's newest snapshot")
    check.expect(app.wait_for_effect("", b"bare one"), "the bare refs acted on the fixture")
    rc, env, _ = cli("click", bare_button, "--app", "no-such-app-here")
    check.expect(rc == 1 and env["error"]["code"] == "INVALID_ARGS" and "--snapshot" in
                 env["error"].get("suggestion", ""), "a bare ref with no known snapshot says to pass --snapshot")

    # Selectors, and type at the caret.
    remove_effect(app)
    rc, env, _ = cli("set-value", *sel(app, "text", "Text"), "--id", "text-entry", "base")
    check.expect(delivered(rc, env, "delivered_verified"), "set-value by selector with --id")
    rc, env, _ = cli("type", *sel(app, "text", "Text"), "+ü$;")
    shown = env["data"]["verification"]["read"] if rc == 0 else ""
    check.expect(delivered(rc, env, "delivered_verified") and "+ü$;" in shown and len(shown) == len("base+ü$;"),
                 f"type inserts at the caret and is read back ({shown!r})")
    cli("click", *sel(app, "push button", "Write effect"))
    check.expect(app.wait_for_effect("", shown.encode()), "the typed text reached the app")

    # Toggle, select, expand/collapse, a named action, a spin button: each writes a file.
    rc, env, _ = cli("toggle", shot.ref("check box", "Enable feature"))
    check.expect(delivered(rc, env, "delivered_verified") and app.wait_for_effect(".check", b"1"),
                 "toggle checks the check box (FILE.check = 1)")
    rc, env, _ = cli("toggle", *sel(app, "check box", "Enable feature"))
    check.expect(delivered(rc, env, "delivered_verified") and app.wait_for_effect(".check", b"0"),
                 "toggle again unchecks it (FILE.check = 0)")
    rc, env, _ = cli("select", shot.ref("menu item", "Green"))
    check.expect(delivered(rc, env, "delivered_verified") and app.wait_for_effect(".combo", b"Green"),
                 "select picks Green in the combo (FILE.combo)")
    rc, env, _ = cli("select", *sel(app, "menu item", "Blue"))
    check.expect(delivered(rc, env, "delivered_verified") and app.wait_for_effect(".combo", b"Blue"),
                 "select by selector picks Blue")
    # The closed combo box's item, which the app wrote (FILE.combo), is its value in a new look.
    combos = [n for n in snapshot(app).nodes if n["role"] == "combo box" and n["name"] == "Color"]
    check.expect(len(combos) == 1 and combos[0].get("value") == (app.effect(".combo") or b"").decode(),
                 f"the closed combo box shows the item the app holds as its value ({combos})")
    row = shot.ref("table cell", "Parent")
    rc, env, _ = cli("expand", row)
    check.expect(delivered(rc, env, "delivered_verified") and app.wait_for_effect(".tree", b"1"),
                 "expand opens the tree row (FILE.tree = 1)")
    remove_effect(app, ".tree")
    rc, env, _ = cli("expand", row)
    check.expect(delivered(rc, env, "not_delivered") and env["data"].get("already") and stays_absent(app, ".tree"),
                 "expand of an expanded row sends nothing")
    rc, env, _ = cli("collapse", row)
    check.expect(delivered(rc, env, "delivered_verified") and app.wait_for_effect(".tree", b"0"),
                 "collapse closes it (FILE.tree = 0)")
    rc, env, _ = cli("action", row, "expand or contract")
    check.expect(delivered(rc, env, "delivered_unverified") and app.wait_for_effect(".tree", b"1"),
                 "a named action reaches the row")
    rc, env, _ = cli("action", row, "explode")
    check.expect(refused(rc, env, "ACTION_NOT_SUPPORTED"), "an action the element does not list is refused")
    rc, env, _ = cli("set-value", shot.ref("spin button", "Level"), "42")
    check.expect(delivered(rc, env, "delivered_verified") and env["data"]["route"] == "Value.CurrentValue" and
                 app.wait_for_effect(".value", b"42"), "set-value on the spin button (FILE.value = 42)")
    remove_effect(app, ".value")
    rc, env, _ = cli("set-value", shot.ref("spin button", "Level"), "--", "-5")
    check.expect(refused(rc, env, "INVALID_ARGS") and stays_absent(app, ".value"),
                 "a value outside the spin button's range is refused, nothing changes")

    # Focus has no outside effect: a fresh get is the judge.
    check_box = shot.ref("check box", "Enable feature")
    rc, env, _ = cli("focus", check_box)
    _, got, _ = cli("get", check_box)
    check.expect(delivered(rc, env, "delivered_verified") and "focused" in got["data"]["states"],
                 "focus: a fresh get shows the check box focused")

    # An expectation decides whether a click is verified.
    rc, env, _ = cli("click", check_box, "--expect-state", check_box, "checked")
    check.expect(delivered(rc, env, "delivered_verified") and env["data"]["expectation"]["met"] and
                 app.wait_for_effect(".check", b"1"), "click --expect-state … checked is verified")
    rc, env, _ = cli("click", button, "--expect-text", "never shown anywhere", "--expect-timeout", "200")
    check.expect(delivered(rc, env, "delivered_unverified") and env["data"]["expectation"]["reason"] == "timeout",
                 "an expectation that is not met leaves the click unverified")

    # Disabled, unsupported and password targets.
    rc, env, _ = cli("click", shot.ref("push button", "Disabled action"))
    check.expect(refused(rc, env, "POLICY_DENIED") and env["error"]["details"].get("reason") == "not_enabled",
                 "a disabled button is refused (not_enabled)")
    check.expect(stays_absent(app, ".disabled"), "and the disabled button's file never appears")
    rc, env, _ = cli("toggle", button)
    check.expect(refused(rc, env, "ACTION_NOT_SUPPORTED"), "toggle on a push button has no semantic route")
    password = shot.ref("password text", "Password")
    rc, env, out = cli("set-value", password, SECRET)
    check.expect(refused(rc, env, "POLICY_DENIED") and env["error"]["details"].get("reason") == "secret_required",
                 "a password field needs --secret")
    done = subprocess.run([CLI, "--json", "set-value", password, SECRET, "--secret"], capture_output=True, text=True)
    env = json.loads(done.stdout)
    check.expect(done.returncode == 0 and env["data"]["delivery"] == "delivered_verified" and
                 env["data"]["verification"]["check"] == "characters", "set-value --secret is verified by length")
    check.expect(SECRET not in done.stdout + done.stderr, "the reply never holds the secret")
    rc, out = human("type", password, TYPED_SECRET, "--secret")
    check.expect(rc == 0 and out.startswith("delivered_verified: type password text \"Password\"") and
                 TYPED_SECRET not in out, f"the human line states the delivery, never the text: {out.strip()!r}")
    rc, out = human("set-value", entry, "shown")
    check.expect(rc == 0 and out.startswith('delivered_verified: set-value text "Text" '
                                            '(EditableText.SetTextContents) ') and out.rstrip().endswith(" ms"),
                 f"set-value's human line: {out.strip()!r}")


def check_refusals(check, tmp):
    with FixtureApp(FIXTURE, unique_name("ActAmb"), os.path.join(tmp, "amb"), "--ambiguous") as app:
        shot = snapshot(app)
        twins = [n["ref"] for n in shot.nodes if n["name"] == "Write effect"]
        cli("set-value", shot.ref("text", "Text"), "twin text")
        for target in ([twins[0]], sel(app, "push button", "Write effect")):
            rc, env, _ = cli("click", *target)
            check.expect(refused(rc, env, "AMBIGUOUS_TARGET") and
                         env["error"]["details"].get("kind") == "identity_not_unique",
                         f"click {' '.join(target)} on twins is AMBIGUOUS_TARGET, not delivered, retry safe")
        check.expect(stays_absent(app), "no twin wrote the effect file")

    control = os.path.join(tmp, "stale-control")
    with FixtureApp(FIXTURE, unique_name("ActStale"), os.path.join(tmp, "stale"), "--stale", control) as app:
        shot = snapshot(app)
        button = shot.ref("push button", "Write effect")
        cli("set-value", shot.ref("text", "Text"), "moved on")
        with open(control, "w"):
            pass
        app.wait_for_nodes("the Inserted label", lambda nodes: atspi_probe.find(nodes, "label", "Inserted"))
        rc, env, _ = cli("click", button, "--strict")
        check.expect(refused(rc, env, "STALE_REF") and env["error"]["details"].get("kind") == "fingerprint_changed",
                     "click --strict on a moved button is STALE_REF, not delivered, retry safe")
        check.expect(stays_absent(app), "the strict refusal wrote nothing")
        rc, env, _ = cli("click", button)
        check.expect(delivered(rc, env, "delivered_unverified") and app.wait_for_effect("", b"moved on"),
                     "the same ref without --strict still acts: the identity is unique")
        rc, env, _ = cli("click", "@zzzz:e1")
        check.expect(refused(rc, env, "STALE_REF"), "an unknown snapshot is STALE_REF")


def check_physical_input(check, app):
    shot = snapshot(app)
    entry, button = shot.ref("text", "Text"), shot.ref("push button", "Write effect")
    remove_effect(app)
    cli("settings", "set", "physical_input", "false")
    rc, env, _ = cli("click", button, "--headed")
    check.expect(refused(rc, env, "POLICY_DENIED") and
                 env["error"]["details"].get("reason") == "physical_input_disabled",
                 "click --headed is refused while physical_input is off")
    cli("settings", "set", "physical_input", "true")
    rc, env, _ = cli("press", "h", "--app", app.app_name)
    check.expect(rc == 1 and env["error"]["details"].get("reason") == "physical_input_disabled",
                 "press without --headed is refused even with the setting on")
    check.expect(stays_absent(app), "nothing reached the app through the gate")

    rc, env, _ = cli("set-value", entry, "")
    check.expect(delivered(rc, env, "delivered_verified"), "the entry is emptied")
    rc, env, _ = cli("focus", entry)
    check.expect(delivered(rc, env, "delivered_verified"), "the entry has the focus")
    for chord in ("h", "i", "shift+1"):
        rc, env, _ = cli("press", chord, "--app", app.app_name, "--headed")
        check.expect(delivered(rc, env, "delivered_unverified"), f"press {chord} through XTest")
    rc, env, _ = cli("click", button, "--headed")
    check.expect(delivered(rc, env, "delivered_unverified") and env["data"]["route"] == "xtest:pointer" and
                 "point" in env["data"], "click --headed goes through the pointer")
    check.expect(app.wait_for_effect("", b"hi!"), f"the pointer click wrote the keys pressed ({app.effect()!r})")
    rc, env, _ = cli("click", shot.ref("push button", "Disabled action"), "--headed")
    check.expect(refused(rc, env, "POLICY_DENIED") and env["error"]["details"].get("reason") == "not_enabled" and
                 stays_absent(app, ".disabled"), "click --headed on a disabled button is refused too")
    cli("settings", "set", "physical_input", "false")


def check_batch(check, app):
    shot = snapshot(app)
    entry, button = shot.ref("text", "Text"), shot.ref("push button", "Write effect")
    remove_effect(app)
    steps = [{"command": "set-value", "args": {"ref": entry, "value": "batch text"}},
             {"command": "click", "args": {"ref": "@zzzz:e1"}},
             {"command": "click", "args": {"ref": button}}]
    rc, env, _ = cli("batch", json.dumps(steps), "--stop-on-error")
    statuses = [s["status"] for s in env["data"]["steps"]] if env and env.get("ok") else []
    check.expect(rc == 1 and statuses == ["ok", "error", "not_run"] and env["data"]["stopped"],
                 f"batch --stop-on-error stops at the failing step {statuses}")
    check.expect(env and env["data"]["steps"][1]["error"]["code"] == "STALE_REF", "the failed step says why")
    check.expect(stays_absent(app), "the step after the failure did not run")
    rc, env, _ = cli("batch", json.dumps(steps))
    statuses = [s["status"] for s in env["data"]["steps"]] if env and env.get("ok") else []
    check.expect(rc == 1 and statuses == ["ok", "error", "ok"], f"without --stop-on-error every step runs {statuses}")
    check.expect(app.wait_for_effect("", b"batch text"), "the batch's click wrote what its set-value set")

    remove_effect(app)
    for bad, why in (([{"command": "set-value", "args": {"ref": entry, "value": "never"}},
                       {"command": "explode", "args": {}}], "an unknown command"),
                     ([{"command": "set-value", "args": {"ref": entry, "value": "never"}},
                       {"command": "batch", "args": {"steps": []}}], "a nested batch"),
                     ([{"command": "set-value", "args": {"ref": entry, "value": "never"}}] * 101, "101 steps")):
        rc, env, _ = cli("batch", json.dumps(bad))
        check.expect(rc == 1 and env["error"]["code"] == "INVALID_ARGS", f"{why} refuses the batch")
    rc, env, _ = cli("click", button)
    check.expect(app.wait_for_effect("", b"batch text"), "no step of a refused batch ran")
    rc, out = human("batch", "not json")
    check.expect(rc == 2, "batch with malformed JSON is a usage error")


def check_caller_gone(check, tmp):
    """An action whose caller gave up (its reply timeout passed while the app was stopped)
    is never delivered once the app answers again: the caller was told it failed."""
    with FixtureApp(FIXTURE, unique_name("ActGone"), os.path.join(tmp, "gone")) as app:
        os.kill(app.process.pid, signal.SIGSTOP)
        try:
            gave_up = subprocess.run([CLI, "--json", "--reply-timeout", "800", "click", "--app", app.app_name,
                                      "--role", "push button", "--name", "Write effect", "--timeout", "15000"],
                                     capture_output=True, text=True, timeout=60)
        finally:
            os.kill(app.process.pid, signal.SIGCONT)
        check.expect(gave_up.returncode != 0, f"the caller gives up after 0.8 s (exit {gave_up.returncode})")

        def click_ended():
            rows = cli("audit", "--limit", "5")[1]["data"]["rows"]
            row = next((r for r in rows if r["method"] == "click" and r["app"] == app.app_name), None)
            return row if row and row["outcome"] != "pending" else None

        row = wait_for("the click's audit row", click_ended, timeout=30)
        check.expect(row["outcome"] == "not_delivered" and row["error_code"] == "TIMEOUT",
                     f"the click whose caller left is not delivered once the app answers again: {row}")
        app.nodes()  # the app has handled everything sent to it
        check.expect(stays_absent(app), "the fixture never saw the click")


def check_audit(check, daemon_log):
    rc, env, _ = cli("audit", "--limit", "1000")
    rows = env["data"]["rows"] if rc == 0 else []
    methods = {r["method"] for r in rows}
    check.expect({"click", "toggle", "select", "focus", "expand", "collapse", "action", "set_value",
                  "type", "press"} <= methods, f"every action wrote audit rows {sorted(methods)}")
    check.expect(all(set(r) == {"at", "method", "app", "target_role", "outcome", "error_code", "duration_ms", "origin"}
                     for r in rows), "audit rows have no column for text")
    flat = json.dumps(rows, ensure_ascii=False)
    check.expect(SECRET not in flat and TYPED_SECRET not in flat and "batch text" not in flat and
                 "moved on" not in flat, "no value appears in the audit rows")
    password_rows = [r for r in rows if r["target_role"] == "password text" and r["outcome"] == "delivered_verified"]
    check.expect(len(password_rows) == 2, "the secret writes are audited by role and outcome")
    refused_rows = [r for r in rows if r["error_code"] == "AMBIGUOUS_TARGET"]
    check.expect(len(refused_rows) == 2 and all(r["outcome"] == "not_delivered" for r in refused_rows),
                 "refusals are audited as not_delivered with their code")
    with open(daemon_log, encoding="utf-8", errors="replace") as log:
        text = log.read()
    check.expect(SECRET not in text and TYPED_SECRET not in text, "the daemon's debug log never holds a secret")


def main():
    check = Checker("element-actions")
    with tempfile.TemporaryDirectory() as tmp:
        daemon_log = os.path.join(tmp, "daemon.log")
        with open(daemon_log, "w") as log:
            daemon = subprocess.Popen([DAEMON, "--log-level", "debug"], stdin=subprocess.DEVNULL, stderr=log)
        try:
            wait_for("daemon", lambda: cli("ping")[0] == 0)
            with FixtureApp(FIXTURE, unique_name("ActMain"), os.path.join(tmp, "main"), "--title", "Actions") as app:
                check_semantic_actions(check, app)
                check_physical_input(check, app)
                check_batch(check, app)
            check_refusals(check, tmp)
            check_caller_gone(check, tmp)
            check_audit(check, daemon_log)
        finally:
            daemon.terminate()
            daemon.wait(10)
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
