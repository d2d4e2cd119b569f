#!/usr/bin/env python3
"""clipboard get / set and type-text --paste, judged from outside with xclip (another X
client reading and owning CLIPBOARD) and the fixture's effect file: text both ways, large
text (INCR), a password manager's secret refused, and a paste that puts the earlier
content, in its own format, back."""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from checks import Checker  # noqa: E402
from fixture_app import FixtureApp, read_bytes  # noqa: E402
from observe_cli_check import CLI, DAEMON, FIXTURE, cli, wait_for  # noqa: E402


def xclip_out(target=None):
    """The clipboard as xclip reads it (bytes), or None when xclip gets nothing."""
    args = ["xclip", "-o", "-selection", "clipboard"] + (["-t", target] if target else [])
    done = subprocess.run(args, capture_output=True, timeout=20)
    return done.stdout if done.returncode == 0 else None


def xclip_in(data, target=None):
    """xclip takes the clipboard and keeps it from a process of its own (no pipes held)."""
    args = ["xclip", "-i", "-selection", "clipboard"] + (["-t", target] if target else [])
    subprocess.run(args, input=data, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=20, check=True)


def cli_stdin(data, *args):
    done = subprocess.run([CLI, "--json", *args], input=data, capture_output=True, timeout=60)
    return done.returncode, done.stdout


def check_get_and_set(check):
    rc, env, _ = cli("clipboard", "get")
    check.expect(rc == 0 and env["data"]["text"] is None, "nobody owns the clipboard yet: no text")

    xclip_in("copied in xclip — ü ✓".encode())
    rc, env, _ = cli("clipboard", "get")
    check.expect(rc == 0 and env["data"]["text"] == "copied in xclip — ü ✓", "clipboard get reads what xclip holds")

    rc, env, _ = cli("clipboard", "set", "set by companyos — é")
    check.expect(rc == 0 and env["data"]["delivery"] == "delivered_verified" and env["data"]["bytes"] == 23,
                 "clipboard set is verified by reading it back")
    check.expect("set by companyos" not in str(env), "the reply does not hold the text")
    check.expect(xclip_out() == "set by companyos — é".encode(), "xclip reads the text the daemon set")
    targets = (xclip_out("TARGETS") or b"").decode().split()
    check.expect("UTF8_STRING" in targets and "STRING" not in targets,
                 f"non-ASCII text is offered as UTF8_STRING, not Latin-1 STRING: {targets}")
    cli("clipboard", "set", "ascii")
    check.expect(xclip_out("STRING") == b"ascii", "ASCII text is offered as STRING too")

    big = ("0123456789abcdef" * 40_000).encode()  # 640 KB
    rc, _ = cli_stdin(big, "clipboard", "set", "-")
    check.expect(rc == 0 and xclip_out() == big, "640 KB set from stdin reaches xclip whole")
    xclip_in(big[::-1])
    rc, env, _ = cli("clipboard", "get")
    check.expect(rc == 0 and (env["data"]["text"] or "").encode() == big[::-1],
                 "640 KB copied in xclip is read back whole")

    rc, _ = cli_stdin(b"x" * (1024 * 1024 + 1), "clipboard", "set", "-")
    check.expect(rc == 1 and xclip_out() == big[::-1], "more than 1 MiB is refused and the clipboard is unchanged")

    xclip_in(b"secret", "x-kde-passwordManagerHint")
    rc, env, _ = cli("clipboard", "get")
    check.expect(rc == 1 and env["error"]["details"].get("reason") == "secret",
                 "a password manager's secret is not read")


def check_paste(check, app, tmp):
    xclip_in(b"<b>earlier</b>", "text/html")
    rc, env, _ = cli("set-value", "--app", app, "--role", "text", "--name", "Text", "", "--id", "text-entry")
    check.expect(rc == 0, "the entry is emptied")
    cli("focus", "--app", app, "--role", "text", "--name", "Text", "--id", "text-entry")

    rc, env, _ = cli("type-text", "x", "--paste", "--app", app)
    check.expect(rc == 1 and env["error"]["details"].get("reason") == "physical_input_disabled",
                 "a paste without --headed is refused")
    check.expect(xclip_out("text/html") == b"<b>earlier</b>", "a refused paste leaves the clipboard alone")

    pasted = "pasted — ✓ ü"
    rc, env, _ = cli("type-text", pasted, "--paste", "--app", app, "--headed")
    data = env["data"] if rc == 0 else {}
    check.expect(rc == 0 and data["delivery"] == "delivered_unverified" and data["route"] == "xtest:paste" and
                 data["taken"] is True and data["clipboard"]["restore"] == "restored",
                 f"the paste is posted, the app took the text, the clipboard was put back: {env}")
    check.expect(pasted not in str(env), "the reply does not hold the pasted text")
    check.expect(xclip_out("text/html") == b"<b>earlier</b>", "the earlier content is back, as text/html")
    check.expect("text/html" in (xclip_out("TARGETS") or b"").decode().split(), "and offered under its own target")

    cli("click", "--app", app, "--role", "push button", "--name", "Write effect")
    effect = os.path.join(tmp, "a.txt")
    try:
        wait_for("the effect file", lambda: read_bytes(effect) == pasted.encode(), timeout=10)
    except TimeoutError:
        pass
    check.expect(read_bytes(effect) == pasted.encode(), f"the entry holds the pasted text: {read_bytes(effect)!r}")


def main():
    check = Checker("clipboard")
    daemon = subprocess.Popen([DAEMON, "--log-level", "warn"], stdin=subprocess.DEVNULL)
    try:
        wait_for("daemon", lambda: cli("ping")[0] == 0)
        check_get_and_set(check)
        with tempfile.TemporaryDirectory() as tmp:
            with FixtureApp(FIXTURE, "clip-alpha", os.path.join(tmp, "a.txt"), "--title", "Clip"):
                wait_for("the fixture's window", lambda: cli("windows", "--app", "clip-alpha")[0] == 0)
                cli("settings", "set", "physical_input", "true")
                check_paste(check, "clip-alpha", tmp)
                cli("settings", "set", "physical_input", "false")
    finally:
        daemon.terminate()
        daemon.wait(timeout=30)
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
