#!/usr/bin/env python3
"""--within REF: an action on one of two twins by naming a unique ancestor, judged by the
file the fixture writes; refused when the scope is itself a twin, and when the target is
not under the scope. An automation's click step names its scope by role and name
("within"): its dry run resolves the one twin, its run clicks it, and a step whose scope is
a twin is blocked. Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import os
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from checks import Checker  # noqa: E402
from daemon_cli import FIXTURE, Daemon, cli, cli_text, data, error, wait_finished, write_json  # noqa: E402
from fixture_app import FixtureApp, unique_name  # noqa: E402

WATCH_TIMEOUT_S = 10


def flatten(node, out):
    out.append(node)
    for child in node.get("children", []):
        flatten(child, out)
    return out


def run_steps(tmp, app_name, label, target, level):
    """Creates an automation of one click step, raises it to LEVEL, starts it; its run."""
    path = write_json(os.path.join(tmp, label + ".json"), {
        "name": label, "actions": [{"type": "click", "app": app_name, "target": target}]})
    rc, env = cli("automation", "create", path)
    if rc != 0:
        return {"error": error(env)}
    automation_id = str(data(env)["id"])
    for _ in range(level - 1):
        cli("automation", "raise", automation_id)
    rc, env = cli("automation", "start", automation_id)
    return wait_finished(data(env)["id"]) if rc == 0 else {"error": error(env)}


def check_automation_scope(check, app, app_name, tmp, scope_role):
    apply_right = {"role": "push button", "name": "Apply", "within": {"role": scope_role, "name": "Right"}}
    run = run_steps(tmp, app_name, "scoped-dry", apply_right, 1)
    steps = run.get("steps", [])
    check.expect(run.get("status") == "succeeded" and steps and steps[0].get("status") == "would_run",
                 f"a dry run resolves the twin within its scope ({run.get('status')}, {steps[:1]})")
    run = run_steps(tmp, app_name, "unscoped-dry", {"role": "push button", "name": "Apply"}, 1)
    check.expect(run.get("status") != "succeeded",
                 f"without the scope the twin blocks the dry run ({run.get('status')})")
    run = run_steps(tmp, app_name, "scope-twin", {"role": "push button", "name": "Reset",
                                                  "within": {"role": scope_role, "name": "Pair"}}, 1)
    check.expect(run.get("status") != "succeeded", f"a scope that is a twin blocks the step ({run.get('status')})")
    os.remove(app.effect_path + ".scope")
    run = run_steps(tmp, app_name, "scoped-run", apply_right, 3)
    check.expect(run.get("status") == "succeeded", f"a level-3 run of the scoped step succeeds ({run.get('status')})")
    check.expect(app.wait_for_effect(".scope", b"right", timeout=WATCH_TIMEOUT_S),
                 f"the run clicked the twin under Right ({app.effect('.scope')!r})")


def main():
    check = Checker("scope")
    daemon = Daemon()
    daemon.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            name = unique_name("scope")
            with FixtureApp(FIXTURE, name, os.path.join(tmp, "fx.txt"), "--scoped-twins") as app:
                rc, env = cli("snapshot", "--app", name)
                nodes = flatten(data(env)["tree"], []) if rc == 0 else []
                by = lambda role, text: [n["ref"] for n in nodes if n["role"] == role and n["name"] == text]  # noqa: E731
                applies, resets = by("push button", "Apply"), by("push button", "Reset")
                right, pairs = by("filler", "Right") or by("panel", "Right"), \
                    by("filler", "Pair") or by("panel", "Pair")
                check.expect(len(applies) == 2 and len(resets) == 2 and len(right) == 1
                             and len(pairs) == 2, "the snapshot has the twins and their boxes")
                if not (applies and resets and right and pairs):
                    return check.summary()

                left = by("filler", "Left") or by("panel", "Left")
                scopes = [n.get("twin_scope") for n in nodes if n["name"] in ("Apply", "Reset")]
                check.expect(scopes == [left[0] if left else "?", right[0], None, None],
                             f"each Apply names the box that holds it alone; the Resets, in twin boxes, "
                             f"none ({scopes})")
                rc, out, _ = cli_text("snapshot", "--app", name)
                right_number = right[0].rsplit(":e", 1)[1]
                check.expect(any('push button "Apply"' in line and line.rstrip().endswith(f"within e{right_number}")
                                 for line in out.splitlines()),
                             "the outline's twin line says within which element it is reached")
                rc, env = cli("click", applies[1])
                check.expect(error(env).get("code") == "AMBIGUOUS_TARGET" and
                             error(env).get("details", {}).get("scope") == right[0] and
                             f"--within {right[0]}" in error(env).get("suggestion", ""),
                             f"a twin alone is refused, naming the scope that reaches it ({error(env)})")
                check.expect(app.effect(".scope") is None, "and nothing was clicked")
                rc, env = cli("click", applies[1], "--within", error(env).get("details", {}).get("scope", "?"))
                check.expect(rc == 0 and app.wait_for_effect(".scope", b"right", timeout=WATCH_TIMEOUT_S),
                             f"following the refusal's scope clicks the one under Right ({app.effect('.scope')!r})")
                os.remove(app.effect_path + ".scope")

                rc, env = cli("click", applies[0])
                check.expect(error(env).get("code") == "AMBIGUOUS_TARGET",
                             f"a twin alone is refused ({error(env).get('code')})")
                rc, env = cli("click", applies[0], "--within", right[0])
                check.expect(rc == 0, f"the twin under Right is clicked with --within ({error(env)})")
                check.expect(app.wait_for_effect(".scope", b"right", timeout=WATCH_TIMEOUT_S),
                             f"the fixture saw the Right one clicked ({app.effect('.scope')!r})")

                rc, env = cli("click", resets[0], "--within", pairs[0])
                check.expect(error(env).get("code") == "AMBIGUOUS_TARGET"
                             and error(env).get("details", {}).get("kind") == "scope_not_unique",
                             f"a scope that is itself a twin is refused ({error(env).get('details', {}).get('kind')})")
                rc, env = cli("click", resets[0], "--within", right[0])
                check.expect(error(env).get("code") == "STALE_REF"
                             and error(env).get("details", {}).get("kind") == "not_within_scope",
                             f"a target not under the scope is refused ({error(env).get('details', {}).get('kind')})")
                check.expect(app.effect(".scope") == b"right", "no refused click wrote anything")
                os.remove(app.effect_path + ".scope")
                rc, env = cli("click", "--app", name, "--role", "push button", "--name", "Apply",
                              "--within", right[0])
                check.expect(rc == 0, f"a selector takes --within too ({error(env)})")
                check.expect(app.wait_for_effect(".scope", b"right", timeout=WATCH_TIMEOUT_S),
                             f"the selector clicked the Right one ({app.effect('.scope')!r})")
                check_automation_scope(check, app, name, tmp, scope_role="filler" if by("filler", "Right") else "panel")
    finally:
        daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
