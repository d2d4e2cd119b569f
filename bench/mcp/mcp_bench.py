#!/usr/bin/env python3
"""get_app_state through `companyos mcp`, as an agent pays for it: the time of one tools/call
(the server's whole round trip: daemon snapshot in the agent view, and the PNG when asked)
and the characters the agent reads, with and without the picture.

Run inside scripts/desktop-session (scripts/bench mcp does). Windows: the GTK3 fixture at
~300 and ~3,000 nodes (--rows), mousepad and GNOME Calculator when installed. Each is
activated first (only the active window can be pictured). Prints a JSON report (also written
to --out) and a short table. Target (issue 14): at most 60 ms with the picture at ~300 nodes."""

import argparse
import json
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="timed calls per window and mode")
    parser.add_argument("--out", default=os.path.join(BUILD, "bench", "mcp.json"))
    args = parser.parse_args()
    results = []
    daemon = Daemon()
    daemon.start()
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
                        results.append(measure(session, name, args.runs))
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
                    results.append(measure(session, app, args.runs))
            finally:
                process.terminate()
                process.wait(10)
    finally:
        session.close()
        daemon.stop()
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"benchmark": "mcp_get_app_state", "runs": args.runs, "results": results}, f, indent=2)
    print(json.dumps(results, indent=2))
    print(f"{'window':<22}{'nodes':>7}{'no picture ms':>15}{'picture ms':>12}{'chars':>8}{'full chars':>12}")
    for r in results:
        print(f"{r['app']:<22}{r['nodes'] or 0:>7}{r['without_picture']['median_ms']:>15}"
              f"{r['with_picture']['median_ms']:>12}{r['without_picture']['text_chars']:>8}"
              f"{r['full_outline_chars'] or 0:>12}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
