#!/bin/sh
# Several `sdtrace cache add` processes at once lose no entry and never corrupt the index:
# 4 processes x 200 distinct builds, then 4 processes adding the same 200 files.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cache-lib.sh"

build_prog "$T/prog"
for k in 1 2 3 4; do mkbuilds "$T/prog" "$T/b$k" 200 "$k"; done
n=$(for k in 1 2 3 4; do ls "$T/b$k"; done | wc -l)
check_eq "800 files" 800 "$n"

pids=""
for k in 1 2 3 4; do
	"$SDTRACE" --cache-dir "$T/sdt" cache add -j 2 "$T/b$k" >"$T/out$k" 2>&1 &
	pids="$pids $!"
done
rcs=""
for p in $pids; do wait "$p"; rcs="$rcs $?"; done
check_eq "every adder succeeded" " 0 0 0 0" "$rcs"
total=$(cat "$T"/out? | sed -n 's/.* \([0-9]*\) added.*/\1/p' | awk '{s += $1} END {print s}')
check_eq "the adders together added 800" 800 "$total"
sdt cache list >"$T/list"
check_eq "no entry lost: 800 entries" 800 "$(wc -l <"$T/list")"
check_eq "800 distinct build-ids" 800 "$(awk '{print $1}' "$T/list" | sort -u | wc -l)"
check_eq "every entry ok" 800 "$(grep -c ' ok ' "$T/list")"
check_eq "the index finds every entry" 800 "$(sdt list '%h4cache:ev1' | wc -l)"
check "cache check finds no problem" sdt cache check

# the same 200 files from 4 processes at once
pids=""
for k in 1 2 3 4; do
	"$SDTRACE" --cache-dir "$T/same" cache add -j 2 "$T/b1" >"$T/same$k" 2>&1 &
	pids="$pids $!"
done
rcs=""
for p in $pids; do wait "$p"; rcs="$rcs $?"; done
check_eq "every adder of the same files succeeded" " 0 0 0 0" "$rcs"
check_eq "200 entries" 200 "$("$SDTRACE" --cache-dir "$T/same" cache list | wc -l)"
check_eq "the index has them all" 200 "$("$SDTRACE" --cache-dir "$T/same" list '%h4cache:ev2' | wc -l)"
check "cache check finds no problem" "$SDTRACE" --cache-dir "$T/same" cache check
finish
