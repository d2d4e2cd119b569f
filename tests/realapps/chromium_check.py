#!/usr/bin/env python3
"""Chromium's web content observed and acted on, judged by what the page saw.

The same form as the Gecko check (web_page.py): every input and change event copies the
form's state into the page's title, read from the X server. Chromium's web inputs have no
EditableText, so set-value without --headed is refused with nothing sent, and with
--headed the text is typed through the keyboard and read back; check boxes and radio
buttons take their "check" action, list items and <select> options their container's
Selection, which the page sees; a snapshot with the <select>'s list open leaves Chromium
running; text values hold no U+FFFC; a stopped Chromium answers APP_UNRESPONSIVE.
Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import os
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from real_app import (check_menu_survives, check_stopped_app, cli, data, error, one, outcome,  # noqa: E402
                      wait_for, wait_for_surface, x_client_titles, Daemon)
from checks import Checker  # noqa: E402
from web_page import Browser, check_text_input, chromium_argv, page_shows, write_page  # noqa: E402

APP = "Chromium"
OBJECT_REPLACEMENT = "\ufffc"


def check_choices(check, nodes):
    for role, label, field, value in (("check box", "Subscribe", "subscribe", True),
                                      ("radio button", "Beta", "plan", "beta")):
        element = one(nodes, label, role=role, name=label)
        rc, env = cli("toggle", element["ref"])
        check.expect(rc == 0 and outcome(env) == "delivered_verified",
                     f"toggle of {label} is verified ({outcome(env)}, {error(env)})")
        state = page_shows(f"the page's {field}", **{field: value})
        check.expect(state is not None and state.get(field) == value,
                     f"the page sees {label} ({state and state.get(field)})")

    for role, label, field in (("list item", "Large", "size"), ("menu item", "Green", "colour")):
        element = one(nodes, label, role=role, name=label)
        rc, env = cli("select", element["ref"])
        check.expect(rc == 0 and outcome(env) == "delivered_verified",
                     f"select of {label} is verified ({outcome(env)}, {data(env).get('route')}, {error(env)})")
        state = page_shows(f"the page's {field}", **{field: label})
        check.expect(state is not None and state.get(field) == label,
                     f"the page sees {label} selected ({state and state.get(field)})")

    go = one(nodes, "the Go button", role="push button", name="Go")
    rc, env = cli("click", go["ref"])
    check.expect(rc == 0, f"click on the button is delivered ({error(env)})")
    state = page_shows("the page's click handler", clicked=True)
    check.expect(state is not None and state.get("clicked") is True, "the page's click handler ran")


def check_open_list(check, app, nodes):
    colour = one(nodes, "the Colour drop-down", role="combo box", name="Colour")
    rc, env = cli("click", colour["ref"])
    check.expect(rc == 0 and data(env).get("route") == "action:open",
                 f"click opens the drop-down ({data(env).get('route')}, {error(env)})")
    for _ in range(3):
        snap, _nodes = app.snapshot()
    check.expect(app.alive() and app.window() is not None,
                 "Chromium is alive, its window listed, after snapshots with the list open")
    surfaces = wait_for_surface(APP) or []
    check.expect(len(surfaces) == 1 and surfaces[0]["items"] == 3,
                 f"surfaces lists the open list with its three options "
                 f"({[(s['role'], s['name'], s['items'], s['opener']) for s in surfaces]})")
    rc, env = cli("press", "Escape", "--app", APP, "--window", app.window()["id"], "--headed")
    check.expect(rc == 0, f"Escape is pressed ({error(env)})")
    check.expect(wait_for_surface(APP, present=False), "the list is no longer listed once closed")


# The app menu (⋮) opened, read and closed with Chromium alive throughout, as Firefox's menus
# are (a read must never make a browser abort).
def check_app_menu(check, app):
    _, nodes = app.snapshot()
    buttons = [n for n in nodes if n["role"] == "push button" and n.get("name") == "Chromium"]
    check.expect(len(buttons) == 1, f"one app menu button ({[(b['role'], b.get('name')) for b in buttons]})")
    rc, env = cli("windows", "--app", APP)
    pages = [w["id"] for w in data(env).get("windows", []) if w.get("title", "").endswith(" - Chromium")]
    if buttons and pages:
        check_menu_survives(check, app, "the app menu", ("click", buttons[0]["ref"]),
                            window_args=("--window", pages[0]))


def main():
    check = Checker("chromium")
    daemon = Daemon()
    daemon.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            rc, env = cli("settings", "set", "physical_input", "true")
            check.expect(rc == 0, f"physical input is allowed for --headed ({error(env)})")
            argv = chromium_argv(tmp, write_page(tmp))
            with Browser(APP, argv) as app:
                wait_for("the page's title", lambda: any("form start" in t for t in x_client_titles()),
                         timeout=30)
                wait_for("the form in the snapshot", lambda: any(
                    n["role"] == "entry" and n["name"] == "Name" for n in app.snapshot()[1]),
                    timeout=30)
                snap, nodes = app.snapshot()
                refs = [n["ref"] for n in nodes]
                check.expect(len(refs) == len(set(refs)), f"every ref is unique ({snap['node_count']} nodes)")
                with_replacement = [n for n in nodes if OBJECT_REPLACEMENT in (n.get("value") or "")]
                check.expect(not with_replacement, f"no value holds U+FFFC ({len(with_replacement)})")
                check_text_input(check, nodes, "no_editable_text")
                check_choices(check, nodes)
                check_open_list(check, app, nodes)
                check_app_menu(check, app)
                check_stopped_app(check, app, "--window", app.window()["id"])
    finally:
        daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
