#!/usr/bin/env python3
"""Snapshots of real apps: companyOS against a plain in-process walk, one run.

Run inside scripts/desktop-session (scripts/bench realapps does). For each installed real
app — mousepad (GTK 3), GNOME Calculator (GTK 4), FeatherPad (Qt 5), Tetzle (Qt 6), Firefox
ESR and Chromium on a local form, LibreOffice Writer on a one-paragraph document — it starts
the app, waits until its window's snapshot stops changing size, then times:
  - `companyos --json snapshot --app A --window W`: the whole CLI process, the daemon's
    complete JSON tree included (the median of --runs);
  - a pyatspi-style walk in this process (libatspi through GObject introspection, its
    cache warmed by one untimed walk, as a long-running client has it), reading what a
    snapshot reads: role, name, description, accessible id, states, bounds, action names,
    and the Value or the text (the median of --walk-runs);
  - on LibreOffice Writer, a verified `companyos set-value` of the paragraph (whole CLI
    process; the first one and the median of the rest);
  - on LibreOffice Calc (tests/fixtures/calc/prices.fods), the characters of the agent view
    (`snapshot -i --compact`), and a verified `companyos set-value --app soffice --cell A1 N`
    (whole CLI process, as for Writer). The walk does not list the sheet's 2,147,483,647
    children (no walk could): it counts the sheet and goes on.
Prints a JSON report (also written to --out) and a short table. Targets (issue 13): the walk
at least 10x the snapshot on every app, Writer's snapshot at most 150 ms, a verified
set-value on Writer at most 50 ms; (issue 36) a verified cell set-value on Calc at most 100 ms."""

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

# The *_iface getters are what pyatspi itself calls; their deprecation says nothing here.
warnings.filterwarnings("ignore", category=DeprecationWarning)

BUILD = os.environ.get("COMPANYOS_BUILD_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "build"))
CLI = os.path.join(BUILD, "cli", "companyos")
DAEMON = os.path.join(BUILD, "src", "daemon", "companyosd")
START_DEADLINE_S = 60
SHEET = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "fixtures", "calc", "prices.fods")
# A node with more children is not walked into: LibreOffice Calc's sheet claims 2^31 - 1.
WALK_MAX_CHILDREN = 20000

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>bench form</title></head><body>
<h1>Order form</h1><p>Read the <a href="#terms">terms</a> first.</p>
<label>Name <input type="text" value="old"></label><label>Notes <textarea>old notes</textarea></label>
<label><input type="checkbox"> Subscribe</label>
<label>Colour <select><option>Red</option><option>Green</option><option>Blue</option></select></label>
<button type="button">Go</button></body></html>"""
FODT = """<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3"
 office:mimetype="application/vnd.oasis.opendocument.text">
 <office:body><office:text><text:p>original</text:p></office:text></office:body>
