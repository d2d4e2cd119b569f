"""The web form both browser checks drive, and how they read what the page saw.

The page copies its form's state into document.title on every input and change event
(and on the button's click); the browser shows that title as its X11 window's
_NET_WM_NAME, which is read here with xprop: the effects are judged from outside the tool
and outside the accessibility tree."""

import json
import os
import re

from real_app import RealApp, atspi_probe, cli, data, error, one, outcome, wait_for, x_client_titles

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>form start</title></head>
<body>
<h1>Order form</h1>
<p>Read the <a href="#terms">terms</a> first.</p>
<label>Name <input id="name" type="text" value="old"></label>
<label>Notes <textarea id="notes">old notes</textarea></label>
<label><input id="subscribe" type="checkbox"> Subscribe</label>
<label><input id="alpha" type="radio" name="plan" value="alpha"> Alpha</label>
<label><input id="beta" type="radio" name="plan" value="beta"> Beta</label>
<label>Colour <select id="colour"><option>Red</option><option>Green</option><option>Blue</option></select></label>
<label>Size <select id="size" size="3"><option>Small</option><option>Medium</option><option>Large</option></select></label>
<button id="go" type="button">Go</button>
<script>
const events = [];
let clicked = false;
function show(event) {
  if (event) events.push(event.type + ':' + event.target.id);
  const plan = document.querySelector('input[name=plan]:checked');
  document.title = JSON.stringify({
    name: document.getElementById('name').value,
    notes: document.getElementById('notes').value,
    subscribe: document.getElementById('subscribe').checked,
    plan: plan ? plan.value : '',
    colour: document.getElementById('colour').value,
    size: document.getElementById('size').value,
    clicked: clicked,
    events: events.slice(-6)
  });
}
for (const type of ['input', 'change']) document.addEventListener(type, show, true);
document.getElementById('go').addEventListener('click', () => { clicked = true; show(); });
</script>
</body></html>
"""

FIREFOX_PREFS = """
user_pref("browser.aboutwelcome.enabled", false);
user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("browser.startup.homepage_override.mstone", "ignore");
user_pref("startup.homepage_welcome_url", "");
user_pref("startup.homepage_welcome_url.additional", "");
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
user_pref("app.update.auto", false);
user_pref("browser.tabs.warnOnClose", false);
"""


class Browser(RealApp):
    """A browser whose reads go to the one window the X server shows: Chromium lists helper
    windows (untitled, no X11 window) beside the browser window."""

    def window(self):
        rc, env = cli("windows", "--app", self.app_name)
        windows = data(env).get("windows", []) if rc == 0 else []
        shown = [w for w in windows if w.get("x11_window")]
        return shown[0] if len(shown) == 1 else None

    def snapshot(self, *args):
        window = self.window()
        if window is None:
            raise atspi_probe.ProbeError("no single browser window")
        return super().snapshot("--window", window["id"], *args)


def write_page(directory):
    """The form page written into DIRECTORY; its file:// URL."""
    page = os.path.join(directory, "form.html")
    with open(page, "w", encoding="utf-8") as f:
        f.write(PAGE)
    return "file://" + page


def firefox_argv(directory, url):
    """Firefox ESR on URL with a fresh profile in DIRECTORY (no first-run pages)."""
    profile = os.path.join(directory, "firefox-profile")
    os.mkdir(profile)
    with open(os.path.join(profile, "user.js"), "w", encoding="utf-8") as f:
        f.write(FIREFOX_PREFS)
    return ["firefox-esr", "--no-remote", "--profile", profile, url]


def chromium_argv(directory, url):
    """Chromium on URL with a fresh profile in DIRECTORY and its accessibility on."""
    # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
    return ["chromium", "--no-sandbox", "--force-renderer-accessibility",
            "--user-data-dir=" + os.path.join(directory, "chromium-profile"), "--no-first-run",
            "--no-default-browser-check", "--disable-gpu", url]


