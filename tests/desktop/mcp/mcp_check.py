#!/usr/bin/env python3
"""`companyos mcp` driven with raw JSON-RPC lines, as an agent's client would: both protocol
eras (2026-07-28 stateless, 2025-11-25 initialize), the protocol errors, and the tools on
the GTK3 fixture with every effect judged from outside (the fixture's effect file), never
from the server's own words. Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set
by CTest)."""

import base64
import os
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "harness"))
sys.path.insert(0, os.path.join(HERE, "..", "daemon"))
from checks import Checker  # noqa: E402
from daemon_cli import FIXTURE, Daemon, cli  # noqa: E402
from observe_cli_check import flatten  # noqa: E402
from fixture_app import FixtureApp, unique_name  # noqa: E402
from mcp_session import STATE_HEADER, McpSession, element_number, meta, text_of, view_of  # noqa: E402
from x_server import picture_point  # noqa: E402

TOOLS = ["list_apps", "list_windows", "get_app_state", "click", "set_value", "perform_action", "type", "keypress",
         "insert_text", "wait", "open_url", "open_app", "automation"]
READ_ONLY = {"list_apps", "list_windows", "get_app_state", "wait"}


def error_code(reply):
    return reply.get("error", {}).get("code")


def check_stateless_protocol(check):
    s = McpSession()
    reply = s.request("server/discover", {"_meta": meta()})
    result = reply.get("result", {})
    check.expect(result.get("resultType") == "complete" and STATELESS_OK(result),
                 "server/discover without initialize: versions, capabilities, serverInfo, instructions, caching")
    listed = s.request("tools/list", {"_meta": meta()})["result"]
    again = s.request("tools/list", {"_meta": meta()})["result"]
    names = [t["name"] for t in listed["tools"]]
    check.expect(names == TOOLS and [t["name"] for t in again["tools"]] == names,
                 f"tools/list lists the tools in one fixed order ({names})")
    check.expect(listed.get("resultType") == "complete" and isinstance(listed.get("ttlMs"), int) and
                 listed.get("cacheScope") in ("public", "private"), "tools/list carries resultType, ttlMs, cacheScope")
    check.expect(all(t["inputSchema"].get("additionalProperties") is False and t["inputSchema"]["type"] == "object"
                     and t["outputSchema"]["type"] == "object" for t in listed["tools"]),
                 "every tool has a closed input schema and an output schema")
    check.expect(all(t["annotations"]["readOnlyHint"] == (t["name"] in READ_ONLY) for t in listed["tools"]),
                 "readOnlyHint is true exactly for list_apps, list_windows, get_app_state and wait")
    check.expect(all(t["annotations"].get("destructiveHint") for t in listed["tools"]
                     if t["name"] not in READ_ONLY | {"open_url", "open_app"}),
                 "every tool that can change data says destructiveHint")

    bad = s.request("tools/list", {"_meta": meta(version="1999-01-01")})
    check.expect(error_code(bad) == -32022 and "2026-07-28" in bad["error"]["data"]["supported"] and
                 bad["error"]["data"]["requested"] == "1999-01-01", "an unsupported version is -32022 with data")
    no_caps = s.request("tools/list", {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}})
    check.expect(error_code(no_caps) == -32602, "a request without clientCapabilities is -32602")
    check.expect(error_code(s.request("no/such", {"_meta": meta()})) == -32601, "an unknown method is -32601")
    unknown_tool = s.request("tools/call", {"_meta": meta(), "name": "format_disk", "arguments": {}})
    check.expect(error_code(unknown_tool) == -32602, "an unknown tool is -32602")
    bad_args = s.request("tools/call", {"_meta": meta(), "name": "list_windows", "arguments": {"ap": "x"}})
    check.expect(error_code(bad_args) == -32602 and "ap" in bad_args["error"]["message"],
                 "an unknown argument is -32602 and named")
    wrong_type = s.request("tools/call", {"_meta": meta(), "name": "wait", "arguments": {"seconds": 99}})
    check.expect(error_code(wrong_type) == -32602, "an argument out of its range is -32602")

    s.send_raw("{not json")
    check.expect(error_code(s.reply(None)) == -32700, "bad JSON is -32700")
    s.send_raw('[{"jsonrpc":"2.0","id":99,"method":"ping"}]')
    check.expect(error_code(s.reply(None)) == -32600, "a batch (an array) is refused with -32600")
    s.send_raw('{"jsonrpc":"2.0","method":"notifications/whatever","params":{}}')
    ping = s.request("ping", {"_meta": meta()})
    check.expect("result" in ping, "a notification is never answered (the next reply is the ping's)")
    check.expect(error_code(s.request("tools/list")) == -32600,
                 "without initialize or a _meta version, a request is refused with -32600")
    check.expect(s.close() == 0 and not s.stray, "EOF on stdin ends the server; stdout held only JSON-RPC")


