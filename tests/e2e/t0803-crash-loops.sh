#!/bin/sh
# Crashes, many times (issue 8): `sdtrace record` killed with SIGKILL at 50 different moments —
# while arming, recording or disarming —; after each, the partial data file reads up to its last
# complete record, and the next sdtrace removes every orphaned probe, so uprobe_events ends as it
# began. And 4 `cache add` processes with a `cache purge` at once on overlapping trees lose
# nothing: every entry whose file exists is found through the index afterwards.
. "$(dirname "$0")/lib.sh"

need_tracefs
need_cmd setsid
P="$PROGS_DIR/prog-sizes"
need_file "$P"
uprobes_guard

runs=${SIGKILL_RUNS:-50}
i=0
unreadable=0
while [ $i -lt "$runs" ]; do
	# own process group: the traced command dies with sdtrace
	setsid "$SDTRACE" record -x "$P" -e '%sizes:*' -o "$T/r$i.data" -- "$P" 400 \
		>/dev/null 2>&1 &
	pid=$!
	sleep "0.$(( (i * 53) % 100 ))" 2>/dev/null || sleep 1
	kill -9 -- "-$pid" 2>/dev/null || kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	# a data file that exists must read up to its last complete record (exit 0, maybe truncated)
	if [ -e "$T/r$i.data" ] && ! "$SDTRACE" report -i "$T/r$i.data" >"$T/rep" 2>&1; then
		unreadable=$((unreadable + 1))
		fail "the data file of kill $i reads up to its last record" "$(head -n 3 "$T/rep")"
	fi
	i=$((i + 1))
done
check_eq "every partial data file was readable" 0 "$unreadable"

# The next invocations remove the dead sessions' groups (the kernel may still be closing the
# killed processes' events for a moment: their removal is retried by each later sdtrace).
n=0
while [ $n -lt 20 ]; do
	"$SDTRACE" stat -x "$P" -e '%sizes:min' -o /dev/null -- /bin/true >/dev/null 2>&1
	grep -q '^[pr]:sdtrace_' "$TRACEFS/uprobe_events" || break
	sleep 0.5
	n=$((n + 1))
done
uprobes_unchanged "no orphaned uprobe after $runs kills"

# ---- cache: 4 adders and a purge at once, on overlapping trees -------------------------------
. "$(dirname "$0")/cache-lib.sh"
build_prog "$T/prog"
mkbuilds "$T/prog" "$T/tree/a" 60 3
mkbuilds "$T/prog" "$T/tree/b" 30 4
C="$T/cache-concurrent" # not the record loop's cache ($SDTRACE_CACHE_DIR)
"$SDTRACE" --cache-dir "$C" cache add -r "$T/tree/b" >/dev/null 2>&1
# entries for the purge to drop: their files are gone
for f in $(ls "$T/tree/b" | head -n 5); do rm -f "$T/tree/b/$f"; done
"$SDTRACE" --cache-dir "$C" cache add -r "$T/tree" >"$T/add1" 2>&1 &
"$SDTRACE" --cache-dir "$C" cache add -r "$T/tree" >"$T/add2" 2>&1 &
"$SDTRACE" --cache-dir "$C" cache add -r "$T/tree/a" >"$T/add3" 2>&1 &
"$SDTRACE" --cache-dir "$C" cache add -r "$T/tree/b" "$T/tree/a" >"$T/add4" 2>&1 &
"$SDTRACE" --cache-dir "$C" cache purge >"$T/purge" 2>&1 &
wait
check "cache check passes after 4 adders and a purge" "$SDTRACE" --cache-dir "$C" cache check
"$SDTRACE" --cache-dir "$C" cache purge >/dev/null 2>&1
want=$(find "$T/tree" -type f -name "bin-*" | wc -l)
check_eq "every build whose file exists is cached, the gone ones purged" "$want" \
	"$("$SDTRACE" --cache-dir "$C" cache list | grep -c ' ok ')"
check_eq "and found through the index" "$want" \
	"$("$SDTRACE" --cache-dir "$C" list '%h4cache:multi' | wc -l)"
finish
