#!/usr/bin/env bash
# Inside a private desktop: companyosd starts on the default socket, and
# `companyos --json status` reports an X11 session with a reachable accessibility bus.
set -euo pipefail
build=${COMPANYOS_BUILD_DIR:?}
daemon=$build/src/daemon/companyosd
cli=$build/cli/companyos

"$daemon" --log-level warn &
daemon_pid=$!
trap 'kill "$daemon_pid" 2>/dev/null || true; wait "$daemon_pid" 2>/dev/null || true' EXIT

deadline=$((SECONDS + 20))
until "$cli" ping >/dev/null 2>&1; do
  if ((SECONDS > deadline)); then echo "daemon did not answer on $COMPANYOS_SOCKET"; exit 1; fi
  kill -0 "$daemon_pid" || { echo "daemon exited"; exit 1; }
  sleep 0.02
done

reply=$("$cli" --json status)
echo "$reply"
python3 - "$reply" "$COMPANYOS_SOCKET" <<'PY'
import json, sys
reply = json.loads(sys.argv[1])
assert reply["ok"] is True, reply
data = reply["data"]
assert data["display_server"] == "x11", data
assert data["accessibility"]["bus"] is True, data
assert data["accessibility"]["registry"] is True, data
assert data["x11"]["xtest"] is True and data["x11"]["ewmh_window_manager"] is True, data
assert data["socket"] == sys.argv[2], data
assert data["store"]["schema_version"] >= 1, data
print("status smoke: ok")
PY

kill -TERM "$daemon_pid"
wait "$daemon_pid"
test ! -e "$COMPANYOS_SOCKET" || { echo "socket left behind"; exit 1; }
