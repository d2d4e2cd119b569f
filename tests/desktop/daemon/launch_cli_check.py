#!/usr/bin/env python3
"""open-file and open-link through the CLI with a stand-in app from a desktop entry:
the path arrives as exactly one argument (read from the stand-in's own record, NUL
separated), the app is reported in front, and each refusal reason launches nothing.
open-link without --app opens the scheme's default app (the person's mimeapps.list choice
between two entries declaring it); a scheme no app opens is refused."""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from checks import Checker  # noqa: E402
from observe_cli_check import BUILD, DAEMON, cli, wait_for  # noqa: E402

STANDIN = os.path.join(BUILD, "tests", "fixtures", "standin", "companyos-standin")


def install_entry(apps_dir, name, lines):
    with open(os.path.join(apps_dir, name), "w") as f:
        f.write("[Desktop Entry]\nType=Application\n" + "\n".join(lines) + "\n")


def recorded_arguments(record):
    """The arguments the stand-in app got after its "--", as it recorded them (None if none)."""
    try:
        wait_for("argv record", lambda: os.path.exists(record), timeout=10)
    except TimeoutError:
        pass
    data = open(record, "rb").read() if os.path.exists(record) else b""
    args = data.split(b"\0")[:-1]
    return args[args.index(b"--") + 1:] if b"--" in args else None


def main():
    check = Checker("launch")
    apps_dir = os.path.join(os.environ["XDG_DATA_HOME"], "applications")
    os.makedirs(apps_dir, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        record = os.path.join(tmp, "argv.bin")
        never = os.path.join(tmp, "never.bin")
        install_entry(apps_dir, "cos-standin.desktop", [
            "Name=Standin", f"Exec={STANDIN} --record {record} --class CompanyosStandin -- %f",
            "StartupWMClass=CompanyosStandin", "MimeType=text/plain;"])
        install_entry(apps_dir, "cos-term.desktop", [
            "Name=TermApp", f"Exec={STANDIN} --record {never} %f", "Terminal=true"])
        install_entry(apps_dir, "cos-shell.desktop", [
            "Name=ShellApp", f"Exec=/bin/sh -c \"{STANDIN} --record {never}\" %f"])
        for twin in ("cos-twin-a.desktop", "cos-twin-b.desktop"):
            install_entry(apps_dir, twin, ["Name=TwinApp", f"Exec={STANDIN} --record {never} %f"])
        # Two apps for one scheme; the person's mimeapps.list makes the second the default.
        linked = os.path.join(tmp, "linked.bin")
        install_entry(apps_dir, "cos-linker-a.desktop", [
            "Name=LinkerA", f"Exec={STANDIN} --record {never} --class CompanyosLinkerA -- %u",
            "StartupWMClass=CompanyosLinkerA", "MimeType=x-scheme-handler/companyos-test;"])
        install_entry(apps_dir, "cos-linker-b.desktop", [
            "Name=LinkerB", f"Exec={STANDIN} --record {linked} --class CompanyosLinkerB -- %u",
            "StartupWMClass=CompanyosLinkerB", "MimeType=x-scheme-handler/companyos-test;"])
        config_dir = os.environ["XDG_CONFIG_HOME"]
        os.makedirs(config_dir, exist_ok=True)
        with open(os.path.join(config_dir, "mimeapps.list"), "w") as f:
            f.write("[Default Applications]\nx-scheme-handler/companyos-test=cos-linker-b.desktop\n")

        target = os.path.join(tmp, "a$b;c & \"d\" 'e'.txt")
        with open(target, "w") as f:
            f.write("x")

        daemon = subprocess.Popen([DAEMON, "--log-level", "warn"], stdin=subprocess.DEVNULL)
        try:
            wait_for("daemon", lambda: cli("ping")[0] == 0)
            rc, env, _ = cli("entries", "--match", "CompanyosStandin")
            check.expect(rc == 0 and env["data"]["deciding_field"] == "startup_wm_class" and
                         env["data"]["launchable"] is True, "entries explains the match by StartupWMClass")

            rc, env, _ = cli("open-file", target, "--app", "CompanyosStandin", timeout=60)
            check.expect(rc == 0 and env["data"]["outcome"] == "in_front",
                         f"open-file reports the app in front ({env and env.get('error')})")
            after = recorded_arguments(record)
            check.expect(after == [target.encode()], f"the path arrived as exactly one argument {after!r}")

            # open-app: the same entry with nothing to open; %f expands to no argument at all.
            os.remove(record)
            rc, env, _ = cli("open-app", "--app", "CompanyosStandin", timeout=60)
            check.expect(rc == 0 and env["data"]["outcome"] == "in_front" and
                         env["data"]["target"]["kind"] == "app",
                         f"open-app reports the app in front ({env and env.get('error')})")
            after = recorded_arguments(record)
            check.expect(after == [], f"open-app hands the app no argument {after!r}")
            # open-link without --app: the desktop's default app for the scheme.
            link = "companyos-test://host/a%20b?c=1&d='e';f"
            rc, env, _ = cli("open-link", link, timeout=60)
            check.expect(rc == 0 and env["data"]["outcome"] == "in_front" and
                         env["data"].get("default_app") == "cos-linker-b.desktop",
                         f"open-link without --app opens the scheme's default app ({env and env.get('error')})")
            after = recorded_arguments(linked)
            check.expect(after == [link.encode()], f"the default app got the link as one argument {after!r}")
            rc, env, _ = cli("open-link", "companyos-nothing://host/")
            got = env["error"]["details"].get("reason") if env and not env["ok"] else None
            check.expect(rc == 1 and got == "no_default_app" and env["error"]["code"] == "APP_NOT_FOUND" and
                         env["error"]["details"].get("scheme") == "companyos-nothing",
                         f"open-link of a scheme no app opens is refused: no_default_app (got {got})")

            for app, reason in (("TermApp", "terminal_entry"), ("ShellApp", "shell_entry"), ("NoSuchApp", "no_entry")):
                rc, env, _ = cli("open-app", "--app", app)
                got = env["error"]["details"].get("reason") if env and not env["ok"] else None
                check.expect(rc == 1 and got == reason, f"open-app --app {app} is refused: {reason} (got {got})")

            refusals = [
                (("open-file", target, "--app", "NoSuchApp"), "no_entry"),
                (("open-file", target, "--app", "TermApp"), "terminal_entry"),
                (("open-file", target, "--app", "ShellApp"), "shell_entry"),
                (("open-file", target, "--app", "TwinApp"), "ambiguous_entry"),
                (("open-link", "https://example.org/", "--app", "CompanyosStandin"), "cannot_take_target"),
                (("open-file", os.path.join(tmp, "missing.txt"), "--app", "CompanyosStandin"), "cannot_take_target"),
            ]
            for args, reason in refusals:
                rc, env, _ = cli(*args)
                got = env["error"]["details"].get("reason") if env and not env["ok"] else None
                check.expect(rc == 1 and got == reason and env["error"]["retry"] == "safe",
                             f"{args[0]} --app {args[3]} is refused: {reason} (got {got})")
            check.expect(not os.path.exists(never), "no refused step launched anything")
        finally:
            daemon.terminate()
            daemon.wait(10)
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
