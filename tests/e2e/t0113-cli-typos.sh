#!/bin/sh
# SPDX-License-Identifier: MIT
# Typos get "did you mean": an -e spec of record, trace and stat that matches nothing names the
# nearest events: with -a of the cache's index, and says "add binaries" only when the cache has
# nothing close (of that provider); with -x of the file itself; with -- CMD or -p of the files
# the target runs (cached or not: its executable, its libraries), then of the cache; report --pair with a spec that
# matches no event of the recording is an error naming the recording's nearest events, not a
# pair of count 0. A stray argument after -p PID or -a is named as such. Each is one error line,
# nothing on stdout, no file written, nothing left in uprobe_events.
. "$(dirname "$0")/lib.sh"
need_tracefs
P=$PROGS_DIR
need_file "$P/prog-sizes" "$P/prog-const"
: "${HELPER_DIR:=$BUILD_DIR/tests/helper}"
PAIRS=$HELPER_DIR/sdtrace-test-pairs
need_file "$PAIRS"
cd "$T" || exit 1
uprobes_guard
C=$SDTRACE_CACHE_DIR

# fails NAME RC EXACT-STDERR CMD...: exit RC, that one line on stderr, nothing on stdout.
fails() {
	_n=$1 _rc=$2 _err=$3
	shift 3
	"$@" >"$T/out" 2>"$T/err"
	check_eq "$_n: exit $_rc" "$_rc" "$?"
	check_eq "$_n: the message" "$_err" "$(cat "$T/err")"
	check_eq "$_n: nothing on stdout" "" "$(cat "$T/out")"
}

check "cache add" "$SDTRACE" cache add "$P/prog-sizes" "$P/prog-const"

# ---- -e with -a: the nearest events of the cache, no "add binaries" when the provider is there
for cmd in "record -o $T/t.data" trace stat; do
	# shellcheck disable=SC2086
	fails "$cmd -e %sizes:mn -a" 1 \
		"sdtrace: error: no SDT event matches '%sizes:mn' in the cache '$C'; did you mean %sizes:min?" \
		"$SDTRACE" $cmd -e %sizes:mn -a
done
check "record: no data file" test ! -e "$T/t.data"
fails "-a, the provider's typo" 1 \
	"sdtrace: error: no SDT event matches '%size:max' in the cache '$C'; did you mean %sizes:max?" \
	"$SDTRACE" trace -e %size:max -a
fails "-a, a glob with a typo" 1 \
	"sdtrace: error: no SDT event matches '%cosnt:*' in the cache '$C'; did you mean %const:*?" \
	"$SDTRACE" trace -e '%cosnt:*' -a
fails "-a, nothing close, provider cached" 1 \
	"sdtrace: error: no SDT event matches '%sizes:nothing_like_it' in the cache '$C' (it has provider 'sizes': 'sdtrace list %sizes:*' lists its events)" \
	"$SDTRACE" trace -e %sizes:nothing_like_it -a
fails "-a, nothing close at all: add binaries" 1 \
	"sdtrace: error: no SDT event matches '%nosuch:event' in the cache '$C' (add binaries with 'sdtrace cache add PATH')" \
	"$SDTRACE" trace -e %nosuch:event -a

# ---- -e with -- CMD or -p: the nearest of the target's own events, then the cache's ---------
# misses NAME SPEC-TEXT WHERE HINT CMD...: exit 1, one line on stderr: no SDT event matches
# 'SPEC-TEXT' in WHERE (what the target runs), ending with HINT (empty: no "did you mean").
misses() {
	_n=$1 _spec=$2 _where=$3 _hint=$4
	shift 4
	"$@" >"$T/out" 2>"$T/err"
	check_eq "$_n: exit 1" 1 "$?"
	check_eq "$_n: one line" 1 "$(wc -l <"$T/err" | tr -d ' ')"
	_e=$(cat "$T/err")
	case $_e in
	"sdtrace: error: no SDT event matches '$_spec' in $_where"*", nor in the cache: it runs "*"$_hint")
		case $_hint:$_e in
		:*"did you mean"*) fail "$_n: the message" "no did you mean expected: $_e" ;;
		*) pass "$_n: the message" ;;
		esac ;;
	*) fail "$_n: the message" "expected: ... '$_spec' in $_where ...$_hint" "actual:   $_e" ;;
	esac
	check_eq "$_n: nothing on stdout" "" "$(cat "$T/out")"
}
for cmd in "record -o $T/t.data" trace stat; do
	# shellcheck disable=SC2086
	misses "$cmd -e %sizes:mn -- CMD (cached)" %sizes:mn "'$P/prog-sizes'" \
		"; did you mean %sizes:min?" "$SDTRACE" $cmd -e %sizes:mn -- "$P/prog-sizes"
done
check "record -- CMD: no data file" test ! -e "$T/t.data"
misses "-- CMD, a glob with a typo" '%cosnt:*' "'$P/prog-const'" "; did you mean %const:*?" \
	"$SDTRACE" trace -e '%cosnt:*' -- "$P/prog-const"
misses "-- CMD, an event of the cache only" %const:valeus "'$P/prog-sizes'" \
	"; did you mean %const:values?" "$SDTRACE" trace -e %const:valeus -- "$P/prog-sizes"
misses "-- CMD, nothing close" %sizes:nothing_like_it "'$P/prog-sizes'" "" \
	"$SDTRACE" trace -e %sizes:nothing_like_it -- "$P/prog-sizes"
