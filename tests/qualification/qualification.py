#!/usr/bin/env python3
"""companyOS qualification suite: drives the `companyos` CLI end to end against fresh app
processes (one per trial, stopped and verified gone after) and judges every trial only from
outside the app — the fixtures' effect files (exact bytes, or their absence), the file
mousepad saves, the calculator's display as the suite's own AT-SPI read shows it — never
from the tool's own "ok". Runs inside scripts/desktop-session (CTest: the qualification
test; scripts/bench qualification --trials N: the soak).

Trials on the GTK3 and GTK4 fixtures (issues 4 and 11):
  clean         set-value on the entry, then click: FILE holds exactly the text
  ambiguous     two identical buttons; click by ref or selector: AMBIGUOUS_TARGET
  stale         the button moves after the snapshot: click --strict is STALE_REF, then a
                plain ref (identity still unique) acts and FILE holds the text
  late_twin     a twin button appears within 50 ms before the click (half packed, half
                added): AMBIGUOUS_TARGET, neither FILE nor FILE.twin written
  window_closed the window closes between snapshot and action: WINDOW_NOT_FOUND or
                STALE_REF, nothing delivered
  modal         a click opens a modal dialog (GTK3: gtk_dialog_run inside the click's
                handler): the click answers, the dialog shows, and a click on its
                "Confirm" acts: FILE holds "dialog: confirmed"
  app_killed    the app is killed after the snapshot (the click is refused, nothing
                delivered) or while the click's handler runs (the reply must not claim a
                verified effect nor deny delivery; no FILE)
Trials on mousepad and GNOME Calculator: see real_apps.py.

--trials N scales the plan (BASE_PLAN, 100 trials) to at least N. Writes the JSON report
(--out) and prints a table. Exit status 1 when any metric but latency is non-zero (silent
incorrect successes, over-halts, refusal failures, harness errors, late-twin timing
violations, cleanup failures), 0 otherwise, 2 on bad arguments.
"""

import argparse
import datetime
import json
import math
import os
import platform
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "desktop", "harness"))
import verdict  # noqa: E402
from atspi_probe import ProbeError, wait_for  # noqa: E402
from bus_view import BusView  # noqa: E402
from checks import Checker  # noqa: E402
from dbus_wire import DBusError  # noqa: E402
from fixture_app import FixtureApp, read_bytes, unique_name  # noqa: E402
import real_apps  # noqa: E402
from real_apps import REAL_APPS, RealApp  # noqa: E402
from verdict import ACT, HARNESS_ERROR, PASS, REFUSE, UNCONFIRMED  # noqa: E402

FIXTURE_KINDS = ("clean", "ambiguous", "stale", "late_twin", "window_closed", "modal",
                 "app_killed")
# Trials per app and kind at --trials 100 (the default, what CI runs).
BASE_PLAN = {
    "gtk3": {"clean": 12, "ambiguous": 10, "stale": 8, "late_twin": 10, "window_closed": 5,
             "modal": 5, "app_killed": 6},
    "gtk4": {"clean": 6, "ambiguous": 4, "stale": 4, "late_twin": 4, "window_closed": 4,
             "modal": 4, "app_killed": 4},
    "mousepad": {"clean": 4, "window_closed": 2, "app_killed": 2},
    "gnome-calculator": {"clean": 4, "app_killed": 2},
}
# GTK4 (4.8) exposes no accessible ids, so its selectors name role and name only.
FIXTURES = {"gtk3": ("companyos-fixture-gtk3", True), "gtk4": ("companyos-fixture-gtk4", False)}
# Values typed into the entry: shell metacharacters, quotes, non-ASCII, edge spaces.
CLEAN_VALUES = [
    "plain text",
    "cost $5; total $10",
    "$HOME ${PATH} $(id) `id`",
    "a;b;c; rm -rf nothing",
    "\"double\" and 'single' quotes",
    "Grüße aus Köln — naïve café",
    "東京 日本語 😀",
    "mix $x; \"q\" 'r' ü €",
    "back\\slash & | < > * ?",
    "  spaced  out  ",
]
BUTTON = ("push button", "Write effect", "write-effect")
ENTRY = ("text", "Text", "text-entry")
TWIN_LEAD_LIMIT_MS = 50
EFFECT_DEADLINE_S = 5.0   # how long an expected effect may take to appear
REFUSAL_WATCH_S = 0.4     # how long a refused action's effect files are watched
CLI_TIMEOUT_S = 30
SNAPSHOT_DEADLINE_S = 15


