#!/usr/bin/env python3
"""`companyos mcp` as an agent pays for it, in three parts:

- views: get_app_state's time (the server's whole round trip: the daemon's snapshot in the
  agent view, and the PNG when asked) and characters, with and without the picture, on the
  GTK3 fixture at ~300 and ~3,000 nodes, mousepad and GNOME Calculator. Target (issue 14):
  at most 60 ms with the picture at ~300 nodes.
- actions: the time from an action's call to its settled answer, median and p95, and the
  characters of that answer against the whole state, on mousepad, GNOME Calculator, Firefox
  and Chromium (agent_actions.py). Target (issue 33): at most 150 ms median.
- tasks: the agent tasks of tests/agent run as they are in CI, each reporting its calls and
  the characters it was sent, as changes and as whole states.

Run inside scripts/desktop-session (scripts/bench mcp does); apps not installed are left
out. Prints a JSON report (also written to --out) and a table per part."""

import argparse
import json
import re
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "desktop", "harness"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "desktop", "mcp"))
sys.dont_write_bytecode = True
from daemon_cli import BUILD, FIXTURE, Daemon, cli  # noqa: E402
from mcp_session import McpSession, text_of  # noqa: E402
import agent_actions  # noqa: E402

TASKS = [["calculator_task.py"], ["editor_task.py", "mousepad"], ["editor_task.py", "featherpad"],
         ["form_task.py", "firefox"], ["form_task.py", "chromium"], ["writer_task.py"]]
TASK_LINE = re.compile(r"agent-chars (\S+): calls (\d+), sent (\d+), whole states (\d+), answers as changes (\d+)")

NODES_PER_ROW, FIXED_NODES = 4, 21  # the fixture: box, label, button, entry per row


def wait_listed(app, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rc, env = cli("windows", "--app", app)
        if rc == 0 and env["data"]["windows"]:
            return True
        time.sleep(0.2)
    return False


def measure(session, app, runs):
    cli("focus-window", "--app", app)
    result = {"app": app}
    for picture in (False, True):
        times, chars, png = [], 0, 0
        for _ in range(runs + 1):  # the first one warms the daemon's caches and is not counted
            started = time.perf_counter()
            reply = session.call("get_app_state", {"app": app, "screenshot": picture})
            took = (time.perf_counter() - started) * 1000
            if reply["result"]["isError"]:
                raise RuntimeError(f"get_app_state {app}: {text_of(reply)}")
            times.append(took)
            chars = len(text_of(reply))
            png = sum(len(b["data"]) for b in reply["result"]["content"] if b["type"] == "image")
        times = times[1:]
        key = "with_picture" if picture else "without_picture"
        result[key] = {"median_ms": round(statistics.median(times), 1), "min_ms": round(min(times), 1),
                       "max_ms": round(max(times), 1), "text_chars": chars, "png_base64_bytes": png}
    rc, full = cli("snapshot", "--app", app, "--format", "outline")
    result["nodes"] = full["data"]["node_count"] if rc == 0 else None
    result["full_outline_chars"] = len(full["data"]["outline"]) if rc == 0 else None
    return result


def measure_views(runs):
    results = []
    session = McpSession()
    session.initialize()
    try:
        for target in (300, 3000):
            rows = max(1, (target - FIXED_NODES) // NODES_PER_ROW)
            name = f"mcp-bench-{target}"
            with tempfile.TemporaryDirectory() as tmp:
                fixture = subprocess.Popen([FIXTURE, "--class", name, "--rows", str(rows), "--effect",
                                            os.path.join(tmp, "e")], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
                try:
                    if wait_listed(name):
                        results.append(measure(session, name, runs))
                finally:
                    fixture.terminate()
                    fixture.wait(10)
        for app in ("mousepad", "gnome-calculator"):
            if shutil.which(app) is None:
                continue
            process = subprocess.Popen([app], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)
            try:
                if wait_listed(app):
                    time.sleep(1)  # let the window settle before the first read
                    results.append(measure(session, app, runs))
            finally:
                process.terminate()
                process.wait(10)
    finally:
        session.close()
    return results


def run_tasks():
    """Each agent task as CI runs it (it starts its own daemon); its agent-chars line."""
    results = []
    for task in TASKS:
        command = [sys.executable, os.path.join(HERE, "..", "..", "tests", "agent", task[0])] + task[1:]
        started = time.perf_counter()
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)
        took = time.perf_counter() - started
        found = TASK_LINE.search(done.stdout)
        if done.returncode != 0 or not found:
            print(f"task {' '.join(task)} failed ({done.returncode}):\n{done.stdout[-2000:]}", file=sys.stderr)
            results.append({"task": " ".join(task), "failed": True})
            continue
        name, calls, sent, whole, changes = found.groups()
        results.append({"task": name, "calls": int(calls), "chars_sent": int(sent), "chars_as_whole_states": int(whole),
                        "answers_as_changes": int(changes), "seconds": round(took, 1)})
    return results


def print_tables(report):
    if report.get("views"):
        print(f"{'window':<22}{'nodes':>7}{'no picture ms':>15}{'picture ms':>12}{'chars':>8}{'full chars':>12}")
        for r in report["views"]:
            print(f"{r['app']:<22}{r['nodes'] or 0:>7}{r['without_picture']['median_ms']:>15}"
                  f"{r['with_picture']['median_ms']:>12}{r['without_picture']['text_chars']:>8}"
                  f"{r['full_outline_chars'] or 0:>12}")
    if report.get("actions"):
        print(f"\n{'app':<18}{'action':<16}{'median ms':>10}{'p95 ms':>8}{'max ms':>8}{'answer chars':>14}"
              f"{'whole chars':>13}{'refused':>9}")
        for r in report["actions"]:
            print(f"{r['app']:<18}{r['action']:<16}{r['median_ms']:>10}{r['p95_ms']:>8}{r['max_ms']:>8}"
                  f"{r['answer_chars_median']:>14}{r['whole_state_chars_median']:>13}{r['refused']:>9}")
    if report.get("tasks"):
        print(f"\n{'task':<20}{'calls':>6}{'chars sent':>12}{'as whole states':>17}{'saved':>8}")
        for r in report["tasks"]:
            if r.get("failed"):
                print(f"{r['task']:<20} failed")
                continue
            saved = 100 * (1 - r["chars_sent"] / r["chars_as_whole_states"])
            print(f"{r['task']:<20}{r['calls']:>6}{r['chars_sent']:>12}{r['chars_as_whole_states']:>17}{saved:>7.0f}%")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="timed get_app_state calls per window and mode")
    parser.add_argument("--action-runs", type=int, default=20, help="timed actions per app")
    parser.add_argument("--parts", default="views,actions,tasks", help="which parts to run (comma-separated)")
    parser.add_argument("--out", default=os.path.join(BUILD, "bench", "mcp.json"))
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    report = {"benchmark": "mcp", "runs": args.runs, "action_runs": args.action_runs}
    daemon = Daemon()
    daemon.start()
    try:
        if "views" in parts:
            report["views"] = measure_views(args.runs)
        if "actions" in parts:
            report["actions"] = agent_actions.measure_all(args.action_runs)
    finally:
        daemon.stop()
    if "tasks" in parts:
        report["tasks"] = run_tasks()
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(report, f, indent=2)
    print(json.dumps(report, indent=2))
    print_tables(report)
    return 1 if any(r.get("failed") for r in report.get("tasks", [])) else 0


if __name__ == "__main__":
    sys.exit(main())
