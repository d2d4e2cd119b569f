"""A tiny AT-SPI client for desktop tests, built on `gdbus call` (standard library only).

It reads the live tree (one call per property, never the app's cache, which can miss
children), so it is slow (~15 ms a call) and meant for the small fixture windows.
Every wait polls with a deadline.
"""

import ast
import os
import subprocess
import time

REGISTRY = "org.a11y.atspi.Registry"
ROOT_PATH = "/org/a11y/atspi/accessible/root"
NULL_PATH = "/org/a11y/atspi/null"

# AT-SPI role numbers and their standard names (atspi_role_get_name), 0 to 129.
ROLE_NAMES = dict(enumerate((
    'invalid', 'accelerator label', 'alert', 'animation', 'arrow', 'calendar', 'canvas',
    'check box', 'check menu item', 'color chooser', 'column header', 'combo box',
    'date editor', 'desktop icon', 'desktop frame', 'dial', 'dialog', 'directory pane',
    'drawing area', 'file chooser', 'filler', 'focus traversable', 'font chooser', 'frame',
    'glass pane', 'html container', 'icon', 'image', 'internal frame', 'label',
    'layered pane', 'list', 'list item', 'menu', 'menu bar', 'menu item', 'option pane',
    'page tab', 'page tab list', 'panel', 'password text', 'popup menu', 'progress bar',
    'push button', 'radio button', 'radio menu item', 'root pane', 'row header',
    'scroll bar', 'scroll pane', 'separator', 'slider', 'spin button', 'split pane',
    'status bar', 'table', 'table cell', 'table column header', 'table row header',
    'tearoff menu item', 'terminal', 'text', 'toggle button', 'tool bar', 'tool tip',
    'tree', 'tree table', 'unknown', 'viewport', 'window', 'extended', 'header', 'footer',
    'paragraph', 'ruler', 'application', 'autocomplete', 'editbar', 'embedded', 'entry',
    'chart', 'caption', 'document frame', 'heading', 'page', 'section', 'redundant object',
    'form', 'link', 'input method window', 'table row', 'tree item', 'document spreadsheet',
    'document presentation', 'document text', 'document web', 'document email', 'comment',
    'list box', 'grouping', 'image map', 'notification', 'info bar', 'level bar',
    'title bar', 'block quote', 'audio', 'video', 'definition', 'article', 'landmark',
    'log', 'marquee', 'math', 'rating', 'timer', 'static', 'math fraction', 'math root',
    'subscript', 'superscript', 'description list', 'description term', 'description value',
    'footnote', 'content deletion', 'content insertion', 'mark', 'suggestion',
    'push button menu',
)))


class ProbeError(Exception):
    """A D-Bus call failed or a wait ran out of time."""


def gvariant_string(text):
    """Quotes TEXT as a GVariant text-format string for gdbus's argument parser."""
    escaped = text.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n")
    return "'" + escaped + "'"


# AtspiStateType, by number.
STATE_NAMES = dict(enumerate((
    "invalid", "active", "armed", "busy", "checked", "collapsed", "defunct", "editable",
    "enabled", "expandable", "expanded", "focusable", "focused", "has-tooltip",
    "horizontal", "iconified", "modal", "multi-line", "multiselectable", "opaque",
    "pressed", "resizable", "selectable", "selected", "sensitive", "showing", "single-line",
    "stale", "transient", "vertical", "visible", "manages-descendants", "indeterminate",
    "required", "truncated", "animated", "invalid-entry", "supports-autocompletion",
    "selectable-text", "is-default", "visited", "checkable", "has-popup", "read-only",
)))

_TYPE_WORDS = {"objectpath", "signature", "byte", "int16", "uint16", "int32", "uint32",
               "int64", "uint64", "handle", "double", "boolean", "string"}
_CONSTANTS = {"true": "True", "false": "False", "nothing": "None"}


def parse_gvariant_text(text):
    """Turns gdbus's GVariant text output into Python values (tuples, lists, dicts, str,
    int, bool). Type annotations are dropped and a variant <v> becomes the 1-tuple (v,)."""
    out = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "'\"":
            end = i + 1
            while text[end] != ch:
                end += 2 if text[end] == "\\" else 1
            out.append(text[i:end + 1])
            i = end + 1
        elif ch == "@":  # "@a(so) []": the type of an empty or ambiguous value
            while text[i] not in " ":
                i += 1
        elif ch == "<":
            out.append("(")
            i += 1
        elif ch == ">":
            out.append(",)")
            i += 1
        elif ch.isalpha():
            end = i
            while end < len(text) and (text[end].isalnum() or text[end] == "_"):
                end += 1
            word = text[i:end]
            if word in _CONSTANTS:
                out.append(_CONSTANTS[word])
            elif word not in _TYPE_WORDS:
                raise ProbeError(f"cannot parse gdbus output near {word!r}: {text[:200]}")
            i = end
        else:
            out.append(ch)
            i += 1
    return ast.literal_eval("".join(out))


