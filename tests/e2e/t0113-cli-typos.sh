#!/bin/sh
# SPDX-License-Identifier: MIT
# Typos get "did you mean": an -e spec of record, trace and stat that matches nothing names the
# nearest events of the cache's index (and, with -x, of the file itself), and says "add binaries"
# only when the cache has nothing close (of that provider); report --pair with a spec that
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

# ---- -e: the nearest events of the cache, no "add binaries" when the provider is there ------
for cmd in "record -o $T/t.data" trace stat; do
	# shellcheck disable=SC2086
	fails "$cmd -e %sizes:mn" 1 \
		"sdtrace: error: no SDT event matches '%sizes:mn' in the cache '$C'; did you mean %sizes:min?" \
		"$SDTRACE" $cmd -e %sizes:mn -- "$P/prog-sizes"
done
check "record: no data file" test ! -e "$T/t.data"
fails "-e with the provider's typo" 1 \
	"sdtrace: error: no SDT event matches '%size:max' in the cache '$C'; did you mean %sizes:max?" \
	"$SDTRACE" trace -e %size:max -- "$P/prog-sizes"
fails "-e, a glob with a typo" 1 \
	"sdtrace: error: no SDT event matches '%cosnt:*' in the cache '$C'; did you mean %const:*?" \
	"$SDTRACE" trace -e '%cosnt:*' -- "$P/prog-const"
fails "-e, nothing close, provider cached" 1 \
	"sdtrace: error: no SDT event matches '%sizes:nothing_like_it' in the cache '$C' (it has provider 'sizes': 'sdtrace list %sizes:*' lists its events)" \
	"$SDTRACE" trace -e %sizes:nothing_like_it -- "$P/prog-sizes"
fails "-e, nothing close at all: add binaries" 1 \
	"sdtrace: error: no SDT event matches '%nosuch:event' in the cache '$C' (add binaries with 'sdtrace cache add PATH')" \
	"$SDTRACE" trace -e %nosuch:event -- "$P/prog-sizes"
PY=/usr/bin/python3.11
if [ -x "$PY" ]; then
	check "cache add python" "$SDTRACE" cache add "$PY"
	fails "-e %python:gc_start, python cached" 1 \
		"sdtrace: error: no SDT event matches '%python:gc_start' in the cache '$C'; did you mean %python:gc__start?" \
		"$SDTRACE" trace -e %python:gc_start -- "$PY" -c pass
else
	say "no $PY: the python case is not run"
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
# not cached, found in the command's executable
C2=$T/c2
fails "-- CMD not cached, typo: the executable's names" 1 \
	"sdtrace: error: no SDT event matches '$P/prog-const:%const:valeus' in '$P/prog-const'; did you mean %const:values?" \
	"$SDTRACE" --cache-dir "$C2" trace -e %const:valeus -- "$P/prog-const"

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
