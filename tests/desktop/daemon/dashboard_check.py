#!/usr/bin/env python3
"""The dashboard's server, judged from outside with plain HTTP requests (http.client, which
lets a test send any Host, Origin and Cookie): `companyos dashboard` prints a link; the
socket listens on 127.0.0.1 only (/proc/net/tcp and tcp6); without a session every path is
401; a wrong Host is refused (DNS rebinding); the link logs in once, as an HttpOnly,
SameSite=Strict cookie, and the token leaves the address bar; pages carry a strict
Content-Security-Policy; API calls need the session's CSRF token and this origin; only the
methods declared for the dashboard are served, through the daemon's one validation and
audit (what a call changed is read back through the CLI); an agent cannot ask for a link;
oversized params are refused unread; `--stop` ends serving; dashboard_port serves at a
fixed port at once and from the daemon's next start. Runs inside scripts/desktop-session."""

import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from checks import Checker  # noqa: E402
from observe_cli_check import DAEMON, cli, wait_for  # noqa: E402


def daemon_environment():
    """The daemon's environment. Under ASan its leak check unwinds fully: libsoup 3.2 leaks
    each accepted socket, and only a whole stack lets tests/sanitize/lsan.supp tell that
    from a leak of ours (GLib has no frame pointers)."""
    env = dict(os.environ)
    if "ASAN_OPTIONS" in env:
        env["ASAN_OPTIONS"] += ":fast_unwind_on_malloc=0"
    return env


def socket_path():
    return os.environ.get("COMPANYOS_SOCKET") or os.path.join(os.environ["XDG_RUNTIME_DIR"], "companyos",
                                                              "control.sock")


def protocol_call(method, params, origin=None):
    request = {"id": 1, "method": method, "params": params}
    if origin:
        request["origin"] = origin
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(socket_path())
        sock.sendall((json.dumps(request) + "\n").encode())
        return json.loads(sock.makefile("r", encoding="utf-8").readline())


class Http:
    def __init__(self, port):
        self.port = port
        self.cookie = None
        self.csrf = None

    def ask(self, method, path, body=None, headers=None, cookie=True, host=None):
        """(status, headers as a dict of lists, body bytes)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        sent = {"Host": host or f"127.0.0.1:{self.port}"}
        if cookie and self.cookie:
            sent["Cookie"] = self.cookie
        sent.update(headers or {})
        conn.request(method, path, body=body, headers=sent)
        answer = conn.getresponse()
        got = {}
        for name, value in answer.getheaders():
            got.setdefault(name.lower(), []).append(value)
        data = answer.read()
        conn.close()
        return answer.status, got, data

    def api(self, method, params=None, headers=None, csrf=True):
        sent = {"Content-Type": "application/json"}
        if csrf and self.csrf:
            sent["X-CSRF-Token"] = self.csrf
        sent.update(headers or {})
        status, _, data = self.ask("POST", "/api/" + method, json.dumps(params or {}), sent)
        try:
            return status, json.loads(data)
        except ValueError:
            return status, data.decode(errors="replace")


def listening_addresses(port):
    """Local addresses with a listening TCP socket on port, from /proc/net/tcp and tcp6."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as rows:
                next(rows)
                for row in rows:
                    fields = row.split()
                    address, hex_port = fields[1].split(":")
                    if int(hex_port, 16) == port and fields[3] == "0A":  # LISTEN
                        found.append((table, address))
        except FileNotFoundError:
            pass
    return found


def check_link_and_listener(check):
    rc, env, _ = cli("dashboard")
    data = (env or {}).get("data", {})
    url = data.get("url", "")
    parsed = urllib.parse.urlsplit(url)
    check.expect(rc == 0 and data.get("serving") is True and parsed.scheme == "http"
                 and parsed.hostname == "127.0.0.1" and parsed.path == "/login"
                 and len(urllib.parse.parse_qs(parsed.query).get("token", [""])[0]) == 64,
                 f"companyos dashboard prints a one-time link on 127.0.0.1 ({rc}, {env})")
    port = parsed.port or 0
    check.expect(port == data.get("port") and port > 0, f"the link's port is the one served ({port}, {data})")
    listeners = listening_addresses(port)
    check.expect(listeners == [("/proc/net/tcp", "0100007F")],
                 f"it listens on 127.0.0.1 only, no other address and no IPv6 ({listeners})")
    human = subprocess.run([os.path.join(os.environ["COMPANYOS_BUILD_DIR"], "cli", "companyos"), "dashboard"],
                           capture_output=True, text=True, timeout=30)
    check.expect(human.returncode == 0 and f"http://127.0.0.1:{port}/login?token=" in human.stdout,
                 f"the human output is the link itself ({human.stdout!r})")
    rc, again, _ = cli("dashboard")
    check.expect(rc == 0 and again["data"]["port"] == port and again["data"]["url"] != url,
                 "asked again, it serves on the same port and gives a new link")
    return port, parsed.path + "?" + parsed.query


