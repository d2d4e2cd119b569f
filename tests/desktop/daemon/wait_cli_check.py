#!/usr/bin/env python3
"""`companyos wait` through the CLI and the daemon, against the GTK3 fixture. Each wait's
answer is judged from outside where it can be: the fixture's pid and exit, the X server's
window list, the entry's text and the effect files as the test's own AT-SPI probe reads
them. Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import json
import os
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
import atspi_probe  # noqa: E402
from checks import Checker  # noqa: E402
from fixture_app import FixtureApp, unique_name  # noqa: E402

BUILD = os.environ["COMPANYOS_BUILD_DIR"]
CLI = os.path.join(BUILD, "cli", "companyos")
DAEMON = os.path.join(BUILD, "src", "daemon", "companyosd")
FIXTURE = os.path.join(BUILD, "tests", "fixtures", "companyos-fixture-gtk3")

MAX_WAITS = 4  # the daemon's cap on waits running at once
REGISTRY_PATH = "/org/a11y/atspi/registry"


def cli(*args, timeout=120):
    """Runs `companyos --json ARGS`; returns (exit status, envelope or None, seconds)."""
    start = time.monotonic()
    done = subprocess.run([CLI, "--json", *args], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)
    return done.returncode, parse(done.stdout), time.monotonic() - start


def cli_text(*args, timeout=120):
    """Runs `companyos ARGS` for a person; returns (exit status, stdout, stderr)."""
    done = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)
    return done.returncode, done.stdout, done.stderr


def parse(text):
    try:
        return json.loads(text)
    except ValueError:
        return None


class BackgroundCli:
    """`companyos --json ARGS` running while the test changes the desktop."""

    def __init__(self, *args):
        self.start = time.monotonic()
        self.process = subprocess.Popen([CLI, "--json", *args], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                        text=True)

    def result(self, timeout=60):
        """(exit status, envelope or None, seconds from start to exit)."""
        out, _ = self.process.communicate(timeout=timeout)
        return self.process.returncode, parse(out), time.monotonic() - self.start

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate()


def wait_for(what, probe, timeout=20):
    return atspi_probe.wait_for(what, timeout, probe)


def window_listeners(bus):
    """Bus names the registry sends window events to: while a wait runs, the daemon's."""
    (events,) = bus.call(atspi_probe.REGISTRY, REGISTRY_PATH,
                         "org.a11y.atspi.Registry.GetRegisteredEvents")
    return {name for name, kind in events if kind == "Window::"}


def start_wait(bus, *args):
    """Starts `companyos wait ARGS` once no earlier wait listens, and returns when this one
    has registered its listeners (its baseline check follows at once)."""
    wait_for("no wait listening", lambda: not window_listeners(bus))
    wait = BackgroundCli("wait", *args)
    try:
        wait_for("the wait's listeners", lambda: window_listeners(bus))
    except atspi_probe.ProbeError:
        wait.stop()
        raise
    return wait


def x_window_tree():
    out = subprocess.run(["xwininfo", "-root", "-tree"], capture_output=True, text=True).stdout
    return out


def touch(path):
    with open(path, "w"):
        pass


def data(env):
    return env.get("data", {}) if env else {}


def error(env):
    return env.get("error", {}) if env else {}


def check_window_appears(check, bus, tmp):
    name = unique_name("wait-appear")
    wait = start_wait(bus, "--app", name, "--window", "Appearing", "--timeout", "30000")
    try:
        with FixtureApp(FIXTURE, name, os.path.join(tmp, "appear"), "--title", "Appearing") as app:
            rc, env, _ = wait.result()
            evidence = data(env).get("evidence", {})
            check.expect(rc == 0 and data(env).get("condition") == "window_appears",
                         f"wait --window returns once the window appears ({rc})")
            # A window first seen through its event has no pid yet: the bus name tells.
            window = evidence.get("window", {})
            check.expect(window.get("bus_name") == app.bus_name and
                         window.get("pid") in (None, app.process.pid),
                         f"the window it reports is the fixture we started ({window})")
            check.expect(evidence.get("seen_open_by") in ("event", "poll"),
                         f"it opened during the wait, not before ({evidence.get('seen_open_by')})")
            rc, out, _ = cli_text("wait", "--app", name, "--window", "Appearing")
            check.expect(rc == 0 and out.startswith(f'window "Appearing" of {name} is open') and
                         "already so" in out and out.count("\n") == 1,
                         f"an open window is reported at once, in one human line: {out.strip()!r}")
    finally:
        wait.stop()


