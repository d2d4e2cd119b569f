#!/usr/bin/env python3
"""The agent-desktop bridge through the CLI and the daemon, judged from outside: fake
bridge programs written here record every call's argv (one NUL-terminated argument per
value) and answer as the real program would (list-windows prints one line per window,
focus-window prints nothing, exit 0). Checked: the setting, the exact calls, each failure
and refusal with nothing called that should not be, a hanging call killed with its group at
the 10 s deadline, press never going through the program (the typed key reaches a fixture
app), and a daemon log that keeps no output of the program."""

import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from checks import Checker  # noqa: E402
from fixture_app import FixtureApp  # noqa: E402
from observe_cli_check import CLI, DAEMON, FIXTURE, cli, wait_for  # noqa: E402

# Printed by every fake on stdout and stderr; it must never reach a reply or the log.
MARKER = "bridge-output-marker-7f3c"
APP = "bridge-app.test+1"  # on no bus: the built-in path would answer APP_NOT_FOUND
CALL_DEADLINE_S = 10


def write_fake(path, record, windows=1, fail_step=None, fail_status=3, hang_step=None):
    """A fake agent-desktop program that appends its argv to RECORD and behaves as asked."""
    q = shlex.quote
    lines = [
        "#!/bin/sh",
        f"record={q(record)}",
        "{ printf '%s\\0' \"$@\"; printf '\\n'; } >>\"$record\"",
        f"echo {q(MARKER)} >&2",
    ]
    if hang_step:
        # The child holds the group: only a kill of the whole group ends it.
        lines += [f"if [ \"$1\" = {q(hang_step)} ]; then",
                  "  sleep 600 & echo $! >\"$record.sleeper\"; wait; exit 0", "fi"]
    if fail_step:
        lines += [f"[ \"$1\" = {q(fail_step)} ] && exit {fail_status}"]
    lines += [
        "case $1 in",
        f"  list-windows) i=0; while [ $i -lt {windows} ]; do i=$((i + 1));"
        f" printf '0x%x\\t%s window %s\\n' $((0x1200000 + i)) {q(MARKER)} $i; done ;;",
        "  focus-window) ;;",
        "  *) exit 2 ;;",
        "esac",
    ]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.chmod(path, 0o755)
    return path


