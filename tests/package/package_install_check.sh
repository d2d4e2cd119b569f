#!/usr/bin/env bash
# The Debian package as a person gets it: built (from BUILD_DIR, the release build CI
# already has: scripts/package --prebuilt), installed with apt-get, checked from outside,
# removed and purged. Needs root (it installs into the system); scripts/test runs it as a
# phase of a full run, where CI is root.
#   - the files are where Debian puts them (binaries, step keeper, user units, docs, the
#     bash and zsh completions), and
#     man -w finds the three man pages;
#   - the installed companyosd serves a private socket and the installed companyos status
#     answers through it; its dashboard serves the installed pages (share/companyos/dashboard);
#   - systemd-analyze verify passes on the installed units, and the socket is enabled for
#     every user (/etc/systemd/user/sockets.target.wants/companyosd.socket);
#   - dpkg -r removes the programs and keeps the enablement; dpkg -P removes it too;
#   - an admin's systemctl --global disable survives an upgrade.
# Usage: tests/package/package_install_check.sh BUILD_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
if [ "$(id -u)" -ne 0 ]; then
  echo "package check: needs root to install the package (CI runs as root)" >&2
  exit 77
fi
failures=0
check() {  # check DESCRIPTION COMMAND...: runs COMMAND, says ok or FAIL
  local what=$1
  shift
  if "$@" >/dev/null 2>&1; then echo "ok   package: $what"; else echo "FAIL package: $what"; failures=$((failures + 1)); fi
}

export COMPANYOS_PACKAGE_DIR=$build/packages
"$root/scripts/package" --prebuilt "$build"
deb=$(ls "$COMPANYOS_PACKAGE_DIR"/companyos_*_*.deb)
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --allow-downgrades "$deb" </dev/null

work=$(mktemp -d)
daemon=
cleanup() {
  [ -n "$daemon" ] && kill "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

check "/usr/bin/companyos and /usr/bin/companyosd are installed" test -x /usr/bin/companyos -a -x /usr/bin/companyosd
check "the step keeper is in /usr/libexec/companyos" test -x /usr/libexec/companyos/companyos-step-keeper
check "the user units are in /usr/lib/systemd/user" \
  test -f /usr/lib/systemd/user/companyosd.socket -a -f /usr/lib/systemd/user/companyosd.service
check "the service starts the installed daemon" \
  grep -qx 'ExecStart=/usr/bin/companyosd --log-level info' /usr/lib/systemd/user/companyosd.service
check "the docs are in /usr/share/doc/companyos" test -f /usr/share/doc/companyos/README.md.gz -a -d /usr/share/doc/companyos/docs
check "man -w finds companyos(1)" man -w 1 companyos
check "man -w finds companyosd(8)" man -w 8 companyosd
check "man -w finds companyos-automation(5)" man -w 5 companyos-automation
check "the bash completion is in place" grep -q "complete -F _companyos companyos" \
  /usr/share/bash-completion/completions/companyos
check "the zsh completion is in place" grep -qx "#compdef companyos" /usr/share/zsh/vendor-completions/_companyos
check "the dashboard's pages are in /usr/share/companyos/dashboard" \
  test -f /usr/share/companyos/dashboard/index.html -a -f /usr/share/companyos/dashboard/app.js
check "the socket is enabled for every user" test -L /etc/systemd/user/sockets.target.wants/companyosd.socket
mkdir -m 0700 "$work/runtime"
verify() {
  local out
  out=$(XDG_RUNTIME_DIR="$work/runtime" systemd-analyze verify --user \
          /usr/lib/systemd/user/companyosd.socket /usr/lib/systemd/user/companyosd.service 2>&1) && [ -z "$out" ]
}
check "systemd-analyze verify passes on the installed units" verify

# The installed daemon on a private socket, with a store of its own.
mkdir -m 0700 "$work/home"
HOME=$work/home XDG_RUNTIME_DIR=$work/runtime /usr/bin/companyosd --socket "$work/runtime/s.sock" \
  --db "$work/home/store.db" --log-level warn </dev/null >"$work/daemon.log" 2>&1 &
daemon=$!
status_answers() {
  for _ in $(seq 1 100); do
    if HOME=$work/home COMPANYOS_SOCKET=$work/runtime/s.sock /usr/bin/companyos --json status 2>/dev/null |
         grep -q '"ok":true'; then
      return 0
    fi
    sleep 0.1
  done
  return 1
}
check "the installed companyos status answers through the installed daemon's socket" status_answers
check "the socket is the user's alone (0600)" test "$(stat -c %a "$work/runtime/s.sock")" = 600
serves_installed_pages() {
  HOME=$work/home COMPANYOS_SOCKET=$work/runtime/s.sock /usr/bin/companyos --json dashboard |
    grep -q '"pages":"/usr/share/companyos/dashboard"'
}
check "the installed daemon's dashboard serves the installed pages" serves_installed_pages
kill "$daemon" && wait "$daemon" 2>/dev/null || true
daemon=

dpkg -r companyos >/dev/null
check "dpkg -r removes the programs" test ! -e /usr/bin/companyos -a ! -e /usr/bin/companyosd
check "dpkg -r keeps the enablement (configuration stays until purge)" test -L /etc/systemd/user/sockets.target.wants/companyosd.socket
dpkg -P companyos >/dev/null
check "dpkg -P removes the enablement" test ! -e /etc/systemd/user/sockets.target.wants/companyosd.socket

# An admin who disables it for everyone keeps it disabled through an upgrade (here: the
# same package installed again).
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" </dev/null >/dev/null
systemctl --global disable companyosd.socket >/dev/null 2>&1
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --reinstall "$deb" </dev/null >/dev/null
check "systemctl --global disable survives an upgrade" test ! -e /etc/systemd/user/sockets.target.wants/companyosd.socket
dpkg -P companyos >/dev/null
check "the package is gone" test ! -e /usr/bin/companyos

if [ "$failures" -ne 0 ]; then
  echo "package check: $failures failed"
  exit 1
fi
echo "package check: all passed"
