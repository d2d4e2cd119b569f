"""What the agent tasks share: a daemon with physical input switched on by the person for
the task (and off after), the window title a state's header names, and a wait on a file
the app writes. Standard library and the realapps helpers only."""

import contextlib
import re

from mcp_session import text_of
from real_app import Daemon, atspi_probe, cli, wait_for

HEADER = re.compile(r'^State \S+ of .+? window \S+ "(.*)" \(\d+ nodes\)', re.MULTILINE)


@contextlib.contextmanager
def daemon_for_agent(physical_input=True):
    """A daemon on the session's socket; physical input on while the task runs."""
    daemon = Daemon()
    daemon.start()
    try:
        if physical_input:
            cli("settings", "set", "physical_input", "true")
        yield daemon
    finally:
        if physical_input:
            cli("settings", "set", "physical_input", "false")
        daemon.stop()


def title_of(state_text):
    """The window title in a state's header: State ID of APP window ID "TITLE" (N nodes)."""
    match = HEADER.search(state_text)
    return match.group(1) if match else None


def wait_for_content(what, read, holds):
    """READ() once HOLDS(it) (waiting with the effect deadline), else its last value."""
    try:
        return wait_for(what, lambda: (lambda content: content if content is not None and holds(content)
                                       else None)(read()))
    except atspi_probe.ProbeError:
        return read()


class AgentCalls:
    """An MCP session about one app, counting the tool calls a task makes: call(tool,
    arguments) answers the text an agent reads."""

    def __init__(self, session, app):
        self.session, self.app, self.count = session, app, 0

    def __call__(self, tool, arguments):
        self.count += 1
        return text_of(self.session.call(tool, dict({"app": self.app}, **arguments)))
