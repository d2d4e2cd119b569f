"""The qualification suite's trials on real applications (mousepad, GNOME Calculator),
each judged from outside the app: the file mousepad saves, the calculator's display as the
suite's own accessibility read shows it. One fresh app process per trial, stopped and
verified gone after.

What fits each app:
  mousepad          clean (set-value the document, click File > Save: the file holds
                    exactly the text), window_closed (the app exits after the snapshot:
                    set-value by ref refused, file untouched), app_killed (SIGKILL after
                    the snapshot: Save by ref refused, file untouched)
  gnome-calculator  clean (click the digits, "+", the digits, then "=": the display shows
                    the sum), app_killed (SIGKILL after the snapshot: "=" by ref refused)
"""

import os
import shutil
import signal
import subprocess
import time

from atspi_probe import ProbeError, wait_for
from fixture_app import read_bytes

START_DEADLINE_S = 30
STOP_DEADLINE_S = 10
DISPLAY_DEADLINE_S = 3.0  # GTK4's display text can lag a click by a few hundred ms
GONE_CODES = ["APP_NOT_FOUND", "WINDOW_NOT_FOUND", "STALE_REF"]


class RealApp:
    """One process of a real application, registered on AT-SPI under APP_NAME."""

    def __init__(self, bus, app_name, argv, cwd):
        self.app_name = app_name
        self.bus_name = None
        leftovers = bus.applications(app_name)
        if leftovers:
            raise ProbeError(f"{app_name} is already on the bus ({leftovers[0][0]}): "
                             "a previous trial's process is still running")
        self.process = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True)
        try:
            found = wait_for(f"{app_name} on the AT-SPI registry", START_DEADLINE_S,
                             lambda: bus.applications(app_name), interval=0.1)
            self.bus_name, self.root_path = found[0]
        except BaseException:
            self.stop()
            raise

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def wait_for_exit(self, timeout=STOP_DEADLINE_S):
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            if self.wait_for_exit() is None:
                self.process.kill()
                self.process.wait()


def available(program):
    return shutil.which(program) is not None


class MousepadTrials:
    program = "mousepad"
    app_name = "mousepad"
    kinds = ("clean", "window_closed", "app_killed")
    VALUES = ["plain text, saved", "cost $5; \"q\" 'r' ü € 東京", "$(id) `id` ; rm -rf x",
              "  two\nlines  "]

    def __init__(self, trial):
        self.trial = trial
        self.document = os.path.join(trial.suite.work_dir, f"{trial.name}.txt")
        self.original = b"original\n"

    def argv(self):
        with open(self.document, "wb") as document:
            document.write(self.original)
        return [self.program, "--disable-server", self.document]

    def saved(self):
        """The document's bytes once they differ from the original, else None."""
        content = read_bytes(self.document)
        return None if content == self.original else content

    def refs(self, snapshot):
        texts = [node["ref"] for node in snapshot.nodes
                 if node["role"] == "text" and "editable" in node.get("states", [])]
        save = [node["ref"] for node in snapshot.nodes
                if node["role"] == "menu item" and node["name"].strip() == "Save"]
        return (texts[0], save[0]) if len(texts) == 1 and len(save) == 1 else None

    def run(self, kind, index):
        trial = self.trial
        snapshot = trial.snapshot(lambda shot: self.refs(shot) is not None)
        document, save = self.refs(snapshot)
        if kind == "clean":
            text = self.VALUES[index % len(self.VALUES)]
            set_value = trial.cli("set-value", document, text)
            run = trial.cli("click", save)
            content = trial.await_change(self.saved)
            trial.judge("", {"outcome": "act", "effect": text.encode("utf-8")}, run,
                        {"": content}, setup_refused=not set_value.ok, oracle="saved file")
        elif kind == "window_closed":
            trial.app.stop()
            run = trial.cli("set-value", document, "late text")
            trial.judge("", {"outcome": "refuse", "codes": GONE_CODES}, run,
                        trial.watch_change({"": self.saved}), oracle="saved file")
        elif kind == "app_killed":
            trial.cli("set-value", document, "never saved")
            trial.app.kill()
            run = trial.cli("click", save)
            trial.judge("", {"outcome": "refuse", "codes": GONE_CODES}, run,
                        trial.watch_change({"": self.saved}), oracle="saved file")
        else:
            raise ValueError(f"mousepad has no {kind} trial")


class CalculatorTrials:
    program = "gnome-calculator"
    app_name = "gnome-calculator"
    kinds = ("clean", "app_killed")
    DISPLAY = ("text", "GtkSourceView")

    def __init__(self, trial):
        self.trial = trial

    def argv(self):
        return [self.program]

    def button(self, label):
        # GTK 4.8 names each key by its label twice ("7 7"); companyOS shows it once ("7").
        return ["--app", self.app_name, "--role", "push button", "--name", label]

    def display(self):
        """The display's text as the suite's own live read shows it, or None."""
        bus = self.trial.suite.bus
        for element in bus.walk(self.trial.app.bus_name, self.trial.app.root_path,
                                max_depth=30):
            if element.name == self.DISPLAY[1]:
                return bus.text(element.bus_name, element.path)
        return None

    def run(self, kind, index):
        trial = self.trial
        # The display is named by its class ("GtkSourceView"), which companyOS shows as no
        # name; the suite's own live read still finds it by that name.
        snapshot = trial.snapshot(lambda shot: shot.refs("push button", "="))
        if kind == "clean":
            left, right = 10 + 7 * index % 90, 3 + 13 * index % 97
            for label in [*str(left), "+", *str(right)]:
                step = trial.cli("click", *self.button(label))
                if not step.ok:
                    break
            run = trial.cli("click", *self.button("="))
            wanted = str(left + right)
            shown = trial.await_value(self.display, wanted, DISPLAY_DEADLINE_S)
            trial.judge("", {"outcome": "act", "effect": wanted.encode()}, run,
                        {"": None if shown is None else shown.encode()},
                        setup_refused=not step.ok, oracle="display, read live")
        elif kind == "app_killed":
            equals = snapshot.refs("push button", "=")[0]
            trial.app.kill()
            run = trial.cli("click", equals)
            # Nothing of a killed app can show an effect: the reply alone is judged.
            trial.judge("", {"outcome": "refuse", "codes": GONE_CODES}, run, {"": None},
                        oracle="none: the app is gone")
        else:
            raise ValueError(f"gnome-calculator has no {kind} trial")


REAL_APPS = {"mousepad": MousepadTrials, "gnome-calculator": CalculatorTrials}
