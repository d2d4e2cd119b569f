"""`companyos mcp` as a test drives it: a child process, JSON-RPC lines in and out, replies
matched by id while notifications are kept aside. Standard library only."""

import json
import os
import queue
import subprocess
import threading

BUILD = os.environ["COMPANYOS_BUILD_DIR"]
CLI = os.path.join(BUILD, "cli", "companyos")
STATELESS = "2026-07-28"


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
        state = reply.get("result", {}).get("structuredContent", {}).get("state")
        if state and "app" in arguments:
            self.states[arguments["app"]] = state
        return reply

    def close(self):
        """Ends stdin; returns the exit status."""
        self.process.stdin.close()
        try:
            return self.process.wait(timeout=30)
        finally:
            self.process.stdout.close()
            self.process.stderr.close()


def text_of(reply):
    return "\n".join(block.get("text", "") for block in reply["result"]["content"] if block["type"] == "text")


def element_number(state_text, role, name):
    """N of the line 'eN ROLE "NAME"' in a state's text, or None when not exactly one."""
    found = []
    for line in state_text.splitlines():
        words = line.strip().split(" ", 1)
        if len(words) == 2 and words[0].startswith("e") and words[0][1:].isdigit():
            if words[1].startswith(f'{role} "{name}"'):
                found.append(int(words[0][1:]))
    return found[0] if len(found) == 1 else None
