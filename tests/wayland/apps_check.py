#!/usr/bin/env python3
"""Real apps on a native GNOME Wayland session (scripts/desktop-session --wayland: headless
mutter, no Xwayland), each on its Wayland backend, judged from outside the tool.

What the accessibility bus allows works as on X11: `status` says wayland; mousepad (GTK 3)
is listed with its window, read, and set-value on its editor is verified and read back by
an independent AT-SPI read; GNOME Calculator (GTK 4) shows 15 after 7 + 8 = clicked by ref,
as an independent read finds on its display; FeatherPad (Qt 5) takes set-value and saves
through its File menu's popup, and the saved file is the judge; Firefox ESR (its Wayland
backend) takes toggle, select and click on a form page, whose own handlers write its title,
read back from the frame's accessible name. What needs the display
server is refused with its reason and sends nothing: screenshot and press answer
PLATFORM_NOT_SUPPORTED naming X11 (not built: the compositor's remote-desktop session),
focus-window too (no Wayland protocol lets an outside client focus a window). Runs inside scripts/desktop-session --wayland
(COMPANYOS_BUILD_DIR set by CTest)."""

import os
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "realapps"))
from real_app import (Daemon, RealApp, atspi_probe, cli, data, error, one, outcome,  # noqa: E402
                      save_through_file_menu, wait_for, wait_until_displays)
from daemon_cli import cli_text  # noqa: E402
from web_page import firefox_argv, page_shows, write_page  # noqa: E402
from checks import Checker  # noqa: E402

TEXT = "written by companyOS on Wayland"


def read_text(bus, bus_name, role="text"):
    """The texts of the app's nodes of ROLE, read independently of the daemon."""
    texts = []
    for node in atspi_probe.walk(bus, bus_name, max_depth=25):
        if node.role == role:
            try:
                texts.append(atspi_probe.get_text(bus, node))
            except atspi_probe.ProbeError:
                continue
    return texts


def refused_for_x11(check, what, reason, *args):
    rc, env = cli(*args)
    check.expect(rc != 0 and error(env).get("code") == "PLATFORM_NOT_SUPPORTED"
                 and "X11" in error(env).get("message", "")
                 and error(env).get("details", {}).get("reason") == reason,
                 f"{what} is refused on Wayland, needing X11 ({reason}): {error(env)}")


def check_session(check):
    rc, env = cli("status")
    check.expect(rc == 0 and data(env).get("display_server") == "wayland",
                 f"status says the display server is wayland ({data(env).get('display_server')})")
    wayland = data(env).get("wayland") or {}
    check.expect(wayland.get("compositor") == "mutter" and wayland.get("mutter_remote_desktop") is True
                 and wayland.get("mutter_screen_cast") is True,
                 f"status names the compositor and mutter's remote-desktop interfaces ({wayland})")
    rc, out, _ = cli_text("doctor")
    check.expect("Wayland, compositor mutter" in out and "not built" in out
                 and "RemoteDesktop and ScreenCast interfaces answer here" in out,
                 f"doctor says what works on this session and what is refused: {out.strip()!r}")


def check_mousepad(check):
    with RealApp("mousepad", ["mousepad", "--disable-server"]) as app:
        window = app.window()
        check.expect(window is not None and window.get("id", "").startswith("w"),
                     f"windows lists mousepad's window by an accessibility id ({window})")
        snap, nodes = app.snapshot()
        check.expect(snap["node_count"] > 100, f"mousepad's window is read ({snap['node_count']} nodes)")
        editors = [n for n in nodes if n["role"] == "text" and "multi-line" in n.get("states", [])]
        check.expect(len(editors) == 1, f"one editor ({len(editors)})")
        if not editors:
            return
        rc, env = cli("set-value", editors[0]["ref"], TEXT)
        check.expect(rc == 0 and outcome(env) == "delivered_verified",
                     f"set-value on the editor is verified ({outcome(env)}, {error(env)})")
        bus = atspi_probe.a11y_bus()
        bus_name = app.bus_name(bus)
        try:
            seen = wait_for("the text in an independent read", lambda: TEXT in read_text(bus, bus_name))
        except atspi_probe.ProbeError:
            seen = False
        check.expect(bool(seen), "an independent AT-SPI read finds the text in the editor")
        rc, env = cli("wait", "--app", "mousepad", "--text", TEXT, "--timeout", "5000")
        check.expect(rc == 0, f"wait --text sees the text ({error(env)})")
        rc, env = cli("find", "--app", "mousepad", "--role", "menu", "--name", "File")
        check.expect(rc == 0 and data(env).get("count") == 1, f"find finds the File menu ({error(env)})")
        refused_for_x11(check, "screenshot", "not_built", "screenshot", "--app", "mousepad", "--out",
                        os.path.join(tempfile.gettempdir(), "never.png"))
        refused_for_x11(check, "press", "not_built", "press", "--app", "mousepad", "ctrl+a")
        refused_for_x11(check, "focus-window", "no_wayland_protocol", "focus-window", "--app", "mousepad")
        check.expect(TEXT in read_text(bus, bus_name), "the refused press changed nothing")
        check.expect(app.alive(), "mousepad is alive at the end")