def STATELESS_OK(result):
    info = result.get("_meta", {}).get("io.modelcontextprotocol/serverInfo", {})
    return ("2026-07-28" in result.get("supportedVersions", []) and "2025-11-25" in result["supportedVersions"]
            and "tools" in result.get("capabilities", {}) and info.get("name") == "companyos"
            and "password" in result.get("instructions", "") and isinstance(result.get("ttlMs"), int)
            and result.get("cacheScope") in ("public", "private"))


def check_initialize_era(check):
    s = McpSession()
    early = s.request("tools/list")
    check.expect(error_code(early) == -32600, "before initialize, tools/list is refused")
    init = s.initialize("2025-11-25")["result"]
    check.expect(init["protocolVersion"] == "2025-11-25" and init["serverInfo"]["name"] == "companyos" and
                 "Numbers belong to the state" in init["instructions"], "initialize 2025-11-25 is echoed")
    listed = s.request("tools/list")["result"]
    check.expect([t["name"] for t in listed["tools"]] == TOOLS and "resultType" not in listed,
                 "tools/list after initialize (no stateless fields)")
    check.expect(s.close() == 0, "the server exits at EOF")
    s = McpSession()
    check.expect(s.initialize("1999-01-01")["result"]["protocolVersion"] == "2025-11-25",
                 "an unknown version asked in initialize is answered with 2025-11-25")
    s.close()


def remove(path):
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def stays_absent(path, seconds=0.5):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if os.path.exists(path):
            return False
        time.sleep(0.02)
    return True


def outline_lines(text):
    """A state's outline: the lines after its header."""
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if STATE_HEADER.match(line))
    return [line for line in lines[header + 1:] if line]


def check_changes(check, s, app_name, reply, acted_on, entry, value):
    """An action answers with what changed since the state acted on; applied to that state
    (as docs/mcp.md tells an agent) they give what a new look reads; full: true the whole."""
    sent, rebuilt = text_of(reply), view_of(reply)
    structured = reply["result"]["structuredContent"]
    changed = [line for line in sent.splitlines() if line.startswith("~ ") and f'e{entry} text "Text"' in line]
    check.expect(structured.get("changes_since") == acted_on and len(changed) == 1 and value in changed[0],
                 f"set_value answers with the changes since {acted_on}: the entry's line replaced ({changed})")
    check.expect(len(sent) < len(rebuilt), f"the changes are shorter than the whole state ({len(sent)} "
                                               f"characters against {len(rebuilt)})")
    fresh = text_of(s.call("get_app_state", {"app": app_name, "screenshot": False}))
    check.expect(outline_lines(rebuilt) == outline_lines(fresh),
                 "the changes applied to the state acted on give what a new look reads")
    whole = s.call("set_value", {"app": app_name, "element": entry, "value": value, "full": True})
    check.expect("changes_since" not in whole["result"]["structuredContent"] and
                 outline_lines(text_of(whole)) == outline_lines(fresh), "full: true answers with the whole state")


def check_combo_box(check, s, app):
    """set_value on a combo box with an option's label picks that option in one call (the
    fixture writes the combo's text to its .combo file); an unknown label changes nothing."""
    state = view_of(s.call("get_app_state", {"app": app.app_name, "screenshot": False}))
    combo = element_number(state, "combo box", "Color")
    picked = s.call("set_value", {"app": app.app_name, "element": combo, "value": "Green"})["result"]
    check.expect(not picked["isError"] and text_of({"result": picked}).startswith("Done (set_value), and read back."),
                 f"set_value Green on the combo box is read back ({text_of({'result': picked}).splitlines()[0]})")
    check.expect(app.wait_for_effect(".combo", b"Green"), "the fixture saw Green chosen (its .combo file)")
    combo = element_number(view_of(s.call("get_app_state", {"app": app.app_name, "screenshot": False})),
                           "combo box", "Color")
    unknown = s.call("set_value", {"app": app.app_name, "element": combo, "value": "Purple"})["result"]
    check.expect(unknown["isError"] and text_of({"result": unknown}).startswith("Nothing was done:") and
                 "no option with that label" in text_of({"result": unknown}),
                 f"a label no option has is refused ({text_of({'result': unknown}).splitlines()[0]})")
    check.expect(app.effect(".combo") == b"Green", "and the combo box kept Green")


