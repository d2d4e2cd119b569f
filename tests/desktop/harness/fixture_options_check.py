#!/usr/bin/env python3
"""Table-driven check of the fixture apps' command line, without a display: bad options
exit 2 with a message naming the problem; good ones get as far as opening the display
(exit 1, since this test runs with none).

Usage: fixture_options_check.py FIXTURE_EXECUTABLE...
"""

import os
import subprocess
import sys

# The helper modules sit beside this script; keep their bytecode out of the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checker  # noqa: E402

NO_DISPLAY = 1
USAGE_ERROR = 2

CASES = [
    # (arguments, expected status, text the message must contain)
    (["--rows", "abc"], USAGE_ERROR, "--rows expects a whole number"),
    (["--rows", "-1"], USAGE_ERROR, "--rows expects a whole number"),
    (["--rows", "100001"], USAGE_ERROR, "--rows expects a whole number"),
    (["--twin-method", "glue"], USAGE_ERROR, "--twin-method expects pack or add"),
    (["--add-rows-after", "100"], USAGE_ERROR, "expects two values: MS N"),
    (["--add-rows-after", "100", "x"], USAGE_ERROR, "--add-rows-after N expects"),
    (["--add-rows-after", "soon", "2"], USAGE_ERROR, "--add-rows-after MS expects"),
    (["--add-rows-after", "100", "2", "3"], USAGE_ERROR, "expects two values: MS N"),
    (["stray"], USAGE_ERROR, "unexpected argument 'stray'"),
    (["--no-such-option"], USAGE_ERROR, "--no-such-option"),
    (["--title"], USAGE_ERROR, "--title"),
    ([], NO_DISPLAY, "cannot open the display"),
    (["--title", "T", "--class", "C", "--effect", "/nonexistent/effect", "--ambiguous",
      "--stale", "s", "--add-twin", "t", "--twin-method", "add", "--rows", "3",
      "--add-rows-after", "10", "2", "--close-after-control", "c"],
     NO_DISPLAY, "cannot open the display"),
    (["--add-rows-after=0", "0"], NO_DISPLAY, "cannot open the display"),
]


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    env = {key: value for key, value in os.environ.items()
           if key not in ("DISPLAY", "WAYLAND_DISPLAY")}
    check = Checker()
    for executable in sys.argv[1:]:
        name = os.path.basename(executable)
        result = subprocess.run([executable, "--help"], capture_output=True, text=True,
                                env=env, stdin=subprocess.DEVNULL, timeout=30)
        check.expect(result.returncode == 0 and "--add-rows-after=MS N" in result.stdout
                     and "FILE.check" in result.stdout,
                     f"{name} --help lists options and effects")
        for args, status, message in CASES:
            result = subprocess.run([executable, *args], capture_output=True, text=True,
                                    env=env, stdin=subprocess.DEVNULL, timeout=30)
            check.expect(result.returncode == status and message in result.stderr,
                         f"{name} {args}: status {result.returncode}, "
                         f"{result.stderr.strip().splitlines()[-1:]}")
    return check.summary()

if __name__ == "__main__":
    sys.exit(main())
