#!/usr/bin/env python3
"""The promotion gate walked from the CLI, and the two examples no other test runs.

1. A routine that copies a file (its undo removes the copy) and checks the copy by its
   SHA-256 is raised to 3 and run supervised until the gate's figures reach their
   thresholds; promote is refused before and accepted after; then the source changes, the
   next run's check fails, and the routine is back at level 3 at once.
2. data/examples/marker-file-with-undo.json runs and is undone.
3. data/examples/fixture-open-note.json opens a note in the fixture app through a desktop
   entry the test installs, and its undo closes the window.

Every effect is judged from outside the daemon: the files on disk, the fixture's process
and the X server's window list. Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR
set by CTest), whose XDG_DATA_HOME is private to the session."""

import hashlib
import json
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
import atspi_probe  # noqa: E402
from checks import Checker  # noqa: E402
from daemon_cli import (EXAMPLE_DIR, EXAMPLES, FIXTURE, RUN_DEADLINE_S, Daemon, cli,  # noqa: E402
                        data, error, wait_finished, write_json)

EXAMPLE_APP = "companyos-fixture"
EXAMPLE_TITLE = "companyOS fixture"
RUNS_FOR_GATE = 25  # gate condition 5: at least 25 runs in the last 14 days


def wait_for(what, probe, timeout=RUN_DEADLINE_S):
    return atspi_probe.wait_for(what, timeout, probe, interval=0.1)


def run_once(automation_id):
    """Starts a run and returns its finished record (empty when it did not start)."""
    rc, env = cli("automation", "start", str(automation_id))
    run_id = data(env).get("id")
    if rc != 0 or not run_id:
        return {}
    return wait_finished(run_id)


def level_of(automation_id):
    return data(cli("automation", "get", str(automation_id))[1]).get("level")


def gate(automation_id):
    return data(cli("automation", "gate", str(automation_id))[1])


def condition(gate_data, number):
    return next((c for c in gate_data.get("conditions", []) if c.get("number") == number), {})


def create(check, tmp, definition, what):
    path = write_json(os.path.join(tmp, f"{what.replace(' ', '-')}.json"), definition)
    rc, env = cli("automation", "create", path)
    check.expect(rc == 0 and data(env).get("level") == 1, f"{what}: created at level 1 ({rc})")
    return data(env).get("id")


def raise_to_3(check, automation_id, what):
    for _ in range(2):
        cli("automation", "raise", str(automation_id))
    check.expect(level_of(automation_id) == 3, f"{what}: raised to 3")


def example(name, scratch):
    with open(os.path.join(EXAMPLES, name)) as f:
        return json.loads(f.read().replace(EXAMPLE_DIR, scratch))


