"""Whether an agent's view lost anything it could act on: every element the app shows and
that can be acted on, read independently of the tool (gdbus, one property at a time, so
Qt 5's bridge is never asked for GetAll), must be a line of the view. Actionable is the
rule docs/observation.md states: an action other than focus or Gecko's clickAncestor, or
editable, or selectable; never a separator. Standard library and atspi_probe only."""

import re
import atspi_probe

NOT_ACTIONS = {"focus", "clickAncestor"}
# GTK 4 lists its text widgets' own actions on every label; they are not the label's.
LABEL_WIDGET_ACTION_PREFIXES = ("clipboard.", "selection.", "link.")


def is_actionable(role, actions, states, ignored_actions=()):
    if role == "separator":
        return False
    for action in actions:
        if action in NOT_ACTIONS or action in ignored_actions:
            continue
        if role == "label" and (action.startswith(LABEL_WIDGET_ACTION_PREFIXES) or action == "menu.popup"):
            continue
        return True
    return "editable" in states or "selectable" in states


def showing_actionable(bus, app, window_title=None, ignored_actions=(), max_depth=40):
    """(role, name) of every showing actionable element of the app's window called
    WINDOW_TITLE (every window when None). A node that is not showing is not walked
    further: nothing under it is on screen. IGNORED_ACTIONS make nothing actionable (the
    ones a toolkit lists on every node). A menu bar with the same menus as one walked
    before is skipped: the view lists it once, saying so."""
    # The registry's name may differ in case from the one the tool is given ("FeatherPad").
    registered = atspi_probe.wait_for(f"{app} on the AT-SPI registry", 30, lambda: next(
        (name for name in atspi_probe.application_names(bus) if name.lower() == app.lower()), None))
    bus_name, app_root = atspi_probe.wait_for_app(bus, registered)
    found = []
    menu_bars = set()

    def read(path, name_too=True):
        (role_number,) = bus.call(bus_name, path, "org.a11y.atspi.Accessible.GetRole")
        role = atspi_probe.ROLE_NAMES.get(role_number, f"role {role_number}")
        name = bus.get_property(bus_name, path, "org.a11y.atspi.Accessible", "Name") if name_too else ""
        return role, name

    def children_of(path):
        (children,) = bus.call(bus_name, path, "org.a11y.atspi.Accessible.GetChildren")
        return [child_path for child_bus, child_path in children
                if child_path != atspi_probe.NULL_PATH and child_bus == bus_name]

    def visit(path, depth):
        try:
            states = atspi_probe.states_at(bus, bus_name, path)
            if "showing" not in states:
                return
            role, name = read(path)
            try:
                count = bus.get_property(bus_name, path, "org.a11y.atspi.Action", "NActions")
                actions = [bus.call(bus_name, path, "org.a11y.atspi.Action.GetName", str(i))[0]
                           for i in range(count)]
            except atspi_probe.ProbeError:
                actions = []  # no Action interface
            if depth > 0 and is_actionable(role, actions, states, ignored_actions):
                found.append((role, name))
            if depth >= max_depth:
                return
            children = children_of(path)
            if role == "menu bar":
                menus = tuple(read(child) for child in children)
                if menus and menus in menu_bars:
                    return
                menu_bars.add(menus)
        except atspi_probe.ProbeError as error:
            if "UnknownObject" in str(error):
                return  # the app destroyed it meanwhile
            raise
        for child in children:
            visit(child, depth + 1)

    for window in children_of(app_root):
        if window_title is None or read(window)[1] == window_title:
            visit(window, 0)
    return found


def as_shown(name):
    """The start of a name as a view line quotes it (controls escaped, long names cut)."""
    return name.replace("\\", "\\\\").replace("\n", "\\n").replace("\"", "\\\"")[:24]


def missing_from_view(state_text, elements):
    """The elements of ELEMENTS no line of the view shows (by role and name): as many lines
    must show a (role, name) as the app has showing elements of it."""
    lines = []
    for line in state_text.splitlines():
        words = line.strip().split(" ", 1)
        row = re.match(r"([a-z ]+?)(es|s): (e\d+ .*)$", line.strip())
        if row:
            # "push buttons: e5 \"New\" | e7 \"Open\"": a tool bar's buttons, one per item
            lines += [f"{row.group(1)} {item.split(' ', 1)[1]}" for item in row.group(3).split(" | ") if " " in item]
        elif len(words) == 2 and words[0].startswith("e"):
            # "e3,e4,e5 push button … (3 alike)" shows three buttons
            lines += [words[1]] * len(words[0].split(","))
    missing = []
    wanted = {}
    for role, name in elements:
        wanted[(role, name)] = wanted.get((role, name), 0) + 1
    for (role, name), count in wanted.items():
        prefix = f'{role} "{as_shown(name)}' if name else f"{role} "
        shown = sum(1 for line in lines if line.startswith(prefix) and (name or not line.startswith(f'{role} "')))
        if shown < count:
            missing.append((role, name, count - shown))
    return missing
