#!/bin/sh
# SPDX-License-Identifier: MIT
# Mistakes people bring from git, perf and bpftrace get a hint, as git and perf give one:
#  - a mistyped subcommand (recrod) or long option (--duraton) gets "did you mean";
#  - --cache-dir (a global option) after the subcommand is named as a global option;
#  - bpftrace's probe form usdt:/path:provider:event (and usdt:path:event, any provider) is
#    taken as perf's sdt_provider:event is.
# Each is a usage error (2) with nothing on stdout; the bpftrace forms list what ours list.
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR/prog-sizes
need_file "$P"
cd "$T" || exit 1
S=$SDTRACE

# usage NAME EXPECTED-LINE CMD...: exit 2, EXPECTED-LINE on stderr, nothing on stdout
usage() {
	_n=$1 _want=$2
	shift 2
	"$@" >"$T/out" 2>"$T/err"
	check_eq "$_n: exit 2" 2 "$?"
	check "$_n: says '$_want'" grep -qxF "$_want" "$T/err"
	check_eq "$_n: nothing on stdout" "" "$(cat "$T/out")"
}
usage "recrod" "sdtrace: 'recrod' is not a sdtrace command; did you mean 'record'?" $S recrod
usage "stt" "sdtrace: 'stt' is not a sdtrace command; did you mean 'stat'?" $S stt -e x
usage "xyzzy (nothing near)" "sdtrace: 'xyzzy' is not a sdtrace command" $S xyzzy
usage "record --duraton" "sdtrace: unknown option '--duraton'; did you mean '--duration'?" \
	$S record --duraton 5 -e '%x:y' -- true
usage "stat --duraton=5" "sdtrace: unknown option '--duraton'; did you mean '--duration'?" \
	$S stat --duraton=5 -e '%x:y' -- true
usage "report --formt" "sdtrace: unknown option '--formt'; did you mean '--format'?" \
	$S report --formt=json
usage "list --jsno" "sdtrace: unknown option '--jsno'; did you mean '--json'?" $S list --jsno
usage "record --cache-dir" \
	"sdtrace: '--cache-dir' is a global option: put it before the command (sdtrace --cache-dir ... record ...)" \
	$S record --cache-dir "$T/c" -e '%x:y' -- true
usage "list --cache-dir" \
	"sdtrace: '--cache-dir' is a global option: put it before the command (sdtrace --cache-dir ... list ...)" \
	$S list --cache-dir "$T/c" '%x:y'
check "the help line has no double space" grep -qxF "see 'sdtrace list --help'" "$T/err"

# bpftrace's spec forms
$S list -x "$P" '%sizes:*' | sed 's/.*%//' | sort >ours.txt
check "prog-sizes has sizes: events" test -s ours.txt
$S list "usdt:$P:sizes:*" | sed 's/.*%//' | sort >bt4.txt
check_eq "usdt:PATH:provider:event lists what PATH:%provider:event lists" \
	"$(cat ours.txt)" "$(cat bt4.txt)"
ev=$(head -n 1 ours.txt | sed 's/.*://')
check_eq "usdt:PATH:event (any provider)" "$P:%sizes:$ev" "$($S list "usdt:$P:$ev")"
check_eq "usdt::provider:event with -x" "$P:%sizes:$ev" "$($S list -x "$P" "usdt::sizes:$ev")"
usage "usdt:nocolon" \
	"sdtrace: event spec 'usdt:nocolon': expected usdt:PATH:[PROVIDER:]EVENT (bpftrace's form) or [PATH:]%provider:event" \
	$S list "usdt:nocolon"
finish