def sha256_of(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def x_has_window(title):
    out = subprocess.run(["xwininfo", "-root", "-tree"], capture_output=True, text=True).stdout
    return f'"{title}"' in out


def fixture_pids():
    """Pids of fixture processes started with --class companyos-fixture (from /proc)."""
    pids = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if argv and argv[0].endswith(b"companyos-fixture-gtk3") and EXAMPLE_APP.encode() in argv:
            pids.append(int(pid))
    return pids


# ---- 1. the gate, walked ----------------------------------------------------------------

def copy_routine(scratch):
    source = os.path.join(scratch, "source.txt")
    copy = os.path.join(scratch, "copy.txt")
    with open(source, "w") as f:
        f.write("the expected content\n")
    return {
        "name": "copy a file, checked",
        "actions": [{
            "type": "command", "executable": "cp", "argv": ["--", source, copy],
            "cwd": scratch, "timeoutSeconds": 10,
            "undo": {"executable": "rm", "argv": ["-f", "--", copy], "cwd": scratch,
                     "timeoutSeconds": 10},
            "description": "copy the source"}],
        "postActions": [{
            "type": "check", "check": "file", "path": copy, "sha256": sha256_of(source),
            "description": "the copy holds the expected content"}],
    }, source, copy


def check_gate_walk(check, tmp):
    scratch = os.path.join(tmp, "gate")
    os.makedirs(scratch)
    definition, source, copy = copy_routine(scratch)
    automation_id = create(check, tmp, definition, "the copy routine")
    raise_to_3(check, automation_id, "the copy routine")

    first = run_once(automation_id)
    check.expect(first.get("status") == "succeeded" and os.path.exists(copy) and
                 sha256_of(copy) == sha256_of(source),
                 f"a supervised run copies the file ({first.get('status')})")
    before = gate(automation_id)
    check.expect(condition(before, 5).get("pass") is False,
                 f"one run does not meet condition 5: {condition(before, 5).get('text')}")
    rc, env = cli("automation", "promote", str(automation_id))
    check.expect(rc == 1 and error(env).get("code") == "GATE_NOT_MET" and level_of(automation_id) == 3,
                 f"promote is refused while the gate does not hold ({error(env).get('code')})")

    statuses = [first.get("status")]
    for _ in range(RUNS_FOR_GATE - 1):
        statuses.append(run_once(automation_id).get("status"))
    check.expect(statuses.count("succeeded") == RUNS_FOR_GATE,
                 f"{RUNS_FOR_GATE} supervised runs succeeded ({sorted(set(map(str, statuses)))})")
    after = gate(automation_id)
    failing = [c.get("number") for c in after.get("conditions", []) if not c.get("pass")]
    check.expect(not failing, f"the figures moved until every condition holds (failing: {failing})")
    check.expect(condition(after, 5).get("text") != condition(before, 5).get("text"),
                 f"condition 5's figures moved: {condition(before, 5).get('text')} -> "
                 f"{condition(after, 5).get('text')}")

    rc, env = cli("automation", "promote", str(automation_id))
    check.expect(rc == 0 and level_of(automation_id) == 4, f"promote raises it to 4 ({rc})")

    with open(source, "w") as f:
        f.write("something else\n")
    failed = run_once(automation_id)
    check.expect(failed.get("status") == "failed", f"the check fails the run ({failed.get('status')})")
    check.expect(os.path.exists(copy) and sha256_of(copy) == sha256_of(source),
                 "the action itself did run: the copy holds the new content")
    check.expect(level_of(automation_id) == 3, f"one failed check drops it to 3 at once "
                 f"(level {level_of(automation_id)})")
    check.expect(condition(gate(automation_id), 8).get("pass") is False,
                 "the gate now names the failed run (condition 8)")


# ---- 2. marker-file-with-undo ---------------------------------------------------------------

def check_marker_example(check, tmp):
    scratch = os.path.join(tmp, "marker")
    os.makedirs(scratch)
    marker = os.path.join(scratch, "marker")
    automation_id = create(check, tmp, example("marker-file-with-undo.json", scratch),
                           "marker-file-with-undo")
    raise_to_3(check, automation_id, "marker-file-with-undo")
    run = run_once(automation_id)
    check.expect(run.get("status") == "succeeded" and os.path.isfile(marker) and
                 os.path.getsize(marker) == 0,
                 f"marker-file-with-undo creates the empty marker ({run.get('status')})")
    rc, env = cli("run", "undo", str(run.get("id")))
    check.expect(rc == 0 and data(env).get("status") == "reverted" and not os.path.exists(marker),
                 f"its undo removes the marker ({rc}, {data(env).get('status')})")


# ---- 3. fixture-open-note ------------------------------------------------------------------

def install_fixture_entry(effect):
    """companyos-fixture.desktop in the session's private XDG_DATA_HOME, as the example's
    documentation describes it."""
    apps = os.path.join(os.environ["XDG_DATA_HOME"], "applications")
    os.makedirs(apps, exist_ok=True)
    path = os.path.join(apps, "companyos-fixture.desktop")
    with open(path, "w") as f:
        f.write("[Desktop Entry]\nType=Application\nName=companyOS fixture\n"
                f"Exec={FIXTURE} --class {EXAMPLE_APP} --effect {effect} --open %f\n"
                f"StartupWMClass={EXAMPLE_APP}\nMimeType=text/plain;\n")
    return path


def check_open_note_example(check, tmp):
    scratch = os.path.join(tmp, "open-note")
    os.makedirs(scratch)
    effect = os.path.join(scratch, "fixture-effect")
    entry = install_fixture_entry(effect)
    try:
        automation_id = create(check, tmp, example("fixture-open-note.json", scratch),
                               "fixture-open-note")
        raise_to_3(check, automation_id, "fixture-open-note")
        skipped = run_once(automation_id)
        check.expect(skipped.get("status") == "skipped" and not fixture_pids(),
                     f"without note.txt the run is skipped and nothing opens "
                     f"({skipped.get('status')})")
        with open(os.path.join(scratch, "note.txt"), "w") as f:
            f.write("a note\n")
        run = run_once(automation_id)
        check.expect(run.get("status") == "succeeded", f"with the note, the run succeeds "
                     f"({run.get('status')}, {run.get('reason')})")
        check.expect(len(fixture_pids()) == 1 and x_has_window(EXAMPLE_TITLE),
                     "the fixture runs and the X server shows its window")
        try:
            with open(effect + ".opened") as f:
                opened = f.read()
        except OSError:
            opened = None
        check.expect(opened == os.path.join(scratch, "note.txt"),
                     f"the app was handed the note through its desktop entry ({opened!r})")
        rc, env = cli("run", "undo", str(run.get("id")))
        check.expect(rc == 0 and data(env).get("status") == "reverted",
                     f"undo marks the run reverted ({rc}, {error(env).get('message')})")
        try:
            wait_for("the fixture window to close", lambda: not x_has_window(EXAMPLE_TITLE), 15)
            closed = True
        except atspi_probe.ProbeError:
            closed = False
        check.expect(closed, "its undo closed the window the launch opened (X server)")
    finally:
        os.remove(entry)
        for pid in fixture_pids():
            os.kill(pid, 15)


def main():
    check = Checker("gate-walk")
    daemon = Daemon()
    daemon.start()
    try:
        for key, value in (("unattended", "true"), ("max_level", "4")):
            rc, _ = cli("settings", "set", key, value)
            check.expect(rc == 0, f"settings set {key} {value}")
        with tempfile.TemporaryDirectory() as tmp:
            check_gate_walk(check, tmp)
            check_marker_example(check, tmp)
            check_open_note_example(check, tmp)
    except atspi_probe.ProbeError as e:
        check.expect(False, f"gave up waiting: {e}")
    finally:
        daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
