"""What every real-app check shares: the daemon on the session's socket, one real app
process started fresh and stopped after, the CLI's JSON, and waits with deadlines.
Effects are judged from outside the tool (a file the app saved, an independent AT-SPI
read through atspi_probe), never from the tool's own "ok"."""

import json
import os
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "desktop", "harness"))
import atspi_probe  # noqa: E402
from daemon_cli import Daemon, cli, data, error  # noqa: E402,F401
from fixture_app import FixtureApp, unique_name  # noqa: E402

START_DEADLINE_S = 30
EFFECT_DEADLINE_S = 10
STOP_DEADLINE_S = 10
UNRESPONSIVE_TIMEOUT_MS = 1500
UNRESPONSIVE_BOUND_S = 10  # the deadline, plus a loaded machine's slack
ANSWER_TIMEOUT_S = 10  # an independent read of a responsive app takes milliseconds


def wait_for(what, probe, timeout=EFFECT_DEADLINE_S, interval=0.05):
    return atspi_probe.wait_for(what, timeout, probe, interval=interval)


class RealApp:
    """One process of a real application, started in a new session and killed (whole
    process group) on exit; listed by the daemon under APP_NAME."""

    def __init__(self, app_name, argv, env=None):
        self.app_name = app_name
        self.argv = argv
        self.env = dict(os.environ, **(env or {}))
        self.process = None

    def __enter__(self):
        self.process = subprocess.Popen(self.argv, env=self.env, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True)
        try:
            wait_for(f"{self.app_name} with a window", self.window, timeout=START_DEADLINE_S,
                     interval=0.1)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGCONT)
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(STOP_DEADLINE_S)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def alive(self):
        return self.process.poll() is None

    def window(self):
        """The app's first window as `companyos windows` lists it, or None."""
        rc, env = cli("windows", "--app", self.app_name)
        windows = data(env).get("windows", []) if rc == 0 else []
        return windows[0] if windows else None

    def snapshot(self, *args):
        """(snapshot data, every node flattened in document order)."""
        rc, env = cli("snapshot", "--app", self.app_name, *args)
        if rc != 0:
            raise atspi_probe.ProbeError(f"snapshot of {self.app_name}: {error(env)}")
        snap = data(env)
        nodes = []

        def flatten(node):
            nodes.append(node)
            for child in node.get("children", []):
                flatten(child)
        flatten(snap["tree"])
        return snap, nodes

    def bus_name(self, bus):
        """The app's bus name, read from the registry independently of the daemon."""
        return atspi_probe.wait_for_app(bus, self.app_name)[0]


def check_stopped_app(check, app, *window_args, whole_group=False):
    """A stopped app (SIGSTOP) answers APP_UNRESPONSIVE within the deadline, answers again
    once it runs (SIGCONT), and is alive after. whole_group: stop every process the app
    started, for apps whose command is a wrapper of the process on the bus (soffice)."""
    stop = (lambda sig: os.killpg(app.process.pid, sig)) if whole_group else \
        (lambda sig: os.kill(app.process.pid, sig))
    stop(signal.SIGSTOP)
    started = time.monotonic()
    rc, env = cli("snapshot", "--app", app.app_name, *window_args,
                  "--timeout", str(UNRESPONSIVE_TIMEOUT_MS))
    took = time.monotonic() - started
    stop(signal.SIGCONT)
    check.expect(rc != 0 and error(env).get("code") == "APP_UNRESPONSIVE",
                 f"a stopped {app.app_name} answers APP_UNRESPONSIVE ({error(env).get('code')})")
    check.expect(took < UNRESPONSIVE_BOUND_S, f"within the deadline ({took:.1f} s)")
    try:
        wait_for("a snapshot after SIGCONT",
                 lambda: cli("snapshot", "--app", app.app_name, *window_args)[0] == 0)
        answers = True
    except atspi_probe.ProbeError:
        answers = False
    check.expect(answers, f"{app.app_name} answers again after SIGCONT")
    check.expect(app.alive(), f"{app.app_name} is alive at the end")


def one(nodes, what, **fields):
    """The only node whose fields equal FIELDS (role, name, description, ...)."""
    found = [n for n in nodes if all(n.get(k) == v for k, v in fields.items())]
    if len(found) != 1:
        raise atspi_probe.ProbeError(f"expected one {what}, found {len(found)}")
    return found[0]


def outcome(env):
    """The delivery an action reply states: delivered_verified, delivered_unverified, ..."""
    return data(env).get("delivery") or error(env).get("details", {}).get("delivery")


def open_surfaces(app_name, *args):
    """The surfaces `companyos surfaces` lists for the app (an empty list on error)."""
    rc, env = cli("surfaces", "--app", app_name, *args)
    return data(env).get("surfaces", []) if rc == 0 else []