def page_state(read_titles=x_client_titles):
    """What the page last put in its title, among the titles READ_TITLES gives (by default
    as the X server shows them); None before any event."""
    for title in read_titles():
        found = re.search(r"\{.*\}", title)
        if found:
            try:
                return json.loads(found.group(0))
            except json.JSONDecodeError:
                continue
    return None


def page_shows(what, read_titles=x_client_titles, **fields):
    """Waits until the page's state has FIELDS; returns the state last seen."""
    def probe():
        state = page_state(read_titles)
        return state if state and all(state.get(k) == v for k, v in fields.items()) else None
    try:
        return wait_for(what, probe)
    except atspi_probe.ProbeError:
        return page_state(read_titles)


TYPED = " and more, typed: / . - _ é"


def check_text_input(check, nodes, refusal_kind):
    """With physical input off, set-value is refused as REFUSAL_KIND with nothing sent, and
    the refusal says the setting would let it type; with it on, set-value alone types the
    text itself (the engine ignores EditableText) and reads it back. With --headed the Name
    input's text is typed over and the Notes area's appended to, each verified and seen by
    the page's input handler; a line break for a one-line input is refused rather than typed
    as Enter."""
    name = one(nodes, "the Name input", role="entry", name="Name")
    cli("settings", "set", "physical_input", "false")
    rc, env = cli("set-value", name["ref"], "Ada")
    details = error(env).get("details", {})
    check.expect(rc != 0 and error(env).get("code") == "ACTION_NOT_SUPPORTED" and
                 details.get("kind") == refusal_kind and details.get("delivery") == "not_delivered" and
                 "physical_input" in error(env).get("suggestion", ""),
                 f"with physical input off, set-value is refused as {refusal_kind} and says the setting "
                 f"would let it type ({error(env)})")
    check.expect(page_state() is None, "the page saw no input event from the refusal")
    rc, env = cli("settings", "set", "physical_input", "true")
    check.expect(rc == 0, f"physical input is allowed again ({error(env)})")
    rc, env = cli("set-value", name["ref"], "Ada")
    check.expect(rc == 0 and outcome(env) == "delivered_verified" and data(env).get("route") == "xtest:keyboard",
                 f"with physical input on, set-value alone types the text and reads it back "
                 f"({outcome(env)}, {data(env).get('route')}, {error(env)})")
    state = page_shows("the page's Name value", name="Ada")
    check.expect(state is not None and state.get("name") == "Ada",
                 f"the page sees what set-value typed ({state and state.get('name')!r})")

    rc, env = cli("set-value", name["ref"], "Ada Lovelace", "--headed")
    check.expect(rc == 0 and outcome(env) == "delivered_verified" and
                 data(env).get("route") == "xtest:keyboard",
                 f"set-value --headed is typed and verified ({outcome(env)}, {error(env)})")
    state = page_shows("the page's Name value", name="Ada Lovelace")
    check.expect(state is not None and state.get("name") == "Ada Lovelace" and
                 "input:name" in state.get("events", []),
                 f"the page sees the value and its input handler ran ({state})")

    notes = one(nodes, "the Notes text area", role="entry", name="Notes")
    rc, env = cli("type", notes["ref"], TYPED, "--headed")
    check.expect(rc == 0 and outcome(env) == "delivered_verified",
                 f"type --headed appends and is verified ({outcome(env)}, {error(env)})")
    state = page_shows("the page's Notes value", notes="old notes" + TYPED)
    check.expect(state is not None and state.get("notes") == "old notes" + TYPED,
                 f"the page sees the appended text ({state and state.get('notes')!r})")

    rc, env = cli("set-value", name["ref"], "two\nlines", "--headed")
    check.expect(rc != 0 and error(env).get("code") == "INVALID_ARGS" and
                 error(env).get("details", {}).get("reason") == "control_key_in_single_line",
                 f"a line break for a one-line input is refused, not typed as Enter ({error(env)})")
