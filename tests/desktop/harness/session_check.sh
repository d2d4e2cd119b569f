#!/usr/bin/env bash
# Runs inside scripts/desktop-session and checks, from outside any companyOS code, that
# the desktop it promises is there: X display, AT-SPI bus and registry, accessibility
# enabled, openbox as the EWMH window manager, private directories and environment.
set -uo pipefail

failures=0
check() {
  local what=$1; shift
  if "$@"; then
    echo "ok   $what"
  else
    echo "FAIL $what"
    failures=$((failures + 1))
  fi
}

inside_session_dir() { [[ $1 == "$COMPANYOS_DESKTOP_DIR"/* ]]; }

# Polls CMD... every 20 ms until it succeeds or SECONDS pass.
wait_until() {
  local seconds=$1; shift
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.02
  done
}

# --- the window manager's state as the command starts, read before anything else runs ---
client_list() { xprop -root _NET_CLIENT_LIST 2>/dev/null; }
initial_clients=$(client_list)
initial_active=$(xprop -root _NET_ACTIVE_WINDOW 2>/dev/null)
initial_tree=$(xwininfo -root -tree 2>/dev/null)
# Processes of this session whose command line names the harness's probe.
session_probe_processes() {
  local dir
  for dir in /proc/[0-9]*; do
    grep -qzxF -- "COMPANYOS_DESKTOP_DIR=$COMPANYOS_DESKTOP_DIR" "$dir/environ" 2>/dev/null &&
      grep -qzF -- companyos-wm-probe "$dir/cmdline" 2>/dev/null && echo "${dir#/proc/}"
  done
}
initial_probe_processes=$(session_probe_processes)
# A window mapped the moment the command starts must be managed: openbox leaves a window
# mapped while it is still starting unmanaged for good, however long one waits.
early_title="companyos-session-check-$$"
xmessage -xrm '*input: false' -name companyos-session-check -title "$early_title" \
  "session check" </dev/null >/dev/null 2>&1 &
early_pid=$!
early_window=""
find_early_window() {
  local info
  info=$(xwininfo -name "$early_title" 2>/dev/null) || return 1
  info=${info#*Window id: }
  early_window=${info%% *}
  [[ $early_window =~ ^0x[0-9a-f]+$ ]]
}
early_window_listed() {
  local list
  list=$(client_list) || return 1
  [[ -n $early_window && ", ${list#*window id # }, " == *", $early_window, "* ]]
}
early_window_managed() { find_early_window && early_window_listed; }
early_window_unlisted() { ! early_window_listed; }

no_probe_listed() { [[ $initial_clients == "_NET_CLIENT_LIST(WINDOW): window id # " ]]; }
no_probe_window() { [[ $initial_tree != *companyos-wm-probe* ]]; }
no_probe_process() { [[ -z $initial_probe_processes ]]; }
nothing_active() { [[ $initial_active != *"window id # 0x"[1-9a-f]* ]]; }

a11y_call() {
  gdbus call --address "$AT_SPI_BUS_ADDRESS" --timeout 10 "$@" 2>&1
}

display_answers() { xdpyinfo >/dev/null 2>&1; }
screen_is_1280x1024x24() {
  local info
  info=$(xdpyinfo 2>/dev/null)
  [[ $info == *"dimensions:    1280x1024 pixels"* && $info == *"depth of root window:    24 planes"* ]]
}
xtest_present() { [[ $(xdpyinfo 2>/dev/null) == *$'\n    XTEST'* ]]; }
no_x_socket_file() { [[ ! -e /tmp/.X11-unix/X${DISPLAY#:} ]]; }

a11y_bus_answers() {
  [[ $(a11y_call --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.GetId) == "('"* ]]
}
registry_has_owner() {
  [[ $(a11y_call --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.NameHasOwner org.a11y.atspi.Registry) == "(true,)" ]]
}
registry_root_answers() {
  [[ $(a11y_call --dest org.a11y.atspi.Registry --object-path /org/a11y/atspi/accessible/root \
    --method org.a11y.atspi.Accessible.GetRole) == "(uint32 "* ]]
}
a11y_is_enabled() {
  [[ $(gdbus call --session --timeout 10 --dest org.a11y.Bus --object-path /org/a11y/bus \
    --method org.freedesktop.DBus.Properties.Get org.a11y.Status IsEnabled) == "(<true>,)" ]]
}
a11y_address_matches_bus() {
  local reply
  reply=$(gdbus call --session --timeout 10 --dest org.a11y.Bus --object-path /org/a11y/bus \
    --method org.a11y.Bus.GetAddress)
  [[ $reply == "('$AT_SPI_BUS_ADDRESS',)" ]]
}
session_bus_activates_nothing() {
  # Our own bus config has no service directories, so only the bus itself is activatable.
  [[ $(gdbus call --session --timeout 10 --dest org.freedesktop.DBus \
    --object-path /org/freedesktop/DBus --method org.freedesktop.DBus.ListActivatableNames) \
    == "(['org.freedesktop.DBus'],)" ]]
}

wm_is_openbox() {
  local check_window name
  check_window=$(xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null) || return 1
  check_window=${check_window##*# }
  name=$(xprop -id "$check_window" _NET_WM_NAME 2>/dev/null) || return 1
  [[ $name == *'"Openbox"' ]]
}
wm_supports_ewmh_basics() {
  local supported
  supported=$(xprop -root _NET_SUPPORTED 2>/dev/null) || return 1
  [[ $supported == *_NET_ACTIVE_WINDOW* && $supported == *_NET_CLIENT_LIST* ]]
}

runtime_dir_private() {
  [[ -d $XDG_RUNTIME_DIR && $(stat -c %a "$XDG_RUNTIME_DIR") == 700 &&
     $(stat -c %u "$XDG_RUNTIME_DIR") == "$(id -u)" ]]
}
dirs_private() {
  local dir
  for dir in "$HOME" "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" \
    "$XDG_STATE_HOME" "$XDG_CACHE_HOME"; do
    inside_session_dir "$dir" && [[ -d $dir ]] || return 1
  done
}
# D-Bus addresses escape bytes as %XX.
unescape_address() { printf '%b' "${1//%/\\x}"; }
buses_private() {
  [[ $(unescape_address "$DBUS_SESSION_BUS_ADDRESS") == "unix:path=$COMPANYOS_DESKTOP_DIR/"* &&
     $(unescape_address "$AT_SPI_BUS_ADDRESS") == "unix:path=$COMPANYOS_DESKTOP_DIR/"* ]]
}
accessibility_environment() {
  [[ ${NO_AT_BRIDGE:-} == 0 && ${GNOME_ACCESSIBILITY:-} == 1 &&
     ${QT_LINUX_ACCESSIBILITY_ALWAYS_ON:-} == 1 && ${GDK_BACKEND:-} == x11 &&
     ${GSK_RENDERER:-} == cairo && ${GSETTINGS_BACKEND:-} == memory && -z ${WAYLAND_DISPLAY+set} ]]
}
socket_path_set() {
  [[ -n ${COMPANYOS_SOCKET:-} ]] &&
    { [[ -n ${EXPECTED_COMPANYOS_SOCKET:-} && $COMPANYOS_SOCKET == "$EXPECTED_COMPANYOS_SOCKET" ]] ||
      [[ -z ${EXPECTED_COMPANYOS_SOCKET:-} && $COMPANYOS_SOCKET == "$XDG_RUNTIME_DIR/companyos/control.sock" ]]; }
}

check "window manager: _NET_CLIENT_LIST is published and empty (started; the probe is gone)" \
  no_probe_listed
check "window manager: no probe window is left on the screen" no_probe_window
check "window manager: no probe process is left" no_probe_process
check "window manager: no window is active" nothing_active
check "window manager: a window mapped as the command starts is managed" \
  wait_until 10 early_window_managed
kill "$early_pid" 2>/dev/null
wait "$early_pid" 2>/dev/null
check "window manager: a closed window leaves the client list" wait_until 10 early_window_unlisted
check "DISPLAY is set" test -n "${DISPLAY:-}"
check "display $DISPLAY answers" display_answers
check "screen is 1280x1024 at depth 24" screen_is_1280x1024x24
check "XTEST extension present" xtest_present
check "no X socket file in /tmp" no_x_socket_file
check "accessibility bus answers" a11y_bus_answers
check "org.a11y.atspi.Registry has an owner" registry_has_owner
check "registry root answers" registry_root_answers
check "org.a11y.Bus.GetAddress is AT_SPI_BUS_ADDRESS" a11y_address_matches_bus
check "org.a11y.Status.IsEnabled is true" a11y_is_enabled
check "session bus activates nothing" session_bus_activates_nothing
check "openbox is the EWMH window manager" wm_is_openbox
check "_NET_SUPPORTED lists _NET_ACTIVE_WINDOW and _NET_CLIENT_LIST" wm_supports_ewmh_basics
check "HOME, XDG_RUNTIME_DIR and XDG_*_HOME are inside COMPANYOS_DESKTOP_DIR" dirs_private
check "XDG_RUNTIME_DIR is 0700 and ours" runtime_dir_private
check "both buses listen inside COMPANYOS_DESKTOP_DIR" buses_private
check "accessibility environment variables set, WAYLAND_DISPLAY unset" accessibility_environment
check "COMPANYOS_SOCKET is set as documented" socket_path_set

if ((failures > 0)); then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all checks passed"
