#!/usr/bin/env python3
"""Starts a daemon in the private desktop and runs browser_check.mjs (playwright-core and
Debian's Chromium) against its dashboard; screenshots go to the build tree's
tests/desktop/dashboard/artifacts. Runs inside scripts/desktop-session."""

import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "daemon"))
from observe_cli_check import CLI, DAEMON, cli, wait_for  # noqa: E402


def main():
    if not os.path.isdir(os.path.join(HERE, "node_modules", "playwright-core")):
        print("FAIL browser: playwright-core is not installed (scripts/install-deps --tests runs npm ci here)")
        return 1
    artifacts = os.path.join(os.environ["COMPANYOS_BUILD_DIR"], "tests", "desktop", "dashboard", "artifacts")
    shutil.rmtree(artifacts, ignore_errors=True)
    daemon = subprocess.Popen([DAEMON, "--log-level", "warn"], stdin=subprocess.DEVNULL)
    try:
        wait_for("daemon", lambda: cli("ping")[0] == 0)
        with tempfile.TemporaryDirectory() as work:
            done = subprocess.run(["node", os.path.join(HERE, "browser_check.mjs"), CLI, artifacts, work],
                                  cwd=HERE, stdin=subprocess.DEVNULL, timeout=240)
        return done.returncode
    finally:
        daemon.terminate()
        daemon.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