class Bus:
    """One D-Bus connection address; call() runs `gdbus call` with a per-call timeout."""

    def __init__(self, address):
        self.address = address

    def call(self, dest, path, method, *args, timeout=10):
        command = ["gdbus", "call", "--address", self.address, "--timeout", str(timeout),
                   "--dest", dest, "--object-path", path, "--method", method, *args]
        try:
            result = subprocess.run(command, capture_output=True, text=True,
                                    timeout=timeout + 5, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired as error:
            raise ProbeError(f"{method} on {dest}{path}: no answer in {timeout}s") from error
        if result.returncode != 0:
            raise ProbeError(f"{method} on {dest}{path}: {result.stderr.strip()}")
        return parse_gvariant_text(result.stdout.strip())

    def get_property(self, dest, path, interface, name):
        (value,), = self.call(dest, path, "org.freedesktop.DBus.Properties.Get",
                              interface, name)
        return value


def a11y_bus():
    address = os.environ.get("AT_SPI_BUS_ADDRESS")
    if not address:
        raise ProbeError("AT_SPI_BUS_ADDRESS is not set (run inside scripts/desktop-session)")
    return Bus(address)


def wait_for(what, timeout, probe, interval=0.05):
    """Polls PROBE() until it returns a truthy value (returned) or TIMEOUT seconds pass
    (ProbeError naming WHAT and the last error)."""
    deadline = time.monotonic() + timeout
    last_error = None
    while True:
        try:
            value = probe()
            if value:
                return value
        except ProbeError as error:
            last_error = error
        if time.monotonic() >= deadline:
            detail = f" (last error: {last_error})" if last_error else ""
            raise ProbeError(f"timed out after {timeout}s waiting for {what}{detail}")
        time.sleep(interval)


class Node:
    """One accessible object, read live."""

    def __init__(self, bus_name, path, parent_path, role, role_number, name, accessible_id,
                 depth):
        self.bus_name = bus_name
        self.path = path
        self.parent_path = parent_path
        self.role = role
        self.role_number = role_number
        self.name = name
        self.accessible_id = accessible_id
        self.depth = depth

    def __repr__(self):
        return (f"{'  ' * self.depth}[{self.role} {self.role_number}] {self.name!r}"
                f" id={self.accessible_id!r}")


def application_names(bus):
    """Maps each application's AT-SPI name to its (bus name, root path)."""
    (children,) = bus.call(REGISTRY, ROOT_PATH, "org.a11y.atspi.Accessible.GetChildren")
    apps = {}
    for bus_name, path in children:
        try:
            name = bus.get_property(bus_name, path, "org.a11y.atspi.Accessible", "Name")
        except ProbeError:
            continue  # an app that is going away
        apps.setdefault(name, []).append((bus_name, path))
    return apps


def wait_for_app(bus, name, timeout=30):
    """The (bus name, root path) of the one application called NAME."""
    def probe():
        found = application_names(bus).get(name, [])
        if len(found) > 1:
            raise ProbeError(f"{len(found)} applications are called {name!r}")
        return found[0] if found else None
    return wait_for(f"application {name!r} on the AT-SPI registry", timeout, probe)


def walk(bus, bus_name, path=ROOT_PATH, max_depth=12, one_property_at_a_time=False,
         skip_vanished=False):
    """Every node under PATH in document order, read live (GetChildren, GetRoleName and
    the Accessible properties of each). ONE_PROPERTY_AT_A_TIME reads Name with
    Properties.Get instead of GetAll, which crashes Qt 5 apps. SKIP_VANISHED leaves out a
    node the app destroyed while the walk went on (a live app changes its tree)."""
    nodes = []

    def visit(node_path, parent_path, depth):
        try:
            read(node_path, parent_path, depth)
        except ProbeError as error:
            if skip_vanished and "UnknownObject" in str(error):
                return
            raise

    def read(node_path, parent_path, depth):
        (role_number,) = bus.call(bus_name, node_path, "org.a11y.atspi.Accessible.GetRole")
        role = ROLE_NAMES.get(role_number, f"role {role_number}")
        if one_property_at_a_time:
            props = {"Name": bus.get_property(bus_name, node_path, "org.a11y.atspi.Accessible",
                                              "Name")}
        else:
            (props,) = bus.call(bus_name, node_path, "org.freedesktop.DBus.Properties.GetAll",
                                "org.a11y.atspi.Accessible")
            props = {key: value[0] for key, value in props.items()}
        nodes.append(Node(bus_name, node_path, parent_path, role, role_number,
                          props.get("Name", ""),
                          props.get("AccessibleId", ""), depth))
        if depth >= max_depth:
            return
        (children,) = bus.call(bus_name, node_path, "org.a11y.atspi.Accessible.GetChildren")
        for child_bus, child_path in children:
            if child_path != NULL_PATH and child_bus == bus_name:
                visit(child_path, node_path, depth + 1)

    visit(path, None, 0)
    return nodes


def find(nodes, role, name):
    return [node for node in nodes if node.role == role and node.name == name]


def find_one(nodes, role, name):
    matches = find(nodes, role, name)
    if len(matches) != 1:
        raise ProbeError(f"expected one [{role}] {name!r}, found {len(matches)}")
    return matches[0]


def action_names(bus, node):
    """The raw (not localized) action names; GetActions returns localized ones."""
    count = bus.get_property(node.bus_name, node.path, "org.a11y.atspi.Action", "NActions")
    return [bus.call(node.bus_name, node.path, "org.a11y.atspi.Action.GetName", str(i))[0]
            for i in range(count)]


def do_named_action(bus, node, action_name):
    """Performs the action called ACTION_NAME (chosen by name, never blindly index 0)."""
    names = action_names(bus, node)
    if action_name not in names:
        raise ProbeError(f"{node!r} has no action {action_name!r} (has {names})")
    (ok,) = bus.call(node.bus_name, node.path, "org.a11y.atspi.Action.DoAction",
                     str(names.index(action_name)))
    return ok


def extents(bus, node):
    """(x, y, width, height) relative to the window (GTK4 has no screen coordinates)."""
    (box,) = bus.call(node.bus_name, node.path, "org.a11y.atspi.Component.GetExtents", "1")
    return box


def set_text(bus, node, text):
    (ok,) = bus.call(node.bus_name, node.path,
                     "org.a11y.atspi.EditableText.SetTextContents", gvariant_string(text))
    return ok


def with_role(bus, bus_name, path, role_number):
    """Every (bus name, path) under PATH with that AT-SPI role, found by the app's own
    Collection.GetMatches: one call where a walk of a large window takes a minute."""
    words = [0, 0, 0, 0]
    words[role_number // 32] |= 1 << (role_number % 32)
    rule = f"(@ai [], 1, @a{{ss}} {{}}, 1, {words}, 2, @as [], 1, false)"  # roles: match any
    (matches,) = bus.call(bus_name, path, "org.a11y.atspi.Collection.GetMatches", rule,
                          "1", "0", "true")  # canonical order, no limit, traverse
    return [tuple(match) for match in matches]


def states(bus, node):
    """The node's state names, as AT-SPI numbers them (ATSPI_STATE_*)."""
    return states_at(bus, node.bus_name, node.path)


def states_at(bus, bus_name, path):
    """The state names of the object at PATH of BUS_NAME."""
    (words,) = bus.call(bus_name, path, "org.a11y.atspi.Accessible.GetState")
    return {STATE_NAMES.get(i, f"state {i}") for i in range(64) if words[i // 32] >> (i % 32) & 1}


def get_text(bus, node):
    count = bus.get_property(node.bus_name, node.path, "org.a11y.atspi.Text",
                             "CharacterCount")
    (text,) = bus.call(node.bus_name, node.path, "org.a11y.atspi.Text.GetText", "0",
                       str(count))
    return text


ROLE_TABLE_CELL = 56  # ATSPI_ROLE_TABLE_CELL


def table_cell_at(bus, bus_name, x, y, timeout=5):
    """The path of the table cell at screen point (x, y) of the app, found by descending
    GetAccessibleAtPoint from each of its windows — never listing a table's children (a
    spreadsheet claims two billion). None when no cell is there."""
    (windows,) = bus.call(bus_name, ROOT_PATH, "org.a11y.atspi.Accessible.GetChildren", timeout=timeout)
    for _, window in windows:
        path = window
        for _ in range(20):
            try:
                ((_, hit),) = bus.call(bus_name, path, "org.a11y.atspi.Component.GetAccessibleAtPoint",
                                       str(x), str(y), "0", timeout=timeout)
            except ProbeError:
                break
            if hit in ("/org/a11y/atspi/null", path):
                break
            path = hit
            (role,) = bus.call(bus_name, path, "org.a11y.atspi.Accessible.GetRole", timeout=timeout)
            if role == ROLE_TABLE_CELL:
                return path
    return None
