"""`companyos mcp` as a test drives it: a child process, JSON-RPC lines in and out, replies
matched by id while notifications are kept aside. Standard library only."""

import json
import os
import queue
import re
import subprocess
import threading

BUILD = os.environ["COMPANYOS_BUILD_DIR"]
CLI = os.path.join(BUILD, "cli", "companyos")
STATELESS = "2026-07-28"
# The first line of a state's text: "State <id> of <app> window <id> …".
STATE_HEADER = re.compile(r"State \S+ of .+ window \S+")


def meta(version=STATELESS, **extra):
    return {"io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientCapabilities": {}, **extra}


class McpSession:
    def __init__(self):
        self.process = subprocess.Popen([CLI, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        self.notifications = []
        self.stray = []  # stdout lines that are not JSON-RPC: there must be none
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 1
        self.states = {}  # app -> the newest state a tool answered with
        self.outlines = {}  # state id -> its outline lines, as read or rebuilt from changes

    def _read(self):
        for line in self.process.stdout:
            try:
                self.lines.put(json.loads(line))
            except ValueError:
                self.stray.append(line)
        self.lines.put(None)

    def send_raw(self, text):
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def send(self, message):
        self.send_raw(json.dumps(message))

    def reply(self, want_id, timeout=60):
        """The reply to WANT_ID (None: the next reply of any id); notifications are kept."""
        while True:
            message = self.lines.get(timeout=timeout)
            if message is None:
                raise RuntimeError("the server closed stdout")
            if "method" in message and "id" not in message:
                self.notifications.append(message)
                continue
            if want_id is None or message.get("id") == want_id:
                return message

    def request(self, method, params=None, timeout=60):
        request_id = self.next_id
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.reply(request_id, timeout)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def initialize(self, version="2025-11-25"):
        reply = self.request("initialize", {"protocolVersion": version, "capabilities": {},
                                            "clientInfo": {"name": "check", "version": "1"}})
        self.notify("notifications/initialized", {})
        return reply

    def last_state(self, app):
        return self.states.get(app)

    def call(self, tool, arguments, stateless=False, token=None, timeout=60):
        params = {"name": tool, "arguments": arguments}
        if stateless or token is not None:
            params["_meta"] = meta() if stateless else {}
            if token is not None:
                params["_meta"]["progressToken"] = token
        reply = self.request("tools/call", params, timeout)
        structured = reply.get("result", {}).get("structuredContent", {})
        state = structured.get("state")
        if state and "app" in arguments:
            self.states[arguments["app"]] = state
        if state and reply.get("result", {}).get("content"):
            self._rebuild_view(reply, state, structured.get("changes_since"))
        return reply

    def _rebuild_view(self, reply, state, since):
        """reply["view"]: the answer as an agent holds it in mind — with changes (an action's
        answer since the state acted on), the text with those applied to that state."""
        blocks = [b.get("text", "") for b in reply["result"]["content"] if b["type"] == "text"]
        lines = blocks[-1].split("\n")
        header = next((i for i, line in enumerate(lines) if STATE_HEADER.match(line)), None)
        if header is None:
            return
        body = [line for line in lines[header + 1:] if line]
        if since is None:
            outline = [line for line in body if not line.startswith("The page was still loading")]
        else:
            changes = body
            outline = apply_changes(self.outlines.get(since, []), changes)
        self.outlines[state] = outline
        reply["view"] = "\n".join(blocks[:-1] + ["\n".join(lines[:header + 1] + outline)])

    def close(self):
        """Ends stdin; returns the exit status."""
        self.process.stdin.close()
        try:
            return self.process.wait(timeout=30)
        finally:
            self.process.stdout.close()
            self.process.stderr.close()


def text_of(reply):
    """The answer's text as sent (an action's: its changes, when it gave them)."""
    return "\n".join(block.get("text", "") for block in reply["result"]["content"] if block["type"] == "text")


def view_of(reply):
    """The answer's text with any changes applied: the whole new state (see _rebuild_view)."""
    return reply.get("view") or text_of(reply)


def _leading_number(line):
    word = line.strip().split(" ", 1)[0]
    return int(word[1:]) if word.startswith("e") and word[1:].isdigit() else None


def apply_changes(old, changes):
    """The new outline (lines) from the old one and an action's changes, as docs/mcp.md
    tells an agent to read them: + added, ~ replaces the line of its number, - gone, '  '
    an unchanged container, = a run renumbered; every other line stays as it was."""
    out, cursor = [], 0

    def copy_until(is_it):
        nonlocal cursor
        k = cursor
        while k < len(old) and not is_it(old[k]):
            k += 1
        if k == len(old):
            raise ValueError(f"the changes name a line the old state lacks ({is_it})")
        out.extend(old[cursor:k])
        cursor = k

    for change in changes:
        mark, body = change[:2], change[2:]
        if mark == "+ ":
            out.append(body)
        elif mark in ("- ", "  "):
            copy_until(lambda line: line == body)
            if mark == "  ":
                out.append(old[cursor])
            cursor += 1
        elif mark == "~ ":
            number = _leading_number(body)
            copy_until(lambda line: _leading_number(line) == number)
            out.append(body)
            cursor += 1
        elif mark == "= ":
            numbers = [int(n) for n in re.findall(r"e(\d+)", body)]
            first_new, first_old, last_old = (numbers[0], numbers[1], numbers[1]) if len(numbers) == 2 \
                else (numbers[0], numbers[2], numbers[3])
            copy_until(lambda line: _leading_number(line) == first_old)
            while cursor < len(old):
                line, number = old[cursor], _leading_number(old[cursor])
                out.append(line if number is None else
                           re.sub(r"^(\s*)e\d+", lambda m: f"{m.group(1)}e{number + first_new - first_old}", line))
                cursor += 1
                if number == last_old:
                    break
        else:
            raise ValueError(f"an unknown mark in {change!r}")
    return out + old[cursor:]


def element_number(state_text, role, name):
    """N of the line 'eN ROLE "NAME"' in a state's text, or None when not exactly one."""
    found = []
    for line in state_text.splitlines():
        words = line.strip().split(" ", 1)
        if len(words) == 2 and words[0].startswith("e") and words[0][1:].isdigit():
            if words[1].startswith(f'{role} "{name}"'):
                found.append(int(words[0][1:]))
    return found[0] if len(found) == 1 else None
