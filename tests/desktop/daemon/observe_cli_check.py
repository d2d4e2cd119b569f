#!/usr/bin/env python3
"""Observation through the CLI and the daemon, judged from outside where it can be:
PNG sizes against xwininfo, pids against the processes started, refusals by their codes.
Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import json
import os
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from checks import Checker  # noqa: E402
from fixture_app import FixtureApp  # noqa: E402

BUILD = os.environ["COMPANYOS_BUILD_DIR"]
CLI = os.path.join(BUILD, "cli", "companyos")
DAEMON = os.path.join(BUILD, "src", "daemon", "companyosd")
FIXTURE = os.path.join(BUILD, "tests", "fixtures", "companyos-fixture-gtk3")


def cli(*args, timeout=60):
    """Runs `companyos --json ARGS`; returns (exit status, envelope or None, seconds)."""
    start = time.monotonic()
    done = subprocess.run([CLI, "--json", *args], capture_output=True, text=True, timeout=timeout)
    elapsed = time.monotonic() - start
    try:
        envelope = json.loads(done.stdout)
    except ValueError:
        envelope = None
    return done.returncode, envelope, elapsed


def wait_for(what, probe, timeout=20, interval=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = probe()
        if result:
            return result
        time.sleep(interval)
    raise TimeoutError(f"no {what} within {timeout}s")


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def xwininfo_size(xid):
    out = subprocess.run(["xwininfo", "-id", str(xid)], capture_output=True, text=True).stdout
    fields = dict(line.strip().split(":", 1) for line in out.splitlines() if ":" in line)
    return int(fields["Width"]), int(fields["Height"])


def flatten(node, out):
    out.append(node)
    for child in node.get("children", []):
        flatten(child, out)
    return out


def the_window(app):
    rc, env, _ = cli("windows", "--app", app)
    return env["data"]["windows"][0] if rc == 0 and env["data"]["windows"] else None


def check_observation(check, tmp):
    with FixtureApp(FIXTURE, "obs-alpha", os.path.join(tmp, "a.txt"), "--title", "Alpha") as alpha:
        rc, env, _ = cli("apps")
        apps = {a["name"]: a for a in env["data"]["apps"]} if rc == 0 else {}
        check.expect(apps.get("obs-alpha", {}).get("pid") == alpha.process.pid,
                     "apps lists the fixture with the pid we started")

        window = wait_for("window of obs-alpha", lambda: the_window("obs-alpha"))
        check.expect(window["title"] == "Alpha", "windows shows the title")
        check.expect(window["pid"] == alpha.process.pid, "windows shows the pid")
        check.expect(window.get("x11_window") is not None, "windows pairs the X11 window")

        rc, env, _ = cli("snapshot", "--app", "obs-alpha")
        check.expect(rc == 0, "snapshot answers")
        data = env["data"]
        nodes = flatten(data["tree"], [])
        by_name = {(n["role"], n["name"]): n for n in nodes}
        entry = by_name.get(("text", "Text"))
        button = by_name.get(("push button", "Write effect"))
        check.expect(entry is not None and button is not None, "snapshot has the entry and the button")
        check.expect(button and "click" in button["actions"], "the button's actions include click")
        wb = data["window"]["bounds"]
        inside = (button and button["bounds"] and wb and
                  wb["x"] <= button["bounds"]["x"] and wb["y"] <= button["bounds"]["y"] and
                  button["bounds"]["x"] + button["bounds"]["width"] <= wb["x"] + wb["width"] and
                  button["bounds"]["y"] + button["bounds"]["height"] <= wb["y"] + wb["height"])
        check.expect(bool(inside), "the button's bounds lie inside the window's")
        refs = [n["ref"] for n in nodes]
        check.expect(len(refs) == len(set(refs)) and all(r.startswith("@" + data["snapshot"] + ":e") for r in refs),
                     "every node has a unique ref of this snapshot")
        password = by_name.get(("password text", "Password"))
        check.expect(password is not None and password.get("value") is None and password.get("value_withheld"),
                     "the password entry's value is withheld")
        check.expect('push button "Write effect"' in data["outline"], "the outline shows the button")

        rc, env, _ = cli("snapshot", "--app", "obs-alpha", "--format", "tree")
        check.expect(rc == 0 and "tree" in env["data"] and "outline" not in env["data"] and
                     env["data"]["node_count"] == data["node_count"],
                     "--format tree: the JSON tree without the outline")
        rc, env, _ = cli("snapshot", "--app", "obs-alpha", "--format", "outline")
        check.expect(rc == 0 and "tree" not in env["data"] and
                     'push button "Write effect"' in env["data"].get("outline", ""),
                     "--format outline: the outline without the JSON tree")
        human = subprocess.run([CLI, "snapshot", "--app", "obs-alpha"], capture_output=True,
                               text=True, timeout=60)
        check.expect(human.returncode == 0 and 'push button "Write effect"' in human.stdout and
                     human.stdout.startswith("snapshot "),
                     "for a person, snapshot prints its header and the outline")
        rc, env, _ = cli("call", "snapshot", '{"app":"obs-alpha","format":"xml"}')
        check.expect(rc == 1 and env["error"]["code"] == "INVALID_ARGS", "an unknown format is refused")

        rc, env, _ = cli("snapshot", "--app", "obs-alpha", "-i")
        inodes = flatten(env["data"]["tree"], [])
        check.expect(rc == 0 and len(inodes) < len(nodes) and
                     any(n["name"] == "Write effect" for n in inodes), "-i keeps actionable nodes, drops others")
        rc, env, _ = cli("snapshot", "--app", "obs-alpha", "--max-depth", "1")
        check.expect(rc == 0 and "hidden" in env["data"]["outline"], "--max-depth 1 says where it cut")

        check_within(check, data, nodes, alpha)
        check_snapshots(check, data)

        rc, env, _ = cli("find", "--app", "obs-alpha", "--role", "push button", "--name", "Write effect")
        found = env["data"]["elements"] if rc == 0 else []
        check.expect(len(found) == 1, "find returns the one button")
        if found:
            rc, env, _ = cli("get", found[0]["ref"])
            check.expect(rc == 0 and env["data"]["name"] == "Write effect", "get reads the element afresh")

        shot = os.path.join(tmp, "alpha.png")
        wait_for("Alpha active", lambda: the_window("obs-alpha")["active"])
        rc, env, _ = cli("screenshot", "--app", "obs-alpha", "--out", shot)
        check.expect(rc == 0 and os.path.exists(shot), "screenshot of the active window is written")
        if rc == 0:
            check.expect(png_size(shot) == xwininfo_size(window["x11_window"]),
                         "the PNG's size equals the window's size as xwininfo reports it")

        with FixtureApp(FIXTURE, "obs-beta", os.path.join(tmp, "b.txt"), "--title", "Beta"):
            wait_for("Beta active", lambda: (the_window("obs-beta") or {}).get("active"))
            store = cli("status")[1]["data"]["store"]["path"]
            before = os.stat(store)
            for target in (store, store + "-wal"):
                rc, env, _ = cli("screenshot", "--app", "obs-beta", "--out", target)
                check.expect(rc == 1 and env["error"]["code"] == "POLICY_DENIED" and
                             env["error"]["details"].get("reason") == "store_file",
                             f"a screenshot onto the daemon's store file is refused ({os.path.basename(target)})")
            after = os.stat(store)
            check.expect((after.st_ino, after.st_size) == (before.st_ino, before.st_size),
                         "and the store file is untouched")
            refused = os.path.join(tmp, "refused.png")
            rc, env, _ = cli("screenshot", "--app", "obs-alpha", "--out", refused)
            check.expect(rc == 1 and env["error"]["code"] == "POLICY_DENIED" and
                         env["error"]["details"].get("reason") == "not_active",
                         "screenshot of a window that is not active is refused (not_active)")
            check.expect(not os.path.exists(refused), "and nothing is written")
            check_hung_app(check, alpha)


def parent_of(nodes, wanted):
    return next((n for n in nodes if any(c is wanted for c in n.get("children", []))), None)


def check_within(check, whole, nodes, alpha):
    """--within: the subtree under a ref, numbered anew, its refs act like any others."""
    button = next(n for n in nodes if n["name"] == "Write effect")
    holder = parent_of(nodes, button)
    rc, env, _ = cli("snapshot", "--app", "obs-alpha", "--within", holder["ref"])
    part = env["data"] if rc == 0 else {}
    part_nodes = flatten(part["tree"], []) if part.get("tree") else []
    check.expect(rc == 0 and part.get("within") == holder["ref"] and part_nodes and
                 (part_nodes[0]["role"], part_nodes[0]["name"]) == (holder["role"], holder["name"]) and
                 part_nodes[0]["ref"] == "@" + part["snapshot"] + ":e1",
                 f"--within reads the subtree under the ref, rooted at it as e1 ({env and env.get('error')})")
    check.expect(0 < part.get("node_count", 0) < whole["node_count"] and
                 part["node_count"] == len(part_nodes),
                 f"and only that subtree ({part.get('node_count')} of {whole['node_count']} nodes)")
    part_button = next((n for n in part_nodes if n["name"] == "Write effect"), None)
    check.expect(part_button is not None, "the part holds the button")
    if part_button:
        rc, env, _ = cli("click", part_button["ref"])
        check.expect(rc == 0, "a ref of the part acts")
        try:
            wait_for("the effect file", lambda: alpha.effect() is not None, timeout=10)
        except TimeoutError:
            pass
        check.expect(alpha.effect() is not None, "and the click took effect (the fixture wrote its file)")
    rc, env, _ = cli("snapshot", "--app", "obs-alpha", "--within", "e1")
    check.expect(rc == 0 and env["data"]["within"] == "@" + part.get("snapshot", "?") + ":e1",
                 "a bare e<N> names an element of the app's newest snapshot")
    human = subprocess.run([CLI, "snapshot", "--app", "obs-alpha", "--within", holder["ref"]],
                           capture_output=True, text=True, timeout=60)
    check.expect(human.returncode == 0 and f"only the subtree under {holder['ref']}, numbered anew" in human.stdout,
                 "for a person, the header says which part it is")
    rc, env, _ = cli("call", "snapshot", json.dumps({"app": "obs-alpha", "within": holder["ref"], "surface": "menu"}))
    check.expect(rc == 1 and env["error"]["code"] == "INVALID_ARGS",
                 "the daemon refuses within with surface (INVALID_ARGS)")
    for args, why in (((holder["ref"], "--surface", "menu"), "with --surface"),
                      (("zz",), "not a ref"),
                      (("@" + whole["snapshot"] + ":e99999",), "past the snapshot's end")):
        rc, env, _ = cli("snapshot", "--app", "obs-alpha", "--within", *args)
        code = env["error"]["code"] if rc == 1 and env else None
        # The CLI refuses a usage error itself (exit 2) before asking the daemon.
        check.expect(rc == 2 or code in ("INVALID_ARGS", "STALE_REF"), f"--within {why} is refused ({rc}, {code})")
    newest = "@" + part.get("snapshot", "?") + ":e1"  # older snapshots of the window are evicted by now
    rc, env, _ = cli("snapshot", "--app", "obs-other", "--within", newest)
    check.expect(rc == 1 and env["error"]["code"] == "INVALID_ARGS" and
                 env["error"]["details"].get("param") == "within",
                 f"a ref of another app's window is refused, naming within ({env and env.get('error')})")


def check_snapshots(check, whole):
    """snapshots: what the daemon keeps, newest first; a listed id's refs resolve, an evicted one's do not."""
    rc, env, _ = cli("snapshot", "--app", "obs-alpha", "--format", "tree")
    taken = env["data"] if rc == 0 else {}
    rc, env, _ = cli("snapshots")
    listed = env["data"]["snapshots"] if rc == 0 else []
    check.expect(listed and listed[0]["snapshot"] == taken.get("snapshot") and
                 listed[0]["node_count"] == taken.get("node_count") and
                 listed[0]["window"]["id"] == taken.get("window", {}).get("id") and listed[0]["within"] is None,
                 f"snapshots lists the one just taken first, with its window and size ({listed[:1]})")
    check.expect(any(entry["within"] for entry in listed), "a part read --within says under which ref")
    resolving = [cli("get", "@" + entry["snapshot"] + ":e1")[0] for entry in listed]
    check.expect(resolving and all(code == 0 for code in resolving),
                 f"every listed snapshot's refs resolve (get @<id>:e1 exits {resolving})")
    ids = [entry["snapshot"] for entry in listed]
    if whole["snapshot"] not in ids:
        rc, env, _ = cli("get", "@" + whole["snapshot"] + ":e1")
        check.expect(rc == 1 and env["error"]["code"] == "STALE_REF",
                     "a snapshot no longer listed is gone: its ref is STALE_REF")
    rc, env, _ = cli("snapshots", "--app", "obs-alpha")
    only = [entry["snapshot"] for entry in env["data"]["snapshots"]] if rc == 0 else None
    check.expect(only == ids, "--app lists that app's, in the same order (here every one is obs-alpha's)")
    rc, env, _ = cli("snapshots", "--app", "obs-none")
    check.expect(rc == 0 and env["data"]["snapshots"] == [], "and none of an app with no snapshot")
    human = subprocess.run([CLI, "snapshots"], capture_output=True, text=True, timeout=60)
    check.expect(human.returncode == 0 and human.stdout.startswith("SNAPSHOT") and
                 taken.get("snapshot", "?") in human.stdout, "for a person, a table with the ids")


def check_hung_app(check, alpha):
    os.kill(alpha.process.pid, signal.SIGSTOP)
    try:
        result = {}

        def hung_snapshot():
            result["snapshot"] = cli("snapshot", "--app", "obs-alpha")

        thread = threading.Thread(target=hung_snapshot)
        thread.start()
        time.sleep(0.2)  # let the hung request reach the app before measuring the others
        slow = []
        for args in (("status",), ("apps",), ("snapshot", "--app", "obs-beta"), ("snapshots",), ("ping",)):
            rc, env, elapsed = cli(*args)
            if rc != 0 or elapsed > 1.0:
                slow.append((args, rc, round(elapsed, 3)))
        check.expect(not slow, f"status, apps, another app's snapshot, snapshots answer while one app hangs {slow}")
        thread.join(30)
        rc, env, elapsed = result.get("snapshot", (None, None, None))
        check.expect(rc == 1 and env["error"]["code"] == "APP_UNRESPONSIVE",
                     "the hung app's snapshot is APP_UNRESPONSIVE")
        check.expect(elapsed is not None and elapsed < 4.0, f"within its deadline ({elapsed and round(elapsed, 2)} s)")
        check_hung_app_listed(check)
        check_hung_app_share(check)
    finally:
        os.kill(alpha.process.pid, signal.SIGCONT)


def check_hung_app_listed(check):
    """A hung app's windows are listed as last seen, marked, never silently dropped (they
    were, with ok: true)."""
    rc, env, _ = cli("windows")
    hung = [w for w in env["data"]["windows"] if w["app"] == "obs-alpha"] if rc == 0 else []
    healthy = [w for w in env["data"]["windows"] if w["app"] == "obs-beta"] if rc == 0 else []
    check.expect(len(hung) == 1 and hung[0]["responsive"] is False and hung[0]["title"] and
                 len(healthy) == 1 and healthy[0]["responsive"] is True,
                 f"windows lists the hung app's window with responsive: false ({hung}, {healthy})")
    rc, env, _ = cli("apps")
    apps = {a["name"]: a for a in env["data"]["apps"]} if rc == 0 else {}
    alpha = apps.get("obs-alpha", {})
    check.expect(alpha.get("responsive") is False and alpha.get("window_count") == 1 and
                 alpha["windows"][0]["id"] == (hung[0]["id"] if hung else None),
                 f"apps lists the hung app, not responding, with its last known window ({alpha})")


def check_never_answered(check, tmp):
    """An app stopped before the daemon ever heard it answer is APP_UNRESPONSIVE, not
    APP_NOT_FOUND, for every way of naming it; the listing shows it as not responding."""
    with FixtureApp(FIXTURE, "obs-unheard", os.path.join(tmp, "u.txt")) as unheard:
        os.kill(unheard.process.pid, signal.SIGSTOP)
        try:
            for args in (("snapshot", "--app", "obs-unheard"),
                         ("find", "--app", "OBS-UNHEARD", "--role", "push button"),
                         ("click", "--app", "obs-unheard", "--role", "push button", "--name",
                          "Write effect", "--timeout", "2000")):
                rc, env, _ = cli(*args)
                code = env["error"]["code"] if env and not env["ok"] else None
                check.expect(rc == 1 and code == "APP_UNRESPONSIVE", f"{args[0]} of a never-answered app is APP_UNRESPONSIVE ({code})")
            rc, env, _ = cli("apps")
            listed = [a for a in env["data"]["apps"] if a["pid"] == unheard.process.pid] if rc == 0 else []
            check.expect(len(listed) == 1 and listed[0]["responsive"] is False,
                         f"apps lists the never-answered app as not responding ({listed})")
        finally:
            os.kill(unheard.process.pid, signal.SIGCONT)
    check.expect(not os.path.exists(os.path.join(tmp, "u.txt")), "and the click was never delivered")


def check_hung_app_share(check):
    """Ten requests to the hung app hold at most its lane's share of the workers: another
    app's snapshot keeps its usual time (it took 1.8-3.9 s when they held all eight)."""
    usual = min(cli("snapshot", "--app", "obs-beta")[2] for _ in range(3))
    hung = []

    def ask_hung():
        hung.append(cli("snapshot", "--app", "obs-alpha", "--timeout", "2000"))

    threads = [threading.Thread(target=ask_hung) for _ in range(10)]
    for thread in threads:
        thread.start()
    # While they are in flight (each holds on for its 2 s deadline), time the healthy app
    # several times; the slowest counts.
    during = []
    while any(thread.is_alive() for thread in threads) and len(during) < 8:
        rc, _, elapsed = cli("snapshot", "--app", "obs-beta")
        during.append((rc, elapsed))
    for thread in threads:
        thread.join(30)
    slowest = max((elapsed for _, elapsed in during), default=0.0)
    check.expect(during and all(rc == 0 for rc, _ in during) and slowest < usual + 1.0,
                 f"another app's snapshot keeps its time while 10 requests hang "
                 f"(usual {usual:.3f} s, slowest {slowest:.3f} s of {len(during)})")
    codes = sorted({env.get("error", {}).get("code") for rc, env, _ in hung if rc != 0})
    check.expect(len(hung) == 10 and all(rc == 1 for rc, _, _ in hung) and
                 codes == ["APP_UNRESPONSIVE"] and max(e for _, _, e in hung) < 4.0,
                 f"each hung request is APP_UNRESPONSIVE within its deadline ({codes}, "
                 f"slowest {max((e for _, _, e in hung), default=0):.2f} s)")


def check_twins(check, tmp):
    with FixtureApp(FIXTURE, "obs-twins", os.path.join(tmp, "t.txt"), "--ambiguous"):
        rc, env, _ = cli("snapshot", "--app", "obs-twins")
        buttons = [n for n in flatten(env["data"]["tree"], []) if n["name"] == "Write effect"] if rc == 0 else []
        check.expect(len(buttons) == 2 and all(b["twin"] for b in buttons) and
                     buttons[0]["twin_group"] == buttons[1]["twin_group"],
                     "identical buttons are marked as twins of one group")


def main():
    check = Checker("observe")
    daemon = subprocess.Popen([DAEMON, "--log-level", "warn"], stdin=subprocess.DEVNULL)
    try:
        wait_for("daemon", lambda: cli("ping")[0] == 0)
        with tempfile.TemporaryDirectory() as tmp:
            check_observation(check, tmp)
            check_twins(check, tmp)
            check_never_answered(check, tmp)
        rc, env, _ = cli("snapshot", "--app", "no-such-app")
        check.expect(rc == 1 and env["error"]["code"] == "APP_NOT_FOUND", "an unknown app is APP_NOT_FOUND")
    finally:
        daemon.terminate()
        daemon.wait(10)
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
