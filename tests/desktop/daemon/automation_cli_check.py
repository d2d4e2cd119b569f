#!/usr/bin/env python3
"""Levelled automations through the CLI and the daemon, against the GTK3 fixture: create
the example routine, refuse an invalid definition with every problem listed, raise it,
run it (dry run at level 1, supervised at 3), watch the gate's figures move, the approval
flow at level 2, undo, an ambiguous target, stop-all of a running command and a daemon
that dies mid-run. Effects are judged from outside the daemon: the fixture's effect file,
the entry's text read by the test's own AT-SPI probe, and the process table. Runs inside
scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import json
import os
import signal
import socket
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
import atspi_probe  # noqa: E402
from checks import Checker  # noqa: E402
from daemon_cli import (EXAMPLE_DIR, EXAMPLES, FIXTURE, RUN_DEADLINE_S, Daemon,  # noqa: E402
                        cli, cli_text, data, error, run_record, wait_finished, write_json)
from fixture_app import FixtureApp, unique_name  # noqa: E402

EXAMPLE = os.path.join(EXAMPLES, "fixture-write-note.json")
EXAMPLE_APP = "companyos-fixture"            # and their app name
NOTE = b"hello from companyOS"
MAX_AUTOMATIONS = 1000


def wait_for(what, probe, timeout=RUN_DEADLINE_S):
    return atspi_probe.wait_for(what, timeout, probe, interval=0.1)


def wait_run(run_id, statuses, timeout=RUN_DEADLINE_S):
    """The run once its status is one of STATUSES; raises ProbeError at the deadline."""
    def probe():
        run = run_record(run_id)
        return run if run.get("status") in statuses else None
    return wait_for(f"run {run_id} {'/'.join(statuses)}", probe, timeout)


def example_definition(scratch, app, name=None):
    """The example routine with its scratch directory and app name replaced."""
    with open(EXAMPLE) as f:
        text = f.read().replace(EXAMPLE_DIR, scratch)
    definition = json.loads(text)
    for phase in ("preconditions", "actions", "postActions"):
        for step in definition.get(phase, []):
            if step.get("app") == EXAMPLE_APP:
                step["app"] = app
    if name:
        definition["name"] = name
    return definition


def create(check, path, what):
    rc, env = cli("automation", "create", path)
    check.expect(rc == 0 and data(env).get("level") == 1, f"{what} is created at level 1 ({rc})")
    return data(env)


def gate_lines(automation_id):
    rc, out, _ = cli_text("automation", "gate", str(automation_id))
    return rc, [line.strip() for line in out.splitlines()]


def gate_condition(automation_id, number):
    conditions = data(cli("automation", "gate", str(automation_id))[1]).get("conditions", [])
    return next((c for c in conditions if c.get("number") == number), {})


def entry_node(app):
    return atspi_probe.find_one(app.nodes(), "text", "Text")


def processes_with_argv(argv):
    """Pids whose command line is exactly ARGV (read from /proc)."""
    wanted = ("\0".join(argv) + "\0").encode()
    pids = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if f.read() == wanted:
                    pids.append(int(pid))
        except OSError:
            continue
    return pids


def check_invalid_definition(check, tmp):
    bad = write_json(os.path.join(tmp, "bad.json"), {
        "name": "",
        "actions": [
            {"type": "set_value", "target": {"role": "text", "name": "Text"}, "value": "x"},
            {"type": "command", "executable": "true", "cwd": "relative/dir"},
        ],
        "colour": "red",
    })
    rc, out, err = cli_text("automation", "create", bad)
    lines = [line.strip() for line in err.splitlines()]
    check.expect(rc == 1 and any(line.startswith("error: INVALID_ARGS") for line in lines),
                 f"an invalid definition is refused with INVALID_ARGS ({rc})")
    for path in ("name:", "actions[0].app:", "actions[1].cwd:", "colour:"):
        check.expect(any(line.startswith(path) for line in lines),
                     f"the problem at {path[:-1]} is listed on its own line")
    rc, env = cli("automation", "create", bad)
    problems = error(env).get("details", {}).get("problems", [])
    check.expect(rc == 1 and len(problems) == error(env)["details"].get("problem_count") == 4,
                 f"--json lists all {len(problems)} problems with their paths")
    rc, _, err = cli_text("automation", "create", write_text(os.path.join(tmp, "nojson"), "{oops"))
    check.expect(rc == 2 and "is not JSON" in err, f"a file that is not JSON is a usage error ({rc})")
    rc, env = cli("automation", "list")
    check.expect(rc == 0 and data(env).get("automations") == [], "nothing was stored")


def write_text(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def check_dry_run(check, automation_id, app):
    """Level 1: resolved and checked, nothing with an effect runs."""
    rc, env = cli("automation", "start", str(automation_id))
    run = wait_finished(data(env)["id"]) if rc == 0 else {}
    steps = {s["seq"]: s for s in run.get("steps", [])}
    check.expect(run.get("status") == "succeeded" and steps.get(2, {}).get("status") == "would_run"
                 and steps.get(3, {}).get("status") == "would_run",
                 f"a level-1 run is a dry run: {run.get('status')}, "
                 f"{[s.get('status') for s in run.get('steps', [])]}")
    check.expect(app.effect() is None and atspi_probe.get_text(app.bus, entry_node(app)) == "",
                 "the dry run changed neither the entry nor the effect file")


def check_supervised_run(check, automation_id, app):
    rc, out, _ = cli_text("automation", "raise", str(automation_id))
    check.expect(rc == 0 and "-> 2 (assist)" in out, f"raise: {out.strip()!r}")
    rc, out, _ = cli_text("automation", "raise", str(automation_id))
    check.expect(rc == 0 and "-> 3 (supervised)" in out, f"raise: {out.strip()!r}")
    rc, env = cli("automation", "raise", str(automation_id))
    check.expect(rc == 1 and error(env).get("code") == "INVALID_ARGS",
                 "raise beyond 3 is refused (level 4 only through the gate)")

    _, before = gate_lines(automation_id)
    check.expect("FAIL  4. supervised runs at level 3: 0 of 10 needed" in before,
                 "gate before the run: 0 supervised runs")
    check.expect(len([line for line in before if line[:4] in ("pass", "FAIL")]) == 8,
                 "gate prints eight conditions, each pass or FAIL")

    atspi_probe.set_text(app.bus, entry_node(app), "before")
    rc, env = cli("automation", "start", str(automation_id))
    run = wait_finished(data(env)["id"]) if rc == 0 else {}
    check.expect(run.get("status") == "succeeded" and run.get("supervised") is True,
                 f"a level-3 run started by a person succeeds, supervised ({run.get('status')})")
    check.expect(app.wait_for_effect("", NOTE), "the effect file holds the note (read from the file)")
    check.expect(run.get("checks") == {"passed": 1, "failed": 0}, f"its check passed: {run.get('checks')}")

    _, after = gate_lines(automation_id)
    check.expect("FAIL  4. supervised runs at level 3: 1 of 10 needed" in after,
                 f"gate after the run: 1 supervised run ({[l for l in after if '4.' in l]})")
    check.expect("FAIL  5. runs in the last 14 days: 1 of 25 needed" in after,
                 "gate after the run: 1 run in the last 14 days")
    six = gate_condition(automation_id, 6)
    check.expect(six.get("pass") is True, f"condition 6 holds with the one passing check: {six.get('text')}")
    three = gate_condition(automation_id, 3)
    check.expect(three.get("pass") is False and "actions[1]" in three.get("text", ""),
                 f"condition 3 names the irreversible click: {three.get('text')}")
    rc, env = cli("automation", "promote", str(automation_id))
    failing = error(env).get("details", {}).get("failing", [])
    check.expect(rc == 1 and error(env).get("code") == "GATE_NOT_MET" and len(failing) >= 3,
                 f"promote is refused with GATE_NOT_MET listing {len(failing)} failing conditions")
    return run["id"] if run else None


def check_undo(check, run_id, app):
    rc, env = cli("run", "undo", str(run_id))
    check.expect(rc == 0 and data(env).get("status") == "reverted",
                 f"run undo marks the run reverted ({rc}, {data(env).get('status')})")
    check.expect(data(env).get("not_reversible") == [3], f"the click is reported as not reversible: "
                 f"{data(env).get('not_reversible')}")
    check.expect(wait_for("the entry restored", lambda: atspi_probe.get_text(
        app.bus, entry_node(app)) == "before", timeout=10),
        "undo restored the entry's previous value (read by the test's own probe)")
    rc, env = cli("run", "undo", str(run_id))
    check.expect(rc == 1 and error(env).get("code") == "CONFLICT", "a reverted run is not undone twice")


def check_approvals(check, automation_id, app):
    rc, out, _ = cli_text("automation", "lower", str(automation_id))
    check.expect(rc == 0 and "-> 2 (assist)" in out, f"lower: {out.strip()!r}")
    os.unlink(app.effect_path)
    atspi_probe.set_text(app.bus, entry_node(app), "before")

    rc, env = cli("automation", "start", str(automation_id))
    run_id = data(env).get("id")
    run = wait_run(run_id, ("waiting",))
    rc, env = cli("approvals")
    waiting = [a for a in data(env).get("approvals", []) if a.get("run_id") == run_id]
    check.expect(len(waiting) == 1 and waiting[0].get("waiting_step") == "actions[0]",
                 f"approvals lists the run waiting at its first effect: {waiting}")
    rc, out, _ = cli_text("approvals")
    check.expect(str(run_id) in out and "type the note into the Text field" in out,
                 "approvals shows the step's description to the person")
    check.expect(atspi_probe.get_text(app.bus, entry_node(app)) == "before" and app.effect() is None,
                 "nothing ran while the run waited")
    rc, _ = cli("run", "approve", str(run_id))
    check.expect(rc == 0, "the first step is approved")
    # The click asks next; by then the approved set_value has run, and only it.
    wait_for("the click to ask", lambda: any(
        a.get("run_id") == run_id and a.get("waiting_step") == "actions[1]"
        for a in data(cli("approvals")[1]).get("approvals", [])))
    check.expect(atspi_probe.get_text(app.bus, entry_node(app)) == NOTE.decode() and app.effect() is None,
                 "after one approval the entry holds the note and the button was not pressed")
    rc, _ = cli("run", "approve", str(run_id))
    run = wait_finished(run_id)
    check.expect(rc == 0 and run.get("status") == "succeeded",
                 f"after the second approval the run succeeded ({run.get('status')})")
    check.expect(app.wait_for_effect("", NOTE), "the approved run wrote the effect file")
    check.expect(run.get("supervised") is False, "a level-2 run is not a supervised run")

    os.unlink(app.effect_path)
    atspi_probe.set_text(app.bus, entry_node(app), "before")
    rc, env = cli("automation", "start", str(automation_id))
    run_id = data(env).get("id")
    wait_run(run_id, ("waiting",))
    rc, out, _ = cli_text("run", "deny", str(run_id))
    run = wait_finished(run_id)
    check.expect(rc == 0 and run.get("status") == "blocked",
                 f"a denied run ends blocked ({rc}, {run.get('status')}, {run.get('reason')})")
    check.expect(atspi_probe.get_text(app.bus, entry_node(app)) == "before" and app.effect() is None,
                 "the denied run changed nothing")
    rc, env = cli("approvals")
    check.expect(all(a.get("run_id") != run_id for a in data(env).get("approvals", [])),
                 "approvals no longer lists it")


def check_ambiguous_target(check, tmp):
    name = unique_name("auto-ambiguous")
    effect = os.path.join(tmp, "ambiguous-effect")
    with FixtureApp(FIXTURE, name, effect, "--ambiguous"):
        definition = example_definition(tmp, name, "ambiguous write")
        definition["postActions"] = []  # only the click's own refusal decides the run
        created = create(check, write_json(os.path.join(tmp, "ambiguous.json"), definition),
                         "a routine whose button has a twin")
        for _ in range(2):
            cli("automation", "raise", str(created["id"]))
        rc, env = cli("automation", "start", str(created["id"]))
        run = wait_finished(data(env)["id"]) if rc == 0 else {}
        click = next((s for s in run.get("steps", []) if s.get("type") == "click"), {})
        check.expect(run.get("status") == "blocked" and click.get("error_code") == "AMBIGUOUS_TARGET",
                     f"an ambiguous target blocks the run ({run.get('status')}, "
                     f"{click.get('error_code')}: {click.get('reason')})")
        check.expect(click.get("delivery") in (None, "not_delivered"),
                     f"nothing was delivered ({click.get('delivery')})")
        check.expect(not os.path.exists(effect), "no button was pressed: no effect file")
        check.expect(gate_condition(created["id"], 8).get("pass") is True,
                     "a blocked run is no failure for the gate")
        cli("automation", "delete", str(created["id"]))


def sleep_definition(tmp, name, seconds):
    return {"name": name, "actions": [{
        "type": "command", "executable": "sleep", "argv": [seconds], "cwd": tmp,
        "timeoutSeconds": 600, "description": "sleep for a long time"}]}


def start_sleeping(check, automation_id, argv):
    rc, env = cli("automation", "start", str(automation_id))
    run_id = data(env).get("id")
    check.expect(rc == 0, f"the sleep routine starts (run {run_id}, {error(env).get('code')})")
    pids = wait_for(f"process {argv}", lambda: processes_with_argv(argv), timeout=30)
    return run_id, pids


def check_stop_all(check, tmp):
    argv = ["sleep", "3517"]
    created = create(check, write_json(os.path.join(tmp, "sleep.json"),
                                       sleep_definition(tmp, "long sleep", argv[1])), "a sleep routine")
    for _ in range(2):
        cli("automation", "raise", str(created["id"]))
    run_id, pids = start_sleeping(check, created["id"], argv)
    rc, out, _ = cli_text("stop-all")
    check.expect(rc == 0 and "stopped 1 run(s): " + str(run_id) in out, f"stop-all: {out.strip()!r}")
    check.expect(wait_for("sleep gone", lambda: not processes_with_argv(argv), timeout=10) is True,
                 f"the command's process ({pids}) is gone")
    run = run_record(run_id)
    check.expect(run.get("status") == "stopped", f"the run ended stopped ({run.get('status')})")
    rc, env = cli("automation", "list")
    automations = data(env).get("automations", [])
    check.expect(automations and not any(a.get("enabled") for a in automations),
                 f"every automation is disabled ({len(automations)})")
    rc, env = cli("automation", "start", str(created["id"]))
    check.expect(rc == 1 and error(env).get("code") == "POLICY_DENIED",
                 "a disabled automation does not start")

    # The master switch turned off does the same.
    cli("automation", "enable", str(created["id"]))
    run_id, _ = start_sleeping(check, created["id"], argv)
    rc, env = cli("settings", "set", "automations_enabled", "false")
    stopped = data(env).get("stop_all", {}).get("stopped", [])
    check.expect(rc == 0 and [r.get("id") for r in stopped] == [run_id],
                 f"automations_enabled=false stops the active run ({rc}, {stopped})")
    check.expect(wait_for("sleep gone", lambda: not processes_with_argv(argv), timeout=10) is True,
                 "and its command's process is gone")
    cli("settings", "set", "automations_enabled", "true")
    cli("automation", "enable", str(created["id"]))
    return created["id"]


def check_restart(check, daemon, automation_id, tmp):
    argv = ["sleep", "3518"]
    rc, env = cli("automation", "update", str(automation_id),
                  write_json(os.path.join(tmp, "sleep2.json"),
                             sleep_definition(tmp, "long sleep", argv[1])))
    check.expect(rc == 0 and data(env).get("new_revision") is True, "update makes a new revision")
    run_id, pids = start_sleeping(check, automation_id, argv)
    daemon.kill()
    # The step keeper ends the step's processes when its daemon dies (its parent-death signal).
    gone = wait_for("sleep gone", lambda: not processes_with_argv(argv), timeout=10) is True
    check.expect(gone, f"the step's process ({pids}) ends with the killed daemon")
    if not gone:  # end what the test caused, so it does not outlive the test
        for pid in pids:
            for end in (os.killpg, os.kill):
                try:
                    end(pid, signal.SIGKILL)
                except OSError:
                    pass
    daemon.start()
    run = run_record(run_id)
    reason = run.get("reason") or ""
    check.expect(run.get("status") == "failed" and reason.startswith("daemon restarted before completion; ")
                 and "processes had ended with the daemon" in reason,
                 f"a run the daemon died in is failed on restart and says its step had ended "
                 f"({run.get('status')}: {reason})")


def protocol_calls(requests, batch=50):
    """Sends REQUESTS (method, params) over one connection, BATCH at a time; the replies."""
    path = os.environ.get("COMPANYOS_SOCKET") or os.path.join(
        os.environ["XDG_RUNTIME_DIR"], "companyos", "control.sock")
    replies = []
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(path)
        reader = sock.makefile("r", encoding="utf-8")
        for start in range(0, len(requests), batch):
            chunk = requests[start:start + batch]
            sock.sendall("".join(json.dumps({"id": start + i, "method": m, "params": p}) + "\n"
                                 for i, (m, p) in enumerate(chunk)).encode())
            replies.extend(json.loads(reader.readline()) for _ in chunk)
    return replies


def check_automation_cap(check, tmp):
    existing = len(data(cli("automation", "list")[1]).get("automations", []))
    fill = [("automation.create", {"definition": {
        "name": f"cap filler {i}",
        "actions": [{"type": "command", "executable": "true", "cwd": "/"}]}})
        for i in range(MAX_AUTOMATIONS - existing)]
    created = [r["data"]["id"] for r in protocol_calls(fill) if r.get("ok")]
    check.expect(existing + len(created) == MAX_AUTOMATIONS,
                 f"{MAX_AUTOMATIONS} automations can be stored ({existing} + {len(created)})")
    one_more = write_json(os.path.join(tmp, "one-more.json"), {
        "name": "one too many", "actions": [{"type": "command", "executable": "true", "cwd": "/"}]})
    rc, env = cli("automation", "create", one_more)
    check.expect(rc == 1 and error(env).get("code") == "CONFLICT"
                 and error(env).get("details", {}).get("limit") == MAX_AUTOMATIONS,
                 f"the {MAX_AUTOMATIONS + 1}st is refused with CONFLICT ({error(env).get('message')})")
    removed = protocol_calls([("automation.delete", {"id": i}) for i in created])
    check.expect(all(r.get("ok") for r in removed) and
                 len(data(cli("automation", "list")[1]).get("automations", [])) == existing,
                 "the fillers are deleted again")


def main():
    check = Checker("automation")
    daemon = Daemon()
    daemon.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            check_invalid_definition(check, tmp)

            definition = example_definition(tmp, EXAMPLE_APP)
            created = create(check, write_json(os.path.join(tmp, "note.json"), definition),
                             "the example routine")
            automation_id = created.get("id")
            check.expect(created.get("revision") == 1 and created.get("nextRunAt", 0) is None
                         and created.get("definition", {}).get("historyLimit") == 30,
                         "create returns the whole automation (revision 1, canonical definition, "
                         "nextRunAt null)")
            rc, out, _ = cli_text("automation", "list")
            check.expect(rc == 0 and "fixture: write a note" in out and "NEXT RUN" in out,
                         "list shows it in a table")

            with FixtureApp(FIXTURE, EXAMPLE_APP, os.path.join(tmp, "fixture-effect")) as app:
                check_dry_run(check, automation_id, app)
                run_id = check_supervised_run(check, automation_id, app)
                if run_id:
                    check_undo(check, run_id, app)
                check_approvals(check, automation_id, app)
            check_ambiguous_target(check, tmp)
            sleeper = check_stop_all(check, tmp)
            check_restart(check, daemon, sleeper, tmp)
            check_automation_cap(check, tmp)
    except atspi_probe.ProbeError as e:
        check.expect(False, f"gave up waiting: {e}")
    finally:
        daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
