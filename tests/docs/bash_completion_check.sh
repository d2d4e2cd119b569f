#!/usr/bin/env bash
# companyos completion bash, as bash itself runs it: the script is sourced, `complete -p`
# shows it registered, and the completion function is called the way bash calls it
# (COMP_WORDS, COMP_CWORD) for a few command lines; COMPREPLY must be exactly as expected.
# --app values come from a stand-in daemon (fake_apps_daemon.py).
# Usage: bash_completion_check.sh PATH_TO_COMPANYOS
set -uo pipefail
cli=${1:?usage: $0 PATH_TO_COMPANYOS}
# shellcheck disable=SC1090
source <("$cli" completion bash) || { echo "FAIL the script does not source"; exit 1; }
failures=0
registered=$(complete -p companyos 2>/dev/null)
if [ "$registered" = "complete -F _companyos companyos" ]; then
  echo "ok   complete -p companyos: $registered"
else
  echo "FAIL complete -p companyos: '$registered'"; failures=$((failures + 1))
fi
expect() {  # expect "WORDS..." "EXPECTED REPLY": the last word is the one completed
  local line=$1 expected=$2
  read -r -a COMP_WORDS <<<"$line"
  [[ $line == *" " ]] && COMP_WORDS+=("")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _companyos
  local got
  got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//')
  if [ "$got" = "$expected" ]; then
    echo "ok   '$line' -> $got"
  else
    echo "FAIL '$line' -> '$got', expected '$expected'"; failures=$((failures + 1))
  fi
}
expect "companyos aut" "automation"
expect "companyos automation pro" "promote"
expect "companyos run " "--help answer approve deny show undo"
expect "companyos snapshot --ap" "--app"
expect "companyos --js" "--json"
expect "companyos --json set" "set-value settings"
expect "companyos settings s" "set"
expect "companyos --socket /tmp/s sta" "status"

# --app: the names the daemon lists (a stand-in daemon here), matched and escaped as text —
# never expanded, though an app names itself — and nothing when no daemon answers in time.
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$scratch"' EXIT
PATH=$(dirname "$(readlink -f "$cli")"):$PATH
cd "$scratch" || exit 1
start_daemon() {  # start_daemon SOCKET ARGS...: waits for its "ready"
  local ready=$scratch/ready.$RANDOM
  python3 "$here/fake_apps_daemon.py" "$@" >"$ready" &
  for _ in $(seq 100); do grep -q ready "$ready" 2>/dev/null && return; sleep 0.1; done
  echo "FAIL the stand-in daemon did not start"; exit 1
}
start_daemon "$scratch/apps.sock" mousepad "mouse trap" '$(touch pwned)' 'x;touch pwned2'
start_daemon "$scratch/silent.sock" --silent
expect "companyos --socket $scratch/apps.sock snapshot --app mo" 'mouse\ trap mousepad'
expect "companyos --socket $scratch/apps.sock click --app \$" '\$\(touch\ pwned\)'
expect "companyos --socket $scratch/apps.sock find --app x" 'x\;touch\ pwned2'
expect "companyos --socket $scratch/apps.sock snapshot --app " \
  '\$\(touch\ pwned\) mouse\ trap mousepad x\;touch\ pwned2'
if ls "$scratch" | grep -q pwned; then
  echo "FAIL an app's name was run as a command"; failures=$((failures + 1))
else
  echo "ok   no app's name was run"
fi
expect "companyos --socket $scratch/silent.sock snapshot --app " ""
expect "companyos --socket $scratch/absent.sock snapshot --app " ""
[ "$failures" -eq 0 ] && echo "all passed" || { echo "$failures failed"; exit 1; }
