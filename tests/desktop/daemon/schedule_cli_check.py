#!/usr/bin/env python3
"""The daemon's trigger loop through the CLI, on the real clock: nextRunAt of a Berlin
schedule against Python's zoneinfo; a level-4 routine on "* * * * *" that runs unattended at
the next minute; a level-3 one whose trigger creates a run waiting in `approvals` that runs
once approved; and stop-all clearing nextRunAt. Effects are judged from outside: the marker
files the routines' commands write. Level 4 is reached the way a person would: 25 supervised
runs at level 3, then the promotion gate. Runs inside scripts/desktop-session
(COMPANYOS_BUILD_DIR set by CTest); waits for at most one minute boundary per routine."""

import json
import os
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from checks import Checker  # noqa: E402
import daemon_cli  # noqa: E402
from daemon_cli import EXAMPLE_DIR, EXAMPLES, Daemon, write_json  # noqa: E402

EXAMPLE = os.path.join(EXAMPLES, "marker-file-with-undo.json")
RUNS_FOR_THE_GATE = 25  # condition 5; condition 4 needs 10 of them supervised at level 3
RUN_DEADLINE_S = 30
# A trigger is at most 60 s away; the rest is for a loaded machine.
TRIGGER_DEADLINE_S = 75


class GaveUp(Exception):
    pass


def cli(*args, timeout=60):
    """`companyos --json ARGS`: (exit status, data or error object)."""
    rc, env = daemon_cli.cli(*args, timeout=timeout)
    env = env or {}
    return rc, env.get("data", env.get("error", {}))


