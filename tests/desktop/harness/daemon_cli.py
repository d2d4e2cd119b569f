"""The CLI and the daemon as the daemon's desktop checks drive them: the built programs
(from COMPANYOS_BUILD_DIR, which CTest sets), `companyos --json` calls, and a companyosd
serving the desktop session's own default socket and store."""

import json
import os
import subprocess
import time

import atspi_probe

BUILD = os.environ["COMPANYOS_BUILD_DIR"]
SOURCE = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
CLI = os.path.join(BUILD, "cli", "companyos")
DAEMON = os.path.join(BUILD, "src", "daemon", "companyosd")
FIXTURE = os.path.join(BUILD, "tests", "fixtures", "companyos-fixture-gtk3")
EXAMPLES = os.path.join(SOURCE, "data", "examples")
EXAMPLE_DIR = "/var/tmp/companyos-examples"  # the examples' scratch directory
RUN_DEADLINE_S = 60
ACTIVE = ("running", "waiting")  # run statuses that have not ended


def cli(*args, timeout=120):
    """`companyos --json ARGS`: (exit status, envelope or None)."""
    done = subprocess.run([CLI, "--json", *args], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)
    try:
        return done.returncode, json.loads(done.stdout)
    except ValueError:
        return done.returncode, None


def cli_text(*args, timeout=120):
    """`companyos ARGS` for a person: (exit status, stdout, stderr)."""
    done = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)
    return done.returncode, done.stdout, done.stderr


def data(env):
    return (env or {}).get("data", {})


def error(env):
    return (env or {}).get("error", {})


def run_record(run_id):
    return data(cli("run", "show", str(run_id))[1])


def wait_finished(run_id, timeout=RUN_DEADLINE_S):
    """The run once it is no longer running or waiting; ProbeError at the deadline."""
    def probe():
        run = run_record(run_id)
        return run if run.get("status") and run["status"] not in ACTIVE else None
    return atspi_probe.wait_for(f"run {run_id} to finish", timeout, probe, interval=0.1)


def write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f)
    return path


class Daemon:
    """companyosd on the session's default socket and store; restartable."""

    def __init__(self, log_level="warn", args=()):
        self.log_level = log_level
        self.args = list(args)
        self.process = None

    def start(self, timeout=30):
        self.process = subprocess.Popen([DAEMON, "--log-level", self.log_level, *self.args],
                                        stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while cli("ping")[0] != 0:
            if time.monotonic() >= deadline or self.process.poll() is not None:
                raise RuntimeError(f"companyosd did not answer within {timeout} s")
            time.sleep(0.1)

    def kill(self):
        """SIGKILL: the daemon dies mid-run and cleans nothing up."""
        self.process.kill()
        self.process.wait(30)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
