#!/usr/bin/env python3
"""What an agent is handed when it first looks at each real app the realapps tests drive:
`get_app_state` through `companyos mcp`, at most 6,000 characters, and losing no element
the app shows and that can be acted on, as an independent AT-SPI walk finds them
(view_check.py). The editors and GNOME Calculator are judged by their own task tests.
Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import os
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "realapps"))
sys.path.insert(0, os.path.join(HERE, "..", "desktop", "mcp"))
from real_app import RealApp, atspi_probe, wait_for, x_client_titles  # noqa: E402
from agent_task import daemon_for_agent, title_of  # noqa: E402
from checks import Checker  # noqa: E402
from libreoffice_check import DOCUMENT  # noqa: E402
from mcp_session import McpSession, text_of  # noqa: E402
from view_check import missing_from_view, showing_actionable  # noqa: E402
from web_page import chromium_argv, firefox_argv, write_page  # noqa: E402

VIEW_LIMIT = 6000
READY_DEADLINE_S = 60


class App:
    """One real app: how it starts, when its first look is due, which actions its toolkit
    lists on every node (they make nothing actionable)."""

    def __init__(self, name, argv, ready_text, env=None, drop_env=(), every_node_actions=(), last_text=None):
        self.name, self.argv, self.ready_text, self.last_text = name, argv, ready_text, last_text
        self.env = {k: v for k, v in dict(os.environ, **(env or {})).items() if k not in drop_env}
        self.every_node_actions = set(every_node_actions)


def apps(tmp):
    url = write_page(tmp)
    document = os.path.join(tmp, "notes.fodt")
    with open(document, "w", encoding="utf-8") as f:
        f.write(DOCUMENT)
    return [
        # A page's first look must hold the whole form: its last element too.
        App("Firefox", firefox_argv(tmp, url), 'entry "Name"', last_text='push button "Go"'),
        App("Chromium", chromium_argv(tmp, url), 'entry "Name"', every_node_actions=("doDefault", "showContextMenu"),
            last_text='push button "Go"'),
        App("soffice", ["soffice", "--writer", "--norestore", "--nologo", "--nodefault",
                        "-env:UserInstallation=file://" + os.path.join(tmp, "libreoffice"), document],
            'value="original"', env={"SAL_USE_VCLPLUGIN": "gtk3"}),
        App("SpeedCrunch", ["speedcrunch"], "text [editable"),
        # Qt 6.4 registers only when it finds the bus through the session bus (qt6_check.py).
        App("Tetzle", ["/usr/games/tetzle"], "push button", drop_env=("AT_SPI_BUS_ADDRESS",)),
    ]


def judge(check, app):
    real = RealApp(app.name, app.argv)
    real.env = app.env
    with real:
        session = McpSession()
        session.initialize()

        def ready_state():
            text = text_of(session.call("get_app_state", {"app": app.name, "screenshot": False}))
            return text if app.ready_text in text else None
        try:
            state = wait_for(f"{app.name}'s first look", ready_state, timeout=READY_DEADLINE_S, interval=0.5)
        except atspi_probe.ProbeError as error:
            check.expect(False, f"{app.name}: its state shows {app.ready_text} ({error})")
            return
        print(f"  {app.name}: {len(state)} characters; titles {x_client_titles()}", flush=True)
        check.expect(len(state) <= VIEW_LIMIT, f"{app.name}'s view is at most 6,000 characters ({len(state)})")
        if app.last_text:
            check.expect(app.last_text in state and "still loading" not in state,
                         f"{app.name}'s first look holds the whole page, down to its {app.last_text}")
        # The state is of one window, the one the tool chose: the independent walk looks at
        # that one (its title is in the state's header).
        title = title_of(state)
        elements = showing_actionable(atspi_probe.a11y_bus(), app.name, window_title=title,
                                      ignored_actions=app.every_node_actions)
        # Names change on their own (Chromium adds a tab's memory use a while after it
        # loads): the view compared is a look taken right after the walk.
        state = text_of(session.call("get_app_state", {"app": app.name, "screenshot": False}))
        lost = missing_from_view(state, elements)
        check.expect(elements and not lost,
                     f"{app.name}'s view shows every one of the {len(elements)} showing actionable elements an "
                     f"independent walk finds (missing: {lost})")
        session.close()


def main():
    check = Checker("agent-views")
    with daemon_for_agent(physical_input=False), tempfile.TemporaryDirectory() as tmp:
        for app in apps(tmp):
            judge(check, app)
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
