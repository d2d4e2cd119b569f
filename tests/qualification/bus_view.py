"""The qualification suite's own view of the accessibility bus: plain AT-SPI calls on a
connection of its own (dbus_wire), never through companyOS, so preconditions such as "the
twin exists now" are not judged by the code under test. Reads are live, never a cache."""

import os
import time

from dbus_wire import Connection, DBusError

ROOT_PATH = "/org/a11y/atspi/accessible/root"
NULL_PATH = "/org/a11y/atspi/null"
ACCESSIBLE = "org.a11y.atspi.Accessible"
PROPERTIES = "org.freedesktop.DBus.Properties"
ROLE_PUSH_BUTTON = 43  # ATSPI_ROLE_PUSH_BUTTON
REGISTRY = "org.a11y.atspi.Registry"
TEXT = "org.a11y.atspi.Text"


class Element:
    def __init__(self, bus_name, path, parent_path, role, name, accessible_id):
        self.bus_name = bus_name
        self.path = path
        self.parent_path = parent_path
        self.role = role
        self.name = name
        self.accessible_id = accessible_id


class BusView:
    def __init__(self, address=None):
        address = address or os.environ.get("AT_SPI_BUS_ADDRESS")
        if not address:
            raise DBusError("AT_SPI_BUS_ADDRESS is not set (run inside scripts/desktop-session)")
        self.connection = Connection(address)

    def close(self):
        self.connection.close()

    def _property(self, bus_name, path, interface, name):
        return self.connection.call(bus_name, path, PROPERTIES, "Get", "ss",
                                    (interface, name))[0]

    def toolkit(self, bus_name, root_path):
        """{toolkit, toolkit_version, atspi_version} as the application reports them."""
        interface = "org.a11y.atspi.Application"
        facts = {}
        for key, prop in (("toolkit", "ToolkitName"), ("toolkit_version", "Version"),
                          ("atspi_version", "AtspiVersion")):
            try:
                facts[key] = self._property(bus_name, root_path, interface, prop)
            except DBusError:
                facts[key] = None
        return facts

    def child_count(self, bus_name, path):
        return self._property(bus_name, path, ACCESSIBLE, "ChildCount")

    def walk(self, bus_name, root_path=ROOT_PATH, max_depth=12):
        """Every element under ROOT_PATH in document order, read live."""
        elements = []

        def visit(path, parent_path, depth):
            (role,) = self.connection.call(bus_name, path, ACCESSIBLE, "GetRole")
            props = self.connection.call(bus_name, path, PROPERTIES, "GetAll", "s",
                                         (ACCESSIBLE,))[0]
            elements.append(Element(bus_name, path, parent_path, role, props.get("Name", ""),
                                    props.get("AccessibleId", "")))
            if depth >= max_depth:
                return
            (children,) = self.connection.call(bus_name, path, ACCESSIBLE, "GetChildren")
            for child_bus, child_path in children:
                if child_path != NULL_PATH and child_bus == bus_name:
                    visit(child_path, path, depth + 1)

        visit(root_path, None, 0)
        return elements

    def applications(self, name):
        """(bus name, root path) of every application called NAME on the registry now."""
        (children,) = self.connection.call(REGISTRY, ROOT_PATH, ACCESSIBLE, "GetChildren")
        found = []
        for bus_name, path in children:
            try:
                if self._property(bus_name, path, ACCESSIBLE, "Name") == name:
                    found.append((bus_name, path))
            except DBusError:
                continue  # an app that is going away
        return found

    def text(self, bus_name, path):
        """The whole text of the element at PATH (Text interface), read live."""
        count = self._property(bus_name, path, TEXT, "CharacterCount")
        return self.connection.call(bus_name, path, TEXT, "GetText", "ii", (0, count))[0]

    def write_buttons(self, bus_name):
        """The live "Write effect" push buttons of the fixture."""
        return [element for element in self.walk(bus_name)
                if element.role == ROLE_PUSH_BUTTON and element.name == "Write effect"]

    def wait_child_count(self, bus_name, path, expected, triggered_at, timeout=3.0):
        """Polls PATH's live child count until it equals EXPECTED. Returns
        (changed_after, seen_at) in time.monotonic() seconds: the change happened after the
        app answered the last poll that still showed the old count, and so after that poll
        was sent (or after TRIGGERED_AT, when the first poll already saw it). None if the
        count never reaches EXPECTED."""
        deadline = time.monotonic() + timeout
        last_unchanged_sent = triggered_at
        while time.monotonic() < deadline:
            sent = time.monotonic()
            if self.child_count(bus_name, path) == expected:
                return last_unchanged_sent, time.monotonic()
            last_unchanged_sent = sent
            time.sleep(0.001)
        return None
