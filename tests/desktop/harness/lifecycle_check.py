#!/usr/bin/env python3
"""Brings scripts/desktop-session up and down repeatedly, from outside any session, and
checks that it cleans up after itself on every exit path: normal exit, failing command,
SIGTERM and SIGINT mid-command, bring-up failure. Afterwards no process started by a
session may be running, and nothing may have been written outside the session's temp dir
(the caller's HOME, /tmp, /var/tmp, /dev/shm).

Processes are attributed by a unique tag put into the environment of every session this
test starts (every process a session starts inherits it), so processes of other tests
running in parallel never count. When it can (root), the test runs in a private mount
namespace with empty tmpfs on /tmp, /var/tmp and /dev/shm, so that anything written
there is ours; otherwise it compares the real directories before and after.

With --wayland every session is a headless GNOME Wayland one (desktop-session --wayland:
PipeWire, WirePlumber, mutter), the fixture on its Wayland backend, and the bring-up failure
is the compositor's; the same must hold.

Usage: lifecycle_check.py --session SCRIPT --fixture GTK3_FIXTURE --work-dir DIR [--cycles N]
                          [--wayland]
"""

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

# The helper modules sit beside this script; keep their bytecode out of the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import atspi_probe  # noqa: E402
from checks import Checker  # noqa: E402

TAG_VARIABLE = "COMPANYOS_LIFECYCLE_TAG"
PRIVATE_TMP_VARIABLE = "COMPANYOS_LIFECYCLE_PRIVATE_TMP"
SCRATCH_DIRS = ("/tmp", "/var/tmp", "/dev/shm")
FIXTURE_APP_NAME = "LifecycleFixture"
SESSION_DEADLINE_S = 120


# ---- inside a session ------------------------------------------------------------------

def inner(args):
    """Runs as the session's COMMAND: reports the session dir, starts a fixture app and a
    stray process that both leave the process tree, then exits, or waits to be signalled."""
    with open(args.report, "w") as report:
        report.write(os.environ["COMPANYOS_DESKTOP_DIR"] + "\n")
    # start_new_session: both escape the command's process tree and process group, like
    # daemons a test might leave behind.
    subprocess.Popen(["sleep", "3600"], start_new_session=True)
    if args.fixture:
        subprocess.Popen([args.fixture, "--class", FIXTURE_APP_NAME], start_new_session=True,
                         stdout=subprocess.DEVNULL)
        atspi_probe.wait_for_app(atspi_probe.a11y_bus(), FIXTURE_APP_NAME, timeout=60)
    if args.hold:
        with open(args.report, "a") as report:
            report.write("ready\n")
        while True:
            time.sleep(60)
    return args.exit_code


# ---- outside -------------------------------------------------------------------------

def pids_with_environment(name, value):
    """Live processes (but this one) started with NAME=VALUE in their environment; zombies
    have an empty environment, other users' processes cannot be read."""
    marker = f"{name}={value}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as environ:
                if marker in environ.read().split(b"\0"):
                    found.append(int(entry))
        except OSError:
            continue
    return found


