"""What the agent tasks share: a daemon with physical input switched on by the person for
the task (and off after), the window title a state's header names, and a wait on a file
the app writes. Standard library and the realapps helpers only."""

import contextlib
import re

from mcp_session import text_of, view_of
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
    """An MCP session about one app, counting the tool calls a task makes and the characters
    it was sent: call(tool, arguments) answers the text as an agent holds it in mind — an
    action's changes applied to the state acted on (mcp_session.view_of)."""

    def __init__(self, session, app):
        self.session, self.app, self.count = session, app, 0
        self.sent = 0       # characters of every answer's text, as sent
        self.whole = 0      # the same had every action answered with its whole state
        self.changes = 0    # answers that gave changes

    def __call__(self, tool, arguments):
        self.count += 1
        reply = self.session.call(tool, dict({"app": self.app}, **arguments))
        text, view = text_of(reply), view_of(reply)
        self.sent += len(text)
        self.whole += len(view)
        self.changes += bool(reply.get("result", {}).get("structuredContent", {}).get("changes_since"))
        return view

    def report(self, task):
        """One line for the log (and scripts/bench mcp): the characters the task was sent."""
        print(f"agent-chars {task}: calls {self.count}, sent {self.sent}, whole states {self.whole}, "
              f"answers as changes {self.changes}", flush=True)