def read_calls(record):
    """Every recorded call as its list of arguments."""
    try:
        with open(record, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return []
    calls = []
    for line in data.split(b"\n")[:-1]:
        calls.append([arg.decode() for arg in line.split(b"\0")[:-1]])
    return calls


def process_gone(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (FileNotFoundError, IndexError):
        return True


def error_of(env):
    return env["error"] if env and not env["ok"] else {"code": None, "details": {}, "retry": None}


class BridgeCheck:
    def __init__(self, check, tmp):
        self.check = check
        self.tmp = tmp
        self.record = os.path.join(tmp, "calls")

    def use(self, program):
        rc, env, _ = cli("settings", "set", "agent_desktop_path", program)
        self.check.expect(rc == 0 and env["data"]["value"] == program,
                          f"settings set agent_desktop_path {os.path.basename(program) or repr('')}")

    def fake(self, name, **behaviour):
        return write_fake(os.path.join(self.tmp, name), self.record, **behaviour)

    def clear_record(self):
        if os.path.exists(self.record):
            os.remove(self.record)

    def focus(self, *args, app=APP):
        """focus-window --app APP through the CLI; the calls recorded during it."""
        self.clear_record()
        rc, env, seconds = cli("focus-window", f"--app={app}", *args)
        self.check.expect(env is None or MARKER not in json.dumps(env),
                          f"no output of the program in the reply to focus-window --app {app!r}")
        return rc, env, seconds, read_calls(self.record)


def check_focus(bc, check):
    bc.use(bc.fake("bridge-one", windows=1))
    rc, env, _, calls = bc.focus()
    data = env["data"] if rc == 0 else {}
    check.expect(rc == 0 and data.get("via") == "agent_desktop" and
                 data.get("delivery") == "delivered_unverified" and data.get("windows") == 1,
                 f"focus-window goes through the bridge ({env and (env.get('data') or env.get('error'))})")
    check.expect(calls == [["list-windows", "--app", APP], ["focus-window", "--app", APP]],
                 f"the program got exactly list-windows then focus-window, one argument per value {calls}")
    check.expect([(c["step"], c["exit_status"], c["timed_out"]) for c in data.get("calls", [])] ==
                 [("list-windows", 0, False), ("focus-window", 0, False)] and
                 all(set(c) == {"step", "exit_status", "timed_out", "duration_ms"} for c in data["calls"]),
                 "the reply keeps step, exit status and duration of each call only")

    human = subprocess.run([CLI, "focus-window", f"--app={APP}"], capture_output=True, text=True, timeout=60)
    check.expect(human.returncode == 0 and APP in human.stdout,
                 f"the human reply names the app (exit {human.returncode}: {human.stderr.strip()[-200:]!r})")

    # Password managers are refused for action whichever way the action would go.
    rc, env, _, calls = bc.focus(app="keepassxc")
    check.expect(rc == 1 and error_of(env)["code"] == "POLICY_DENIED" and not calls,
                 f"a password manager is refused before any call "
                 f"({error_of(env)['code']}, {len(calls)} calls)")

    for name in ("a;reboot", "$(id)", "two words", "../x", "-rf", "é", "x" * 129, ""):
        rc, env, _, calls = bc.focus(app=name)
        error = error_of(env)
        refused = (rc == 1 and error["code"] == "INVALID_ARGS" and
                   error["details"].get("reason") == "invalid_app_name") or (name == "" and rc in (1, 2))
        check.expect(refused and not calls, f"app name {name[:20]!r} is refused before any call")
    rc, env, _, calls = bc.focus("--window", "123")
    check.expect(rc == 1 and error_of(env)["details"].get("reason") == "bridge_by_app_only" and not calls,
                 "--window with the bridge is refused before any call")

    for name, windows, code, reason in (("bridge-two", 2, "AMBIGUOUS_TARGET", "ambiguous"),
                                        ("bridge-none", 0, "WINDOW_NOT_FOUND", "no_window")):
        bc.use(bc.fake(name, windows=windows))
        rc, env, _, calls = bc.focus()
        error = error_of(env)
        check.expect(rc == 1 and error["code"] == code and error["details"].get("reason") == reason and
                     error["details"].get("windows") == windows and error["retry"] == "safe",
                     f"{windows} listed windows: {code} ({reason}), retry safe")
        check.expect(calls == [["list-windows", "--app", APP]],
                     f"{windows} listed windows: focus-window never called")


def check_failures(bc, check):
    for step, expected_calls, retry, delivery in (("list-windows", 1, "safe", "not_delivered"),
                                                  ("focus-window", 2, "unsafe", "unknown")):
        bc.use(bc.fake(f"bridge-fail-{step}", fail_step=step, fail_status=3))
        rc, env, _, calls = bc.focus()
        error = error_of(env)
        last = (error["details"].get("calls") or [{}])[-1]
        check.expect(rc == 1 and error["code"] == "INTERNAL" and
                     error["details"].get("reason") == "bridge_failed" and
                     error["details"].get("step") == step and last.get("exit_status") == 3 and
                     error["retry"] == retry and error["details"].get("delivery") == delivery,
                     f"{step} exiting 3: INTERNAL bridge_failed with exit status 3, retry {retry} "
                     f"({error.get('message')})")
        check.expect(len(calls) == expected_calls, f"{step} exiting 3: {expected_calls} call(s) made {calls}")

    not_a_script = os.path.join(bc.tmp, "bridge-no-interpreter")
    with open(not_a_script, "w") as f:
        f.write(f"echo {MARKER}\n")
    os.chmod(not_a_script, 0o755)
    bc.use(not_a_script)
    rc, env, _, _ = bc.focus()
    error = error_of(env)
    check.expect(rc == 1 and error["details"].get("reason") == "bridge_failed" and
                 error["details"].get("errno") == 8 and error["retry"] == "safe",
                 f"a program without #! cannot start: bridge_failed, retry safe ({error.get('message')})")

    bc.use(bc.fake("bridge-hang", hang_step="focus-window"))
    rc, env, seconds, calls = bc.focus()
    error = error_of(env)
    last = (error["details"].get("calls") or [{}])[-1]
    check.expect(rc == 1 and error["code"] == "TIMEOUT" and
                 error["details"].get("reason") == "bridge_timeout" and
                 last.get("step") == "focus-window" and last.get("timed_out") is True and
                 error["retry"] == "unsafe",
                 "a hanging focus-window: TIMEOUT bridge_timeout, retry unsafe")
    check.expect(CALL_DEADLINE_S <= seconds < CALL_DEADLINE_S + 5,
                 f"the hanging call is killed at its {CALL_DEADLINE_S} s deadline ({seconds:.1f} s)")
    try:
        with open(bc.record + ".sleeper") as f:
            sleeper = int(f.read())
        gone = bool(wait_for("the hung call's child to go", lambda: process_gone(sleeper), timeout=10))
    except (OSError, ValueError, TimeoutError):
        gone = False
    check.expect(gone, "the hung call's child was killed with its process group")


def check_bad_paths(bc, check, fixture):
    bc.clear_record()
    deleted = bc.fake("bridge-deleted")
    bc.use(deleted)
    os.remove(deleted)
    not_executable = bc.fake("bridge-not-executable")
    os.chmod(not_executable, 0o644)
    for program, why in ((deleted, "no file exists there"), (not_executable, "it is not executable")):
        if program == not_executable:
            bc.use(not_executable)
        for args in (("press", "h", f"--app={fixture}", "--headed"), ("focus-window", f"--app={APP}")):
            rc, env, _ = cli(*args)
            error = error_of(env)
            check.expect(rc == 1 and error["code"] == "NOT_FOUND" and
                         error["details"].get("reason") == "bridge_unavailable" and
                         error["details"].get("why") == why and error["retry"] == "safe",
                         f"{args[0]} with a bridge path where {why}: refused, bridge_unavailable")
    check.expect(not read_calls(bc.record), "nothing ran for the bad paths")
    rc, env, _ = cli("settings", "set", "agent_desktop_path", os.path.join(bc.tmp, "missing"))
    check.expect(rc == 1 and error_of(env)["code"] == "INVALID_ARGS",
                 "the setting refuses a path with no file")
    rc, env, _ = cli("settings", "get", "agent_desktop_path")
    check.expect(rc == 0 and env["data"]["value"] == not_executable, "a refused value changes nothing")


def main():
    check = Checker("bridge")
    with tempfile.TemporaryDirectory() as tmp:
        log_path = os.path.join(tmp, "daemon.log")
        with open(log_path, "w") as log:
            daemon = subprocess.Popen([DAEMON, "--log-level", "info"], stdin=subprocess.DEVNULL,
                                      stdout=log, stderr=log)
        bc = BridgeCheck(check, tmp)
        try:
            wait_for("daemon", lambda: cli("ping")[0] == 0)
            check_focus(bc, check)
            check_failures(bc, check)

            fixture = "bridge-typed"
            with FixtureApp(FIXTURE, fixture, os.path.join(tmp, "typed.txt"), "--title", "Typed") as app:
                check_bad_paths(bc, check, fixture)
                # A press always uses XTest, even with a working bridge set.
                bc.use(bc.fake("bridge-for-press"))
                cli("settings", "set", "physical_input", "true")
                bc.clear_record()
                # The entry has the focus; Tab moves it to "Write effect", which Return clicks.
                replies = [cli("press", chord, f"--app={fixture}", "--headed")
                           for chord in ("h", "Tab", "Return")]
                typed = all(rc == 0 for rc, _, _ in replies) and app.wait_for_effect("", b"h", timeout=10)
                check.expect(typed, f"press with the bridge set types through XTest ({app.effect('')!r})")
                check.expect(not read_calls(bc.record), "press never calls the bridge program")

            bc.use("")
            rc, env, _, calls = bc.focus()
            check.expect(rc == 1 and error_of(env)["code"] == "APP_NOT_FOUND" and not calls,
                         "with the setting empty, focus-window uses the built-in path again")
        finally:
            daemon.send_signal(signal.SIGTERM)
            try:
                daemon.wait(10)
            except subprocess.TimeoutExpired:
                daemon.kill()
                daemon.wait()
        with open(log_path, errors="replace") as f:
            logged = f.read()
        check.expect("agent-desktop list-windows: exit 0 in" in logged and
                     "agent-desktop focus-window: killed at the deadline" in logged,
                     "the daemon log names each call's step, exit status and duration")
        bridge_lines = [line for line in logged.splitlines() if "agent-desktop" in line]
        check.expect(MARKER not in logged and not any(APP in line for line in bridge_lines),
                     "the daemon log keeps no output of the program, and no app name in its lines")
    return check.summary()


if __name__ == "__main__":
    started = time.monotonic()
    status = main()
    print(f"     took {time.monotonic() - started:.1f}s", flush=True)
    sys.exit(status)