def describe_pid(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            words = cmdline.read().split(b"\0")
    except OSError:
        return f"{pid} (gone)"
    return f"{pid} " + " ".join(word.decode(errors="replace") for word in words)


def listing(path, recursive=True):
    """The entries under PATH as relative paths: all of them, or (shared directories that
    other people fill) the top level and the X11/ICE socket directories."""
    if recursive:
        entries = set()
        for root, dirs, files in os.walk(path):
            for name in dirs + files:
                entries.add(os.path.relpath(os.path.join(root, name), path))
        return entries
    entries = set(os.listdir(path))
    for socket_dir in (".X11-unix", ".ICE-unix"):
        if os.path.isdir(os.path.join(path, socket_dir)):
            entries.update(os.path.join(socket_dir, name)
                           for name in os.listdir(os.path.join(path, socket_dir)))
    return entries


def wait_for_line(path, line, timeout):
    def probe():
        try:
            with open(path) as report:
                return line in report.read().splitlines()
        except FileNotFoundError:
            return False
    return atspi_probe.wait_for(f"'{line}' in {path}", timeout, probe)


class Sessions:
    """Starts desktop sessions with the test's tag and a throwaway caller HOME."""

    def __init__(self, args, scratch, tag):
        self.args = args
        self.scratch = scratch
        self.count = 0
        self.home = os.path.join(scratch, "caller-home")
        os.makedirs(os.path.join(self.home, ".cache"))
        self.home_before = listing(self.home)
        self.env = dict(os.environ)
        for name in ("COMPANYOS_SOCKET", "COMPANYOS_DESKTOP_DIR", "DISPLAY", "WAYLAND_DISPLAY",
                     "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS"):
            self.env.pop(name, None)
        self.env[TAG_VARIABLE] = tag
        self.env["HOME"] = self.home
        self.session_dirs = []

    def run(self, exit_code=0, hold=False, send=None, options=(), env=None, fixture=True):
        """Runs one session around inner(); returns (status, stderr, seconds)."""
        self.count += 1
        report = os.path.join(self.scratch, f"report-{self.count}")
        if self.args.wayland:
            options = ("--wayland", *options)
        command = [self.args.session, *options, "--", sys.executable,
                   os.path.abspath(__file__), "--inner", "--report", report,
                   "--exit-code", str(exit_code)]
        if fixture:
            command += ["--fixture", self.args.fixture]
        if hold:
            command.append("--hold")
        # Output goes to a file, not a pipe: a leaked process holding a pipe open would
        # block the test instead of failing it.
        stderr_path = report + ".stderr"
        started = time.monotonic()
        with open(stderr_path, "w") as stderr_file:
            process = subprocess.Popen(command, env=env or self.env, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.DEVNULL, stderr=stderr_file)
        try:
            if send is not None:
                wait_for_line(report, "ready", SESSION_DEADLINE_S)
                process.send_signal(send)
            process.wait(timeout=SESSION_DEADLINE_S)
        except (subprocess.TimeoutExpired, atspi_probe.ProbeError):
            process.kill()
            process.wait()
            raise
        with open(stderr_path) as stderr_file:
            stderr = stderr_file.read()
        elapsed = time.monotonic() - started
        if os.path.exists(report):
            with open(report) as lines:
                self.session_dirs.append(lines.readline().strip())
        return process.returncode, stderr, elapsed


def check_cycles(check, sessions):
    durations = []
    for cycle in range(sessions.args.cycles):
        status, stderr, elapsed = sessions.run()
        durations.append(elapsed)
        check.expect(status == 0, f"cycle {cycle + 1}: exit status 0 (got {status})")
        check.expect("desktop-session:" not in stderr,
                     f"cycle {cycle + 1}: harness quiet on success ({stderr.strip()[:300]!r})")
    print(f"     up/down with a fixture app: median {statistics.median(durations):.2f}s, "
          f"max {max(durations):.2f}s", flush=True)

    status, _, elapsed = sessions.run(fixture=False)
    check.expect(status == 0, f"cycle without an app: exit status 0 (got {status})")
    print(f"     up/down without an app: {elapsed:.2f}s", flush=True)


def check_exit_paths(check, sessions):
    status, _, _ = sessions.run(exit_code=7)
    check.expect(status == 7, f"failing command: its status 7 is propagated (got {status})")

    status, _, elapsed = sessions.run(hold=True, send=signal.SIGTERM)
    check.expect(status == 128 + signal.SIGTERM,
                 f"SIGTERM mid-command: exit status 143 (got {status}, {elapsed:.1f}s)")
    status, _, _ = sessions.run(hold=True, send=signal.SIGINT)
    check.expect(status == 128 + signal.SIGINT,
                 f"SIGINT mid-command: exit status 130 (got {status})")

    # The last server to start refuses: what started before it must still be stopped.
    program, step = ("mutter", "compositor") if sessions.args.wayland else ("openbox", "window manager")
    fake_bin = os.path.join(sessions.scratch, "fake-bin")
    os.makedirs(fake_bin)
    fake = os.path.join(fake_bin, program)
    with open(fake, "w") as script:
        script.write(f"#!/bin/sh\necho 'fake {step} refuses to start' >&2\nexit 3\n")
    os.chmod(fake, 0o755)
    env = dict(sessions.env, PATH=fake_bin + os.pathsep + sessions.env["PATH"])
    status, stderr, _ = sessions.run(env=env)
    check.expect(status == 125, f"bring-up failure: exit status 125 (got {status})")
    check.expect(f"bring-up failed at step '{step}'" in stderr
                 and f"fake {step} refuses to start" in stderr,
                 f"bring-up failure: names the step and shows its log ({stderr.strip()!r})")


def check_options(check, sessions):
    result = subprocess.run([sessions.args.session, "--help"], capture_output=True, text=True,
                            env=sessions.env, stdin=subprocess.DEVNULL)
    check.expect(result.returncode == 0 and "Usage:" in result.stdout
                 and "Examples:" in result.stdout, "--help: usage with examples, status 0")
    for bad in (["--no-such-option", "--", "true"], []):
        result = subprocess.run([sessions.args.session, *bad], capture_output=True, text=True,
                                env=sessions.env, stdin=subprocess.DEVNULL)
        check.expect(result.returncode == 125 and result.stderr,
                     f"usage error {bad}: status 125 and a message")

    status, stderr, _ = sessions.run(options=["--keep"], fixture=False)
    kept = sessions.session_dirs[-1]
    check.expect(status == 0 and os.path.isfile(os.path.join(kept, "log", "xvfb.log"))
                 and kept in stderr, "--keep: temp dir with logs kept and named")
    shutil.rmtree(kept, ignore_errors=True)


def check_normal_user(check, sessions):
    """As root, one session as the unprivileged 'nobody' (setpriv keeps the environment,
    so the tag still marks its processes)."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        print("skip normal-user session (needs root and setpriv)", flush=True)
        return
    reachable = all(os.stat(path).st_mode & 0o001
                    for path in _ancestors(sessions.args.session))
    if not reachable or not os.stat(sessions.args.session).st_mode & 0o005 == 0o005:
        print("skip normal-user session (the script is not world-readable)", flush=True)
        return
    user_scratch = tempfile.mkdtemp(prefix="nobody-", dir=sessions.scratch)
    os.chmod(user_scratch, 0o777)
    os.chmod(sessions.scratch, 0o755)
    env = dict(sessions.env, HOME=user_scratch)
    prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
    result = subprocess.run([*prefix, sessions.args.session, "--", "sh", "-c",
                             "xdpyinfo >/dev/null && gdbus call --address \"$AT_SPI_BUS_ADDRESS\" "
                             "--dest org.freedesktop.DBus --object-path /org/freedesktop/DBus "
                             "--method org.freedesktop.DBus.NameHasOwner org.a11y.atspi.Registry"],
                            capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL,
                            timeout=SESSION_DEADLINE_S)
    check.expect(result.returncode == 0 and "(true,)" in result.stdout,
                 f"session as user nobody works ({result.stderr.strip()[:300]!r})")
    check.expect(not os.listdir(user_scratch), "nobody's caller HOME untouched")


def _ancestors(path):
    path = os.path.dirname(os.path.abspath(path))
    while True:
        yield path
        if path == "/":
            return
        path = os.path.dirname(path)


def live_session_dir(path):
    """True if PATH is the temp dir of a desktop session that still runs (another test's
    session, running in parallel)."""
    return bool(pids_with_environment("COMPANYOS_DESKTOP_DIR", path))


def check_nothing_left(check, sessions, tag, scratch_before, private_tmp):
    leaked = pids_with_environment(TAG_VARIABLE, tag)
    check.expect(not leaked, "no process started by a session still runs"
                 + "".join(f"\n       {describe_pid(pid)}" for pid in leaked))
    for pid in leaked:  # so one failure does not leave strays for the next test
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    left = [d for d in sessions.session_dirs if os.path.exists(d)]
    check.expect(not left, f"every session temp dir removed {left}")
    added = listing(sessions.home) - sessions.home_before
    check.expect(not added, f"the caller's HOME (and its .cache) untouched {sorted(added)}")

    added = {path: listing(path, recursive=private_tmp) - before
             for path, before in scratch_before.items()}
    if not private_tmp:
        # Shared directories: ignore what other tests' live sessions and short-lived
        # processes (compilers) own; what remains after a grace period is reported.
        added = {path: {entry for entry in entries
                        if not live_session_dir(os.path.join(path, entry.split(os.sep)[0]))}
                 for path, entries in added.items()}
        time.sleep(3)
        added = {path: {entry for entry in entries
                        if os.path.lexists(os.path.join(path, entry))}
                 for path, entries in added.items()}
    for path, entries in added.items():
        check.expect(not entries, f"nothing new in {path} {sorted(entries)[:20]}")


def under_scratch_dir(path):
    real = os.path.realpath(path)
    return any(real == d or real.startswith(d + os.sep) for d in SCRATCH_DIRS)


def enter_private_tmp(args):
    """Re-runs this test in a private mount namespace with empty tmpfs scratch dirs, when
    the system allows it. Returns only if it does not (or we already are inside).
    A checkout under /tmp would vanish behind the tmpfs, so then the shared mode is used."""
    if os.environ.get(PRIVATE_TMP_VARIABLE) or os.geteuid() != 0 or not shutil.which("unshare"):
        return
    needed = (__file__, args.session, args.fixture, args.work_dir, sys.executable)
    if any(path and under_scratch_dir(path) for path in needed):
        return
    probe = subprocess.run(["unshare", "--mount", "--propagation", "private", "true"],
                           capture_output=True)
    if probe.returncode != 0:
        return
    mounts = " && ".join(f"mount -t tmpfs -o mode=1777 companyos-lifecycle {path}"
                         for path in SCRATCH_DIRS if os.path.isdir(path))
    env = dict(os.environ, **{PRIVATE_TMP_VARIABLE: "1"})
    result = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                             f'{mounts} && exec "$0" "$@"', sys.executable,
                             os.path.abspath(__file__), *sys.argv[1:]], env=env)
    sys.exit(result.returncode)


def outer(args):
    enter_private_tmp(args)
    private_tmp = bool(os.environ.get(PRIVATE_TMP_VARIABLE))
    print("private tmpfs on " + ", ".join(SCRATCH_DIRS) if private_tmp
          else "shared scratch dirs: comparing before and after", flush=True)

    os.makedirs(args.work_dir, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="lifecycle-", dir=args.work_dir)
    tag = uuid.uuid4().hex
    scratch_before = {path: listing(path, recursive=private_tmp)
                      for path in SCRATCH_DIRS if os.path.isdir(path)}
    sessions = Sessions(args, scratch, tag)
    check = Checker()
    try:
        check_cycles(check, sessions)
        check_exit_paths(check, sessions)
        if not args.wayland:  # the options and the user are the script's, whatever the session
            check_options(check, sessions)
            check_normal_user(check, sessions)
    except (subprocess.TimeoutExpired, atspi_probe.ProbeError) as error:
        check.expect(False, f"session did not finish: {error}")
    check_nothing_left(check, sessions, tag, scratch_before, private_tmp)
    shutil.rmtree(scratch, ignore_errors=True)

    return check.summary()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--session", help="scripts/desktop-session")
    parser.add_argument("--fixture", help="the GTK3 fixture app")
    parser.add_argument("--work-dir", help="where the test keeps its scratch files")
    parser.add_argument("--cycles", type=int, default=5)
    parser.add_argument("--wayland", action="store_true", help="headless GNOME Wayland sessions")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--report", help=argparse.SUPPRESS)
    parser.add_argument("--exit-code", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--hold", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        return inner(args)
    if not (args.session and args.fixture and args.work_dir):
        parser.error("--session, --fixture and --work-dir are required")
    return outer(args)


if __name__ == "__main__":
    sys.exit(main())