</office:document>
"""


def cli(*args, timeout=120):
    started = time.monotonic()
    done = subprocess.run([CLI, "--json", *args], capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)
    took = (time.monotonic() - started) * 1000
    try:
        envelope = json.loads(done.stdout) if done.stdout.strip() else {}
    except json.JSONDecodeError:
        envelope = {}
    return done.returncode, envelope, took


def apps(tmp):
    """(label, toolkit, app name on the bus, argv, extra environment, drop AT_SPI_BUS_ADDRESS,
    the title of the window to read when the app opens several)."""
    page = os.path.join(tmp, "form.html")
    with open(page, "w", encoding="utf-8") as f:
        f.write(PAGE)
    sheet = os.path.join(tmp, "prices.fods")
    shutil.copy(SHEET, sheet)
    doc = os.path.join(tmp, "notes.fodt")
    with open(doc, "w", encoding="utf-8") as f:
        f.write(FODT)
    profile = os.path.join(tmp, "firefox")
    os.makedirs(profile)
    with open(os.path.join(profile, "user.js"), "w", encoding="utf-8") as f:
        f.write('user_pref("browser.aboutwelcome.enabled", false);\n'
                'user_pref("browser.startup.homepage_override.mstone", "ignore");\n'
                'user_pref("datareporting.policy.dataSubmissionEnabled", false);\n')
    return [
        ("mousepad", "GTK 3", "mousepad", ["mousepad"], {}, False, None),
        ("gnome-calculator", "GTK 4", "gnome-calculator", ["gnome-calculator"], {}, False, None),
        ("featherpad", "Qt 5", "FeatherPad", ["featherpad", "--standalone"], {}, False, None),
        ("tetzle", "Qt 6", "Tetzle", ["tetzle"], {}, True, "Choose Game"),
        ("firefox-esr", "Gecko", "Firefox",
         ["firefox-esr", "--no-remote", "--profile", profile, "file://" + page], {}, False, None),
        ("chromium", "Chromium", "Chromium",
         ["chromium", "--no-sandbox", "--force-renderer-accessibility", "--no-first-run",
          "--no-default-browser-check", "--disable-gpu", "--user-data-dir=" + os.path.join(tmp, "chromium"),
          "file://" + page], {}, False, None),
        ("libreoffice-writer", "LibreOffice (VCL gtk3)", "soffice",
         ["soffice", "--writer", "--norestore", "--nologo", "--nodefault",
          "-env:UserInstallation=file://" + os.path.join(tmp, "lo"), doc], {"SAL_USE_VCLPLUGIN": "gtk3"}, False, None),
        ("libreoffice-calc", "LibreOffice (VCL gtk3)", "soffice",
         ["soffice", "--calc", "--norestore", "--nologo", "--nodefault",
          "-env:UserInstallation=file://" + os.path.join(tmp, "lo-calc"), sheet], {"SAL_USE_VCLPLUGIN": "gtk3"},
         False, None),
    ]


def main_window(app_name, title=None):
    rc, env, _ = cli("windows", "--app", app_name)
    windows = env.get("data", {}).get("windows", []) if rc == 0 else []
    if title:
        titled = [w for w in windows if w.get("title") == title]
        return titled[0] if len(titled) == 1 else None
    shown = [w for w in windows if w.get("x11_window")]
    return shown[0] if len(shown) == 1 else (windows[0] if len(windows) == 1 else None)


def snapshot(app_name, window_id):
    rc, env, took = cli("snapshot", "--app", app_name, "--window", window_id)
    data = env.get("data", {}) if rc == 0 else {}
    return took, data


def settle(app_name, title, deadline):
    """The window, once two snapshots in a row have the same number of nodes."""
    last = None
    while time.monotonic() < deadline:
        window = main_window(app_name, title)
        if window:
            _, data = snapshot(app_name, window["id"])
            count = data.get("node_count")
            if count and count == last:
                return window, data
            last = count
        time.sleep(0.5)
    return None, None


# ---- the in-process walk ----------------------------------------------------------------

def walk(node, counts):
    counts["nodes"] += 1
    for read in (node.get_role, node.get_name, node.get_description, node.get_accessible_id,
                 node.get_state_set):
        try:
            read()
        except Exception:  # noqa: BLE001 — a node may go away mid-walk, as in any walk
            pass
    try:
        role = node.get_role()
    except Exception:  # noqa: BLE001
        role = None
    if Atspi.Accessible.get_component_iface(node):
        try:
            Atspi.Component.get_extents(node, Atspi.CoordType.SCREEN)
        except Exception:  # noqa: BLE001
            pass
    if Atspi.Accessible.get_action_iface(node):
        try:
            for i in range(Atspi.Action.get_n_actions(node)):
                Atspi.Action.get_action_name(node, i)
        except Exception:  # noqa: BLE001
            pass
    if role != Atspi.Role.PASSWORD_TEXT:
        try:
            if Atspi.Accessible.get_value_iface(node):
                Atspi.Value.get_current_value(node)
            elif Atspi.Accessible.get_text_iface(node):
                count = Atspi.Text.get_character_count(node)
                if count > 0:
                    Atspi.Text.get_text(node, 0, count)
        except Exception:  # noqa: BLE001
            pass
    try:
        children = node.get_child_count()
    except Exception:  # noqa: BLE001
        children = 0
    if children > WALK_MAX_CHILDREN:
        return
    for i in range(children):
        try:
            child = node.get_child_at_index(i)
        except Exception:  # noqa: BLE001
            child = None
        if child is not None:
            walk(child, counts)


def atspi_window(pid, title):
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        try:
            if app is None or app.get_process_id() != pid:
                continue
            frames = [app.get_child_at_index(j) for j in range(app.get_child_count())]
        except Exception:  # noqa: BLE001
            continue
        named = [f for f in frames if f is not None and f.get_name() == title]
        if len(named) == 1:
            return named[0]
    return None


def time_walk(window, runs):
    """As a pyatspi client walks: libatspi keeps what it learnt (its cache) from one walk to
    the next, and an untimed first walk fills it."""
    node = atspi_window(window["pid"], window["title"])
    if node is None:
        return None, 0
    walk(node, {"nodes": 0})
    times, nodes = [], 0
    for _ in range(runs):
        counts = {"nodes": 0}
        started = time.monotonic()
        walk(node, counts)
        times.append((time.monotonic() - started) * 1000)
        nodes = counts["nodes"]
    return times, nodes


# ---- one app ------------------------------------------------------------------------------

def set_value_times(app_name, nodes_of, runs):
    paragraphs = [n for n in nodes_of if n["role"] == "paragraph" and n.get("value") == "original"]
    if len(paragraphs) != 1:
        return {"error": "no single paragraph"}
    ref = paragraphs[0]["ref"]
    times, verified = [], 0
    for run in range(runs):
        rc, env, took = cli("set-value", ref, f"benchmark text {run}")
        times.append(took)
        verified += rc == 0 and env.get("data", {}).get("delivery") == "delivered_verified"
    return {"first_ms": times[0], "median_rest_ms": statistics.median(times[1:]) if len(times) > 1 else None,
            "runs_ms": times, "verified": verified, "runs": runs}


def cell_set_value_times(app_name, runs):
    """A verified set-value of a cell by address: the whole CLI process."""
    times, verified = [], 0
    for run in range(runs):
        rc, env, took = cli("set-value", "--app", app_name, "--cell", "A1", str(run))
        times.append(took)
        verified += rc == 0 and env.get("data", {}).get("delivery") == "delivered_verified"
    return {"first_ms": times[0], "median_rest_ms": statistics.median(times[1:]) if len(times) > 1 else None,
            "runs_ms": times, "verified": verified, "runs": runs}


def agent_view_characters(app_name, window_id):
    rc, env, _ = cli("snapshot", "--app", app_name, "--window", window_id, "-i", "--compact", "--format", "outline")
    return len(env.get("data", {}).get("outline", "")) if rc == 0 else None


def flatten(tree):
    out = [tree]
    for child in tree.get("children", []):
        out.extend(flatten(child))
    return out


def bench_app(entry, args):
    label, toolkit, app_name, argv, extra_env, drop_bus_address, title = entry
    # Debian puts games (Tetzle) in /usr/games, which root's PATH lacks.
    program = shutil.which(argv[0], path=os.environ.get("PATH", "") + ":/usr/games")
    if program is None:
        return {"app": label, "toolkit": toolkit, "error": "not installed"}
    env = dict(os.environ, **extra_env)
    if drop_bus_address:
        env.pop("AT_SPI_BUS_ADDRESS", None)  # Qt 6.4 never registers on it (docs/toolkits.md)
    process = subprocess.Popen([program, *argv[1:]], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        window, first = settle(app_name, title, time.monotonic() + START_DEADLINE_S)
        if window is None:
            return {"app": label, "toolkit": toolkit, "error": "no settled window"}
        snapshot_ms = []
        for _ in range(args.runs):
            took, data = snapshot(app_name, window["id"])
            snapshot_ms.append(took)
        walk_ms, walk_nodes = time_walk(window, args.walk_runs)
        result = {"app": label, "toolkit": toolkit, "nodes": first.get("node_count"),
                  "walk_nodes": walk_nodes, "snapshot_ms": statistics.median(snapshot_ms),
                  "snapshot_runs_ms": snapshot_ms}
        if walk_ms:
            result["walk_ms"] = statistics.median(walk_ms)
            result["walk_runs_ms"] = walk_ms
            result["walk_over_snapshot"] = result["walk_ms"] / result["snapshot_ms"]
        if label == "libreoffice-writer":
            result["set_value"] = set_value_times(app_name, flatten(first["tree"]), args.runs)
        if label == "libreoffice-calc":
            result["agent_view_characters"] = agent_view_characters(app_name, window["id"])
            result["set_value"] = cell_set_value_times(app_name, args.runs)
        return result
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def print_table(results):
    print("| app | toolkit | nodes (walk) | snapshot, CLI | walk | walk ÷ snapshot |")
    print("|---|---|---|---|---|---|")
    for r in results:
        if "error" in r:
            print(f"| {r['app']} | {r['toolkit']} | {r['error']} | | | |")
            continue
        ratio = f"{r['walk_over_snapshot']:.1f}×" if "walk_over_snapshot" in r else "—"
        walk = f"{r['walk_ms']:.0f} ms" if "walk_ms" in r else "—"
        print(f"| {r['app']} | {r['toolkit']} | {r['nodes']} ({r['walk_nodes']}) | {r['snapshot_ms']:.0f} ms | {walk} | {ratio} |")
    for r in results:
        sv = r.get("set_value")
        if sv and "first_ms" in sv:
            print(f"set-value on {r['app']} (CLI, verified {sv['verified']}/{sv['runs']}): "
                  f"first {sv['first_ms']:.0f} ms, then median {sv['median_rest_ms']:.0f} ms")
        if r.get("agent_view_characters") is not None:
            print(f"agent view of {r['app']}: {r['agent_view_characters']} characters")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="snapshots (and set-values) per app")
    parser.add_argument("--walk-runs", type=int, default=3, help="in-process walks per app")
    parser.add_argument("--apps", default="", help="comma-separated labels, e.g. mousepad,chromium")
    parser.add_argument("--out", default=os.path.join(BUILD, "bench", "realapps.json"))
    args = parser.parse_args()
    daemon = subprocess.Popen([DAEMON, "--log-level", "warn"], stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while cli("ping")[0] != 0:
            if time.monotonic() > deadline:
                sys.exit("companyosd did not answer")
            time.sleep(0.1)
        with tempfile.TemporaryDirectory() as tmp:
            wanted = set(filter(None, args.apps.split(",")))
            results = []
            for entry in apps(tmp):
                if wanted and entry[0] not in wanted:
                    continue
                print(f"== {entry[0]}", file=sys.stderr, flush=True)
                results.append(bench_app(entry, args))
        report = {"runs": args.runs, "walk_runs": args.walk_runs,
                  "load_1min": os.getloadavg()[0], "apps": results}
        os.makedirs(os.path.dirname(args.out), exist_ok=True)
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)
        print(json.dumps(report))
        print_table(results)
    finally:
        daemon.terminate()
        daemon.wait(30)


if __name__ == "__main__":
    main()
