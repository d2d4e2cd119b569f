#!/usr/bin/env python3
"""A stand-in daemon for the completion tests: on SOCKET it answers every `apps` request
with APP names (one JSON line per request, as companyosd does), or, with --silent, accepts
and never answers. Runs until killed.

Usage: fake_apps_daemon.py SOCKET [--silent] [APP ...]"""

import json
import os
import socket
import sys
import threading


def serve(connection, names, silent):
    with connection:
        buffered = b""
        while True:
            chunk = connection.recv(65536)
            if not chunk:
                return
            buffered += chunk
            while b"\n" in buffered:
                line, buffered = buffered.split(b"\n", 1)
                if silent:
                    continue
                request = json.loads(line)
                apps = [{"name": name, "pid": 100 + i, "toolkit": "gtk", "toolkit_version": "3",
                         "window_count": 1, "responsive": True} for i, name in enumerate(names)]
                reply = {"id": request.get("id"), "ok": True, "data": {"apps": apps, "count": len(apps)}}
                connection.sendall(json.dumps(reply).encode() + b"\n")


def main():
    path = sys.argv[1]
    silent = "--silent" in sys.argv[2:]
    names = [a for a in sys.argv[2:] if a != "--silent"]
    if os.path.exists(path):
        os.unlink(path)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(8)
    print("ready", flush=True)
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(connection, names, silent), daemon=True).start()


if __name__ == "__main__":
    main()
