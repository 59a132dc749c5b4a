#!/bin/sh
# The tour of `make demo` (scripts/demo.sh) on this build: as root, every step works and shows
# what it should (the probes, the cache, 32 events of 8 jobs with their strings, the latency of
# the 8 job__start/job__done pairs, a timeline file that parses as Chrome trace JSON, the counts);
# as another user (nobody) it lists and caches, then says that recording needs root, exit 0.
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd python3 setpriv
EX=$BUILD_DIR/examples/sdt-example
need_file "$EX" "$SRC_DIR/scripts/demo.sh"
real_pat="^[p-r]:[^ ]+ $EX:"
uprobes_guard "$real_pat"
cd "$T" || exit 1

DEMO_OUT=$T/demo sh "$SRC_DIR/scripts/demo.sh" "$BUILD_DIR" >demo.out 2>demo.err
check_eq "demo: exit 0" 0 $?
check "demo: records the 32 events of 8 jobs (said on stderr)" \
	grep -q "^sdtrace: 32 events recorded in '$T/demo/example.data'" demo.err
check_eq "demo: nothing else on stderr" "" "$(grep -v '^sdtrace: 32 events recorded' demo.err)"
has() { grep -q -- "$2" demo.out || fail "demo: $1" "no line matching: $2"; }
n=$_failed
has "lists the probes" ":%example:job__start$"
has "lists job__start's arguments" "arg3  -1@%al"
has "caches the example" "1 with SDT notes, 1 added"
awk '/sdtrace list .%example:\*.$/ { getline; print; exit }' demo.out >cache-list.out
grep -q "^$EX:%example:debug$" cache-list.out ||
	fail "demo: then lists it from the cache" "$(cat cache-list.out)"
has "reports the strings" 'example:job__start: id=0 name="fetch" prio=-2$'
has "reports the debug message" 'example:debug: msg="job 0 (fetch) is starting" len=25$'
has "reports the counts" "^ *8  example:job__done  "
has "shows the latency of the 8 jobs" "^  count 8  min "
has "shows the histogram" "^  ns.*  count$"
has "says where the timeline is" "^# timeline: $T/demo/example.trace.json"
has "counts with stat" "^ *3  %example:tick$"
[ "$_failed" = "$n" ] && pass "demo: every step shows what it should"
check "demo: the timeline is Chrome trace JSON with 8 job slices" python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))
ev = t["traceEvents"] if isinstance(t, dict) else t
b = [e for e in ev if e.get("ph") == "B" and "job" in e.get("name", "")]
assert len(b) == 8, b' "$T/demo/example.trace.json"

# as nobody: no recording, said so, exit 0. Nobody runs copies (lib.sh: nobody_prepare) of
# sdtrace, the example and the tour, laid out as a build directory: NB/sdtrace, NB/examples.
if nobody_prepare "$SRC_DIR/scripts/demo.sh"; then
	mkdir "$NB/examples" "$NB/home" && cp "$EX" "$NB/examples/" && chmod 755 "$NB/examples" &&
		chown nobody "$NB/home" || exit 1
	(cd "$NB/home" && as_nobody HOME="$NB/home" SDTRACE_CACHE_DIR= DEMO_OUT="$NB/home/demo" \
		sh "$NB/demo.sh" "$NB") >nb.out 2>nb.err
	check_eq "demo as nobody: exit 0" 0 $?
	check "demo as nobody: it ran the copy" grep -q "^# sdtrace [0-9]" nb.out
	check "demo as nobody: lists from the cache" grep -q ':%example:tick$' nb.out
	check "demo as nobody: says recording needs root" grep -q 'needs root' nb.out
	check_eq "demo as nobody: records nothing" "" "$(cat nb.out nb.err | grep 'events recorded')"
	check "demo as nobody: its cache is in its home" test -d "$NB/home/demo/cache"
else
	say "no user nobody: the demo as another user is not run"
fi
uprobes_unchanged
finish
