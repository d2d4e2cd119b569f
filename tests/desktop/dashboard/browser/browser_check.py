#!/usr/bin/env python3
"""Starts a daemon in the private desktop and runs browser_check.mjs (playwright-core and
Debian's Chromium) against its dashboard; screenshots go to the build tree's
tests/desktop/dashboard/artifacts. Then the product on itself: the dashboard open in a
Chromium on the desktop with its accessibility on, seen by `companyos snapshot` (the
list's controls by name) and stopped by `companyos click` on "Stop all automations",
judged through the protocol. Runs inside scripts/desktop-session."""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "daemon"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "harness"))
from checks import Checker  # noqa: E402
from dashboard_check import daemon_environment  # noqa: E402
from observe_cli_check import CLI, DAEMON, cli, wait_for  # noqa: E402

APP = "Chromium"
CONTROLS = [("push button", "Refresh"), ("push button", "Stop all automations"), ("entry", "Search by name"),
            ("combo box", "Show"), ("link", "Approvals"), ("link", "Settings")]


def chromium(profile, url):
    # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
    return subprocess.Popen(["chromium", "--no-sandbox", "--force-renderer-accessibility", "--no-first-run",
                             "--no-default-browser-check", "--disable-gpu", "--user-data-dir=" + profile, url],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def found(role, name):
    rc, env, _ = cli("find", "--app", APP, "--role", role, "--name", name)
    return rc == 0 and len((env or {}).get("data", {}).get("elements", [])) == 1


def check_on_itself(work):
    """The dashboard seen and used through companyOS itself."""
    check = Checker("on itself")
    first_three = [a["id"] for a in cli("automation", "list")[1]["data"]["automations"]][:3]
    for number in first_three:
        cli("automation", "enable", str(number))
    url = cli("dashboard")[1]["data"]["url"]
    browser = chromium(os.path.join(work, "profile"), url)
    try:
        try:
            # The bar comes with the page; the list's controls once its data has come.
            wait_for("the dashboard in Chromium", lambda: found("push button", "Stop all automations")
                     and found("entry", "Search by name"), timeout=60)
        except Exception as error:  # noqa: BLE001 - reported as the check below
            print(f"({error})")
        rc, env, _ = cli("snapshot", "--app", APP, timeout=60)
        outline = json.dumps((env or {}).get("data", {}))
        missing = [f"{role} {name}" for role, name in CONTROLS if f'"{name}"' not in outline]
        check.expect(rc == 0 and not missing, f"companyos snapshot of the dashboard shows its controls by name "
                                               f"(missing: {missing})")
        check.expect(all(found(role, name) for role, name in CONTROLS), "and find names each one once")
        enabled = [a["id"] for a in cli("automation", "list")[1]["data"]["automations"] if a["enabled"]]
        check.expect(enabled == first_three and len(enabled) == 3,
                     f"three automations are enabled before the click ({enabled})")
        rc, env, _ = cli("click", "--app", APP, "--role", "push button", "--name", "Stop all automations")
        check.expect(rc == 0, f"companyos click on Stop all automations is delivered ({rc}, {env})")
        try:
            wait_for("every automation disabled", lambda: all(
                not a["enabled"] for a in cli("automation", "list")[1]["data"]["automations"]), timeout=20)
        except Exception as error:  # noqa: BLE001 - reported as the check below
            print(f"({error})")
        listed = cli("automation", "list")[1]["data"]["automations"]
        check.expect(listed and all(not a["enabled"] for a in listed),
                     f"and every automation is disabled, as the protocol says "
                     f"({[a['name'] for a in listed if a['enabled']]} still enabled)")
        check.expect(browser.poll() is None, "Chromium is alive throughout")
    finally:
        os.killpg(browser.pid, signal.SIGTERM)
        try:
            browser.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(browser.pid, signal.SIGKILL)
            browser.wait()
    return check.summary()


def main():
    if not os.path.isdir(os.path.join(HERE, "node_modules", "playwright-core")):
        print("FAIL browser: playwright-core is not installed (scripts/install-deps --tests runs npm ci here)")
        return 1
    artifacts = os.path.join(os.environ["COMPANYOS_BUILD_DIR"], "tests", "desktop", "dashboard", "artifacts")
    shutil.rmtree(artifacts, ignore_errors=True)
    # pi steps find the stand-in pi first on PATH; it logs what it reads where the walk looks.
    pi_dir = tempfile.mkdtemp()
    os.environ["PATH"] = os.path.join(os.environ["COMPANYOS_BUILD_DIR"], "tests", "fixtures", "standin", "pi") + \
        os.pathsep + os.environ["PATH"]
    os.environ["PI_STANDIN_LOG"] = os.path.join(pi_dir, "pi.log")
    daemon = subprocess.Popen([DAEMON, "--log-level", "warn"], stdin=subprocess.DEVNULL,
                              env=daemon_environment())
    try:
        wait_for("daemon", lambda: cli("ping")[0] == 0)
        with tempfile.TemporaryDirectory() as work:
            done = subprocess.run(["node", os.path.join(HERE, "browser_check.mjs"), CLI, artifacts, work],
                                  cwd=HERE, stdin=subprocess.DEVNULL, timeout=240)
        with tempfile.TemporaryDirectory() as work:
            itself = check_on_itself(work)
        return 1 if done.returncode or itself else 0
    finally:
        daemon.terminate()
        daemon.wait(timeout=30)
        shutil.rmtree(pi_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