def check_window_closed(check, bus, tmp):
    name = unique_name("wait-close")
    control = os.path.join(tmp, "close-control")
    with FixtureApp(FIXTURE, name, os.path.join(tmp, "close"), "--title", "Closing",
                    "--close-after-control", control) as app:
        wait_for("the Closing window", lambda: '"Closing"' in x_window_tree())
        wait = start_wait(bus, "--app", name, "--closed", "--title", "Closing")
        try:
            touch(control)
            rc, env, _ = wait.result()
        finally:
            wait.stop()
        evidence = data(env).get("evidence", {})
        check.expect(rc == 0 and evidence.get("window", {}).get("title") == "Closing",
                     f"wait --closed returns when the window closes ({rc})")
        # The control file is touched once the wait listens, which can be before its
        # baseline check ends: the window may be first noticed by its closing events.
        check.expect(evidence.get("seen_open_by") in ("start", "event") and
                     evidence.get("gone_by") in ("event", "poll", "app_exit") and
                     evidence.get("gone_at_ms", -1) >= 0,
                     f"open when the wait began, gone during it ({evidence})")
        check.expect(app.wait_for_exit() == 0, "the fixture did exit")
        check.expect('"Closing"' not in x_window_tree(), "the X server has no such window left")


def check_open_and_close(check, bus, tmp):
    """The window opens after the wait began and closes before any polling tick would
    list it twice: only the wait's baseline and its events can see it."""
    name = unique_name("wait-blink")
    control = os.path.join(tmp, "blink-control")
    wait = start_wait(bus, "--app", name, "--closed", "--timeout", "30000")
    try:
        with FixtureApp(FIXTURE, name, os.path.join(tmp, "blink"), "--title", "Blink",
                        "--close-after-control", control) as app:
            # Close it the moment another client sees it listed.
            wait_for("Blink listed", lambda: (cli("windows", "--app", name)[1] or {})
                     .get("data", {}).get("windows"))
            touch(control)
            rc, env, _ = wait.result()
            evidence = data(env).get("evidence", {})
            check.expect(rc == 0 and evidence.get("window", {}).get("title") == "Blink",
                         f"a window that opened and closed within the wait is reported ({rc})")
            check.expect(evidence.get("seen_open_by") in ("event", "poll"),
                         f"it was not open when the wait began ({evidence.get('seen_open_by')})")
            check.expect(app.wait_for_exit() == 0, "the fixture did exit")
    finally:
        wait.stop()


def check_text(check, bus, tmp):
    name = unique_name("wait-text")
    with FixtureApp(FIXTURE, name, os.path.join(tmp, "text"), "--title", "Rows",
                    "--add-rows-after", "3000", "2") as app:
        rc, env, _ = cli("wait", "--app", name, "--text", "Row 2", "--timeout", "30000")
        evidence = data(env).get("evidence", {})
        check.expect(rc == 0 and evidence.get("name") == "Row 2" and
                     evidence.get("field") == "name",
                     f"wait --text sees a label the fixture adds later ({evidence})")
        check.expect(data(env).get("seen_by") != "start",
                     f"the label came during the wait ({data(env).get('seen_by')})")
        check.expect(atspi_probe.find(app.nodes(), "label", "Row 2") != [],
                     "the label is there for the test's own probe too")
        rc, env2, _ = cli("get", evidence.get("ref", "@none:e1"))
        check.expect(rc == 0 and data(env2).get("name") == "Row 2",
                     "the ref the wait returns can be used like a snapshot's")

        entry = atspi_probe.find_one(app.nodes(), "text", "Text")
        wait = start_wait(bus, "--app", name, "--text", "ready-42")
        try:
            atspi_probe.set_text(app.bus, entry, "status: ready-42 now")
            rc, env, _ = wait.result()
        finally:
            wait.stop()
        evidence = data(env).get("evidence", {})
        check.expect(rc == 0 and evidence.get("field") == "value" and
                     evidence.get("role") == "text",
                     f"wait --text sees text typed into the entry ({evidence})")