def wait_for(what, probe, timeout):
    """PROBE()'s first truthy value, polled until TIMEOUT seconds pass (then GaveUp)."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise GaveUp(f"timed out after {timeout}s waiting for {what}")
        time.sleep(0.2)


def run_record(run_id):
    return cli("run", "show", str(run_id))[1]


def wait_finished(run_id, timeout=RUN_DEADLINE_S):
    def probe():
        run = run_record(run_id)
        return run if run.get("status") not in (None, "running", "waiting") else None
    return wait_for(f"run {run_id} to finish", probe, timeout)


def scheduled_runs(automation_id):
    runs = cli("automation", "runs", str(automation_id))[1].get("runs", [])
    return [r for r in runs if r.get("started_by") == "schedule"]


def marker_definition(scratch, name, marker, schedule):
    """The example routine (a command that writes an empty marker file, with an undo, and a
    check of the file) writing MARKER in SCRATCH."""
    with open(EXAMPLE) as f:
        definition = json.loads(f.read().replace(EXAMPLE_DIR, scratch))
    text = json.dumps(definition).replace(os.path.join(scratch, "marker"), marker)
    definition = json.loads(text)
    definition["name"] = name
    definition["schedule"] = schedule
    return definition


def expected_next(now, hour, minute, zone):
    """The first instant after NOW (Unix seconds) whose local time in ZONE is HOUR:MINUTE,
    computed independently of the daemon: each candidate day, both folds, keeping the local
    times that exist (they survive a round trip through UTC)."""
    tz = ZoneInfo(zone)
    today = datetime.fromtimestamp(now, tz).date()
    found = []
    for offset in range(-1, 4):
        day = today + timedelta(days=offset)
        for fold in (0, 1):
            local = datetime(day.year, day.month, day.day, hour, minute, tzinfo=tz, fold=fold)
            instant = local.astimezone(timezone.utc)
            back = instant.astimezone(tz)
            if (back.hour, back.minute, back.date()) != (hour, minute, day):
                continue  # in a spring-forward gap: never fires
            if int(instant.timestamp()) > now:
                found.append(int(instant.timestamp()))
    return min(found) if found else None


def check_berlin_next_run(check, tmp):
    definition = {"name": "berlin nightly", "schedule": "30 2 * * *", "timezone": "Europe/Berlin",
                  "actions": [{"type": "command", "executable": "true", "cwd": tmp}]}
    before = int(time.time())
    rc, created = cli("automation", "create", write_json(os.path.join(tmp, "berlin.json"), definition))
    after = int(time.time())
    expected = {expected_next(before, 2, 30, "Europe/Berlin"), expected_next(after, 2, 30, "Europe/Berlin")}
    got = created.get("nextRunAt")
    shown = datetime.fromtimestamp(got, timezone.utc).isoformat() if got else got
    check.expect(rc == 0 and got in expected,
                 f"create with 30 2 * * * in Europe/Berlin shows nextRunAt {shown} "
                 f"(zoneinfo: {sorted(expected)})")
    rc, listed = cli("automation", "list")
    row = next((a for a in listed.get("automations", []) if a.get("id") == created.get("id")), {})
    check.expect(row.get("nextRunAt") == got and cli("automation", "get", str(created.get("id")))[1]
                 .get("nextRunAt") == got, "list and get show the same nextRunAt")
    cli("automation", "disable", str(created["id"]))
    check.expect(cli("automation", "get", str(created["id"]))[1].get("nextRunAt", 0) is None,
                 "a disabled automation has no nextRunAt")
    cli("automation", "delete", str(created["id"]))


def promote_to_level_4(check, automation_id, marker):
    """Level 3 by raising, then the evidence the gate asks for: supervised runs that pass."""
    for _ in range(2):
        cli("automation", "raise", str(automation_id))
    for i in range(RUNS_FOR_THE_GATE):
        rc, run = cli("automation", "start", str(automation_id))
        if rc != 0:
            check.expect(False, f"supervised run {i + 1} starts ({run.get('code')}: {run.get('message')})")
            return False
        finished = wait_finished(run["id"])
        if finished.get("status") != "succeeded":
            # The whole record says why (each step's exit, output and reason).
            check.expect(False, f"supervised run {i + 1} succeeds ({json.dumps(finished)[:2000]})")
            return False
    check.expect(os.path.exists(marker), f"{RUNS_FOR_THE_GATE} supervised runs wrote the marker")
    rc, promoted = cli("automation", "promote", str(automation_id))
    check.expect(rc == 0 and promoted.get("level") == 4,
                 f"the gate promotes it to level 4 ({rc}, {promoted.get('message', promoted.get('level'))})")
    return rc == 0


def schedule_every_minute(check, automation_id, definition, path):
    definition = dict(definition, schedule="* * * * *")
    before = int(time.time())
    rc, updated = cli("automation", "update", str(automation_id), write_json(path, definition))
    after = int(time.time())
    boundaries = {(before // 60 + 1) * 60, (after // 60 + 1) * 60}
    check.expect(rc == 0 and updated.get("nextRunAt") in boundaries,
                 f"with * * * * * its nextRunAt is the next minute boundary ({updated.get('nextRunAt')})")
    return updated


def check_unattended_and_approval(check, tmp):
    marker_a = os.path.join(tmp, "unattended-marker")
    marker_b = os.path.join(tmp, "approved-marker")
    unattended = marker_definition(tmp, "unattended marker", marker_a, None)
    rc, a = cli("automation", "create", write_json(os.path.join(tmp, "a.json"), unattended))
    check.expect(rc == 0, f"the unattended routine is created ({a.get('message', a.get('id'))})")
    if rc != 0 or not promote_to_level_4(check, a["id"], marker_a):
        return
    a = schedule_every_minute(check, a["id"], unattended, os.path.join(tmp, "a2.json"))
    check.expect(a.get("level") == 4 and a.get("new_revision") is False,
                 f"a schedule is no new revision: still level 4 ({a.get('level')})")
    os.unlink(marker_a)

    supervised = marker_definition(tmp, "approved marker", marker_b, "* * * * *")
    rc, b = cli("automation", "create", write_json(os.path.join(tmp, "b.json"), supervised))
    for _ in range(2):
        cli("automation", "raise", str(b["id"]))
    b = cli("automation", "get", str(b["id"]))[1]
    check.expect(b.get("level") == 3 and b.get("nextRunAt"), f"the level-3 routine is scheduled "
                 f"(level {b.get('level')}, nextRunAt {b.get('nextRunAt')})")

    # Level 4: the trigger runs it with nobody asked.
    first_a = a["nextRunAt"]
    run = wait_for("the level-4 routine's scheduled run", lambda: (scheduled_runs(a["id"]) or [None])[-1],
                   TRIGGER_DEADLINE_S)
    run = wait_finished(run["id"])
    check.expect(run.get("status") == "succeeded" and run.get("supervised") is False
                 and run.get("approved_at") is None and run.get("started_at", 0) >= first_a,
                 f"at {first_a} the level-4 routine ran unattended: {run.get('status')}, "
                 f"supervised {run.get('supervised')}, started {run.get('started_at')}")
    check.expect(os.path.exists(marker_a), "its command wrote the marker (read from the file)")
    next_a = cli("automation", "get", str(a["id"]))[1].get("nextRunAt")
    check.expect(next_a is not None and next_a > first_a and next_a % 60 == 0,
                 f"nextRunAt moved on to the next minute ({next_a})")

    # Level 3: the trigger creates a run that waits for a person.
    waiting = wait_for("the level-3 routine's scheduled run", lambda: (scheduled_runs(b["id"]) or [None])[-1],
                       TRIGGER_DEADLINE_S)
    approvals = cli("approvals")[1].get("approvals", [])
    listed = [x for x in approvals if x.get("run_id") == waiting["id"]]
    check.expect(waiting.get("status") == "waiting" and len(listed) == 1
                 and listed[0].get("approval_deadline") is not None,
                 f"the level-3 trigger created run {waiting['id']} waiting in approvals "
                 f"({waiting.get('status')}, {listed})")
    check.expect(not os.path.exists(marker_b), "nothing ran while it waited (no marker)")
    rc, _ = cli("run", "approve", str(waiting["id"]))
    run = wait_finished(waiting["id"])
    check.expect(rc == 0 and run.get("status") == "succeeded" and run.get("supervised") is True,
                 f"approved, it ran supervised: {run.get('status')} ({run.get('reason')})")
    check.expect(os.path.exists(marker_b), "the approved run's command wrote its marker")
    return a["id"], b["id"]


def check_stop_all(check, ids):
    rc, _ = cli("settings", "set", "automations_enabled", "false")
    rows = cli("automation", "list")[1].get("automations", [])
    check.expect(rc == 0 and rows and all(r.get("nextRunAt", 0) is None for r in rows),
                 "automations_enabled=false (stop-all): no automation has a nextRunAt")
    cli("settings", "set", "automations_enabled", "true")
    rows = cli("automation", "list")[1].get("automations", [])
    check.expect(all(r.get("nextRunAt", 0) is None and not r.get("enabled") for r in rows),
                 "switched on again, every automation stays disabled and unscheduled")
    _, enabled = cli("automation", "enable", str(ids[0]))
    check.expect(enabled.get("nextRunAt") is not None, "enabling one schedules it again")
    cli("automation", "disable", str(ids[0]))


def main():
    check = Checker("schedule")
    daemon = Daemon(log_level="info")
    daemon.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for key, value in (("unattended", "true"), ("max_level", "4")):
                rc, _ = cli("settings", "set", key, value)
                check.expect(rc == 0, f"settings set {key} {value}")
            check_berlin_next_run(check, tmp)
            ids = check_unattended_and_approval(check, tmp)
            if ids:
                check_stop_all(check, ids)
    except GaveUp as e:
        check.expect(False, f"gave up waiting: {e}")
    finally:
        daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
