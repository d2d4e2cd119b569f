#!/usr/bin/env python3
"""pi steps through the daemon and the CLI, against the stand-in pi (tests/fixtures/standin/
pi_standin.py, which speaks pi's RPC mode and needs no model or network): the seed's example
definition loads as written; a prompt's final answer becomes the step's output; a question
waits in `approvals` until `run answer`; a wrong answer is refused; an unanswered question
fails the step at its timeout; a crash fails it with pi's stderr; level 2 asks before pi
starts; a stop ends pi; without pi on PATH the step is blocked. What reached pi is judged
from the stand-in's own log, and whether it still runs from the process table. Runs inside
scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import json
import os
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
import atspi_probe  # noqa: E402
from checks import Checker  # noqa: E402
from dashboard_check import protocol_call  # noqa: E402
from daemon_cli import (BUILD, SOURCE, Daemon, cli, cli_text, data, error, run_record,  # noqa: E402
                        wait_finished, write_json)

STANDIN_PI = os.path.join(BUILD, "tests", "fixtures", "standin", "pi")
SEED_EXAMPLE = os.path.join(SOURCE, "tests", "fixtures", "definitions", "seed_example.json")
DEADLINE_S = 30


class StandinLog:
    """What the stand-in pi wrote: each start (argv, cwd, pid) and each line it read."""

    def __init__(self, path):
        self.path = path

    def entries(self):
        try:
            with open(self.path) as f:
                return [json.loads(line) for line in f if line.strip()]
        except FileNotFoundError:
            return []

    def received(self, kind):
        return [e["received"] for e in self.entries()
                if "received" in e and e["received"].get("type") == kind]

    def starts(self):
        return [e for e in self.entries() if "argv" in e]

    def clear(self):
        if os.path.exists(self.path):
            os.unlink(self.path)


def pid_runs(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def create_pi_automation(check, tmp, name, prompt, level, timeout_s=60):
    definition = {"name": name, "actions": [
        {"type": "pi", "prompt": prompt, "cwd": tmp, "timeoutSeconds": timeout_s}]}
    rc, env = cli("automation", "create", write_json(os.path.join(tmp, f"{name}.json"), definition))
    automation_id = data(env).get("id")
    check.expect(rc == 0 and automation_id, f"{name!r} is created ({rc})")
    for _ in range(level - 1):
        cli("automation", "raise", str(automation_id))
    return automation_id


def start(automation_id):
    rc, env = cli("automation", "start", str(automation_id))
    return data(env).get("id") if rc == 0 else None


def waiting_question(run_id):
    def probe():
        for waiting in data(cli("approvals")[1]).get("approvals", []):
            if waiting.get("run_id") == run_id and waiting.get("question"):
                return waiting
        return None
    return atspi_probe.wait_for(f"run {run_id} to ask a question", DEADLINE_S, probe, interval=0.1)


def check_seed_example(check, tmp):
    rc, env = cli("automation", "create", SEED_EXAMPLE)
    definition = data(env).get("definition", {})
    actions = definition.get("actions", [])
    check.expect(rc == 0 and len(actions) == 2 and actions[1].get("type") == "pi"
                 and actions[1].get("timeoutSeconds") == 900
                 and definition["preconditions"][0].get("executable") == "git",
                 f"the seed's example definition loads as written, its pi step included ({rc})")
    if rc == 0:
        cli("automation", "delete", str(data(env)["id"]))


def check_answer(check, tmp, log):
    automation_id = create_pi_automation(check, tmp, "summary", "say the build is green", 3)
    run_id = start(automation_id)
    run = wait_finished(run_id) if run_id else {}
    step = (run.get("steps") or [{}])[0]
    check.expect(run.get("status") == "succeeded" and step.get("type") == "pi"
                 and step.get("output") == "the build is green"
                 and step.get("delivery") == "delivered_unverified",
                 f"pi's final answer is the step's output ({run.get('status')}, {step.get('output')!r})")
    starts = log.starts()
    prompts = log.received("prompt")
    check.expect(len(starts) == 1 and starts[0]["argv"] == ["--mode", "rpc", "--no-session"]
                 and starts[0]["cwd"] == tmp,
                 f"pi ran as `pi --mode rpc --no-session` in the step's cwd: {starts}")
    check.expect(len(prompts) == 1 and prompts[0].get("message") == "say the build is green",
                 "the prompt reached pi as one RPC line")
    check.expect(not pid_runs(starts[0]["pid"]) if starts else False, "pi is gone after the step")


def check_question(check, tmp, log):
    log.clear()
    automation_id = create_pi_automation(check, tmp, "deploy", "ask select Deploy where?", 3)
    run_id = start(automation_id)
    waiting = waiting_question(run_id)
    question = waiting["question"]
    check.expect(question.get("kind") == "select" and question.get("options") == ["Alpha", "Beta", "Gamma"]
                 and waiting.get("waiting_description") == "pi asks: Deploy where?"
                 and run_record(run_id).get("status") == "waiting",
                 f"pi's question makes the run wait for the person: {waiting}")
    rc, out, _ = cli_text("approvals")
    check.expect(rc == 0 and f"run {run_id} asks (select): Deploy where?" in out
                 and f"companyos run answer {run_id} --value OPTION" in out and "- Beta" in out,
                 "`companyos approvals` shows the question and how to answer it")
    rc, env = cli("run", "approve", str(run_id))
    check.expect(rc != 0 and error(env).get("code") == "CONFLICT", "a question is not approved")
    refused = protocol_call("run.answer", {"id": run_id, "value": "Alpha"}, origin="agent")
    check.expect(not refused.get("ok") and refused.get("error", {}).get("details", {}).get("reason") == "person_only",
                 f"an agent cannot answer pi's question: {refused.get('error', {}).get('code')}")
    rc, env = cli("run", "answer", str(run_id), "--value", "Moon")
    check.expect(rc != 0 and error(env).get("code") == "INVALID_ARGS"
                 and error(env).get("details", {}).get("problem") == "not one of the options",
                 "an answer that is not an option is refused")
    rc, env = cli("run", "answer", str(run_id), "--value", "Beta", "--cancel")
    check.expect(rc != 0 and error(env).get("code") == "INVALID_ARGS", "two answers at once are refused")
    check.expect(not log.received("extension_ui_response"), "nothing refused reached pi")
    rc, out, _ = cli_text("run", "answer", str(run_id), "--value", "Beta")
    check.expect(rc == 0 and out.startswith(f"answered run {run_id}"), f"run answer: {out.strip()!r}")
    run = wait_finished(run_id)
    responses = log.received("extension_ui_response")
    check.expect(responses == [{"type": "extension_ui_response", "id": "q-select", "value": "Beta"}],
                 f"pi got the person's answer: {responses}")
    output = (run.get("steps") or [{}])[0].get("output", "")
    check.expect(run.get("status") == "succeeded" and output == 'answered: {"value": "Beta"}'
                 and run.get("supervised"),
                 f"the run went on and succeeded ({run.get('status')}, {output!r})")

    log.clear()
    confirm = create_pi_automation(check, tmp, "confirm", "ask confirm Proceed?", 3)
    run_id = start(confirm)
    waiting_question(run_id)
    rc, _ = cli("run", "answer", str(run_id), "--confirm", "no")
    run = wait_finished(run_id)
    check.expect(rc == 0 and log.received("extension_ui_response") ==
                 [{"type": "extension_ui_response", "id": "q-confirm", "confirmed": False}]
                 and run.get("status") == "succeeded", "a confirm question is answered no")


def check_unanswered(check, tmp, log):
    log.clear()
    automation_id = create_pi_automation(check, tmp, "unanswered", "ask input Branch?", 3, timeout_s=2)
    run_id = start(automation_id)
    waiting_question(run_id)
    run = wait_finished(run_id)
    step = (run.get("steps") or [{}])[0]
    check.expect(run.get("status") == "failed" and step.get("error_code") == "TIMEOUT"
                 and "1 question, 0 answered" in (step.get("reason") or ""),
                 f"unanswered by its timeout, the step fails: {step.get('reason')!r}")
    check.expect(len(log.received("abort")) == 1, "pi was asked to abort")
    check.expect(not data(cli("approvals")[1]).get("approvals"), "nothing waits any more")
    starts = log.starts()
    check.expect(bool(starts) and not pid_runs(starts[0]["pid"]), "pi is gone")


def check_crash(check, tmp, log):
    log.clear()
    automation_id = create_pi_automation(check, tmp, "crash", "crash", 3)
    run_id = start(automation_id)
    run = wait_finished(run_id)
    step = (run.get("steps") or [{}])[0]
    check.expect(run.get("status") == "failed"
                 and step.get("reason") == "pi exited with status 3 before it answered"
                 and "crashing as asked" in step.get("output", ""),
                 f"a crash fails the step with pi's stderr: {step.get('reason')!r}")


def check_level_2_and_stop(check, tmp, log):
    log.clear()
    automation_id = create_pi_automation(check, tmp, "assisted", "ask editor Notes?", 2)
    run_id = start(automation_id)
    approval = atspi_probe.wait_for("the approval", DEADLINE_S, lambda: next(
        (w for w in data(cli("approvals")[1]).get("approvals", []) if w.get("run_id") == run_id), None),
        interval=0.1)
    check.expect(approval.get("question") is None and approval.get("waiting_step") == "actions[0]"
                 and not log.starts(), "at level 2 the pi step asks first, and pi has not started")
    cli("run", "approve", str(run_id))
    waiting = waiting_question(run_id)
    check.expect(waiting["question"].get("prefill") == "draft", "then pi's editor question waits")
    pid = log.starts()[0]["pid"] if log.starts() else 0
    rc, env = cli("automation", "stop", str(automation_id))
    run = wait_finished(run_id)
    check.expect(rc == 0 and run.get("status") == "stopped" and not pid_runs(pid),
                 f"a stop during the question ends the run and pi ({run.get('status')})")


def check_without_pi(check, daemon, tmp):
    daemon.stop()
    os.environ["PATH"] = os.environ["PATH"].replace(STANDIN_PI + os.pathsep, "")
    daemon.start()
    automation_id = create_pi_automation(check, tmp, "no-pi", "say hi", 3)
    run_id = start(automation_id)
    run = wait_finished(run_id)
    step = (run.get("steps") or [{}])[0]
    check.expect(run.get("status") == "blocked" and step.get("status") == "blocked"
                 and "pi is not on the daemon's PATH" in (step.get("reason") or ""),
                 f"without pi on PATH the step is blocked: {step.get('reason')!r}")


def main():
    check = Checker("pi")
    with tempfile.TemporaryDirectory() as tmp:
        log = StandinLog(os.path.join(tmp, "pi.log"))
        os.environ["PATH"] = STANDIN_PI + os.pathsep + os.environ["PATH"]
        os.environ["PI_STANDIN_LOG"] = log.path
        daemon = Daemon()
        daemon.start()
        try:
            check_seed_example(check, tmp)
            check_answer(check, tmp, log)
            check_question(check, tmp, log)
            check_unanswered(check, tmp, log)
            check_crash(check, tmp, log)
            check_level_2_and_stop(check, tmp, log)
            check_without_pi(check, daemon, tmp)
        except atspi_probe.ProbeError as e:
            check.expect(False, f"gave up waiting: {e}")
        finally:
            daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