def check_app_leaves(check, bus, tmp):
    """A wait for a window or text of an app that exits ends then, with APP_NOT_FOUND
    (app_left_bus), instead of running its whole deadline (it ran all 20 s)."""
    for kind, args in (("text", ("--text", "never shown")), ("window", ("--window", "Never"))):
        name = unique_name("wait-leave")
        with FixtureApp(FIXTURE, name, os.path.join(tmp, "leave-" + kind)) as app:
            wait = start_wait(bus, "--app", name, *args, "--timeout", "20000")
            try:
                app.stop()
                gone_at = time.monotonic()
                rc, env, _ = wait.result()
                after = time.monotonic() - gone_at
            finally:
                wait.stop()
        check.expect(rc == 1 and error(env).get("code") == "APP_NOT_FOUND" and
                     error(env).get("details", {}).get("reason") == "app_left_bus",
                     f"wait --{kind} ends when its app exits ({rc}, {error(env)})")
        check.expect(after < 10, f"well before its 20 s deadline ({after:.2f} s after the exit)")


def entry_ref(app_name):
    rc, env, _ = cli("find", "--app", app_name, "--role", "text", "--name", "Text")
    elements = data(env).get("elements", [])
    return elements[0]["ref"] if rc == 0 and len(elements) == 1 else None


def check_element(check, bus, tmp):
    name = unique_name("wait-element")
    effect = os.path.join(tmp, "element")
    with FixtureApp(FIXTURE, name, effect, "--title", "Element") as app:
        ref = entry_ref(name)
        check.expect(ref is not None, "find gives the entry's ref")
        if ref is None:
            return
        wait = start_wait(bus, "--app", name, "--element", ref, "--predicate", "value",
                          "--value", "typed value")
        try:
            nodes = app.nodes()
            entry = atspi_probe.find_one(nodes, "text", "Text")
            atspi_probe.set_text(app.bus, entry, "typed")
            atspi_probe.set_text(app.bus, entry, "typed value")
            rc, env, _ = wait.result()
        finally:
            wait.stop()
        check.expect(rc == 0 and data(env).get("evidence", {}).get("value") == "typed value",
                     f"wait --predicate value returns when the entry holds the value ({rc})")
        check.expect(atspi_probe.get_text(app.bus, entry) == "typed value",
                     "the entry holds it, as the test's own probe reads it")

        rc, env, _ = cli("find", "--app", name, "--role", "check box", "--name", "Enable feature")
        check_ref = data(env).get("elements", [{}])[0].get("ref")
        wait = start_wait(bus, "--element", check_ref, "--predicate", "state", "--value", "checked")
        try:
            box = atspi_probe.find_one(nodes, "check box", "Enable feature")
            atspi_probe.do_named_action(app.bus, box, "click")
            rc, env, _ = wait.result()
        finally:
            wait.stop()
        check.expect(rc == 0 and data(env).get("evidence", {}).get("state") == "checked",
                     f"wait --predicate state returns when the box is checked ({rc})")
        check.expect(app.wait_for_effect(".check", b"1"), "the fixture wrote that it is checked")

        rc, env, _ = cli("wait", "--app", "someone-else", "--element", ref)
        check.expect(rc == 1 and error(env).get("code") == "INVALID_ARGS" and
                     error(env).get("details", {}).get("ref_app") == name,
                     "a ref of another app than --app names is refused")
        check_timeouts(check, app, name, ref)