def check_without_session(check, web):
    for method, path in (("GET", "/"), ("GET", "/app.js"), ("GET", "/api/session"), ("GET", "/events"), ("POST", "/api/ping"),
                         ("POST", "/api/stop_all"), ("GET", "/no/such/page")):
        status, _, _ = web.ask(method, path, body="{}" if method == "POST" else None, cookie=False)
        check.expect(status == 401, f"without a session {method} {path} is 401 ({status})")
    status, _, _ = web.ask("GET", "/login?token=" + "0" * 64, cookie=False)
    check.expect(status == 401, f"a made-up token logs nobody in ({status})")


def check_login(check, web, login_path):
    status, _, _ = web.ask("GET", login_path, cookie=False, host=f"evil.example:{web.port}")
    check.expect(status == 421, f"the link under another site's name is refused, not spent ({status})")
    status, headers, _ = web.ask("GET", login_path, cookie=False, headers={"Sec-Fetch-Site": "cross-site"})
    check.expect(status == 403, f"the link followed from another site is refused ({status})")
    status, headers, _ = web.ask("GET", login_path, cookie=False)
    cookie = (headers.get("set-cookie") or [""])[0]
    attributes = [part.strip() for part in cookie.split(";")]
    check.expect(status == 303 and headers.get("location") == ["/"]
                 and attributes[0].startswith("companyos_session=") and len(attributes[0]) > 30
                 and "HttpOnly" in attributes and "SameSite=Strict" in attributes and "Path=/" in attributes,
                 f"the link logs in with an HttpOnly, SameSite=Strict cookie and sends the browser to / "
                 f"({status}, {headers})")
    web.cookie = attributes[0]
    status, _, _ = web.ask("GET", login_path, cookie=False)
    check.expect(status == 401, f"the link works once ({status})")


def check_pages(check, web):
    status, headers, body = web.ask("GET", "/")
    csp = (headers.get("content-security-policy") or [""])[0]
    check.expect(status == 200 and b"<!doctype html>" in body.lower()
                 and headers.get("content-type", [""])[0].startswith("text/html"),
                 f"with the cookie, / is the dashboard's page ({status})")
    check.expect("script-src 'self'" in csp and "default-src 'none'" in csp and "unsafe-inline" not in csp
                 and "frame-ancestors 'none'" in csp,
                 f"the page's Content-Security-Policy allows only its own scripts ({csp})")
    check.expect(headers.get("x-content-type-options") == ["nosniff"] and headers.get("cache-control") == ["no-store"],
                 f"nosniff and no-store ({headers})")
    check.expect(b"<script>" not in body.lower() and b"onclick" not in body.lower(),
                 "the page has no inline script")
    status, headers, _ = web.ask("GET", "/app.js")
    check.expect(status == 200 and headers.get("content-type", [""])[0].startswith("text/javascript"),
                 f"the page's module is served as JavaScript ({status}, {headers.get('content-type')})")
    for path in ("/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/index.html/", "/missing.js"):
        status, _, body = web.ask("GET", path)
        check.expect(status in (400, 404) and b"root:" not in body, f"{path} reaches no file ({status})")
    status, _, _ = web.ask("GET", "/", host=f"evil.example:{web.port}")
    check.expect(status == 421, f"with the cookie but another site's name: refused ({status})")
    status, headers, body = web.ask("GET", "/api/session")
    web.csrf = json.loads(body).get("csrf") if status == 200 else None
    served = json.loads(body).get("methods", []) if status == 200 else []
    check.expect(web.csrf and len(web.csrf) == 64 and "automation.list" in served and "dashboard" not in served
                 and "clipboard.get" not in served,
                 f"/api/session gives the CSRF token and the methods served ({status}, {served})")


