"""The time from an agent's action call to its settled answer, per real app, and the
characters of that answer (the changes since the state acted on) against the whole state.

Each app repeats one harmless action: mousepad sets its editor's text, GNOME Calculator
clicks its 1 key, Firefox and Chromium tick and untick the form page's check box
(tests/realapps/web_page.py). Used by mcp_bench.py; runs inside scripts/desktop-session."""

import os
import re
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "realapps"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "desktop", "mcp"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "agent"))
from mcp_session import McpSession, element_number, text_of, view_of  # noqa: E402
from real_app import RealApp, cli, wait_for, x_client_titles  # noqa: E402
from web_page import chromium_argv, firefox_argv, write_page  # noqa: E402


def line_number(state, pattern):
    """N of the one line matching PATTERN (a regex over the line without its number)."""
    found = [int(m.group(1)) for m in (re.match(r"\s*e(\d+) (.*)", line) for line in state.splitlines())
             if m and re.search(pattern, m.group(2))]
    return found[0] if len(found) == 1 else None


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def editor_action(state, i):
    number = line_number(state, r"^text \[.*multi-line")
    return "set_value", {"element": number, "value": f"line {i}"}


def calculator_action(state, _):
    return "click", {"element": element_number(state, "push button", "1")}


def check_box_action(state, _):
    """A click on the form's check box: it ticks and unticks it (its check or uncheck)."""
    return "click", {"element": element_number(state, "check box", "Subscribe")}


def measure(app, runs, next_action):
    """RUNS timed actions on APP's state (the first, untimed, warms the caches)."""
    session = McpSession()
    session.initialize()
    try:
        state = view_of(session.call("get_app_state", {"app": app, "screenshot": False}))
        times, sent, whole, refused = [], [], [], 0
        for i in range(runs + 1):
            tool, arguments = next_action(state, i)
            started = time.perf_counter()
            reply = session.call(tool, dict({"app": app}, **arguments))
            took = (time.perf_counter() - started) * 1000
            if reply["result"].get("isError"):
                refused += 1
            state = view_of(reply)
            if i == 0:
                continue
            times.append(took)
            sent.append(len(text_of(reply)))
            whole.append(len(state))
        return {"app": app, "action": tool, "runs": runs, "refused": refused,
                "median_ms": round(statistics.median(times), 1), "p95_ms": round(percentile(times, 0.95), 1),
                "max_ms": round(max(times), 1), "answer_chars_median": round(statistics.median(sent)),
                "whole_state_chars_median": round(statistics.median(whole))}
    finally:
        session.close()


def measure_all(runs):
    results = []
    if shutil.which("mousepad"):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "note.txt")
            with open(path, "w") as f:
                f.write("text\n")
            with RealApp("mousepad", ["mousepad", "--disable-server", path]):
                cli("focus-window", "--app", "mousepad")
                results.append(measure("mousepad", runs, editor_action))
    if shutil.which("gnome-calculator"):
        with RealApp("gnome-calculator", ["gnome-calculator"]):
            results.append(measure("gnome-calculator", runs, calculator_action))
    for app, argv_for, program in (("Firefox", firefox_argv, "firefox-esr"), ("Chromium", chromium_argv, "chromium")):
        if shutil.which(program) is None:
            continue
        with tempfile.TemporaryDirectory() as tmp, RealApp(app, argv_for(tmp, write_page(tmp))):
            wait_for("the page's title", lambda: any("form start" in t for t in x_client_titles()), timeout=30)
            results.append(measure(app, runs, check_box_action))
    return results