def check_timeouts(check, app, name, ref):
    rc, env, elapsed = cli("wait", "--app", name, "--window", "Never", "--timeout", "1500")
    err = error(env)
    details = err.get("details", {})
    listed = [w.get("title") for w in details.get("last_seen", {}).get("windows", [])]
    check.expect(rc == 1 and err.get("code") == "TIMEOUT", f"a window that never comes: TIMEOUT ({rc})")
    # The deadline counts from the request's arrival, a little before the wait itself starts
    # (waited_ms counts from there), so the client's clock is the one held to 1.5 s.
    check.expect(details.get("waited_ms", 0) >= 1400 and 1.5 <= elapsed < 10,
                 f"at its deadline ({details.get('waited_ms')} ms, {elapsed:.2f} s)")
    check.expect(details.get("condition", {}).get("title") == "Never" and listed == ["Element"],
                 f"details name the condition and the windows seen last ({listed})")

    # Long enough for the first look to finish on a loaded machine (an ASan build took more
    # than 800 ms for it): what is checked is what the last look saw, not how soon.
    rc, env, _ = cli("wait", "--element", ref, "--predicate", "value", "--value", "never",
                     "--timeout", "3000")
    seen = error(env).get("details", {}).get("last_seen", {})
    check.expect(rc == 1 and error(env).get("code") == "TIMEOUT" and
                 seen.get("value") == atspi_probe.get_text(app.bus, atspi_probe.find_one(
                     app.nodes(), "text", "Text")),
                 f"an element timeout shows the value seen last ({seen.get('value')!r})")

    rc, out, err_text = cli_text("wait", "--app", name, "--window", "Never", "--timeout", "500")
    check.expect(rc == 1 and "error: TIMEOUT" in err_text and "last seen:" in err_text and
                 '"Element"' in err_text,
                 f"for a person, TIMEOUT prints what was seen last: {err_text.splitlines()[-1:]}")

    rc, env, elapsed = cli("--reply-timeout", "1000", "wait", "--app", name, "--window", "Never",
                           "--timeout", "2500")
    check.expect(rc == 1 and error(env).get("code") == "TIMEOUT" and elapsed >= 2.5,
                 f"a short --reply-timeout does not cut the wait short ({elapsed:.2f} s)")

    rc, env, _ = cli("wait", "--app", unique_name("nobody"), "--closed", "--timeout", "800")
    check.expect(rc == 1 and error(env).get("code") == "TIMEOUT" and
                 error(env).get("details", {}).get("last_seen", {}).get("app_running") is False,
                 "waiting on an app that is not running times out saying so")


def check_busy_daemon(check, tmp):
    """One more long wait than the daemon runs at once: exactly one is refused, the others
    run, and the rest of the daemon keeps answering quickly meanwhile."""
    name = unique_name("wait-busy")
    with FixtureApp(FIXTURE, name, os.path.join(tmp, "busy"), "--title", "Busy"):
        waits = [BackgroundCli("wait", "--app", name, "--window", "Never", "--timeout", "8000")
                 for _ in range(MAX_WAITS + 1)]
        try:
            wait_for("one wait refused", lambda: any(w.process.poll() is not None for w in waits))
            ended = [w for w in waits if w.process.poll() is not None]
            refused = [w.result() for w in ended]
            check.expect(len(refused) == 1 and refused[0][0] == 1 and
                         error(refused[0][1]).get("code") == "CONFLICT" and
                         error(refused[0][1]).get("details", {}).get("limit") == MAX_WAITS,
                         f"of {MAX_WAITS + 1} waits at once, one is CONFLICT naming the limit "
                         f"{[r[1] for r in refused]}")
            slow = []
            for args in (("status",), ("ping",), ("apps",), ("snapshot", "--app", name)):
                rc, _, elapsed = cli(*args)
                if rc != 0 or elapsed > 1.5:
                    slow.append((args[0], rc, round(elapsed, 2)))
            check.expect(not slow, f"status, apps and a snapshot answer while {MAX_WAITS} waits "
                         f"run {slow}")
            running = [w.result() for w in waits if w not in ended]
            check.expect(len(running) == MAX_WAITS and
                         all(rc == 1 and error(env).get("code") == "TIMEOUT" and elapsed >= 8
                             for rc, env, elapsed in running),
                         "the others ran to their deadline and ended with TIMEOUT")
        finally:
            for w in waits:
                w.stop()
        rc, env, _ = cli("wait", "--app", name, "--window", "Busy", "--timeout", "5000")
        check.expect(rc == 0, "once they ended, a new wait runs again")


