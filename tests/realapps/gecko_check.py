#!/usr/bin/env python3
"""Firefox (Gecko) web content observed and acted on, judged by what the page saw.

The page, written by the check to a temp dir, copies its form's state into document.title
on every input and change event; Firefox shows that title as its X11 window's
_NET_WM_NAME, which the check reads with xprop. So every effect is judged from outside
the tool: the page's own handlers ran, or they did not.

Gecko answers EditableText with success and changes nothing, so set-value without
--headed is refused (toolkit_ignores_editable_text) and with --headed the text is typed
through the keyboard and read back. Check boxes, radio buttons, list items and the options
of an open <select> take their own actions; a snapshot with the <select>'s list open
leaves Firefox running; text values hold no U+FFFC; a stopped Firefox answers
APP_UNRESPONSIVE. Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import os
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from real_app import (RealApp, check_menu_survives, check_stopped_app, atspi_probe, cli, data, error,  # noqa: E402
                      one, open_surfaces, outcome, surface_tree, wait_for, x_client_titles, Daemon)
from checks import Checker  # noqa: E402
from web_page import check_text_input, firefox_argv, page_shows, write_page  # noqa: E402

APP = "Firefox"
OBJECT_REPLACEMENT = "\ufffc"

# A fresh profile that opens the page and nothing else: no first-run, privacy or
# default-browser pages, no updates, no telemetry.


def form_nodes(app):
    snap, nodes = app.snapshot()
    return snap, nodes


def check_choices(check, nodes):
    subscribe = one(nodes, "the Subscribe check box", role="check box", name="Subscribe")
    rc, env = cli("toggle", subscribe["ref"])
    check.expect(rc == 0 and outcome(env) == "delivered_verified",
                 f"toggle of the check box is verified ({outcome(env)}, {error(env)})")
    state = page_shows("the page's check box", subscribe=True)
    check.expect(state is not None and state.get("subscribe") is True,
                 f"the page sees the box checked ({state and state.get('subscribe')})")

    beta = one(nodes, "the Beta radio button", role="radio button", name="Beta")
    rc, env = cli("toggle", beta["ref"])
    check.expect(rc == 0 and outcome(env) == "delivered_verified",
                 f"toggle of a radio button is verified ({outcome(env)}, {error(env)})")
    state = page_shows("the page's plan", plan="beta")
    check.expect(state is not None and state.get("plan") == "beta", f"the page sees Beta ({state})")

    large = one(nodes, "the Large list item", role="list item", name="Large")
    rc, env = cli("select", large["ref"])
    check.expect(rc == 0 and outcome(env) == "delivered_verified" and
                 data(env).get("route") == "action:select",
                 f"select of a list item takes its own action and is verified "
                 f"({outcome(env)}, {data(env).get('route')}, {data(env).get('verification')}, {error(env)})")
    state = page_shows("the page's size", size="Large")
    check.expect(state is not None and state.get("size") == "Large",
                 f"the page sees Large selected ({state and state.get('size')})")

    go = one(nodes, "the Go button", role="push button", name="Go")
    rc, env = cli("click", go["ref"])
    check.expect(rc == 0, f"click on the button is delivered ({error(env)})")
    state = page_shows("the page's click handler", clicked=True)
    check.expect(state is not None and state.get("clicked") is True, "the page's click handler ran")


def popup_of(nodes, colour):
    """The menu of the <select>'s open list: a menu holding Green that is not the combo
    box's own child (Gecko copies the options there; only the copies take a select)."""
    own = set(colour.get("children_refs", []))
    by_ref = {n["ref"]: n for n in nodes}
    menus = [n for n in nodes if n["role"] == "menu" and n["ref"] not in own and
             any(by_ref.get(c["ref"], {}).get("name") == "Green" for c in n.get("children", []))]
    return menus[0] if len(menus) == 1 else None