# not cached: the command's executable is the only place the name is
C2=$T/c2
misses "-- CMD not cached, typo: the executable's names" %const:valeus "'$P/prog-const'" \
	"; did you mean %const:values?" "$SDTRACE" --cache-dir "$C2" trace -e %const:valeus -- \
	"$P/prog-const"
misses "-- CMD not cached, typo of a library's event" %lib:cal "'$P/prog-uselib'" \
	"; did you mean %lib:call?" "$SDTRACE" --cache-dir "$C2" trace -e %lib:cal -- \
	"$P/prog-uselib"
W=$P/prog-wait
if [ -x "$W" ]; then
	"$W" "$T/w.pid" >"$T/w.out" 2>&1 &
	wpid=$!
	at_exit "kill -9 $wpid 2>/dev/null"
	wait_for 5 test -s "$T/w.pid"
	misses "-p not cached, typo: the process's names" %wait:tik "process $wpid (prog-wait)" \
		"; did you mean %wait:tick?" "$SDTRACE" --cache-dir "$C2" stat -e %wait:tik -p "$wpid"
	misses "-p not cached, typo of its library's event" %lib:gatd "process $wpid (prog-wait)" \
		"; did you mean %lib:gated?" "$SDTRACE" --cache-dir "$C2" stat -e %lib:gatd -p "$wpid"
	kill "$wpid" 2>/dev/null
	wait "$wpid" 2>/dev/null
else
	say "no $W: the -p cases are not run"
fi
PY=/usr/bin/python3.11
if [ -x "$PY" ]; then
	misses "-e %python:gc_start -- python3.11 (not cached)" %python:gc_start "'$PY'" \
		"; did you mean %python:gc__start?" "$SDTRACE" --cache-dir "$C2" trace \
		-e %python:gc_start -- "$PY" -c pass
	check "cache add python" "$SDTRACE" cache add "$PY"
	fails "-a -e %python:gc_start, python cached" 1 \
		"sdtrace: error: no SDT event matches '%python:gc_start' in the cache '$C'; did you mean %python:gc__start?" \
		"$SDTRACE" trace -e %python:gc_start -a
else
	say "no $PY: the python cases are not run"
fi

# ---- -x: the file's own events ---------------------------------------------------------------
fails "-x, typo" 1 \
	"sdtrace: error: no SDT event matches '$P/prog-sizes:%sizes:smal' in '$P/prog-sizes'; did you mean %sizes:small?" \
	"$SDTRACE" trace -x "$P/prog-sizes" -e %sizes:smal -- "$P/prog-sizes"
fails "-x, nothing close" 1 \
	"sdtrace: error: no SDT event matches '$P/prog-sizes:%sizes:zzzzzz' in '$P/prog-sizes' ('sdtrace list -x $P/prog-sizes' lists its events)" \
	"$SDTRACE" trace -x "$P/prog-sizes" -e %sizes:zzzzzz -- "$P/prog-sizes"
fails "two -x, typo" 1 \
	"sdtrace: error: no SDT event matches '%const:zer' in any of the 2 -x binaries; did you mean %const:zero?" \
	"$SDTRACE" stat -x "$P/prog-sizes" -x "$P/prog-const" -e '%sizes:*' -e %const:zer -- \
	"$P/prog-sizes"

# ---- a stray argument after -p PID or -a ----------------------------------------------------
for cmd in record trace stat; do
	fails "$cmd -p 1 2" 2 "sdtrace: unexpected argument '2' (a command goes after --)
see 'sdtrace $cmd --help'" "$SDTRACE" $cmd -e %sizes:min -p 1 2
	fails "$cmd -a foo" 2 "sdtrace: unexpected argument 'foo' (a command goes after --)
see 'sdtrace $cmd --help'" "$SDTRACE" $cmd -e %sizes:min -a foo
done
fails "-p and -- CMD: only one" 2 "sdtrace: give only one of -- CMD, -p PID and -a
see 'sdtrace trace --help'" "$SDTRACE" trace -e %sizes:min -p 1 -- "$P/prog-sizes"

# ---- report --pair: the recording's nearest events ------------------------------------------
check "write a recording" "$PAIRS" -o pairs.data pairs
fails "--latency --pair, typo in the start" 1 \
	"sdtrace: error: --pair '%app:req__strat,%app:req__done': no event of the recording matches '%app:req__strat'; did you mean %app:req__start?" \
	"$SDTRACE" report -i pairs.data --latency --pair %app:req__strat,%app:req__done
fails "--latency --pair, typo in the end, --json" 1 \
	"sdtrace: error: --pair '%app:req__start,%app:req__don': no event of the recording matches '%app:req__don'; did you mean %app:req__done?" \
	"$SDTRACE" report -i pairs.data --latency --json --pair %app:req__start,%app:req__don
fails "--latency --pair, nothing close" 1 \
	"sdtrace: error: --pair '%zz:a,%zz:b': no event of the recording matches '%zz:a' (see 'sdtrace report --stats')" \
	"$SDTRACE" report -i pairs.data --latency --pair %zz:a,%zz:b
"$SDTRACE" report -i pairs.data --format=chrome -o chrome.json --pair '%app:req__start,%ap:req__done' \
	>"$T/out" 2>"$T/err"
check_eq "--format=chrome --pair, typo: exit 1" 1 "$?"
check "--format=chrome --pair, typo: did you mean" grep -q "did you mean %app:req__done?" "$T/err"
check "--format=chrome --pair, typo: no output file" test ! -e chrome.json
"$SDTRACE" report -i pairs.data --latency --pair '%app:req__start,%app:req__done' >"$T/out" 2>&1
check_eq "--pair that matches: exit 0" 0 "$?"
uprobes_unchanged
finish
