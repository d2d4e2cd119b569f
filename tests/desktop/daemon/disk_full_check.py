#!/usr/bin/env python3
"""The daemon's store on a 1 MiB tmpfs that fills up (mounting one needs root, as CI runs),
then remounted read-only:
a write the full disk refuses is STORAGE_FULL with a suggestion, not INTERNAL; an action
whose audit row cannot be written is refused before delivery (the fixture's effect file
stays absent); a run whose step and end cannot be recorded ends at once, with no ghost run
for start and stop to disagree about, and is recorded, step included, once space returns.
Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
import atspi_probe  # noqa: E402
from checks import Checker  # noqa: E402
from daemon_cli import FIXTURE, Daemon, cli, data, error, run_record, wait_finished, write_json  # noqa: E402
from fixture_app import FixtureApp, unique_name  # noqa: E402

SKIPPED = 77  # CTest's SKIP_RETURN_CODE for this test
STEP_OUTPUT = 60 * 1024  # the step's output: needs pages the full store cannot give


def fill(path):
    """Writes zeros to PATH until the filesystem refuses; returns the bytes written."""
    written = 0
    chunk = b"\0" * 4096
    with open(path, "wb", buffering=0) as f:
        try:
            while True:
                written += f.write(chunk)
        except OSError:
            pass
    return written


def until_store_full(check):
    """Sets a setting back and forth until the store refuses: a checkpointed WAL is reused
    in place, so the first writes after the disk fills may still land. The refusal."""
    for attempt in range(4000):
        rc, env = cli("settings", "set", "max_level",
                      "2" if attempt % 2 else "3")
        if rc != 0:
            return env
    check.expect(False, "the store never refused a write on a full disk")
    return None


def main():
    check = Checker("disk_full")
    if os.geteuid() != 0:
        message = "needs root to mount a tmpfs (CI runs as root)"
        if os.environ.get("CI"):
            check.expect(False, message)
            return check.summary()
        print(f"skipped: {message}")
        return SKIPPED
    with tempfile.TemporaryDirectory() as tmp:
        store = os.path.join(tmp, "store")
        os.mkdir(store, 0o700)
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "companyos-full", store],
                       check=True)
        daemon = Daemon(args=["--db", os.path.join(store, "companyos.db")])
        try:
            daemon.start()
            exercise(check, tmp, store)
            daemon.stop()
            subprocess.run(["mount", "-o", "remount,ro", store], check=True)
            daemon.start()
            read_only(check, tmp)
        except atspi_probe.ProbeError as e:
            check.expect(False, f"gave up waiting: {e}")
        finally:
            daemon.stop()
            subprocess.run(["umount", store], check=False)
    return check.summary()


def read_only(check, tmp):
    """The same store on a filesystem remounted read-only: the daemon starts and says so;
    status flags it; every change is PERM_DENIED store_read_only with what to do, never
    INTERNAL; an action is refused before delivery; reads still answer."""
    rc, env = cli("status")
    store = data(env).get("store", {})
    check.expect(rc == 0 and store.get("writable") is False and "not writable" in (store.get("problem") or ""),
                 f"status flags the read-only store and says why ({store})")
    rc, env = cli("settings", "get", "max_level")
    check.expect(rc == 0 and data(env).get("value") == 3, "what the store holds is still read")
    for args in (("settings", "set", "max_level", "2"), ("automation", "enable", "1")):
        rc, env = cli(*args)
        err = error(env)
        check.expect(rc == 1 and err.get("code") == "PERM_DENIED" and
                     err.get("details", {}).get("reason") == "store_read_only" and
                     "writable" in err.get("suggestion", ""),
                     f"`{' '.join(args)}` is refused with what to do, not INTERNAL ({err})")
    name = unique_name("readonly")
    effect = os.path.join(tmp, "readonly-effect")
    with FixtureApp(FIXTURE, name, effect) as app:
        rc, env = cli("click", "--app", name, "--role", "push button", "--name", "Write effect")
        err = error(env)
        check.expect(rc == 1 and err.get("code") == "PERM_DENIED" and
                     err.get("details", {}).get("delivery") == "not_delivered",
                     f"a click whose audit row cannot be written is refused, not delivered ({err})")
        app.nodes()
        check.expect(app.effect() is None, "and the fixture never saw a click")
        rc, env = cli("windows", "--app", name)
        check.expect(rc == 0 and len(data(env).get("windows", [])) == 1, "observation still answers")


def exercise(check, tmp, store):
    release = os.path.join(tmp, "release")
    # Waits for the test, then prints 60 KiB: the step's record needs new pages.
    script = os.path.join(tmp, "wait-then-print")
    with open(script, "w") as f:
        f.write(f"#!/bin/sh\nuntil [ -e '{release}' ]; do sleep 0.05; done\n"
                f"head -c {STEP_OUTPUT} /dev/zero | tr '\\0' x\n")
    os.chmod(script, 0o755)
    definition = {"name": "full disk", "actions": [{
        "type": "command", "executable": script, "argv": [], "cwd": tmp,
        "timeoutSeconds": 120, "description": "wait for the test, then print a lot"}]}
    rc, env = cli("automation", "create", write_json(os.path.join(tmp, "full.json"), definition))
    automation_id = str(data(env).get("id"))
    check.expect(rc == 0, f"the routine is created ({rc})")
    for _ in range(2):
        cli("automation", "raise", automation_id)
    rc, env = cli("automation", "start", automation_id)
    run_id = data(env).get("id")
    check.expect(rc == 0 and data(env).get("status") == "running", f"run {run_id} starts")

    name = unique_name("full")
    effect = os.path.join(tmp, "effect")
    with FixtureApp(FIXTURE, name, effect) as app:
        filler = os.path.join(store, "filler")
        fill(filler)
        refusal = until_store_full(check)
        err = error(refusal)
        check.expect(err.get("code") == "STORAGE_FULL" and "disk is full" in err.get("message", "") and
                     "free space" in err.get("suggestion", "") and err.get("retry") == "safe",
                     f"a write the full disk refuses is STORAGE_FULL with a suggestion ({err})")

        rc, env = cli("click", "--app", name, "--role", "push button", "--name", "Write effect")
        err = error(env)
        check.expect(rc == 1 and err.get("code") == "STORAGE_FULL" and
                     err.get("details", {}).get("delivery") == "not_delivered",
                     f"a click whose audit row cannot be written is refused, not delivered ({err})")
        # The app has handled everything sent to it before it answers the probe's read.
        app.nodes()
        check.expect(app.effect() is None, "and the fixture never saw a click (no effect file)")

        open(release, "w").close()
        # The run ends in the daemon as soon as its step cannot be recorded; run show (a
        # read, which a full disk allows) shows it as it ended.
        def ended_unrecorded():
            run = run_record(run_id)
            return run if run.get("recorded") is False else None
        run = atspi_probe.wait_for("the run to end unrecorded", 60, ended_unrecorded, interval=0.1)
        check.expect(run.get("status") == "failed" and
                     "the store refused to record the run" in (run.get("reason") or ""),
                     f"run show: failed at once, not a ghost 'running' ({run.get('status')}: {run.get('reason')})")
        for verb in ("start", "stop"):
            rc, env = cli("automation", verb, automation_id)
            err = error(env)
            # Refused for its own audit row, or (when a checkpoint freed room for that row)
            # by the runner, which names the run that ended unrecorded; never "already has
            # run 1 running" (start) or a bare "no active run" (stop).
            why = err.get("message", "")
            check.expect(rc == 1 and err.get("code") in ("STORAGE_FULL", "CONFLICT") and
                         (err.get("details", {}).get("delivery") == "not_delivered" or
                          f"run {run_id} of automation {automation_id} has ended" in why),
                         f"automation {verb} is refused while the disk is full, saying why ({why})")

        os.remove(filler)
        cli("settings", "set", "max_level", "3")
        rc, env = cli("automation", "start", automation_id)
        next_run = data(env).get("id")
        check.expect(rc == 0 and next_run and next_run != run_id,
                     f"with space back, the routine starts again (run {next_run}, {error(env)})")
        first = run_record(run_id)
        steps = first.get("steps", [])
        check.expect(first.get("status") == "failed" and first.get("recorded") is True and
                     "the store refused to record the run" in (first.get("reason") or ""),
                     f"the first run is recorded failed with its reason ({first.get('status')}: {first.get('reason')})")
        check.expect(len(steps) == 1 and steps[0].get("status") == "passed",
                     f"and the step it could not record is there ({[s.get('status') for s in steps]})")
        if next_run:
            check.expect(wait_finished(next_run).get("status") == "succeeded", "the next run succeeds")
        rc, env = cli("audit", "--limit", "50")
        rows = data(env).get("rows", [])
        check.expect(rc == 0 and not any(r.get("method") == "click" for r in rows),
                     "the refused click left no audit row claiming it ran")


if __name__ == "__main__":
    sys.exit(main())