def check_select_list(check, app, nodes):
    colour = one(nodes, "the Colour drop-down", role="combo box", name="Colour")
    own_green = one(nodes, "the <select>'s own Green", role="menu item", name="Green")
    rc, env = cli("select", own_green["ref"])
    check.expect(rc != 0 and error(env).get("details", {}).get("kind") == "option_needs_open_list" and
                 error(env).get("details", {}).get("delivery") == "not_delivered",
                 f"select of the <select>'s own option is refused: Gecko ignores it ({error(env)})")
    rc, env = cli("click", colour["ref"])
    check.expect(rc == 0 and data(env).get("route") == "action:open",
                 f"click opens the drop-down ({data(env).get('route')}, {error(env)})")

    def opened():
        # Snapshots with the list open leave Firefox running (it once crashed on them).
        _, now = app.snapshot()
        combo = one(now, "the Colour drop-down", role="combo box", name="Colour")
        combo["children_refs"] = [c["ref"] for c in combo.get("children", [])]
        popup = popup_of(now, combo)
        return (now, popup) if popup else None
    try:
        open_nodes, popup = wait_for("the drop-down's list", opened)
    except atspi_probe.ProbeError:
        open_nodes, popup = [], None
    check.expect(popup is not None, "the open list appears as a menu of its own")
    check.expect(app.alive() and app.window() is not None,
                 "Firefox is alive, its window listed, after snapshots with the list open")
    if popup is None:
        return
    # Listed as a surface: the copy under its own (expanded, nameless) combo box; the
    # <select>'s own list, closed but showing its selected option, is not one.
    surfaces = open_surfaces(APP)
    lists = [s for s in surfaces if (s["opener"] or {}).get("role") == "combo box"]
    check.expect(len(lists) == 1 and lists[0]["items"] == 3,
                 f"surfaces lists the open list alone, a combo box its opener "
                 f"({[(s['role'], s['name'], s['items'], s['opener']) for s in surfaces]})")
    tree, list_nodes = surface_tree(APP, "any")
    greens = [n for n in list_nodes if n["name"] == "Green"]
    check.expect(len(greens) == 1 and (tree.get("surface", {}).get("opener") or {}).get("role") == "combo box",
                 f"snapshot --surface any is the open list ({tree.get('surface') or tree})")
    if greens:
        popup, green = {"ref": tree["surface"]["ref"]}, greens[0]
    else:
        green = [c for c in popup["children"] if c["name"] == "Green"][0]
    rc, env = cli("select", green["ref"])
    check.expect(rc != 0 and error(env).get("code") == "AMBIGUOUS_TARGET",
                 f"Green is a twin of the combo box's own option: refused ({error(env).get('code')})")
    rc, env = cli("select", green["ref"], "--within", popup["ref"])
    check.expect(rc == 0 and outcome(env) == "delivered_verified" and data(env).get("route") == "action:click",
                 f"select --within the open list clicks the copy and is verified "
                 f"({outcome(env)}, {data(env).get('route')}, {data(env).get('verification')}, {error(env)})")
    state = page_shows("the page's colour", colour="Green")
    check.expect(state is not None and state.get("colour") == "Green",
                 f"the page sees Green ({state and state.get('colour')})")


def check_text_values(check, nodes):
    with_replacement = [n for n in nodes
                        if OBJECT_REPLACEMENT in (n.get("value") or "") + (n.get("name") or "")]
    check.expect(not with_replacement,
                 f"no name or value holds U+FFFC ({[(n['role'], n.get('value')) for n in with_replacement[:3]]})")
    paragraphs = [n for n in nodes if n["role"] == "paragraph" and "terms" in (n.get("value") or "")]
    check.expect(len(paragraphs) == 1 and paragraphs[0]["value"] == "Read the terms first.",
                 f"a paragraph's value reads its link's text in place "
                 f"({[p.get('value') for p in paragraphs]})")


# Firefox once aborted on the first read of an open menu bar menu: Gecko's bridge sent a menu
# item's key binding as invalid UTF-8 in the answer to Action.GetActions, and libdbus aborts
# the sender. Every kind of menu is opened, read and closed here with Firefox alive throughout.
def check_menus(check, app):
    for menu in ("File", "Edit", "View", "History", "Bookmarks", "Tools", "Help"):
        check_menu_survives(check, app, f"the {menu} menu",
                            ("click", "--app", APP, "--role", "menu", "--name", menu),
                            harmless_item="Select All" if menu == "Edit" else None)
    check_menu_survives(check, app, "the page's context menu",
                        ("press", "shift+F10", "--app", APP, "--headed"))
    # The main menu button (≡, "Open application menu" as its tooltip) is named after the app.
    _, nodes = app.snapshot()
    buttons = [n for n in nodes if n["role"] == "push button" and n.get("name") == "Firefox"]
    check.expect(len(buttons) == 1, f"one application menu button ({[b.get('name') for b in buttons]})")
    if buttons:
        check_menu_survives(check, app, "the application menu", ("click", buttons[0]["ref"]), a_surface=False)


def main():
    check = Checker("gecko")
    daemon = Daemon()
    daemon.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            argv = firefox_argv(tmp, write_page(tmp))
            rc, env = cli("settings", "set", "physical_input", "true")
            check.expect(rc == 0, f"physical input is allowed for --headed ({error(env)})")
            with RealApp(APP, argv) as app:
                wait_for("the page's title", lambda: any("form start" in t for t in x_client_titles()),
                         timeout=30)
                wait_for("the form in the snapshot", lambda: any(
                    n["role"] == "entry" and n["name"] == "Name" for n in form_nodes(app)[1]),
                    timeout=30)
                snap, nodes = form_nodes(app)
                refs = [n["ref"] for n in nodes]
                check.expect(len(refs) == len(set(refs)), f"every ref is unique ({snap['node_count']} nodes)")
                check_text_values(check, nodes)
                check_text_input(check, nodes, "toolkit_ignores_editable_text")
                check_choices(check, nodes)
                check_select_list(check, app, nodes)
                check_menus(check, app)
                check_stopped_app(check, app)
    finally:
        daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
