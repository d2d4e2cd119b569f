"""Prints one "ok"/"FAIL" line per check and counts the failures (desktop test scripts)."""


class Checker:
    def __init__(self, label=""):
        self.prefix = f"{label}: " if label else ""
        self.failures = 0

    def expect(self, condition, what):
        print(("ok   " if condition else "FAIL ") + self.prefix + what, flush=True)
        self.failures += 0 if condition else 1
        return condition

    def summary(self):
        """Prints the outcome; returns the process exit status."""
        print(f"{self.failures} check(s) failed" if self.failures else "all checks passed",
              flush=True)
        return 1 if self.failures else 0