def check_calculator(check):
    app_name = "gnome-calculator"
    with RealApp(app_name, [app_name]) as app:
        snap, nodes = app.snapshot()
        buttons = {n["name"]: n for n in nodes if n["role"] == "push button"}
        check.expect(all(k in buttons for k in ("7", "8", "+", "=")),
                     f"GNOME Calculator's buttons are read ({snap['node_count']} nodes)")
        for key in ("7", "+", "8", "="):
            if key in buttons:
                rc, env = cli("click", buttons[key]["ref"])
                check.expect(rc == 0, f"click {key} ({outcome(env)}, {error(env)})")
        check.expect(wait_until_displays(app, "15"), "an independent read finds 15 on the display")


def check_featherpad(check, tmp):
    path = os.path.join(tmp, "notes.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write("original\n")
    with RealApp("FeatherPad", ["featherpad", "--standalone", path]) as app:
        snap, nodes = app.snapshot()
        editors = [n for n in nodes if n["role"] == "text" and "multi-line" in n["states"]]
        check.expect(len(editors) == 1, f"one multi-line editor ({len(editors)})")
        if not editors:
            return
        rc, env = cli("set-value", editors[0]["ref"], TEXT)
        check.expect(rc == 0 and outcome(env) == "delivered_verified",
                     f"set-value on the editor is verified ({outcome(env)}, {error(env)})")
        _, nodes = app.snapshot()
        save_through_file_menu(check, "FeatherPad", nodes)

        def saved():
            with open(path, encoding="utf-8") as f:
                return f.read().rstrip("\n") == TEXT
        try:
            wrote = wait_for("the saved file", saved)
        except atspi_probe.ProbeError:
            wrote = False
        check.expect(bool(wrote), "FeatherPad saved the text to its file")


def frame_titles(bus, bus_name):
    """The app's frames' accessible names, read independently of the daemon: a browser's
    title, where there is no X server to ask."""
    return [node.name or "" for node in atspi_probe.walk(bus, bus_name, max_depth=1) if node.role == "frame"]


def check_firefox(check, tmp):
    """Firefox ESR on its Wayland backend (MOZ_ENABLE_WAYLAND=1) runs headless here: the
    form is read, and toggle, select and click reach the page, whose own event handlers
    say so in its title."""
    with RealApp("Firefox", firefox_argv(tmp, write_page(tmp))) as app:
        def form():
            try:
                return [n for n in app.snapshot()[1] if n["role"] == "entry" and n["name"] == "Name"] or None
            except atspi_probe.ProbeError:
                return None
        try:
            wait_for("the form in the snapshot", form, timeout=30)
        except atspi_probe.ProbeError:
            check.expect(False, "Firefox shows the form page on Wayland")
            return
        _, nodes = app.snapshot()
        bus = atspi_probe.a11y_bus()
        bus_name = app.bus_name(bus)

        def titles():
            return frame_titles(bus, bus_name)
        subscribe = one(nodes, "the Subscribe check box", role="check box", name="Subscribe")
        rc, env = cli("toggle", subscribe["ref"])
        check.expect(rc == 0 and outcome(env) == "delivered_verified",
                     f"toggle of the page's check box is verified ({outcome(env)}, {error(env)})")
        state = page_shows("the page's check box", titles, subscribe=True)
        check.expect(bool(state) and state.get("subscribe") is True,
                     f"the page sees the box checked, read from its title ({state})")
        large = one(nodes, "the Large list item", role="list item", name="Large")
        rc, env = cli("select", large["ref"])
        check.expect(rc == 0 and outcome(env) == "delivered_verified", f"select of a list item is verified ({error(env)})")
        go = one(nodes, "the Go button", role="push button", name="Go")
        rc, env = cli("click", go["ref"])
        check.expect(rc == 0, f"click on the page's button is delivered ({error(env)})")
        state = page_shows("the page's size and click", titles, size="Large", clicked=True)
        check.expect(bool(state) and state.get("size") == "Large" and state.get("clicked") is True,
                     f"the page sees Large selected and its button clicked ({state})")
        check.expect(app.alive(), "Firefox is alive at the end")


def main():
    check = Checker("wayland")
    daemon = Daemon()
    daemon.start()
    try:
        check_session(check)
        check_mousepad(check)
        check_calculator(check)
        with tempfile.TemporaryDirectory() as tmp:
            check_featherpad(check, tmp)
        with tempfile.TemporaryDirectory() as tmp:
            check_firefox(check, tmp)
    finally:
        daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
