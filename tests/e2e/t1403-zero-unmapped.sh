#!/bin/sh
# Never a silent zero: an event in a file the -p process does not map. prog-wait maps
# libprog-lib.so but not prog-sizes; with -x prog-sizes, stat -p ends with "sdtrace: 0 hits:
# %sizes:...: not-mapped: process PID does not map .../prog-sizes" (from /proc/PID/maps at the
# end, the process being alive), one line per event; lib:call, in a file it maps but never
# fired (no SIGUSR1), gets "not-run". Many silent events: 20 lines, then "... and N more".
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR
JVM=/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
need_file "$P/prog-wait" "$P/prog-sizes" "$P/libprog-lib.so"
need_tracefs
uprobes_guard
cd "$T" || exit 1

"$P/prog-wait" w.pid >w.out 2>&1 &
wpid=$!
at_exit "kill -9 $wpid 2>/dev/null"
wait_for 10 test -s w.pid
check_eq "prog-wait started" "$wpid" "$(cat w.pid 2>/dev/null)"

"$SDTRACE" stat -p "$wpid" --duration 0.5 -x "$P/prog-sizes" -x "$P/libprog-lib.so" \
	-e '%sizes:*' -e %lib:call >s.out 2>s.err
check_eq "stat -p: exit 0" 0 $?
for e in min max small; do
	check "stat: %sizes:$e: not mapped by process $wpid" grep -q \
		"^sdtrace: 0 hits: %sizes:$e: not-mapped: process $wpid does not map $P/prog-sizes" \
		s.err
done
check "stat: %lib:call (mapped, not fired): not-run" \
	grep -q '^sdtrace: 0 hits: %lib:call: not-run: ' s.err
# what is known, then the cause hedged (not "the code that fires it did not run", as fact)
check "stat: not-run says what is known: the library mapped and armed, no hit" \
	grep -q '^sdtrace: 0 hits: %lib:call: not-run: mapped and .*libprog-lib.so armed, no hit: most likely' s.err
check "stat: not-run hedges the rest (a switch, processes not traced)" \
	grep -q 'not-run: .*or it ran in processes that were not traced' s.err
check_eq "stat: one line per event" 4 "$(grep -c '^sdtrace: 0 hits:' s.err)"

"$SDTRACE" trace -p "$wpid" --duration 0.5 -x "$P/prog-sizes" -e %sizes:min >t.out 2>t.err
check_eq "trace -p: exit 0" 0 $?
check "trace: the same line" grep -q "^sdtrace: 0 hits: %sizes:min: not-mapped: process $wpid" \
	t.err

if [ -e "$JVM" ]; then
	"$SDTRACE" stat -p "$wpid" --duration 0.5 -x "$JVM" -e '%hotspot:*' >j.out 2>j.err
	check_eq "stat -p -x libjvm.so '%hotspot:*': exit 0" 0 $?
	total=$(grep -c '%hotspot:' j.out)
	check_eq "stat: 20 lines of the $total silent events" 20 "$(grep -c '^sdtrace: 0 hits:' j.err)"
	check "stat: then how many more" \
		grep -q "^sdtrace: \.\.\. and $((total - 20)) more events with no hit$" j.err
else
	say "no $JVM: the cap on the lines is not checked"
fi
kill -TERM "$wpid"
wait "$wpid" 2>/dev/null
uprobes_unchanged
finish
