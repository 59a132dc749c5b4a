#!/bin/sh
# What the cache holds is checked against the binaries it describes, never just believed:
#  - an entry's `elf` swapped for another build's: `cache check` names it (with the build-id it
#    has), `list --build-id` does not list it under the entry's build-id, `--repair` puts the
#    right binary back;
#  - a garbage `probes` file (random bytes, a cut line): a lookup by name still finds the other
#    entries and warns about each damaged file, naming it and the cause (its events are missed,
#    never in silence); `cache list` shows it broken, `cache check` reports it;
#  - a well-formed but wrong `probes` file (an event renamed, an offset moved): `cache check`
#    compares it with the binary's notes and names the difference;
#  - `--repair` rewrites all of them from the files: a lookup finds every entry again.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cache-lib.sh"
unset DEBUGINFOD_URLS

build_prog "$T/prog"
mkbuilds "$T/prog" "$T/bins" 20 5
check "add 20 builds" sdt cache add "$T/bins"
check "cache check: fine" sdt cache check
check_eq "20 found" 20 "$(sdt list '%h4cache:ev1' | wc -l)"
dir_of() { echo "$T/sdt$T/bins/$1/$(ls "$T/sdt$T/bins/$1")"; }

# ---- a swapped elf ------------------------------------------------------------------------
D1=$(dir_of bin-0001)
D2=$(dir_of bin-0002)
BID1=$(basename "$D1")
BID2=$(basename "$D2")
# `elf` is a hard link to the binary: replaced, never written into
rm "$D1/elf" && cp "$D2/elf" "$D1/elf"
sdt cache check >"$T/c.elf" 2>&1
check_eq "swapped elf: check fails" 1 "$?"
check "... naming the entry and the build-id its elf has" \
	grep -q "bin-0001' ($BID1): its elf is not the binary of its build-id: .*has build-id $BID2, not $BID1" "$T/c.elf"
# with the binary gone, the entry's elf is what `list --build-id` would read
mv "$T/bins/bin-0001" "$T/bin-0001.away"
sdt list --build-id "$BID1" >"$T/l.out" 2>"$T/l.err"
check_eq "list --build-id of the swapped entry fails (exit 2)" 2 "$?"
check_eq "... listing nothing" "" "$(cat "$T/l.out")"
check "... saying why" grep -q "elf' is not the binary of build-id $BID1: not used" "$T/l.err"
mv "$T/bin-0001.away" "$T/bins/bin-0001"
check "repair" sdt cache check --repair
check "... rewrote the entry from the file" sh -c "sdt() { '$SDTRACE' --cache-dir '$T/sdt' \"\$@\"; }; sdt list --build-id $BID1 | grep -q '^$T/bins/bin-0001:%h4cache:ev1'"
check_eq "... its elf is the right build" "$BID1" \
	"$("$SDTRACE" list -x "$D1/elf" --json | sed -n 's/.*"build_id":"\([0-9a-f]*\)".*/\1/p' | head -n 1)"
check "cache check: fine again" sdt cache check

# ---- garbage probes files -------------------------------------------------------------------
P3="$(dir_of bin-0003)/probes"
P4="$(dir_of bin-0004)/probes"
P5="$(dir_of bin-0005)/probes"
P6="$(dir_of bin-0006)/probes"
head -c "$(stat -c %s "$P3")" /dev/urandom | tr '\n' 'x' >"$P3.new" && mv "$P3.new" "$P3"
printf '%s\n' 'p:sdt_h4cache/ev1 garbage' '%sdt_h4cache:' >"$P4"
head -c 30 "$P5" >"$P5.new" && mv "$P5.new" "$P5"      # cut inside its second line
sed -i 's/^%sdt_h4cache:ev1=ev1$/%sdt_h4cache:evX=evX/' "$P6"   # well-formed, wrong
# the index is rebuilt on the next change of the cache (here one more build): from these files
mkbuilds "$T/prog" "$T/more" 1 6
check "add one more build" sdt cache add "$T/more"
sdt list '%h4cache:ev1' >"$T/g.out" 2>"$T/g.err"
check_eq "lookup: exit 0" 0 "$?"
# the 16 intact, the cut file (its first event is whole) and the new one
check_eq "lookup: what the files still list" 18 "$(wc -l <"$T/g.out")"
check "lookup warns: random bytes" grep -q "warning: '$P3' is damaged (1 malformed line, the last one cut short): lookups miss the events it lost" "$T/g.err"
check "lookup warns: lines of no entry" grep -q "warning: '$P4' is damaged (2 malformed lines)" "$T/g.err"
check "lookup warns: a cut line" grep -q "warning: '$P5' is damaged (its last line is cut short)" "$T/g.err"
check_eq "lookup: three warnings" 3 "$(grep -c 'is damaged' "$T/g.err")"
sdt cache list >"$T/g.list"
for b in bin-0003 bin-0004 bin-0005; do
	check "cache list: $b broken" grep -q " broken .* $T/bins/$b\$" "$T/g.list"
done
sdt cache check >"$T/c.g" 2>&1
check_eq "check fails" 1 "$?"
check "check: random bytes" grep -q "bin-0003' (.*): its probes file is damaged: 1 malformed line, the last one cut short" "$T/c.g"
check "check: lines of no entry" grep -q "bin-0004' (.*): its probes file is damaged: 2 malformed lines" "$T/c.g"
check "check: a cut line" grep -q "bin-0005' (.*): its probes file is damaged: its last line is cut short" "$T/c.g"
check "check: the renamed event, against the binary" grep -q "bin-0006' (.*): its probes file lacks the site 'p:sdt_h4cache/ev1 $T/bins/bin-0006:0x[0-9a-f]*' of the binary: lookups miss it" "$T/c.g"
check "repair" sdt cache check --repair
check "cache check: fine again" sdt cache check
sdt list '%h4cache:ev1' >"$T/r.out" 2>"$T/r.err"
check_eq "lookup: 21 again" 21 "$(wc -l <"$T/r.out")"
check_eq "... without a warning" "" "$(cat "$T/r.err")"

# ---- an offset moved in a well-formed file ---------------------------------------------------
P7="$(dir_of bin-0007)/probes"
off=$(sed -n 's/^p:sdt_h4cache\/ev1 [^ ]*:0x\([0-9a-f]*\).*/\1/p' "$P7")
new=$(printf '%x' $((0x$off + 1)))
sed -i "s/^\\(p:sdt_h4cache\\/ev1 [^ ]*\\):0x$off/\\1:0x$new/" "$P7"
sdt cache check >"$T/c.off" 2>&1
check_eq "moved offset: check fails" 1 "$?"
check "... naming both offsets" grep -q "bin-0007' (.*): its probes file has 'p:sdt_h4cache/ev1 $T/bins/bin-0007:0x$new' where the binary has 'p:sdt_h4cache/ev1 $T/bins/bin-0007:0x$off'" "$T/c.off"
check "repair" sdt cache check --repair
check "... the offset is the binary's again" grep -q "^p:sdt_h4cache/ev1 [^ ]*:0x$off " "$P7"
finish