def wait_for_surface(app_name, present=True):
    """present: the app's surfaces once one is open, None if none opens in time. Not
    present: True once none is open, False if one stays open."""
    try:
        if present:
            return wait_for("a surface open", lambda: open_surfaces(app_name) or None)
        return wait_for("no surface open", lambda: not open_surfaces(app_name))
    except atspi_probe.ProbeError:
        return None if present else False


def surface_tree(app_name, kind="menu"):
    """`snapshot --surface KIND`: (its data, its nodes flattened), or (error, [])."""
    rc, env = cli("snapshot", "--app", app_name, "--surface", kind, "--format", "tree")
    if rc != 0:
        return error(env), []
    nodes = []

    def flatten(node):
        nodes.append(node)
        for child in node.get("children", []):
            flatten(child)
    flatten(data(env)["tree"])
    return data(env), nodes


def save_through_file_menu(check, app_name, nodes):
    """Saves through the open File menu's item, Qt's way (FeatherPad): ShowMenu on the File
    menu item adds its popup menu under it; listed as a surface with File as its opener, its
    Save is clicked by the surface's ref. NODES: the window's snapshot. The caller judges the
    saved file."""
    check.expect(open_surfaces(app_name) == [], "no surface is open before the menu opens")
    file_menu = one(nodes, "the File menu item", role="menu item", name="File")
    rc, env = cli("action", file_menu["ref"], "ShowMenu")
    check.expect(rc == 0, f"ShowMenu on File is delivered ({error(env)})")
    surfaces = wait_for_surface(app_name) or []
    check.expect(len(surfaces) == 1 and surfaces[0]["role"] == "popup menu"
                 and (surfaces[0]["opener"] or {}).get("name") == "File",
                 f"surfaces lists the popup menu File opened ({surfaces})")
    tree, menu_nodes = surface_tree(app_name)
    saves = [n for n in menu_nodes if n["role"] == "menu item" and n["name"] == "Save"]
    check.expect(len(saves) == 1 and bool(menu_nodes) and menu_nodes[0]["role"] == "popup menu",
                 f"snapshot --surface menu holds File > Save ({len(saves)}, {tree.get('surface')})")
    save = saves[0] if saves else one(nodes, "File > Save", role="menu item", name="Save")
    rc, env = cli("click", save["ref"])
    check.expect(rc == 0, f"click on File > Save is delivered ({error(env)})")


def display_shows(bus, bus_name, text):
    """True when an independent walk finds TEXT in one of the app's text nodes (a
    calculator's display)."""
    for node in atspi_probe.walk(bus, bus_name, max_depth=20):
        if node.role in ("text", "editbar", "entry", "label") or "text" in node.role:
            try:
                if text in atspi_probe.get_text(bus, node):
                    return True
            except atspi_probe.ProbeError:
                continue
    return False


def wait_until_displays(app, text):
    """True once an independent read finds TEXT on the app's display (display_shows)."""
    bus = atspi_probe.a11y_bus()
    bus_name = app.bus_name(bus)
    try:
        return bool(wait_for(f"{text} on the display", lambda: display_shows(bus, bus_name, text)))
    except atspi_probe.ProbeError:
        return False


def x_client_titles():
    """_NET_WM_NAME of every window in the window manager's _NET_CLIENT_LIST."""
    listed = subprocess.run(["xprop", "-root", "_NET_CLIENT_LIST"], capture_output=True,
                            text=True, timeout=10).stdout
    titles = []
    for word in listed.replace(",", " ").split():
        if word.startswith("0x"):
            name = subprocess.run(["xprop", "-id", word, "_NET_WM_NAME"], capture_output=True,
                                  text=True, timeout=10).stdout
            if "=" in name:
                titles.append(json.loads(name.split("=", 1)[1].strip()))
    return titles


def answers_independently(bus, bus_name):
    """True when the app answers a live AT-SPI call of ours within the deadline."""
    try:
        bus.call(bus_name, atspi_probe.ROOT_PATH, "org.a11y.atspi.Accessible.GetChildren",
                 timeout=ANSWER_TIMEOUT_S)
        return True
    except atspi_probe.ProbeError:
        return False


