#!/usr/bin/env python3
"""Checks that a module's internals stay inside it.

A module is a directory src/<m>/. Headers directly in src/<m>/ are its public interface;
headers in a sub-folder of it (src/<m>/<sub>/...) are internals, which only the module's
own files (src/<m>/**) and its tests (tests/unit/<m>/**, tests/desktop/<m>/**) may include. The fuzz
targets (tests/fuzz/**) drive parsers that sit below the modules' public headers (the
daemon's line framer, a11y's tree builder), so like unit tests they may include any
module's internals. Any other file that includes one -- another module, cli/, bench/,
another module's tests -- is reported, and the check fails.
The public API (include/companyos/) stands alone: its files include only each other and
headers from outside the project (<...>), never a module's. And a module includes only the
modules docs/architecture.md's "may use" column names (MAY_USE below; cli/ as a module).

Usage: include_boundaries.py <source root>     check the tree
       include_boundaries.py --self-test       show on a made-up tree that a violation fails
"""

import os
import re
import sys
import tempfile

SCANNED_DIRS = ("src", "cli", "tests", "bench", "include")
SOURCE_SUFFIXES = (".h", ".hpp", ".hh", ".c", ".cc", ".cpp", ".cxx", ".inl", ".ipp")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')


ANY_MODULE = "*"

# The modules each module may include (docs/architecture.md, "may use"); the public API
# (companyos/...) and headers from outside the project are open to all.
MAY_USE = {
    "core": set(),
    "store": {"core"},
    "a11y": {"core"},
    "x11": {"core"},
    "launch": {"core", "x11"},
    "schedule": {"core"},
    "desktop": {"core", "a11y", "x11", "launch"},
    "automation": {"core", "store", "a11y", "launch", "schedule", "x11", "desktop"},
    "web": {"core"},
    "mcp": {"core"},
    "daemon": {"core", "store", "a11y", "x11", "launch", "schedule", "desktop", "automation", "web", "mcp"},
    "cli": {"core", "mcp"},
}


def using_module(relative_path):
    """The module whose may-use row governs this file (src/<m>/... or cli/...), or None."""
    parts = relative_path.split("/")
    if len(parts) >= 3 and parts[0] == "src" and parts[1] in MAY_USE:
        return parts[1]
    if len(parts) >= 2 and parts[0] == "cli":
        return "cli"
    return None


def owner_module(relative_path):
    """The module whose internals this file may include, ANY_MODULE, or None."""
    parts = relative_path.split("/")
    if len(parts) >= 3 and parts[0] == "src":
        return parts[1]
    if len(parts) >= 4 and parts[0] == "tests" and parts[1] in ("unit", "desktop"):
        return parts[2]
    if len(parts) >= 3 and parts[0] == "tests" and parts[1] == "fuzz":
        return ANY_MODULE
    return None


def internal_module(root, including_dir, target):
    """The module of which `target` (an include's text) names an internal header, or None."""
    candidates = [os.path.join(root, "src", target), os.path.join(including_dir, target)]
    for candidate in candidates:
        if not os.path.isfile(candidate):
            continue
        relative = os.path.relpath(os.path.realpath(candidate), os.path.realpath(root))
        parts = relative.replace(os.sep, "/").split("/")
        # src/<m>/<sub>/.../<header>: at least one folder between the module and the file.
        if len(parts) >= 4 and parts[0] == "src":
            return parts[1]
    return None


def violations(root):
    found = []
    for top in SCANNED_DIRS:
        for directory, subdirs, files in os.walk(os.path.join(root, top)):
            subdirs[:] = sorted(d for d in subdirs if not d.startswith("."))
            for name in sorted(files):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(directory, name)
                relative = os.path.relpath(path, root).replace(os.sep, "/")
                owner = owner_module(relative)
                with open(path, encoding="utf-8", errors="replace") as source:
                    for number, line in enumerate(source, start=1):
                        match = INCLUDE.match(line)
                        if not match:
                            continue
                        if relative.startswith("include/companyos/") and line.lstrip().startswith(
                                ("#include \"", "# include \"")) and not match.group(1).startswith("companyos/"):
                            found.append(f"{relative}:{number}: includes {match.group(1)}; the public API "
                                         "includes only its own headers (companyos/...)")
                            continue
                        user = using_module(relative)
                        used = match.group(1).split("/")[0]
                        if (user is not None and used in MAY_USE and used not in (user, "cli")
                                and used not in MAY_USE[user] and line.lstrip().startswith(("#include \"", "# include \""))):
                            found.append(f"{relative}:{number}: includes {match.group(1)}; src/{user}/ may not use "
                                         f"{used} (docs/architecture.md, \"may use\")")
                            continue
                        module = internal_module(root, directory, match.group(1))
                        if module is not None and owner not in (module, ANY_MODULE):
                            found.append(f"{relative}:{number}: includes {match.group(1)}, "
                                         f"an internal header of src/{module}/")
    return found


def self_test():
    """A made-up tree: one violation must be found, the allowed includes must pass."""
    files = {
        "src/m/public.h": '#include "m/sub/internal.h"\n',
        "src/m/public.cpp": '#include "m/public.h"\n#include "sub/internal.h"\n',
        "src/m/sub/internal.h": "#pragma once\n",
        "src/m/sub/deeper/more.h": '#include "m/sub/internal.h"\n',
        "tests/unit/m/internal_test.cpp": '#include "m/sub/internal.h"\n',
        "tests/desktop/m/ok_test.cpp": '#include "m/public.h"\n#include <vector>\n#include "m/sub/internal.h"\n',
        "tests/desktop/other/peek_test.cpp": '#include "m/sub/internal.h"\n',
        "src/other/uses.cpp": '#include "m/public.h"\n#include "m/sub/internal.h"\n',
        "bench/m/bench.cpp": '#include "../../src/m/sub/deeper/more.h"\n',
        "tests/unit/other/peek_test.cpp": '#include <m/sub/internal.h>\n',
        "tests/fuzz/fuzz_m.cpp": '#include "m/sub/internal.h"\n',
        "tests/fuzzy/m/peek.cpp": '#include "m/sub/internal.h"\n',
        "include/companyos/api.h": '#include <vector>\n#include "companyos/other.h"\n#include "m/public.h"\n',
        "include/companyos/other.h": "#pragma once\n",
        "src/core/uses_up.cpp": '#include "store/db.h"\n#include "companyos/other.h"\n',
        "src/store/db.h": '#include "core/base.h"\n',
        "src/core/base.h": "#pragma once\n",
    }
    expected = {
        "src/other/uses.cpp:2",
        "bench/m/bench.cpp:1",
        "tests/unit/other/peek_test.cpp:1",
        "tests/desktop/other/peek_test.cpp:1",
        "tests/fuzzy/m/peek.cpp:1",
        "include/companyos/api.h:3",
        "src/core/uses_up.cpp:1",
    }
    with tempfile.TemporaryDirectory() as root:
        for relative, text in files.items():
            path = os.path.join(root, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as out:
                out.write(text)
        found = {line.split(": ", 1)[0] for line in violations(root)}
    if found != expected:
        print(f"self-test failed: found {sorted(found)}, expected {sorted(expected)}")
        return 1
    print("self-test passed: the violations of the made-up tree were found, and only those")
    return 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) != 2:
        print(__doc__)
        return 2
    found = violations(argv[1])
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} include(s) across a boundary; include a module's public header "
              "(src/<m>/*.h) instead, or make the header public deliberately")
        return 1
    print("no include crosses a boundary: internals, the public API, the may-use table")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
