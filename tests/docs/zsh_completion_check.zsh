#!/usr/bin/env zsh
# companyos completion zsh, run by zsh: sourced it registers _companyos with compdef;
# installed in a $fpath directory it is autoloaded as the function itself. The completion
# function is called as the completion system calls it (words, CURRENT), with compadd
# standing in for the system's own: what it is handed, filtered by the word's prefix as
# compadd filters, must be exactly as expected. --app values come from a stand-in daemon
# (fake_apps_daemon.py); an app's name is offered as text, never run.
# Usage: zsh_completion_check.zsh PATH_TO_COMPANYOS
emulate -L zsh
setopt no_unset
cli=${${1:?usage: $0 PATH_TO_COMPANYOS}:A}
here=${0:A:h}
integer failures=0
registered=
compdef() { registered="$*" }
typeset -ga offered
compadd() { [[ $1 == -- ]] && shift; offered=("$@") }
source <("$cli" completion zsh)
if [[ $registered == "_companyos companyos" ]]; then
  print "ok   sourced, it registers: compdef $registered"
else
  print "FAIL sourced, it registers '$registered'"; failures+=1
fi

# expect LINE EXPECTED: the last word of LINE is the one completed.
expect() {
  local line=$1 expected=$2 got
  typeset -ga words
  words=("${(@z)line}")
  [[ $line == *" " ]] && words+=("")
  typeset -gi CURRENT=${#words}
  offered=()
  _companyos
  local prefix=${words[CURRENT]}
  got=${(j: :)${(o)${(M)offered:#${(b)prefix}*}}}
  if [[ $got == "$expected" ]]; then
    print -r -- "ok   '$line' -> $got"
  else
    print -r -- "FAIL '$line' -> '$got', expected '$expected'"; failures+=1
  fi
}
expect "companyos aut" "automation"
expect "companyos automation pro" "promote"
expect "companyos run " "--help answer approve deny show undo"
expect "companyos snapshot --ap" "--app"
expect "companyos --json set" "set-value settings"
expect "companyos --socket /tmp/s sta" "status"

scratch=$(mktemp -d)
PATH=${cli:A:h}:$PATH
cd $scratch
start_daemon() {  # start_daemon SOCKET ARGS...: waits for its "ready"
  local ready=$scratch/ready.$RANDOM
  python3 $here/fake_apps_daemon.py "$@" >$ready &!
  repeat 100; do grep -q ready $ready 2>/dev/null && return 0; sleep 0.1; done
  print "FAIL the stand-in daemon did not start"; exit 1
}
start_daemon $scratch/apps.sock mousepad "mouse trap" '$(touch pwned)'
start_daemon $scratch/silent.sock --silent
expect "companyos --socket $scratch/apps.sock snapshot --app mo" "mouse trap mousepad"
expect "companyos --socket $scratch/apps.sock snapshot --app " '$(touch pwned) mouse trap mousepad'
pwned=($scratch/*pwned*(N))
if (( ${#pwned} )); then
  print "FAIL an app's name was run as a command"; failures+=1
else
  print "ok   no app's name was run"
fi
expect "companyos --socket $scratch/silent.sock snapshot --app " ""
expect "companyos --socket $scratch/absent.sock snapshot --app " ""

# Installed in a $fpath directory: autoloaded, the file is the function.
unfunction _companyos
mkdir -p $scratch/functions
$cli completion zsh >$scratch/functions/_companyos
fpath=($scratch/functions $fpath)
autoload -Uz _companyos
expect "companyos automation dis" "disable"
expect "companyos automation dis" "disable"  # defined by the first call, called directly now

pkill -f "fake_apps_daemon.py $scratch" 2>/dev/null
rm -rf $scratch
if (( failures == 0 )); then print "all passed"; else print "$failures failed"; exit 1; fi