def open_and_escape(check, app_name, opener_ref, dialog_title, label):
    """Clicks OPENER_REF, waits for DIALOG_TITLE, presses Escape into it; checks that the
    click answered, the dialog closed, and the app answers the daemon afterwards."""
    rc, env = cli("click", opener_ref)
    check.expect(rc == 0 and outcome(env) in ("delivered_unverified", "delivered_verified"),
                 f"{label}: the click that opens the dialog answers ({outcome(env)}, {error(env)})")
    opened = [w.get("title") for w in (data(env).get("opened") or {}).get("windows", [])]
    check.expect(opened == [dialog_title], f"{label}: the reply names the dialog it opened ({opened}, {data(env)})")
    try:
        wait_for(f"{dialog_title!r} listed", lambda: dialog_title in
                 [w["title"] for w in data(cli("windows", "--app", app_name)[1]).get("windows", [])])
        listed = True
    except atspi_probe.ProbeError:
        listed = False
    check.expect(listed, f"{label}: the dialog {dialog_title!r} is listed while it runs")
    # The key goes to the window the window manager manages: wait until it does.
    try:
        wait_for("the dialog managed by the window manager",
                 lambda: dialog_title in x_client_titles())
    except atspi_probe.ProbeError:
        pass
    rc, env = cli("press", "Escape", "--app", app_name, "--title", dialog_title, "--headed")
    check.expect(rc == 0, f"{label}: Escape is pressed into the dialog ({error(env)})")
    try:
        wait_for("the dialog gone from the X server", lambda: dialog_title not in x_client_titles())
        closed = True
    except atspi_probe.ProbeError:
        closed = False
    check.expect(closed, f"{label}: the key closed the dialog (X client list)")
    rc, env = cli("windows", "--app", app_name)
    check.expect(rc == 0 and all(w.get("state", "ok") == "ok" for w in data(env).get("windows", [])),
                 f"{label}: the app answers the daemon after the dialog ({error(env)})")


def check_fixture_dialog(check, tmp, fixture_binary):
    """The fixture's "Open dialog…" opens its modal "Confirm" dialog: open_and_escape, then
    the fixture's effect file says the dialog was dismissed, and it still answers."""
    name = unique_name("modal")
    effect = os.path.join(tmp, "modal.txt")
    with FixtureApp(fixture_binary, name, effect, "--modal") as fixture:
        _, nodes = RealApp(name, []).snapshot()
        opener = one(nodes, "Open dialog…", role="push button", name="Open dialog…")
        open_and_escape(check, name, opener["ref"], "Confirm", f"fixture {os.path.basename(fixture_binary)}")
        dismissed = fixture.wait_for_effect("", b"dialog: dismissed", timeout=10)
        check.expect(dismissed, f"the fixture's handler ended with the dialog dismissed "
                                f"({fixture.effect()!r})")
        check.expect(answers_independently(fixture.bus, fixture.bus_name),
                     "the fixture answers an independent AT-SPI read")


def check_menu_survives(check, app, label, opener, harmless_item=None, a_surface=True, window_args=()):
    """Opens a menu with OPENER (the CLI arguments of a click or a press), then lists the
    app's surfaces, snapshots the menu and the whole window, and closes the menu: by
    clicking HARMLESS_ITEM (its name) by ref if given, else by Escape. The app's process
    must live through every step: a read must never make an app abort. A_SURFACE false: a
    popup panel the surface rule does not list (it is read with the whole window).
    WINDOW_ARGS: where Escape goes (e.g. --window ID) when the app has several windows."""
    rc, env = cli(*opener)
    check.expect(rc == 0, f"{label}: the menu is opened ({error(env)})")
    nodes = []
    if a_surface:
        surfaces = wait_for_surface(app.app_name)
        check.expect(bool(surfaces), f"{label}: surfaces lists the open menu")
        check.expect(app.alive(), f"{label}: the app lives after surfaces")
        tree, nodes = surface_tree(app.app_name, "menu")
        check.expect(len(nodes) > 1, f"{label}: snapshot --surface menu reads the menu ({len(nodes)} nodes, "
                                     f"{tree.get('code') if not nodes else 'ok'})")
        check.expect(app.alive(), f"{label}: the app lives after the menu's snapshot")
    else:
        open_surfaces(app.app_name)
        check.expect(app.alive(), f"{label}: the app lives after surfaces")
    try:
        app.snapshot()
        whole = True
    except atspi_probe.ProbeError:
        whole = False
    check.expect(whole and app.alive(), f"{label}: the app lives after a snapshot of its window with the menu open")
    items = [n for n in nodes if harmless_item and n.get("name") == harmless_item]
    if harmless_item:
        check.expect(len(items) >= 1, f"{label}: the menu holds {harmless_item!r}")
    if items:
        rc, env = cli("click", items[0]["ref"])
        check.expect(rc == 0, f"{label}: {harmless_item!r} is clicked by ref ({outcome(env)}, {error(env)})")
    else:
        rc, env = cli("press", "Escape", "--app", app.app_name, *window_args, "--headed")
        check.expect(rc == 0, f"{label}: Escape is pressed ({error(env)})")
    if a_surface:
        check.expect(wait_for_surface(app.app_name, present=False) is True, f"{label}: the menu closed")
    check.expect(app.alive(), f"{label}: the app lives after the menu closed")
