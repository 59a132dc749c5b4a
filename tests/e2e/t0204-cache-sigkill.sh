#!/bin/sh
# A SIGKILL at any moment of an add leaves a cache that `cache check` accepts (at worst without
# the entries being written), whose index is never trusted stale, and that a later add completes.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cache-lib.sh"

build_prog "$T/prog"
mkbuilds "$T/prog" "$T/bins" 150 7
i=0
killed=0
# 50 kills at 50 moments (issue 8: "SIGKILL of cache add at random moments (50 runs)")
while [ $i -lt "${SIGKILL_RUNS:-50}" ]; do
	"$SDTRACE" --cache-dir "$T/sdt" cache add -j 2 "$T/bins" >/dev/null 2>&1 &
	pid=$!
	# kill at a different moment each time: 0 to ~0.6 s
	sleep "0.$(( (i * 37) % 60 ))" 2>/dev/null || sleep 1
	kill -9 "$pid" 2>/dev/null && killed=$((killed + 1))
	wait "$pid" 2>/dev/null
	if ! "$SDTRACE" --cache-dir "$T/sdt" cache check >"$T/check$i" 2>&1; then
		fail "cache check accepts the cache after kill $i" "$(head -n 20 "$T/check$i")"
	else
		pass "cache check accepts the cache after kill $i"
	fi
	# what the index finds is exactly what the entries hold
	e=$("$SDTRACE" --cache-dir "$T/sdt" cache list | grep -c ' ok ')
	l=$("$SDTRACE" --cache-dir "$T/sdt" list '%h4cache:multi' | wc -l)
	check_eq "index and entries agree after kill $i" "$e" "$l"
	i=$((i + 1))
done
check "at least one add was killed mid-way" test "$killed" -ge 1
check "a later add completes" sdt cache add "$T/bins"
check_eq "all 150 entries" 150 "$(sdt cache list | grep -c ' ok ')"
check "repair sweeps what the kills left" sdt cache check --repair
check_eq "no temporaries left" "" "$(find "$T/sdt" -name '.sdtrace-tmp.*')"
check "clean afterwards" sdt cache check
finish