class Paths:
    def __init__(self, build_dir):
        self.cli = os.path.join(build_dir, "cli", "companyos")
        self.daemon = os.path.join(build_dir, "src", "daemon", "companyosd")
        self.fixtures = {app: os.path.join(build_dir, "tests", "fixtures", executable)
                         for app, (executable, _) in FIXTURES.items()}


class CliRun:
    """One `companyos --json ARGS` process: its exit status, envelope and wall time."""

    def __init__(self, cli, args):
        self.args = list(args)
        self.started = time.monotonic()
        try:
            done = subprocess.run([cli, "--json", *self.args], capture_output=True, text=True,
                                  timeout=CLI_TIMEOUT_S, stdin=subprocess.DEVNULL)
            self.exit_status = done.returncode
            self.stderr = done.stderr.strip()
            try:
                self.envelope = json.loads(done.stdout)
            except ValueError:
                self.envelope = None
        except subprocess.TimeoutExpired:
            self.exit_status, self.envelope, self.stderr = None, None, "timed out"
        self.ms = round((time.monotonic() - self.started) * 1000, 2)
        self.answered, self.ok, self.code, self.delivery = verdict.reply_facts(
            self.exit_status, self.envelope)

    def record(self):
        step = {"argv": ["companyos", "--json", *self.args], "exit": self.exit_status,
                "ok": self.ok, "code": self.code, "delivery": self.delivery, "ms": self.ms}
        if not self.answered:
            step["stderr"] = self.stderr[-500:]
        return step


def effect_record(content):
    if content is None:
        return None
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    return {"text": text, "hex": content.hex(), "bytes": len(content)}


def await_effect(path, deadline_s=EFFECT_DEADLINE_S):
    """The bytes of PATH once it exists (it is replaced atomically), or None."""
    return Trial.await_change(lambda: read_bytes(path), deadline_s)


def watch_effects(paths, watch_s=REFUSAL_WATCH_S):
    """Watches PATHS for WATCH_S seconds; each one's bytes if it ever appeared, else None."""
    return Trial.watch_change({suffix: (lambda path=path: read_bytes(path))
                               for suffix, path in paths.items()}, watch_s)


def flatten(node, out):
    if node:
        out.append(node)
        for child in node.get("children", []):
            flatten(child, out)
    return out


