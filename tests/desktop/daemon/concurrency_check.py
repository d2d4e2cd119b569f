#!/usr/bin/env python3
"""16 clients at once send status, windows, apps, screenshot, press and snapshot to one
daemon for a while (COMPANYOS_STRESS_SECONDS, default 20). Several of those use Xlib on
worker threads at the same time; two clients sending `status` together used to kill the
daemon (heap corruption in XextFindDisplay). Judged from outside: the daemon's process
is still alive, every request got exactly one reply with its own id, every reply is ok
or a documented refusal (never INTERNAL), and each kind of request succeeded at least
once, so the load really reached X11."""

import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from checks import Checker  # noqa: E402
from daemon_cli import DAEMON, FIXTURE, cli  # noqa: E402
from fixture_app import FixtureApp, read_bytes  # noqa: E402

CLIENTS = 16
SECONDS = float(os.environ.get("COMPANYOS_STRESS_SECONDS", "20"))
REPLY_DEADLINE_S = 60
APP = "stress-alpha"
# What a busy desktop may legitimately answer: the window not in front for a screenshot,
# the physical-input lock held by another press, an app slow under this load.
LEGITIMATE_REFUSALS = {"POLICY_DENIED", "CONFLICT", "TIMEOUT", "APP_UNRESPONSIVE",
                       "WINDOW_NOT_FOUND", "STALE_REF"}


def requests_for(client, tmp):
    shot = os.path.join(tmp, f"shot-{client}.png")
    only = os.environ.get("COMPANYOS_STRESS_METHODS")  # e.g. "status,windows" to narrow a crash down
    return [r for r in all_requests(shot) if not only or r[0] in only.split(",")]


def all_requests(shot):
    return [
        ("status", {}),
        ("windows", {}),
        ("apps", {}),
        ("screenshot", {"app": APP, "out": shot}),
        # Escape types nothing into the fixture's entry; the effect file shows it did nothing.
        ("press", {"app": APP, "chord": "Escape", "headed": True}),
        ("snapshot", {"app": APP, "interactive": True, "compact": True}),
    ]


class Client(threading.Thread):
    def __init__(self, index, path, tmp, stop_at):
        super().__init__(daemon=True)
        self.index = index
        self.path = path
        self.plan = requests_for(index, tmp)
        self.stop_at = stop_at
        self.counts = {}  # (method, outcome) -> number
        self.problems = []

    def run(self):
        try:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(REPLY_DEADLINE_S)
            sock.connect(self.path)
            reader = sock.makefile("r", encoding="utf-8")
            n = 0
            # Each client starts at a different method, so every kind overlaps every other.
            while time.monotonic() < self.stop_at:
                method, params = self.plan[(self.index + n) % len(self.plan)]
                request_id = f"{self.index}-{n}"
                n += 1
                sock.sendall((json.dumps({"id": request_id, "method": method,
                                          "params": params}) + "\n").encode())
                line = reader.readline()
                if not line:
                    self.problems.append(f"{method}: connection closed, no reply")
                    return
                reply = json.loads(line)
                if reply.get("id") != request_id:
                    self.problems.append(f"{method}: reply for {reply.get('id')!r}, not {request_id!r}")
                    return
                if reply.get("ok") is True:
                    outcome = "ok"
                else:
                    outcome = reply.get("error", {}).get("code", "no error code")
                    if outcome not in LEGITIMATE_REFUSALS:
                        self.problems.append(f"{method}: {outcome} {reply.get('error', {}).get('message')}")
                key = (method, outcome)
                self.counts[key] = self.counts.get(key, 0) + 1
        except (OSError, ValueError) as e:
            self.problems.append(f"client {self.index}: {e}")


def main():
    check = Checker("concurrency")
    socket_path = os.environ["COMPANYOS_SOCKET"]
    daemon = subprocess.Popen([DAEMON, "--log-level", "warn"], stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while cli("ping")[0] != 0 and time.monotonic() < deadline and daemon.poll() is None:
            time.sleep(0.1)
        check.expect(cli("settings", "set", "physical_input", "true")[0] == 0, "physical input on")
        with tempfile.TemporaryDirectory() as tmp, \
                FixtureApp(FIXTURE, APP, os.path.join(tmp, "effect.txt"), "--title", "Stress"):
            cli("focus-window", "--app", APP)
            effect_before = read_bytes(os.path.join(tmp, "effect.txt"))
            stop_at = time.monotonic() + SECONDS
            clients = [Client(i, socket_path, tmp, stop_at) for i in range(CLIENTS)]
            for c in clients:
                c.start()
            for c in clients:
                c.join(SECONDS + REPLY_DEADLINE_S + 10)
            check.expect(all(not c.is_alive() for c in clients), "every client finished")
            check.expect(daemon.poll() is None,
                         f"the daemon is alive after {SECONDS:.0f} s of {CLIENTS} clients "
                         f"(exit status {daemon.poll()})")
            problems = [p for c in clients for p in c.problems]
            check.expect(not problems, f"every reply is ok or a documented refusal {problems[:5]}")
            totals = {}
            for c in clients:
                for key, n in c.counts.items():
                    totals[key] = totals.get(key, 0) + n
            print("replies:", json.dumps({f"{m} {o}": n for (m, o), n in sorted(totals.items())}),
                  flush=True)
            for method, _ in requests_for(0, tmp):
                check.expect(totals.get((method, "ok"), 0) > 0, f"{method} succeeded under load")
            check.expect(cli("ping")[0] == 0, "a new client is served afterwards")
            check.expect(read_bytes(os.path.join(tmp, "effect.txt")) == effect_before,
                         "the presses left the fixture's effect file as it was")
    finally:
        if daemon.poll() is None:
            daemon.terminate()
            daemon.wait(30)
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
