#!/usr/bin/env python3
"""LibreOffice Writer (VCL's GTK 3 plugin) observed and acted on, judged by the file it saves.

Writer opens a flat ODF document (one XML file, saved without a format question); the
check snapshots its window (nearly 2,000 nodes, the menus' twins marked), sets and types
the paragraph's text (verified by read-back), activates File > Save by its ref within the
root pane (Writer lists two menu bars, so "Save" is a twin), and reads
the text from the file Writer wrote. `apps` names the desktop entry although the app is
called "soffice" on the bus. A stopped Writer (SIGSTOP) answers APP_UNRESPONSIVE.
Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import os
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from real_app import (RealApp, check_menu_survives, check_stopped_app, atspi_probe, cli, data, error, one, outcome, wait_for,  # noqa: E402
                      wait_for_surface, Daemon)
from checks import Checker  # noqa: E402

APP = "soffice"
DOCUMENT = """<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3"
 office:mimetype="application/vnd.oasis.opendocument.text">
 <office:body><office:text><text:p>original</text:p></office:text></office:body>
</office:document>
"""
WRITTEN = "written by companyOS and typed"
TOGGLE_BUTTON = 62  # ATSPI_ROLE_TOGGLE_BUTTON
MENU_ITEM = 35  # ATSPI_ROLE_MENU_ITEM


def read_file(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def pane_nodes(node):
    """NODE and every node under it, in document order."""
    nodes = [node]
    for child in node.get("children", []):
        nodes.extend(pane_nodes(child))
    return nodes


def check_writer(check, tmp):
    path = os.path.join(tmp, "notes.fodt")
    with open(path, "w", encoding="utf-8") as f:
        f.write(DOCUMENT)
    argv = ["soffice", "--writer", "--norestore", "--nologo", "--nodefault",
            "-env:UserInstallation=file://" + os.path.join(tmp, "profile"), path]
    with RealApp(APP, argv, env={"SAL_USE_VCLPLUGIN": "gtk3"}) as app:
        def desktop_entry():
            rc, env = cli("apps")
            return {a["name"]: a.get("desktop_entry") for a in data(env).get("apps", [])}.get(APP)
        # Writer's window takes its WM_CLASS (libreoffice-writer) once the document is in.
        try:
            entry = wait_for("Writer's desktop entry", desktop_entry)
        except atspi_probe.ProbeError:
            entry = desktop_entry()
        check.expect(entry is not None and entry.startswith("libreoffice"),
                     f"apps names Writer's desktop entry although it is called soffice ({entry})")

        def paragraph():
            snap, nodes = app.snapshot()
            found = [n for n in nodes if n["role"] == "paragraph" and n.get("value") == "original"]
            return (snap, nodes, found[0]) if len(found) == 1 else None
        snap, nodes, para = wait_for("the document's paragraph", paragraph, timeout=30)
        check.expect(snap["node_count"] > 1000, f"snapshot reads the whole window ({snap['node_count']} nodes)")
        refs = [n["ref"] for n in nodes]
        check.expect(len(refs) == len(set(refs)), "every ref is unique")
        check.expect(any(n.get("twin") for n in nodes), "the menus' repeated items are marked twins")

        rc, env = cli("set-value", para["ref"], "written by companyOS")
        check.expect(rc == 0 and outcome(env) == "delivered_verified",
                     f"set-value on the paragraph is verified ({outcome(env)}, {error(env)})")
        rc, env = cli("type", para["ref"], " and typed")
        check.expect(rc == 0 and outcome(env) == "delivered_verified",
                     f"type into the paragraph is verified ({outcome(env)}, {error(env)})")

        # A toolbar toggle: Formatting Marks is pressed by its own action, verified on its
        # checked state, and an independent read finds it checked.
        marks = one(nodes, "Formatting Marks", role="toggle button", name="Formatting Marks")
        rc, env = cli("toggle", marks["ref"])
        check.expect(rc == 0 and outcome(env) == "delivered_verified",
                     f"toggle of Formatting Marks is verified ({outcome(env)}, {data(env).get('route')}, {error(env)})")
        # Writer's window is too large to walk with gdbus; its own Collection finds them.
        bus = atspi_probe.a11y_bus()
        bus_name = app.bus_name(bus)
        (windows,) = bus.call(bus_name, atspi_probe.ROOT_PATH, "org.a11y.atspi.Accessible.GetChildren")
        buttons = [match for window in windows
                   for match in atspi_probe.with_role(bus, *window, TOGGLE_BUTTON)
                   if bus.get_property(*match, "org.a11y.atspi.Accessible", "Name") == "Formatting Marks"]
        check.expect(len(buttons) == 1 and "checked" in atspi_probe.states_at(bus, *buttons[0]),
                     f"an independent read finds Formatting Marks checked ({len(buttons)})")

        # Writer lists two menu bars (GTK's and VCL's own, under the root pane), so "Save"
        # is a twin: the root pane names the one meant.
        pane = one(nodes, "the root pane", role="root pane")
        save = []

        def find_save(node):
            for child in node.get("children", []):
                if child["role"] == "menu item" and child["name"] == "Save":
                    save.append(child)
                find_save(child)
        find_save(pane)
        check.expect(len(save) == 1 and save[0].get("twin"), "File > Save in the root pane is one of twins")
        rc, env = cli("click", save[0]["ref"])
        check.expect(rc != 0 and error(env).get("code") == "AMBIGUOUS_TARGET",
                     f"a click on a twin alone is refused ({error(env).get('code')})")
        rc, env = cli("click", save[0]["ref"], "--within", pane["ref"])
        check.expect(rc == 0, f"click on Save --within the root pane is delivered ({error(env)})")
        try:
            saved = wait_for("the saved file", lambda: WRITTEN in read_file(path))
        except atspi_probe.ProbeError:
            saved = False
        check.expect(bool(saved), "the file Writer saved holds the text")
        check.expect(app.alive(), "Writer is alive after the save")

        # The File menu of GTK's menu bar opens as a surface, named in the click's reply.
        # The two menu bars are twins too: the viewport holding GTK's names the one meant.
        parents = {c["ref"]: n for n in nodes for c in n.get("children", [])}
        files = [(bar, m) for bar in nodes if bar["role"] == "menu bar"
                 for m in bar.get("children", []) if m["name"] == "File" and m["actions"]]
        check.expect(len(files) == 1, f"one File menu lists an action ({len(files)})")
        if files:
            bar, menu = files[0]
            rc, env = cli("click", menu["ref"], "--within", parents[bar["ref"]]["ref"])
            named = (data(env).get("opened") or {}).get("surface") or {}
            check.expect(rc == 0 and named.get("name") == "File" and named.get("items", 0) > 10,
                         f"the click opens File and its reply names it ({named or error(env)})")
            surfaces = wait_for_surface(APP) or []
            # Opened by a click, GTK selects File's first entry, New, and opens its submenu
            # too (its items show, Recent Documents' do not): listed after File.
            check.expect(surfaces[:1] and surfaces[0]["name"] == "File" and surfaces[0]["items"] > 10 and
                         all(s["kind"] == "menu" for s in surfaces),
                         f"surfaces lists File first ({[(s['name'], s['items']) for s in surfaces]})")
            items = [match for window in windows
                     for match in atspi_probe.with_role(bus, *window, MENU_ITEM)
                     if bus.get_property(*match, "org.a11y.atspi.Accessible", "Name") == "Save As..."]
            check.expect(any("showing" in atspi_probe.states_at(bus, *item) for item in items),
                         "an independent read finds File > Save As... showing")
            # File and its New submenu closed, every other menu of the bar is opened, read and
            # closed, with Writer alive throughout (a read must never make an app abort).
            rc, env = cli("settings", "set", "physical_input", "true")
            check.expect(rc == 0, f"physical input is allowed for Escape ({error(env)})")
            for _ in range(2):
                cli("press", "Escape", "--app", APP, "--headed")
            check.expect(wait_for_surface(APP, present=False) is True, "Escape closes File and its submenu")
            # Not Insert: Table ▸ Insert is its twin under the same menu bar, refused by design.
            for name in ("Edit", "View", "Format", "Tools", "Help"):
                _, now = app.snapshot()
                now_parents = {c["ref"]: n for n in now for c in n.get("children", [])}
                menus = [(bar, m) for bar in now if bar["role"] == "menu bar"
                         for m in bar.get("children", []) if m["name"] == name and m["actions"]]
                check.expect(len(menus) == 1, f"one {name} menu lists an action ({len(menus)})")
                if menus:
                    bar, menu = menus[0]
                    check_menu_survives(check, app, f"Writer's {name} menu",
                                        ("click", menu["ref"], "--within", now_parents[bar["ref"]]["ref"]))
        # /usr/bin/soffice is a wrapper: the process on the bus is its child soffice.bin.
        check_stopped_app(check, app, whole_group=True)


def main():
    check = Checker("libreoffice")
    daemon = Daemon()
    daemon.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            check_writer(check, tmp)
    finally:
        daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