def pid_gone(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


class Snapshot:
    def __init__(self, envelope):
        data = envelope["data"]
        self.id = data["snapshot"]
        self.nodes = flatten(data["tree"], [])

    def refs(self, role, name):
        return [node["ref"] for node in self.nodes
                if node["role"] == role and node["name"] == name]


class Trial:
    """One app process (a fixture, or a real app) and the judged actions on it."""

    def __init__(self, suite, app, kind, index, *options):
        self.suite = suite
        self.app_key = app
        self.kind = kind
        self.index = index
        self.name = f"{app}-{kind}-{index:03d}"
        self.effect_path = os.path.join(suite.work_dir, f"{self.name}.effect")
        self.control_path = os.path.join(suite.work_dir, f"{self.name}.control")
        self.real = REAL_APPS[app](self) if app in REAL_APPS else None
        self.app_name = self.real.app_name if self.real else unique_name("Qual")
        self.with_ids = FIXTURES.get(app, (None, False))[1]
        self.options = [self.control_path if option == "CONTROL" else option
                        for option in options]
        self.records = []
        self.steps = []
        self.fixture = None
        self.app = None
        self.pid = None

    # ---- the app -------------------------------------------------------------------

    def __enter__(self):
        if self.real:
            self.app = RealApp(self.suite.bus, self.app_name, self.real.argv(),
                               self.suite.work_dir)
            self.pid = self.app.process.pid
            bus_name, root_path = self.app.bus_name, self.app.root_path
        else:
            self.fixture = FixtureApp(self.suite.paths.fixtures[self.app_key], self.app_name,
                                      self.effect_path, "--title", self.app_name,
                                      *self.options)
            self.pid = self.fixture.process.pid
            bus_name, root_path = self.fixture.bus_name, self.fixture.root_path
        if self.app_key not in self.suite.toolkits:
            self.suite.toolkits[self.app_key] = self.suite.bus.toolkit(bus_name, root_path)
        return self

    def __exit__(self, *exc):
        cleanup_verified = False
        stoppable = self.app or self.fixture
        if stoppable is not None:
            stoppable.stop()
            cleanup_verified = pid_gone(self.pid)
        for record in self.records:
            record["cleanup_verified"] = cleanup_verified
        return False

    def touch_control(self):
        with open(self.control_path, "w"):
            pass
        return time.monotonic()

    def effect_paths(self, *suffixes):
        return {suffix: self.effect_path + suffix for suffix in suffixes}

    # ---- outside oracles -------------------------------------------------------------

    @staticmethod
    def await_change(read, deadline_s=EFFECT_DEADLINE_S):
        """READ()'s first value other than None, or None once DEADLINE_S pass."""
        until = time.monotonic() + deadline_s
        while True:
            value = read()
            if value is not None or time.monotonic() >= until:
                return value
            time.sleep(0.01)

    @staticmethod
    def await_value(read, wanted, deadline_s):
        """READ()'s value once it equals WANTED, else its last value at the deadline."""
        until = time.monotonic() + deadline_s
        while True:
            value = read()
            if value == wanted or time.monotonic() >= until:
                return value
            time.sleep(0.02)

    @staticmethod
    def watch_change(reads, watch_s=REFUSAL_WATCH_S):
        """Each of READS' first value other than None within WATCH_S seconds, else None."""
        seen = {label: None for label in reads}
        until = time.monotonic() + watch_s
        while True:
            for label, read in reads.items():
                if seen[label] is None:
                    seen[label] = read()
            if time.monotonic() >= until:
                return seen
            time.sleep(0.01)

    # ---- CLI -------------------------------------------------------------------------

    def cli(self, *args):
        run = CliRun(self.suite.paths.cli, args)
        self.steps.append(run.record())
        return run

    def snapshot(self, ready=None):
        """A snapshot in which READY(snapshot) holds — by default, one that shows the
        fixture's entry and button (the window can take a moment to be listed after the
        app joins the bus, and a real app to fill it)."""
        ready = ready or (lambda shot: shot.refs(*ENTRY[:2]) and shot.refs(*BUTTON[:2]))

        def probe():
            run = self.cli("snapshot", "--app", self.app_name)
            if not run.ok:
                return None
            snapshot = Snapshot(run.envelope)
            return snapshot if ready(snapshot) else None
        return wait_for(f"a snapshot of {self.app_name}", SNAPSHOT_DEADLINE_S, probe, interval=0.1)

    def selector(self, element, with_id):
        role, name, accessible_id = element
        args = ["--app", self.app_name, "--role", role, "--name", name]
        return args + (["--id", accessible_id] if with_id and self.with_ids else [])

    # ---- judging ---------------------------------------------------------------------

    def judge(self, label, expected, run, effects, setup_refused=False, **extra):
        observed = {"answered": run.answered, "ok": run.ok, "code": run.code,
                    "delivery": run.delivery, "effects": effects,
                    "setup_refused": setup_refused}
        outcome = verdict.judge(expected, observed)
        record = {
            "trial": self.name,
            "app": self.app_key,
            "kind": self.kind if not label else f"{self.kind}_{label}",
            "fixture": {"app": self.app_name, "pid": self.pid, "options": self.options_shown()},
            "expected": expected_record(expected),
            "observed": {"effects": {"FILE" + suffix: effect_record(content)
                                     for suffix, content in effects.items()},
                         "ok": run.ok, "refusal_code": run.code, "delivery": run.delivery,
                         "exit": run.exit_status},
            "verdict": outcome,
            "latency_ms": run.ms if run.answered else None,
            "steps": list(self.steps),
            **extra,
        }
        self.records.append(record)
        return record

    def options_shown(self):
        return [os.path.basename(option) if option == self.control_path else option
                for option in self.options]

    def harness_error(self, label, error):
        self.records.append({
            "trial": self.name, "app": self.app_key,
            "kind": self.kind if not label else f"{self.kind}_{label}",
            "fixture": {"app": self.app_name, "pid": self.pid, "options": self.options_shown()},
            "verdict": HARNESS_ERROR, "error": str(error), "latency_ms": None,
            "steps": list(self.steps)})


def expected_record(expected):
    if expected["outcome"] == ACT:
        return {"outcome": ACT, "effect": effect_record(expected["effect"])}
    return {"outcome": expected["outcome"], "codes": expected["codes"], "effect": None}


def act_then_judge(trial, label, args, text, setup_refused=False, **extra):
    """Runs the decisive action that must act; FILE must then hold exactly TEXT."""
    run = trial.cli(*args)
    content = await_effect(trial.effect_path) if run.ok else \
        watch_effects(trial.effect_paths(""))[""]
    return trial.judge(label, {"outcome": ACT, "effect": text.encode("utf-8")}, run,
                       {"": content}, setup_refused=setup_refused, **extra)


def refuse_then_judge(trial, label, args, codes, suffixes=("",), run=None, **extra):
    """Runs the decisive action that must be refused; every effect file must stay absent."""
    run = run or trial.cli(*args)
    effects = watch_effects(trial.effect_paths(*suffixes))
    return trial.judge(label, {"outcome": REFUSE, "codes": codes}, run, effects, **extra)


# ---- the trials --------------------------------------------------------------------------

def clean_trial(trial, index):
    """Even trials act by ref (full, or bare with --snapshot), odd ones by selector."""
    text = CLEAN_VALUES[index % len(CLEAN_VALUES)]
    snapshot = trial.snapshot()
    if index % 2 == 0:
        entry, button = snapshot.refs(*ENTRY[:2])[0], snapshot.refs(*BUTTON[:2])[0]
        if index % 4 == 2:
            bare = ["--snapshot", snapshot.id]
            entry_target = [entry.split(":")[-1], *bare]
            button_target = [button.split(":")[-1], *bare]
        else:
            entry_target, button_target = [entry], [button]
        set_args = ["set-value", *entry_target, text]
    else:
        set_args = ["set-value", *trial.selector(ENTRY, with_id=index % 4 == 1), text]
        button_target = trial.selector(BUTTON, with_id=index % 4 == 1)
    set_value = trial.cli(*set_args)
    act_then_judge(trial, "", ["click", *button_target], text,
                   setup_refused=not set_value.ok, target="ref" if index % 2 == 0 else "selector")


def ambiguous_trial(trial, index):
    """Even trials click one of the twins by ref, odd ones by selector."""
    buttons = trial.suite.bus.write_buttons(trial.fixture.bus_name)
    if len(buttons) != 2:
        raise ProbeError(f"--ambiguous shows {len(buttons)} live Write effect buttons, not 2")
    snapshot = trial.snapshot()
    if index % 2 == 0:
        refs = snapshot.refs(*BUTTON[:2])
        target, how = [refs[(index // 2) % len(refs)]], "ref"
    else:
        target, how = trial.selector(BUTTON, with_id=(index // 2) % 2 == 1), "selector"
    refuse_then_judge(trial, "", ["click", *target], ["AMBIGUOUS_TARGET"], target=how)


def button_box(trial):
    """The live container of the one Write effect button, and its child count now."""
    buttons = trial.suite.bus.write_buttons(trial.fixture.bus_name)
    if len(buttons) != 1:
        raise ProbeError(f"{len(buttons)} live Write effect buttons, expected 1")
    box = buttons[0].parent_path
    return box, trial.suite.bus.child_count(trial.fixture.bus_name, box)


def stale_trial(trial, index):
    """The button moves to a new box after the snapshot: strict refuses, plain acts."""
    text = f"stale {index}: $moved; \"ok\" ✓"
    snapshot = trial.snapshot()
    entry, button = snapshot.refs(*ENTRY[:2])[0], snapshot.refs(*BUTTON[:2])[0]
    set_value = trial.cli("set-value", entry, text)
    box, before = button_box(trial)
    triggered = trial.touch_control()
    if trial.suite.bus.wait_child_count(trial.fixture.bus_name, box, before + 1,
                                        triggered) is None:
        raise ProbeError("--stale: the button's box never gained the inserted label")
    moved = trial.suite.bus.write_buttons(trial.fixture.bus_name)
    if len(moved) != 1 or moved[0].parent_path == box:
        raise ProbeError("--stale: the button did not move to another box")
    refuse_then_judge(trial, "strict", ["click", button, "--strict"], ["STALE_REF"])
    act_then_judge(trial, "plain", ["click", button], text, setup_refused=not set_value.ok)


def late_twin_trial(trial, index):
    """A twin of the button (pack or add) lands within 50 ms before the click."""
    method = twin_method(index)
    by_ref = (index // 2) % 2 == 0
    snapshot = trial.snapshot()
    button = snapshot.refs(*BUTTON[:2])[0]
    target = [button] if by_ref else trial.selector(BUTTON, with_id=False)
    box, before = button_box(trial)
    triggered = trial.touch_control()
    seen = trial.suite.bus.wait_child_count(trial.fixture.bus_name, box, before + 1, triggered)
    if seen is None:
        raise ProbeError(f"--add-twin {method}: no twin within the deadline")
    changed_after, seen_at = seen
    run = trial.cli("click", *target)
    # The twin was added after CHANGED_AFTER, so it led the action by at most this much.
    lead_ms = round((run.started - changed_after) * 1000, 2)
    record = refuse_then_judge(
        trial, "", None, ["AMBIGUOUS_TARGET"], suffixes=("", ".twin"), run=run,
        twin_method=method, target="ref" if by_ref else "selector",
        twin_lead_ms_at_most=lead_ms,
        twin_seen_before_action_ms=round((run.started - seen_at) * 1000, 2),
        timing_ok=lead_ms <= TWIN_LEAD_LIMIT_MS)
    # Checked after the click so the check cannot delay it: without a live twin the
    # trial tested nothing.
    twins = len(trial.suite.bus.write_buttons(trial.fixture.bus_name))
    if twins != 2:
        record["verdict"] = HARNESS_ERROR
        record["error"] = f"{twins} live Write effect buttons after the click, expected 2"


def window_closed_trial(trial, index):
    """The fixture closes its window and exits after the snapshot; then click or set-value
    by the saved ref (plain or strict)."""
    snapshot = trial.snapshot()
    entry, button = snapshot.refs(*ENTRY[:2])[0], snapshot.refs(*BUTTON[:2])[0]
    trial.touch_control()
    if trial.fixture.wait_for_exit(timeout=10) is None:
        raise ProbeError("--close-after-control: the fixture did not exit")
    args = ["click", button] if index % 2 == 0 else ["set-value", entry, "late text"]
    if (index // 2) % 2 == 1:
        args.append("--strict")
    refuse_then_judge(trial, "", args, ["WINDOW_NOT_FOUND", "STALE_REF"], action=args[0],
                      strict="--strict" in args)


MODAL_OPEN = ("push button", "Open dialog…", "open-dialog")
CONFIRM = ("push button", "Confirm", "confirm")


def modal_trial(trial, index):
    """The click on "Open dialog…" opens a modal dialog — on GTK3 from inside the click's
    handler (gtk_dialog_run), which holds the connection the click went out on. That click
    must answer and the dialog must show (FILE.dialog); then "Confirm", by selector or by a
    ref from a snapshot of the dialog, must act: FILE holds "dialog: confirmed"."""
    snapshot = trial.snapshot(lambda shot: shot.refs(*MODAL_OPEN[:2]))
    opener = [snapshot.refs(*MODAL_OPEN[:2])[0]] if index % 2 == 0 else \
        trial.selector(MODAL_OPEN, with_id=True)
    run = trial.cli("click", *opener)
    shown = trial.await_change(lambda: read_bytes(trial.effect_path + ".dialog"))
    trial.judge("open", {"outcome": ACT, "effect": b"shown"}, run, {"": shown},
                oracle="FILE.dialog")
    if (index // 2) % 2 == 0:
        target, how = trial.selector(CONFIRM, with_id=True), "selector"
    else:
        dialog = trial.cli("snapshot", "--app", trial.app_name, "--title", "Confirm")
        refs = Snapshot(dialog.envelope).refs(*CONFIRM[:2]) if dialog.ok else []
        if len(refs) != 1:
            raise ProbeError(f"a snapshot of the dialog shows {len(refs)} Confirm buttons"
                             f" ({dialog.code or 'ok'})")
        target, how = refs, "ref"
    act_then_judge(trial, "confirm", ["click", *target], "dialog: confirmed", target=how)


SLOW_WRITE_MS = 3000


def app_killed_trial(trial, index):
    """Even trials: the app is killed after the snapshot, and a click by ref must be refused
    with nothing delivered. Odd trials (--slow-write): the app is killed while the click's
    handler runs, after FILE.started and before FILE: the reply may say the action ran
    unconfirmed, or that the app went away after delivery, but never that it verified the
    effect, nor that nothing was delivered."""
    snapshot = trial.snapshot()
    entry, button = snapshot.refs(*ENTRY[:2])[0], snapshot.refs(*BUTTON[:2])[0]
    if index % 2 == 0:
        os.kill(trial.pid, signal.SIGKILL)
        trial.fixture.wait_for_exit()
        refuse_then_judge(trial, "before", ["click", button],
                          ["APP_NOT_FOUND", "WINDOW_NOT_FOUND", "STALE_REF"])
        return
    set_value = trial.cli("set-value", entry, f"killed {index}")
    if not set_value.ok:
        raise ProbeError(f"set-value before the kill was refused ({set_value.code})")
    click = {}
    thread = threading.Thread(target=lambda: click.update(run=trial.cli("click", button)))
    thread.start()
    started = trial.await_change(lambda: read_bytes(trial.effect_path + ".started"))
    if started is not None:
        os.kill(trial.pid, signal.SIGKILL)
    thread.join()
    if started is None:
        raise ProbeError("--slow-write: the click's handler never began (no FILE.started)")
    trial.fixture.wait_for_exit()
    run = click["run"]
    trial.judge("mid", {"outcome": UNCONFIRMED,
                        "codes": ["APP_NOT_FOUND", "WINDOW_NOT_FOUND", "APP_UNRESPONSIVE"]},
                run, watch_effects(trial.effect_paths("")))


def twin_method(index):
    return "pack" if index % 2 == 0 else "add"


TRIALS = {
    "clean": ((), clean_trial),
    "ambiguous": (("--ambiguous",), ambiguous_trial),
    "stale": (("--stale", "CONTROL"), stale_trial),
    "late_twin": (None, late_twin_trial),
    "window_closed": (("--close-after-control", "CONTROL"), window_closed_trial),
    "modal": (("--modal",), modal_trial),
    "app_killed": (None, app_killed_trial),
}


def trial_options(app, kind, index):
    if app in REAL_APPS:
        return ()
    if kind == "late_twin":
        return ("--add-twin", "CONTROL", "--twin-method", twin_method(index))
    if kind == "app_killed":
        return () if index % 2 == 0 else ("--slow-write", str(SLOW_WRITE_MS))
    return TRIALS[kind][0]


def scaled_plan(base, trials):
    """BASE ({app: {kind: count}}) scaled so the counts add up to at least TRIALS: each
    count grows by the same factor, rounded up, and none drops below one."""
    total = sum(sum(kinds.values()) for kinds in base.values())
    factor = trials / total
    return {app: {kind: max(1, math.ceil(count * factor)) for kind, count in kinds.items()}
            for app, kinds in base.items()}


def interleaved(plan):
    """(app, kind, index) of every planned trial, round-robin over apps and kinds, so a long
    run meets every kind early and the machine's state drifts evenly over all of them."""
    queues = [[(app, kind, index) for index in range(count)]
              for app, kinds in plan.items() for kind, count in kinds.items()]
    order = []
    while any(queues):
        for queue in queues:
            if queue:
                order.append(queue.pop(0))
    return order


class Suite:
    def __init__(self, paths, work_dir):
        self.paths = paths
        self.work_dir = work_dir
        self.bus = BusView()
        self.toolkits = {}
        self.records = []
        self.check = Checker("qualification")

    def run(self, app, kind, index):
        trial = Trial(self, app, kind, index, *trial_options(app, kind, index))
        try:
            with trial:
                if trial.real:
                    trial.real.run(kind, index)
                else:
                    TRIALS[kind][1](trial, index)
        except (ProbeError, DBusError, OSError, KeyError, TypeError, ValueError,
                IndexError) as error:
            trial.harness_error("", f"{type(error).__name__}: {error}")
            trial.records[-1]["cleanup_verified"] = trial.pid is None or pid_gone(trial.pid)
        for record in trial.records:
            lead = record.get("twin_lead_ms_at_most")
            self.check.expect(
                record["verdict"] == PASS and record.get("cleanup_verified") and
                record.get("timing_ok", True),
                f"{record['trial']} {record['kind']}: {record['verdict']}"
                f" ({record['latency_ms'] or '-'} ms"
                f"{'' if lead is None else f', twin lead ≤ {lead} ms'})"
                f"{'' if record.get('cleanup_verified') else ', cleanup NOT verified'}"
                f"{'' if 'error' not in record else ': ' + record['error']}")
        self.records.extend(trial.records)


def environment(paths, toolkits):
    def output(*command):
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=10,
                                  stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    status = CliRun(paths.cli, ["status"])
    data = status.envelope.get("data", {}) if status.ok else {}
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "companyos_cli": output(paths.cli, "--version"),
        "companyos_daemon": data.get("version"),
        "display": os.environ.get("DISPLAY"),
        "display_server": data.get("display_server"),
        "session_type": os.environ.get("XDG_SESSION_TYPE") or data.get("display_server"),
        "headless_harness": "COMPANYOS_DESKTOP_DIR" in os.environ,
        "toolkits": toolkits,
        "gtk3_version": output("pkg-config", "--modversion", "gtk+-3.0"),
        "gtk4_version": output("pkg-config", "--modversion", "gtk4"),
        "mousepad_version": output("dpkg-query", "-W", "-f=${Version}", "mousepad"),
        "gnome_calculator_version": output("dpkg-query", "-W", "-f=${Version}",
                                           "gnome-calculator"),
        "atspi_version": output("pkg-config", "--modversion", "atspi-2"),
        "glib_version": output("pkg-config", "--modversion", "glib-2.0"),
        "kernel": platform.release(),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
    }


def by_kind(records):
    kinds = {}
    for record in records:
        kinds.setdefault(f"{record['app']}/{record['kind']}", []).append(record)
    return {kind: verdict.metrics(group) for kind, group in sorted(kinds.items())}


def latency_distribution(records):
    """Latency percentiles of the judged actions by app, and in all."""
    def dist(group):
        values = [record["latency_ms"] for record in group
                  if record.get("latency_ms") is not None]
        return {f"p{p}": verdict.percentile(values, p) for p in (50, 90, 95, 99, 100)}
    apps = sorted({record["app"] for record in records})
    return {"all": dist(records),
            **{app: dist([r for r in records if r["app"] == app]) for app in apps}}


def print_table(kinds, summary):
    columns = ("app/kind", "trials", "pass", "silent", "over-halt", "refusal-fail", "harness",
               "p50 ms", "p95 ms")
    rows = [[kind, m["trials"], m["passed"], m["silent_incorrect_successes"], m["over_halts"],
             m["refusal_failures"], m["harness_errors"], m["latency_ms"]["p50"],
             m["latency_ms"]["p95"]] for kind, m in kinds.items()]
    rows.append(["all", summary["trials"], summary["passed"],
                 summary["silent_incorrect_successes"], summary["over_halts"],
                 summary["refusal_failures"], summary["harness_errors"],
                 summary["latency_ms"]["p50"], summary["latency_ms"]["p95"]])
    cells = [list(columns)] + [["-" if cell is None else str(cell) for cell in row]
                               for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(columns))]
    for row in cells:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    print(f"timing violations {summary['timing_violations']}, "
          f"cleanup failures {summary['cleanup_failures']}", flush=True)


def parse_args():
    all_apps = list(BASE_PLAN)
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
               "  qualification.py --build-dir build --out q.json       # the CI plan, 100 trials\n"
               "  qualification.py --build-dir build --trials 1000      # the soak\n"
               "  qualification.py --build-dir build --apps gtk4 --kinds modal,app_killed")
    parser.add_argument("--out", default="qualification.json",
                        help="where to write the JSON report (default: ./qualification.json)")
    parser.add_argument("--build-dir", default=os.environ.get("COMPANYOS_BUILD_DIR"),
                        help="the CMake build tree (default: $COMPANYOS_BUILD_DIR)")
    parser.add_argument("--trials", type=int, default=100,
                        help="scale the plan to at least this many trials (default 100)")
    parser.add_argument("--apps", default=",".join(all_apps),
                        help=f"comma-separated subset of {','.join(all_apps)} (default: all)")
    parser.add_argument("--kinds", default=",".join(FIXTURE_KINDS),
                        help=f"comma-separated subset of {','.join(FIXTURE_KINDS)} "
                             "(default: all; each app runs the kinds that fit it)")
    parser.add_argument("--progress", action="store_true",
                        help="print a line per trial as it ends (for long runs)")
    args = parser.parse_args()
    args.apps = [app for app in args.apps.split(",") if app]
    args.kinds = [kind for kind in args.kinds.split(",") if kind]
    unknown_apps = [app for app in args.apps if app not in BASE_PLAN]
    unknown = [kind for kind in args.kinds if kind not in FIXTURE_KINDS]
    if unknown_apps or not args.apps:
        parser.error(f"unknown apps {unknown_apps}; choose from {','.join(all_apps)}")
    if unknown or not args.kinds:
        parser.error(f"unknown trial kinds {unknown}; choose from {','.join(FIXTURE_KINDS)}")
    if not 1 <= args.trials <= 100000:
        parser.error(f"--trials must be from 1 to 100000, got {args.trials}")
    if not args.build_dir:
        parser.error("--build-dir or COMPANYOS_BUILD_DIR is required")
    return args


def main():
    args = parse_args()
    base = {app: {kind: count for kind, count in BASE_PLAN[app].items() if kind in args.kinds}
            for app in args.apps}
    base = {app: kinds for app, kinds in base.items() if kinds}
    if not base:
        print("qualification: no planned trial fits those apps and kinds", file=sys.stderr)
        return 2
    missing = [REAL_APPS[app].program for app in base
               if app in REAL_APPS and not real_apps.available(REAL_APPS[app].program)]
    if missing:
        print(f"qualification: {', '.join(missing)} not installed "
              "(scripts/install-deps --real-apps installs them)", file=sys.stderr)
        return 2
    plan = scaled_plan(base, args.trials)
    order = interleaved(plan)
    paths = Paths(args.build_dir)
    daemon = subprocess.Popen([paths.daemon, "--log-level", "warn"], stdin=subprocess.DEVNULL)
    try:
        wait_for("the daemon to answer ping", 30,
                 lambda: CliRun(paths.cli, ["ping"]).ok, interval=0.05)
        with tempfile.TemporaryDirectory(prefix="companyos-qualification-") as work_dir:
            suite = Suite(paths, work_dir)
            started = time.monotonic()
            for number, (app, kind, index) in enumerate(order, 1):
                suite.run(app, kind, index)
                if args.progress:
                    verdicts = [r["verdict"] for r in suite.records
                                if r["trial"] == f"{app}-{kind}-{index:03d}"]
                    print(f"[{number}/{len(order)}] {app}-{kind}-{index:03d}: "
                          f"{', '.join(verdicts)} ({time.monotonic() - started:.0f} s)",
                          flush=True)
            elapsed_s = round(time.monotonic() - started, 1)
            env = environment(paths, suite.toolkits)
            daemon_alive = daemon.poll() is None
            suite.bus.close()
    finally:
        daemon.terminate()
        try:
            daemon.wait(10)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()

    records = suite.records
    summary = verdict.metrics(records)
    fixtures_run = len({record["trial"] for record in records})
    failing = verdict.failed(summary)
    if fixtures_run != len(order):
        failing.append("trials_missing")
    if not daemon_alive:
        failing.append("daemon_died")
    kinds = by_kind(records)
    report = {
        "suite": "companyOS qualification (issues 4 and 11)",
        "environment": env,
        "plan": plan,
        "trials_planned": len(order),
        "elapsed_s": elapsed_s,
        "metrics": summary,
        "latency_ms": latency_distribution(records),
        "by_kind": kinds,
        "failing": failing,
        "passed": not failing,
        "trials": records,
    }
    out = os.path.abspath(args.out)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", encoding="utf-8") as report_file:
        json.dump(report, report_file, indent=2, ensure_ascii=False)
        report_file.write("\n")

    print_table(kinds, summary)
    print(f"{fixtures_run} app processes, {len(records)} judged actions in {elapsed_s} s; "
          f"report: {out}")
    print("PASSED" if not failing else f"FAILED: {', '.join(failing)}", flush=True)
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
