#!/usr/bin/env python3
"""The man pages say what the programs have: every command companyos knows (and each
subcommand of its groups) has an entry in companyos(1)'s COMMANDS, and the page names no
command the CLI lacks; every option of companyosd --help is in companyosd(8)'s OPTIONS.
The programs' own --help is the truth (it is generated from their declarations).

Usage: man_pages_check.py BUILD_DIR SOURCE_DIR"""

import re
import subprocess
import sys


def subcommands(program, *group):
    """Names listed under 'Subcommands:' in PROGRAM [GROUP] --help."""
    text = subprocess.run([program, *group, "--help"], capture_output=True, text=True, check=True).stdout
    names, listing = [], False
    for line in text.splitlines():
        if line.startswith("Subcommands:"):
            listing = True
        elif listing and re.match(r"^  [a-z][a-z-]*\s", line):
            names.append(line.split()[0])
        elif listing and line and not line.startswith(" "):
            listing = False
    # The help's examples ("companyos status") are no subcommands.
    return [n for n in names if n != "companyos"]


def options(program):
    text = subprocess.run([program, "--help"], capture_output=True, text=True, check=True).stdout
    return set(re.findall(r"^\s+(?:-\w,)?(--[a-z][a-z-]*)", text, re.MULTILINE))


def section(page, title):
    """The lines of one '# TITLE' section of an scdoc page."""
    lines, inside = [], False
    for line in page.splitlines():
        if line.startswith("# "):
            inside = line[2:].strip() == title
        elif inside:
            lines.append(line)
    return lines


def documented_commands(page):
    terms = set()
    for line in section(page, "COMMANDS"):
        if line.startswith("*"):
            terms.update(re.findall(r"\*([a-z][a-z -]*?)\*", line))
    return terms


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    build, source = sys.argv[1], sys.argv[2]
    cli, daemon = f"{build}/cli/companyos", f"{build}/src/daemon/companyosd"
    failures = 0

    known = set()
    for name in subcommands(cli):
        inner = subcommands(cli, name)
        known.update(f"{name} {sub}" for sub in inner) if inner else known.add(name)
    with open(f"{source}/docs/man/companyos.1.scd", encoding="utf-8") as f:
        documented = documented_commands(f.read())
    for name in sorted(known - documented):
        print(f"FAIL companyos(1) lacks the command '{name}'")
        failures += 1
    for name in sorted(documented - known):
        print(f"FAIL companyos(1) documents '{name}', which the CLI does not have")
        failures += 1
    print(f"{'ok  ' if not failures else 'FAIL'} companyos(1): {len(known)} commands, {len(documented)} documented")

    with open(f"{source}/docs/man/companyosd.8.scd", encoding="utf-8") as f:
        daemon_page = "\n".join(section(f.read(), "OPTIONS"))
    for option in sorted(options(daemon)):
        if f"*{option}*" not in daemon_page:
            print(f"FAIL companyosd(8) lacks the option {option}")
            failures += 1
    print(f"{'ok  ' if not failures else 'FAIL'} companyosd(8): its options")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
