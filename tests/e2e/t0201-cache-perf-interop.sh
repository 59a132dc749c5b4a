#!/bin/sh
# Interop with the real perf, both ways, on one cache directory:
#  - after `sdtrace cache add BIN`, `perf list sdt` shows its events, and `perf probe sdt_X:Y` +
#    `perf record -e sdt_X:Y` record every firing (also the argument perf itself would drop);
#  - after `perf buildid-cache --add BIN`, `sdtrace list` and `sdtrace cache list` find it,
#    although the index was built before perf changed the cache.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cache-lib.sh"
need_peer perf

PROV=h4i$$
build_prog "$T/prog" "$PROV"
build_prog "$T/prog2" "${PROV}b"
C="$T/perfcache"   # one cache for both tools
pp() { HOME="$T/perfhome" perf --buildid-dir "$C" "$@"; }
st() { "$SDTRACE" --cache-dir "$C" "$@"; }

# ---- sdtrace writes, perf reads ------------------------------------------------------------
check "sdtrace cache add" st cache add "$T/prog"
pp list sdt >"$T/perf-list" 2>&1
check "perf list sdt shows ev1" grep -q "sdt_$PROV:ev1 " "$T/perf-list"
check "perf list sdt shows multi" grep -q "sdt_$PROV:multi " "$T/perf-list"
check_eq "perf list sdt shows our 3 events" 3 "$(grep -c "sdt_$PROV:" "$T/perf-list")"

# ---- perf writes, sdtrace reads (the index is already built: it must notice) -----------------
st list >/dev/null
pp buildid-cache --add "$T/prog2" >/dev/null 2>&1 || fail "perf buildid-cache --add"
check_eq "sdtrace list finds perf's entry" "$T/prog2:%${PROV}b:ev1" "$(st list "%${PROV}b:ev1")"
check_eq "sdtrace list finds both (perf form, glob)" 2 "$(st list "sdt_${PROV}*:ev2" | wc -l)"
check "sdtrace cache list shows perf's entry as perf's" sh -c "'$SDTRACE' --cache-dir '$C' cache list --json | grep -q '\"path\":\"$T/prog2\".*\"written_by\":\"perf\"'"
check "cache check accepts perf's entry" st cache check

# ---- perf probe + perf record from a cache sdtrace wrote --------------------------------------
need_tracefs
uprobes_guard "^[p-r]:sdt_${PROV}c?/"
at_exit "HOME='$T/perfhome' perf --buildid-dir '$C' probe -q -d 'sdt_${PROV}:*' >/dev/null 2>&1"
check "perf probe sdt_$PROV:ev1 (from sdtrace's cache)" pp probe -q "sdt_$PROV:ev1"
check "the uprobe carries sdtrace's constant arg" grep -q "^p:sdt_${PROV}/ev1 .*arg2=\\\\7:s32" "$TRACEFS/uprobe_events"
pp record -q -e "sdt_$PROV:ev1" -o "$T/perf.data" -- "$T/prog" 5 >/dev/null 2>&1 ||
	fail "perf record -e sdt_$PROV:ev1"
pp script -i "$T/perf.data" >"$T/script" 2>/dev/null
check_eq "perf recorded every firing" 5 "$(grep -c "sdt_$PROV:ev1" "$T/script")"
check_eq "with the constant perf alone drops" 5 "$(grep -c 'arg2=7' "$T/script")"
pp probe -q -d "sdt_${PROV}:*" >/dev/null 2>&1

# ---- --no-copy: an entry without `elf` still works for perf -----------------------------------
build_prog "$T/prog3" "${PROV}c"
check "sdtrace cache add --no-copy" "$SDTRACE" --cache-dir "$T/nc" cache add --no-copy "$T/prog3"
check_eq "no elf in the entry" "probes sdtrace.meta" "$(echo $(ls "$T/nc$T/prog3"/*/))"
check "perf list sdt without elf" sh -c "HOME='$T/perfhome' perf --buildid-dir '$T/nc' list sdt | grep -q 'sdt_${PROV}c:ev1 '"
at_exit "HOME='$T/perfhome' perf --buildid-dir '$T/nc' probe -q -d 'sdt_${PROV}c:*' >/dev/null 2>&1"
check "perf probe without elf" env HOME="$T/perfhome" perf --buildid-dir "$T/nc" probe -q "sdt_${PROV}c:ev1"
HOME="$T/perfhome" perf --buildid-dir "$T/nc" probe -q -d "sdt_${PROV}c:*" >/dev/null 2>&1
uprobes_unchanged "no uprobe left behind"
finish