def check_tools_on_fixture(check, app):
    s = McpSession()
    s.initialize()
    apps = s.call("list_apps", {})["result"]
    check.expect(any(a["name"] == app.app_name for a in apps["structuredContent"]["apps"]),
                 "list_apps names the fixture")
    windows = s.call("list_windows", {"app": app.app_name})["result"]["structuredContent"]["windows"]
    check.expect(len(windows) == 1 and windows[0]["window_id"], "list_windows gives the fixture's window id")
    cli("focus-window", "--app", app.app_name)

    state = s.call("get_app_state", {"app": app.app_name})
    text = text_of(state)
    images = [b for b in state["result"]["content"] if b["type"] == "image"]
    picture_ok = bool(images) and base64.b64decode(images[0]["data"])[:8] == b"\x89PNG\r\n\x1a\n"
    first_state = state["result"]["structuredContent"]["state"]
    check.expect(text.startswith("State " + first_state) and picture_ok,
                 "get_app_state: the numbered state and a PNG of the active window")
    # The agent view keeps every element showing and actionable, and folds the rest.
    _, full = cli("snapshot", "--app", app.app_name, "--format", "tree")
    nodes = flatten(full["data"]["tree"], [])
    showing_actionable = [n["ref"].split(":")[-1] for n in nodes if "showing" in n["states"] and n["role"] != "separator"
                          and ([a for a in n["actions"] if a not in ("focus", "clickAncestor")]
                               or "editable" in n["states"] or "selectable" in n["states"])]
    listed = {line.strip().split(" ", 1)[0] for line in text.splitlines()[1:] if line.strip()}
    missing = [ref for ref in showing_actionable if ref not in listed]
    check.expect(showing_actionable and not missing, f"the state lists every showing actionable element (missing {missing})")
    check.expect("combo box \"Color\"" in text and "(+3 not showing)" in text and "Green" not in text,
                 "the closed combo's items are folded into a count")
    entry, button = element_number(text, "text", "Text"), element_number(text, "push button", "Write effect")
    check.expect(entry is not None and button is not None, f"the state numbers the entry ({entry}) and button ({button})")

    value = "from an agent — ünï"
    set_whole = s.call("set_value", {"app": app.app_name, "element": entry, "value": value})
    set_reply = set_whole["result"]
    check.expect(text_of({"result": set_reply}).startswith("Done (set_value), and read back.") and
                 set_reply["structuredContent"]["delivery"] == "delivered_verified" and not set_reply["isError"],
                 "set_value by number is read back and says so")
    new_state = set_reply["structuredContent"]["state"]
    check.expect(new_state != first_state and ("State " + new_state) in text_of({"result": set_reply}),
                 "the action answers with the window's new state")
    check_changes(check, s, app.app_name, set_whole, first_state, entry, value)
    check_combo_box(check, s, app)
    button = element_number(view_of(set_whole), "push button", "Write effect")
    click = s.call("click", {"app": app.app_name, "element": button})["result"]
    check.expect(text_of({"result": click}).startswith("The element's own action ran (click); nothing confirmed") and
                 click["structuredContent"]["delivery"] == "delivered_unverified",
                 "click says the action ran, not that it worked")
    check.expect(app.wait_for_effect("", value.encode()), "the fixture wrote the value set (judged from its file)")

    remove(app.effect_path)
    stale = s.call("click", {"app": app.app_name, "element": button, "state": first_state})["result"]
    check.expect(stale["isError"] and "element numbers belong to the state they came from" in text_of({"result": stale}),
                 "a number from an older state is refused with the advice")
    check.expect(stays_absent(app.effect_path), "the refused click did nothing")
    far = s.call("click", {"app": app.app_name, "element": 99999})["result"]
    check.expect(far["isError"] and text_of({"result": far}).startswith("Nothing was done:"),
                 "a number that is in no state is refused: Nothing was done")

    cli("settings", "set", "physical_input", "false")
    keys = s.call("keypress", {"app": app.app_name, "keys": ["cmdorctrl", "s"]})["result"]
    check.expect(keys["isError"] and text_of({"result": keys}).startswith("Nothing was done:") and
                 keys["structuredContent"]["delivery"] == "not_delivered",
                 "keypress is refused while physical input is off")
    check.expect(stays_absent(app.effect_path), "nothing reached the app through the gate")

    # Physical input on: keys reach the focused entry (judged by the fixture's own file).
    cli("settings", "set", "physical_input", "true")
    session_chord = s.call("keypress", {"app": app.app_name, "keys": ["ctrl", "alt", "Delete"]})["result"]
    check.expect(session_chord["isError"] and "may never send it" in text_of({"result": session_chord}),
                 "a session chord is refused even with physical input on")
    now = s.call("get_app_state", {"app": app.app_name, "screenshot": False})["result"]
    entry = element_number(text_of({"result": now}), "text", "Text")
    s.call("set_value", {"app": app.app_name, "element": entry, "value": ""})
    cli("focus", f"@{s.last_state(app.app_name)}:e{entry}")
    for key in ("o", "k"):
        pressed_whole = s.call("keypress", {"app": app.app_name, "keys": [key]})
        pressed = pressed_whole["result"]
        check.expect(text_of({"result": pressed}).startswith(f"Input was posted (keypress {key}); nothing confirmed")
                     and not pressed["isError"], f"keypress {key} says the input was posted")
    button = element_number(view_of(pressed_whole), "push button", "Write effect")
    s.call("click", {"app": app.app_name, "element": button})
    check.expect(app.wait_for_effect("", b"ok"), f"the keys reached the entry ({app.effect()!r})")

    # type, then a click on the picture's point of the Write button: the file says what arrived.
    now = s.call("get_app_state", {"app": app.app_name, "screenshot": False})["result"]
    entry = element_number(text_of({"result": now}), "text", "Text")
    s.call("set_value", {"app": app.app_name, "element": entry, "value": ""})
    cli("focus", f"@{s.last_state(app.app_name)}:e{entry}")
    typed_text = "typed by an agent: a/b.c-d_e ü"
    typed = s.call("type", {"app": app.app_name, "text": typed_text})["result"]
    check.expect(text_of({"result": typed}).startswith(f"Input was posted (type, {len(typed_text)} characters); "
                                                       "nothing confirmed") and not typed["isError"],
                 "type says the input was posted and counts the characters")
    _, found = cli("find", "--app", app.app_name, "--role", "push button", "--name", "Write effect")
    window = s.call("list_windows", {"app": app.app_name})["result"]["structuredContent"]["windows"][0]
    _, listed_windows = cli("windows", "--app", app.app_name)
    x, y = picture_point(found["data"]["elements"][0]["bounds"], listed_windows["data"]["windows"][0]["x11_window"])
    pictured = s.call("get_app_state", {"app": app.app_name})["result"]
    check.expect(any(b["type"] == "image" for b in pictured["content"]), "a picture of the window to click in")
    outside = s.call("click", {"app": app.app_name, "x": 5000, "y": 5})["result"]
    check.expect(outside["isError"] and text_of({"result": outside}).startswith("Nothing was done:"),
                 "a point outside the picture is refused")
    clicked = s.call("click", {"app": app.app_name, "x": x, "y": y, "window_id": window["window_id"]})["result"]
    check.expect(text_of({"result": clicked}).startswith(f"Input was posted (click at {x},{y}); nothing confirmed") and
                 not clicked["isError"], f"click at the picture's point ({x}, {y}) says the input was posted")
    check.expect(app.wait_for_effect("", typed_text.encode()),
                 f"the typed text and the click reached the app ({app.effect()!r})")
    now = s.call("get_app_state", {"app": app.app_name, "screenshot": False})["result"]
    entry = element_number(text_of({"result": now}), "text", "Text")
    s.call("set_value", {"app": app.app_name, "element": entry, "value": ""})
    cli("focus", "--app", app.app_name, "--role", "text", "--name", "Text", "--id", "text-entry")
    pasted_text = "pasted by an agent — ✓"
    pasted = s.call("type", {"app": app.app_name, "text": pasted_text, "paste": True})["result"]
    check.expect(not pasted["isError"] and text_of({"result": pasted}).startswith(
        f"Input was posted (type by paste, {len(pasted_text)} characters, the app took the text"),
                 f"type by paste says the app took the text ({text_of({'result': pasted}).splitlines()[0]})")
    clicked = s.call("click", {"app": app.app_name, "x": x, "y": y, "window_id": window["window_id"]})["result"]
    check.expect(app.wait_for_effect("", pasted_text.encode()), f"the pasted text reached the app ({app.effect()!r})")
    cli("settings", "set", "physical_input", "false")

    # The automations, as the daemon keeps them: a bad definition names its problems.
    listed = s.call("automation", {"action": "list"})["result"]
    check.expect(not listed["isError"] and isinstance(listed["structuredContent"].get("automations"), list),
                 "automation list answers the daemon's automations")
    bad = s.call("automation", {"action": "create", "automation": {"name": "x", "actions": [{"type": "nope"}]}})["result"]
    check.expect(bad["isError"] and any(b["text"].startswith("actions[0].type: unknown step type") for b in bad["content"][1:]),
                 "automation create of a bad definition is refused with each problem's path")

    # The person raised an automation to level 3; the agent's start of it waits for the
    # person, is recorded as the agent's and is not a supervised run (the gate's evidence).
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as definition:
        definition.write('{"name":"agent start","actions":[{"type":"command","executable":"true","cwd":"/"}]}')
    rc, env = cli("automation", "create", definition.name)
    os.unlink(definition.name)
    automation_id = env["data"]["id"]
    cli("automation", "raise", str(automation_id))
    cli("automation", "raise", str(automation_id))
    run = s.call("automation", {"action": "start", "id": automation_id})["result"]
    record = run.get("structuredContent") or {}
    check.expect(not run["isError"] and record.get("status") == "waiting" and record.get("started_by") == "agent" and
                 record.get("supervised") is False,
                 f"an agent's start of a level-3 automation waits for the person, as the agent's: {record}")
    rc, env = cli("run", "show", str(record.get("id")))
    check.expect(rc == 0 and env["data"]["started_by"] == "agent" and env["data"]["supervised"] is False,
                 "the run as the person reads it: started by the agent, not supervised")
    rc, env = cli("audit", "--limit", "20")
    starts = [r for r in env["data"]["rows"] if r["method"] == "automation.start"]
    check.expect(starts and starts[0]["origin"] == "agent", "the audit says an agent asked")
    cli("run", "deny", str(record.get("id")))

    # A wait with progress, cancelled by the client: no reply, and the server goes on.
    s.send({"jsonrpc": "2.0", "id": 500, "method": "tools/call",
            "params": {"name": "wait", "arguments": {"seconds": 20}, "_meta": {"progressToken": "tok"}}})
    deadline = time.monotonic() + 10
    while not any(n["method"] == "notifications/progress" for n in s.notifications) and time.monotonic() < deadline:
        try:
            s.reply(-1, timeout=0.5)
        except Exception:  # noqa: BLE001 - the queue's Empty: no message yet
            pass
    progress = [n for n in s.notifications if n["method"] == "notifications/progress"]
    check.expect(progress and progress[0]["params"]["progressToken"] == "tok" and progress[0]["params"]["total"] == 20,
                 "a wait reports progress to the caller's token")
    started = time.monotonic()
    s.notify("notifications/cancelled", {"requestId": 500, "reason": "test"})
    ping = s.request("ping", {"_meta": meta()})
    check.expect("result" in ping and time.monotonic() - started < 5, "the server answers while the wait ends")
    check.expect(s.close() == 0, "the server exits at EOF after a cancelled call")
    check.expect(not s.stray, "stdout held only JSON-RPC lines")


def main():
    check = Checker("mcp")
    with tempfile.TemporaryDirectory() as tmp:
        check_stateless_protocol(check)
        check_initialize_era(check)
        daemon = Daemon(log_level="info")
        daemon.start()
        try:
            with FixtureApp(FIXTURE, unique_name("McpMain"), os.path.join(tmp, "effect"), "--title", "Agent") as app:
                check_tools_on_fixture(check, app)
        finally:
            daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