def check_api(check, web):
    status, reply = web.api("ping", csrf=False)
    check.expect(status == 403, f"an API call without the CSRF token is refused ({status}, {reply})")
    status, reply = web.api("ping", headers={"X-CSRF-Token": "f" * 64})
    check.expect(status == 403, f"with another token too ({status})")
    status, reply = web.api("ping", headers={"Origin": "http://evil.example"})
    check.expect(status == 403, f"from another origin, even with cookie and token ({status})")
    status, reply = web.api("ping", headers={"Sec-Fetch-Site": "cross-site"})
    check.expect(status == 403, f"a cross-site fetch is refused ({status})")
    status, reply = web.api("ping", headers={"Origin": f"http://127.0.0.1:{web.port}",
                                             "Sec-Fetch-Site": "same-origin"})
    check.expect(status == 200 and reply.get("ok") is True and reply["data"].get("pong") is True,
                 f"the page's own call is answered with the protocol's envelope ({status}, {reply})")
    status, _, _ = web.ask("GET", "/api/ping", headers={"X-CSRF-Token": web.csrf})
    check.expect(status == 405, f"API calls are POST only ({status})")
    for method in ("clipboard.get", "dashboard", "click", "snapshot", "no.such.method"):
        status, reply = web.api(method)
        check.expect(status == 404 and isinstance(reply, dict) and reply.get("ok") is False,
                     f"{method} is not served by the dashboard ({status}, {reply})")
    status, reply = web.api("automation.get", {"id": "three"})
    check.expect(status == 200 and reply.get("ok") is False and reply["error"]["code"] == "INVALID_ARGS"
                 and reply["error"].get("details", {}).get("param") == "id",
                 f"params go through the declarations' one validation ({reply})")
    status = web.ask("POST", "/api/ping", body="[1, 2", headers={"X-CSRF-Token": web.csrf})[0]
    check.expect(status == 400, f"params that are not a JSON object: 400 ({status})")
    huge = "{\"x\": \"" + "a" * (2 * 1024 * 1024) + "\"}"
    try:
        status, _, _ = web.ask("POST", "/api/ping", body=huge, headers={"X-CSRF-Token": web.csrf})
    except (ConnectionError, http.client.HTTPException) as error:
        status = f"closed: {error}"
    check.expect(status == 413 or str(status).startswith("closed"),
                 f"params over 1 MiB are refused ({status})")
    try:
        status, _, _ = web.ask("GET", "/", body=huge)
    except (ConnectionError, http.client.HTTPException) as error:
        status = f"closed: {error}"
    check.expect(status == 413 or str(status).startswith("closed"),
                 f"so is any other body over 1 MiB, even with the session ({status})")


def check_effects(check, web, tmp):
    definition = os.path.join(tmp, "subject.json")
    with open(definition, "w") as out:
        json.dump({"name": "dashboard subject", "schedule": "0 3 * * *", "timezone": "Europe/Berlin",
                   "actions": [{"type": "command", "executable": "true", "cwd": "/"}]}, out)
    rc, env, _ = cli("automation", "create", definition)
    automation = (env or {}).get("data", {}).get("id")
    check.expect(rc == 0 and automation, f"an automation to act on ({env})")
    status, listed = web.api("automation.list")
    names = [a["name"] for a in listed.get("data", {}).get("automations", [])] if isinstance(listed, dict) else []
    check.expect("dashboard subject" in names, f"the API lists it ({names})")
    row = next((a for a in listed["data"]["automations"] if a["name"] == "dashboard subject"), {})
    check.expect(row.get("timezone") == "Europe/Berlin" and isinstance(row.get("nextRunAt"), int),
                 f"with its next run and the zone it is planned in ({row})")
    status, reply = web.api("automation.disable", {"id": automation})
    _, shown, _ = cli("automation", "get", str(automation))
    check.expect(reply.get("ok") is True and shown["data"]["enabled"] is False,
                 f"a change through the API is the daemon's: the CLI reads it back ({reply}, {shown['data']['enabled']})")
    _, audit, _ = cli("audit", "--limit", "20")
    rows = [r for r in audit["data"]["rows"] if r["method"] == "automation.disable"]
    check.expect(rows and rows[0]["origin"] == "person" and rows[0]["error_code"] is None,
                 f"and it is audited as the person's ({rows[:1]})")
    status, reply = web.api("automation.raise", {"id": automation})
    check.expect(reply.get("ok") is True and reply["data"]["level"] == 2,
                 f"what only the person may do, the person may do here ({reply})")
    refused = protocol_call("dashboard", {}, origin="agent")
    check.expect(refused.get("ok") is False and refused["error"]["code"] == "POLICY_DENIED"
                 and refused["error"]["details"].get("reason") == "person_only",
                 f"an agent cannot ask for a login link ({refused})")


class EventStream:
    """GET /events kept open; next() is the next event's (name, data as JSON), or None at
    the deadline."""

    def __init__(self, web):
        self.conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=10)
        self.conn.request("GET", "/events", headers={"Host": f"127.0.0.1:{web.port}", "Cookie": web.cookie})
        self.answer = self.conn.getresponse()

    def next(self, deadline):
        name, data = None, []
        while time.monotonic() < deadline:
            try:
                line = self.answer.readline().decode()
            except (TimeoutError, socket.timeout):
                return None
            if line == "":
                return None
            line = line.rstrip("\n")
            if line.startswith("event: "):
                name = line[len("event: "):]
            elif line.startswith("data: "):
                data.append(line[len("data: "):])
            elif line == "" and name:
                return name, json.loads("\n".join(data))
        return None

    def close(self):
        self.conn.close()


