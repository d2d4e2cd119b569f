#!/usr/bin/env bash
# Installs the build into a scratch root with the prefix /usr (as the Debian package does),
# then verifies the installed user units with systemd-analyze: any complaint fails the test
# (systemd-analyze exits 0 on some warnings, so its output must be empty too). The
# service must name the daemon where the install put it.
set -euo pipefail
build_dir=$1
if ! command -v systemd-analyze >/dev/null; then
  echo "systemd-analyze not installed; skipping"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -m 0700 "$work/runtime"
DESTDIR="$work/root" cmake --install "$build_dir" --prefix /usr >/dev/null
units_dir="$work/root/usr/lib/systemd/user"
grep -qx 'ExecStart=/usr/bin/companyosd --log-level info' "$units_dir/companyosd.service"
test -x "$work/root/usr/bin/companyosd" && test -x "$work/root/usr/bin/companyos"
test -x "$work/root/usr/libexec/companyos/companyos-step-keeper"
cp "$units_dir/companyosd.service" "$units_dir/companyosd.socket" "$work/"
# The unit's ExecStart names the install path; point it at a file that exists here.
sed -i "s|^ExecStart=[^ ]*|ExecStart=/bin/true|" "$work/companyosd.service"
out=$(cd "$work" && XDG_RUNTIME_DIR="$work/runtime" systemd-analyze verify --user \
        ./companyosd.socket ./companyosd.service 2>&1) || { echo "$out"; exit 1; }
if [ -n "$out" ]; then
  echo "systemd-analyze complained:"; echo "$out"; exit 1
fi
grep -qx 'Type=notify' "$work/companyosd.service"
grep -qx 'Restart=on-failure' "$work/companyosd.service"
grep -qx 'ListenStream=%t/companyos/control.sock' "$work/companyosd.socket"
grep -qx 'SocketMode=0600' "$work/companyosd.socket"
grep -qx 'DirectoryMode=0700' "$work/companyosd.socket"
echo "units verified"
