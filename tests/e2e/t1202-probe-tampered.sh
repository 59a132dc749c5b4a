#!/bin/sh
# A user probe's stored p:/r: lines never choose where a uprobe goes: record resolves the probe's
# definition (its header's location) again in the binary of the entry's build-id, and refuses a
# line that disagrees, naming the disagreement: one byte of an offset (the middle of an
# instruction), an entry line for a return probe, a semaphore the site does not have, another
# binary, other arguments, an address probe moved; a definition edited to the middle of an
# instruction is refused as `probe add` refuses it. Nothing reaches uprobe_events, no data file
# is written. `cache check` reports the same disagreements, `--repair` drops the probe, and the
# untouched probes still record.
. "$(dirname "$0")/lib.sh"
need_file "$PROGS_DIR/prog-userprobe"
need_tracefs

P=tp$$
BIN="$T/$P"
cp "$PROGS_DIR/prog-userprobe" "$BIN"
st() { "$SDTRACE" "$@"; }
uprobes_guard "^[p-r]:sdtrace_[0-9_]*/probe_${P}_"

ADDR=$(nm "$BIN" | sed -n 's/^0*\([0-9a-f]*\) T up_name$/\1/p')
check "add addp" st probe add -x "$BIN" addp=up_add a=%di:s64
check "add addr (return)" st probe add -x "$BIN" 'addr=up_add%return' 'r=$retval:s64'
check "add tick2 (SDT alias)" st probe add -x "$BIN" tick2=%up:tick i=%bx:s64
check "add namea (address 0x$ADDR)" st probe add -x "$BIN" "namea=0x$ADDR"
F=$(grep -l "^#probe_$P:addp=" $(find "$SDTRACE_CACHE_DIR" -name probes))
cp "$F" "$T/probes.orig"
check "untampered, all four record" st record -o "$T/ok.data" -e addp -e addr -e tick2 -e namea -- "$BIN" 2
check_eq "... 8 events" 8 "$(st report -i "$T/ok.data" 2>/dev/null | grep -c "probe_$P:")"

# the offset of a probe's line, in hex without 0x
line_off() { sed -n "s#^[pr]:probe_$P/$1 [^ ]*:0x\\([0-9a-f]*\\).*#\\1#p" "$T/probes.orig"; }
OFF=$(line_off addp)
NEXT=$(printf '%x' $((0x$OFF + 1)))
TOFF=$(line_off tick2)
AOFF=$(line_off namea)

# tamper NAME EVENT SED-SCRIPT EXPECTED: record -e EVENT is refused, saying EXPECTED
tamper() {
	cp "$T/probes.orig" "$F"
	sed -i "$3" "$F"
	if cmp -s "$F" "$T/probes.orig"; then
		fail "$1: the probes file was tampered ($3)"
		return
	fi
	check_fails "$1: record refuses" st record -o "$T/$2.data" -e "$2" -- "$BIN" 1
	cp "$T/.out" "$T/err.$2"
	check "$1: ... naming the disagreement" grep -qF "$4" "$T/err.$2"
	check "$1: ... and what to do" grep -q "refused (the probes file of its cache entry was changed: run 'sdtrace cache check --repair'" "$T/err.$2"
	check "$1: ... with no data file" test ! -e "$T/$2.data"
}
tamper "offset +1 (inside 'up_add')" addp "s#^\\(p:probe_$P/addp [^ ]*\\):0x$OFF #\\1:0x$NEXT #" \
	"the user probe 'addp' does not match its binary: its line 1 is at 0x$NEXT, its definition 'up_add' at 0x$OFF"
tamper "a return probe's line made an entry" addr "s#^r:probe_$P/addr #p:probe_$P/addr #" \
	"its line 1 is an entry probe, its definition 'up_add%return' a return one"
tamper "a semaphore added" tick2 "s#^\\(p:probe_$P/tick2 [^ ]*:0x$TOFF\\)#\\1(0x10)#" \
	"its line 1 has a semaphore, the binary's site at 0x$TOFF none"
tamper "another binary" addp "s#^\\(p:probe_$P/addp \\)[^ ]*:#\\1/usr/bin/true:#" \
	"its line 1 probes '/usr/bin/true', not '$BIN'"
tamper "other arguments" addp "s#^\\(p:probe_$P/addp .*\\) a=%di:s64\$#\\1 a=%si:s64#" \
	"its line 1 fetches 'a=%si:s64', its definition's arguments differ"
tamper "an address probe moved" namea "s#^\\(p:probe_$P/namea [^ ]*\\):0x$AOFF#\\1:0x$(printf '%x' $((0x$AOFF + 4)))#" \
	"its definition '0x$ADDR' at 0x$AOFF"
if "$SDTRACE" --version | grep -q '+capstone'; then
	# header and line agree, both inside the instruction: the definition is checked again
	tamper "definition and line moved inside an instruction" addp \
		"s#^\\#probe_$P:addp=up_add #\\#probe_$P:addp=up_add+1 #; s#^\\(p:probe_$P/addp [^ ]*\\):0x$OFF #\\1:0x$NEXT #" \
		"the user probe 'addp' does not resolve in its binary: 'up_add+1': offset 1 is inside the instruction at up_add+0"
else
	say "built without capstone: a definition inside an instruction is not decoded"
fi
uprobes_unchanged "uprobe_events unchanged by the refused records"

# ---- cache check reports it, --repair drops it -----------------------------------------------
cp "$T/probes.orig" "$F"
sed -i "s#^\\(p:probe_$P/addp [^ ]*\\):0x$OFF #\\1:0x$NEXT #" "$F"
st cache check >"$T/check" 2>&1
check_eq "cache check fails on the tampered offset" 1 "$?"
check "... naming it" grep -qF "user probe 'probe_$P:addp=up_add a=%di:s64' does not match its binary: its line 1 is at 0x$NEXT, its definition 'up_add' at 0x$OFF" "$T/check"
check "cache check --repair" st cache check --repair
cp "$T/.out" "$T/repair"
check "... removed it" grep -q "user probe 'probe_$P:addp=up_add a=%di:s64' does not match .*: removed" "$T/repair"
check "cache check: fine" st cache check
check_eq "the other three are kept" "addr namea tick2" "$(st probe list | cut -d' ' -f1 | sort | tr '\n' ' ' | sed 's/ $//')"
check "... and record" st record -o "$T/after.data" -e addr -e tick2 -e namea -- "$BIN" 2
check_eq "... 6 events" 6 "$(st report -i "$T/after.data" 2>/dev/null | grep -c "probe_$P:")"
uprobes_unchanged "uprobe_events unchanged at the end"
finish
