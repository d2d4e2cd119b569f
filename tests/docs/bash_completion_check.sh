#!/usr/bin/env bash
# companyos completion bash, as bash itself runs it: the script is sourced, `complete -p`
# shows it registered, and the completion function is called the way bash calls it
# (COMP_WORDS, COMP_CWORD) for a few command lines; COMPREPLY must be exactly as expected.
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
expect "companyos run " "--help approve deny show undo"
expect "companyos snapshot --ap" "--app"
expect "companyos --js" "--json"
expect "companyos --json set" "set-value settings"
expect "companyos settings s" "set"
expect "companyos --socket /tmp/s sta" "status"
[ "$failures" -eq 0 ] && echo "all passed" || { echo "$failures failed"; exit 1; }
