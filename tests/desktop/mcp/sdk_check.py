#!/usr/bin/env python3
"""Runs sdk_client/sdk_check.mjs (the official MCP TypeScript SDK client, installed by
scripts/install-deps --tests with npm ci) against `companyos mcp`, with a daemon and the GTK3
fixture in this desktop session. Runs inside scripts/desktop-session."""

import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "harness"))
from daemon_cli import CLI, FIXTURE, Daemon, cli  # noqa: E402
from fixture_app import FixtureApp, unique_name  # noqa: E402

CLIENT_DIR = os.path.join(HERE, "sdk_client")


def main():
    if not os.path.isdir(os.path.join(CLIENT_DIR, "node_modules", "@modelcontextprotocol", "sdk")):
        print(f"FAIL the SDK is not installed in {CLIENT_DIR}: run scripts/install-deps --tests", flush=True)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        daemon = Daemon()
        daemon.start()
        try:
            cli("settings", "set", "physical_input", "false")
            effect = os.path.join(tmp, "effect")
            with FixtureApp(FIXTURE, unique_name("McpSdk"), effect, "--title", "SDK") as app:
                cli("focus-window", "--app", app.app_name)
                done = subprocess.run(["node", os.path.join(CLIENT_DIR, "sdk_check.mjs"), CLI, app.app_name, effect],
                                      cwd=CLIENT_DIR, stdin=subprocess.DEVNULL, timeout=240)
                return done.returncode
        finally:
            daemon.stop()


if __name__ == "__main__":
    sys.exit(main())
