"""Starts a companyOS fixture app (tests/fixtures) inside a desktop session and reads the
effect files it writes. Standard library only; AT-SPI access through atspi_probe."""

import os
import subprocess
import time

import atspi_probe

START_DEADLINE_S = 60
STOP_DEADLINE_S = 10


def read_bytes(path):
    """The bytes of the file at PATH, or None while it does not exist."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def read_text(path):
    """The UTF-8 text of the file at PATH, or None while it does not exist."""
    content = read_bytes(path)
    return None if content is None else content.decode("utf-8")


class StartedProcess:
    """A process a test started with its stdout piped (self.process); as a context
    manager it is terminated on exit, then killed if it does not end in time."""

    process = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=STOP_DEADLINE_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()


class FixtureApp(StartedProcess):
    """One running fixture, registered on AT-SPI under APP_NAME (its --class)."""

    def __init__(self, executable, app_name, effect_path, *options):
        self.app_name = app_name
        self.effect_path = effect_path
        self.process = subprocess.Popen(
            [executable, "--class", app_name, "--effect", effect_path, *options],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
        # The fixture prints "pid=<pid> title=<title>" once its window is built.
        self.banner = self.process.stdout.readline().strip()
        try:
            self.bus = atspi_probe.a11y_bus()
            self.bus_name, self.root_path = atspi_probe.wait_for_app(
                self.bus, app_name, timeout=START_DEADLINE_S)
        except BaseException:
            self.stop()
            raise

    def nodes(self):
        """The live tree of the app, walked now."""
        return atspi_probe.walk(self.bus, self.bus_name, self.root_path)

    def wait_for_nodes(self, what, predicate, timeout=30):
        """Walks the tree until PREDICATE(nodes) is true; returns those nodes."""
        def probe():
            nodes = self.nodes()
            return nodes if predicate(nodes) else None
        return atspi_probe.wait_for(what, timeout, probe, interval=0.1)

    def effect(self, suffix=""):
        """The bytes of effect file FILE+SUFFIX, or None while it does not exist."""
        return read_bytes(self.effect_path + suffix)

    def wait_for_effect(self, suffix, expected, timeout=30):
        """Waits until FILE+SUFFIX holds exactly EXPECTED (bytes); returns False if it
        never does."""
        try:
            return atspi_probe.wait_for(f"effect{suffix} == {expected!r}", timeout,
                                        lambda: self.effect(suffix) == expected)
        except atspi_probe.ProbeError:
            return False

    def wait_for_exit(self, timeout=STOP_DEADLINE_S):
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None


def unique_name(prefix):
    """An app name no other fixture in this session uses."""
    return f"{prefix}{os.getpid()}x{time.monotonic_ns() % 1000000}"