def check_live_updates(check, web, tmp):
    stream = EventStream(web)
    content_type = stream.answer.getheader("Content-Type")
    first = stream.next(time.monotonic() + 10)
    check.expect(stream.answer.status == 200 and content_type == "text/event-stream" and first
                 and first[0] == "runs" and first[1].get("active") == [],
                 f"/events opens with the active runs, none now ({stream.answer.status}, {content_type}, {first})")
    definition = os.path.join(tmp, "slow.json")
    with open(definition, "w") as out:
        json.dump({"name": "slow one", "actions": [
            {"type": "command", "executable": "/bin/sleep", "argv": ["1"], "cwd": "/"},
            {"type": "command", "executable": "/bin/true", "cwd": "/"}]}, out)
    _, created, _ = cli("automation", "create", definition)
    automation = created["data"]["id"]
    cli("automation", "raise", str(automation))
    cli("automation", "raise", str(automation))
    _, started, _ = cli("automation", "start", str(automation))
    run = started["data"]["id"]
    seen = []
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        event = stream.next(deadline)
        if event is None:
            break
        seen.append(event[1])
        if event[1].get("newest_run") == run and event[1].get("active") == []:
            break
    running = [e for e in seen if any(r["id"] == run and r["status"] == "running" for r in e.get("active", []))]
    ended = seen and seen[-1].get("active") == [] and seen[-1].get("newest_run") == run
    check.expect(running and ended,
                 f"a run is heard while it runs and when it ends, without asking ({seen})")
    _, shown, _ = cli("run", "show", str(run))
    check.expect(shown["data"]["status"] == "succeeded", f"and it did end ({shown['data']['status']})")
    stream.close()


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def refuses(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            return False
    except ConnectionRefusedError:
        return True


def check_move_from_inside(check, web):
    """The Settings page moving the dashboard to another port: its own request is answered,
    then the old port goes and the new one serves (a new login there)."""
    moved = free_port()
    status, reply = web.api("settings.set", {"key": "dashboard_port", "value": moved})
    check.expect(status == 200 and reply.get("ok") is True and reply["data"].get("serving") == moved,
                 f"setting the port through the dashboard itself is answered ({status}, {reply})")
    try:
        wait_for("the old port closed", lambda: refuses(web.port), timeout=15)
    except Exception as error:  # noqa: BLE001 - reported as the check below
        print(f"({error})")
    check.expect(refuses(web.port), "then the old port is closed")
    status = Http(moved).ask("GET", "/", cookie=False)[0]
    check.expect(status == 401, f"and the new port serves, asking for a new login ({status})")
    web.port = moved


def check_stop_and_port(check, web):
    rc, env, _ = cli("dashboard", "--stop")
    check.expect(rc == 0 and env["data"]["serving"] is False, f"--stop ends serving ({env})")
    try:
        wait_for("the port closed", lambda: refuses(web.port), timeout=15)
    except Exception as error:  # noqa: BLE001 - reported as the check below
        print(f"({error})")
    check.expect(refuses(web.port), "nothing answers on the port after --stop (once it answered what it took)")
    free = free_port()
    rc, env, _ = cli("settings", "set", "dashboard_port", str(free))
    check.expect(rc == 0 and env["data"].get("serving") == free, f"setting a port serves there at once ({env})")
    check.expect(listening_addresses(free) == [("/proc/net/tcp", "0100007F")], "on 127.0.0.1 only")
    rc, env, _ = cli("settings", "set", "dashboard_port", "70000")
    check.expect(rc != 0 and env["error"]["code"] == "INVALID_ARGS", f"a port out of range is refused ({env})")
    return free


def main():
    check = Checker("dashboard")
    daemon = subprocess.Popen([DAEMON, "--log-level", "warn"], stdin=subprocess.DEVNULL, env=daemon_environment())
    try:
        wait_for("daemon", lambda: cli("ping")[0] == 0)
        port, login_path = check_link_and_listener(check)
        web = Http(port)
        check_without_session(check, web)
        check_login(check, web, login_path)
        check_pages(check, web)
        check_api(check, web)
        with tempfile.TemporaryDirectory() as tmp:
            check_effects(check, web, tmp)
            check_live_updates(check, web, tmp)
        check_move_from_inside(check, web)
        fixed = check_stop_and_port(check, web)
    finally:
        daemon.terminate()
        daemon.wait(timeout=30)
    daemon = subprocess.Popen([DAEMON, "--log-level", "warn"], stdin=subprocess.DEVNULL, env=daemon_environment())
    try:
        wait_for("daemon", lambda: cli("ping")[0] == 0)
        status = None
        try:
            status = Http(fixed).ask("GET", "/", cookie=False)[0]
        except ConnectionRefusedError as error:
            status = str(error)
        check.expect(status == 401, f"with dashboard_port set, the daemon serves it from its start ({status})")
    finally:
        daemon.terminate()
        daemon.wait(timeout=30)
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