def check_killed_clients_free_their_waits(check, bus):
    """A `companyos wait` killed mid-wait (Ctrl-C, a script's timeout) ends its wait in the
    daemon: its slot and the registry listeners are freed long before its deadline."""
    waits = [BackgroundCli("wait", "--app", "never-started-app", "--window", "Never",
                           "--timeout", "600000") for _ in range(MAX_WAITS)]
    try:
        wait_for("the waits' listeners", lambda: window_listeners(bus))
        for w in waits:
            w.process.kill()
            w.process.communicate()
        killed_at = time.monotonic()
        try:
            wait_for("no wait listening", lambda: not window_listeners(bus), timeout=10)
            freed = time.monotonic() - killed_at
        except atspi_probe.ProbeError:
            freed = None
        check.expect(freed is not None,
                     "the daemon stopped listening once the clients were killed " +
                     (f"({freed:.2f} s)" if freed is not None else "(not within 10 s)"))
        rc, env, _ = cli("wait", "--app", "never-started-app", "--window", "Never",
                         "--timeout", "300")
        check.expect(rc == 1 and error(env).get("code") == "TIMEOUT",
                     f"a new wait runs, not refused for lack of a slot ({error(env).get('code')})")
    finally:
        for w in waits:
            w.stop()


def check_refusals(check):
    rc, _, _ = cli("wait", "--app", "x")
    check.expect(rc == 2, "wait without a condition is a usage error")
    rc, _, _ = cli("wait", "--app", "x", "--window", "A", "--text", "b")
    check.expect(rc == 2, "two conditions are a usage error")
    rc, env, _ = cli("call", "wait", '{"app":"x","window":"A","text":"b"}')
    check.expect(rc == 1 and error(env).get("code") == "INVALID_ARGS" and
                 error(env).get("details", {}).get("conflict") == ["window", "text"],
                 "the daemon names conflicting conditions")
    rc, env, _ = cli("call", "wait", '{"app":"x","window":"A","timeout_ms":600001}')
    check.expect(rc == 1 and error(env).get("code") == "INVALID_ARGS",
                 "a timeout above ten minutes is refused")
    rc, env, _ = cli("wait", "--element", "@nosuch:e1")
    check.expect(rc == 1 and error(env).get("code") == "STALE_REF", "an unknown ref is STALE_REF")


def check_shutdown_cancels(check, bus, daemon):
    """SIGTERM ends a running wait at once instead of holding the daemon up to its timeout."""
    wait = start_wait(bus, "--app", "never-started-app", "--window", "Never", "--timeout", "120000")
    try:
        stopped_at = time.monotonic()
        daemon.terminate()
        daemon.wait(30)
        took = time.monotonic() - stopped_at
        check.expect(took < 15, f"the daemon stopped {took:.1f} s after SIGTERM with a 120 s wait running")
        rc, env, _ = wait.result(timeout=30)
        reason = ((env or {}).get("error") or {}).get("details", {}).get("reason")
        check.expect(rc == 1 and reason == "cancelled",
                     f"the wait was answered as cancelled (exit {rc}, reason {reason})")
    finally:
        wait.stop()


def main():
    check = Checker("wait")
    daemon = subprocess.Popen([DAEMON, "--log-level", "warn"], stdin=subprocess.DEVNULL)
    try:
        wait_for("daemon", lambda: cli("ping")[0] == 0)
        bus = atspi_probe.a11y_bus()
        with tempfile.TemporaryDirectory() as tmp:
            check_refusals(check)
            check_window_appears(check, bus, tmp)
            check_window_closed(check, bus, tmp)
            check_open_and_close(check, bus, tmp)
            check_text(check, bus, tmp)
            check_app_leaves(check, bus, tmp)
            check_element(check, bus, tmp)
            check_busy_daemon(check, tmp)
            check_killed_clients_free_their_waits(check, bus)
            check_shutdown_cancels(check, bus, daemon)
    finally:
        if daemon.poll() is None:
            daemon.terminate()
            daemon.wait(30)
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
