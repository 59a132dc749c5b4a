#!/bin/sh
# User probes used by name, and shared with perf through one cache:
#  - perf 6.1 lists sdtrace's user probes (`perf probe --cache --list`) and replays one
#    (`perf probe -x BIN %NAME`, then `perf stat` counts every call);
#  - a user probe perf wrote (`perf probe --cache`) is listed by sdtrace, kept by `cache add` and
#    `probe add`, and recorded by `sdtrace record -e NAME`;
#  - `record -e NAME` / `-e GROUP:NAME` / `stat -e NAME`: entry args, return values, a string,
#    and libc's getppid counted in the command only;
#  - a binary replaced by another build is refused (its offsets are not ours), an ambiguous name
#    is refused, and every path leaves uprobe_events as it was.
# engine: tracefs (user probes: return probes and fetches in tracefs syntax; --engine=bpf
# refuses them, auto takes tracefs)
. "$(dirname "$0")/lib.sh"
need_file "$PROGS_DIR/prog-userprobe"
need_tracefs

P=u$$
BIN="$T/$P"
cp "$PROGS_DIR/prog-userprobe" "$BIN"
LIBC=$(ldd "$BIN" | sed -n 's/.*libc\.so\.6 => \([^ ]*\) .*/\1/p')
[ -n "$LIBC" ] || skip "cannot find the libc of prog-userprobe (ldd)"
st() { "$SDTRACE" "$@"; }
# ours only (other sessions may run meanwhile): our session events and perf's replay of ours
uprobes_guard "^[p-r]:(sdtrace_[0-9_]*/(probe_${P}_|probe_libc_ppid)|probe_$P/)"

check "add addp" st probe add -x "$BIN" addp=up_add a=%di:s64 b=%si:s64
check "add addr (return)" st probe add -x "$BIN" 'addr=up_add%return' 'ret=$retval:s64'
check "add namep (string)" st probe add -x "$BIN" namep=up_name 'name=+0(%di):string'
check "add tick2 (SDT alias)" st probe add -x "$BIN" tick2=%up:tick i=%bx:s64
check "add ppid (libc)" st probe add -x "$LIBC" ppid=getppid

# ---- record / stat by name ------------------------------------------------------------------
check "record -e addp -e probe_$P:addr -e namep -e tick2" st record -o "$T/a.data" \
	-e addp -e "probe_$P:addr" -e namep -e tick2 -- "$BIN" 5
st report -i "$T/a.data" >"$T/a.txt" 2>&1
check_eq "addp: a, b of every call" "a=0 b=100|a=1 b=100|a=2 b=100|a=3 b=100|a=4 b=100|" \
	"$(sed -n "s/.*probe_$P:addp: //p" "$T/a.txt" | tr '\n' '|')"
check_eq "addr: every return value" "ret=100|ret=101|ret=102|ret=103|ret=104|" \
	"$(sed -n "s/.*probe_$P:addr: //p" "$T/a.txt" | tr '\n' '|')"
check_eq "namep: every string" 'name="userprobe-0"|name="userprobe-1"|name="userprobe-2"|name="userprobe-3"|name="userprobe-4"|' \
	"$(sed -n "s/.*probe_$P:namep: //p" "$T/a.txt" | tr '\n' '|')"
check_eq "tick2: the SDT site under its short name" "i=0|i=1|i=2|i=3|i=4|" \
	"$(sed -n "s/.*probe_$P:tick2: //p" "$T/a.txt" | tr '\n' '|')"
st stat -e ppid -e addp -- "$BIN" 9 >"$T/stat.txt" 2>&1
check_eq "stat: libc getppid counted in the command only" 9 \
	"$(awk '$2 == "%probe_libc:ppid" {print $1}' "$T/stat.txt")"
check_eq "stat: addp" 9 "$(awk -v e="%probe_$P:addp" '$2 == e {print $1}' "$T/stat.txt")"
check "record -x BIN -e addp" st record -o "$T/b.data" -x "$BIN" -e addp -- "$BIN" 2
check_eq "... 2 events" 2 "$(st report -i "$T/b.data" 2>/dev/null | grep -c "probe_$P:addp:")"
uprobes_unchanged "uprobe_events unchanged after record and stat"

# ---- perf reads sdtrace's probes -------------------------------------------------------------
if ! peer_works perf "$SDTRACE_CACHE_DIR"; then
	peer_skip_part perf "perf reads sdtrace's probes"
else
	pp() { HOME="$T/perfhome" perf --buildid-dir "$SDTRACE_CACHE_DIR" "$@"; }
	mkdir -p "$T/perfhome"
	at_exit "HOME='$T/perfhome' perf probe -q -d 'probe_$P:*' >/dev/null 2>&1"
	pp probe --cache --list >"$T/perf-list" 2>&1
	for h in "probe_$P:addp=up_add a=%di:s64 b=%si:s64" "probe_$P:addr=up_add%return ret=\$retval:s64" \
		"probe_$P:namep=up_name name=+0(%di):string" "probe_libc:ppid=getppid"; do
		check "perf probe --cache --list shows '$h'" grep -qxF "$h" "$T/perf-list"
	done
	check "perf lists the SDT alias too (by address)" grep -q "^probe_$P:tick2=0x[0-9a-f]* i=%bx:s64\$" "$T/perf-list"
	check "perf lists the SDT event beside them" grep -qx "sdt_up:tick=tick" "$T/perf-list"
	check "perf probe -x BIN %addp (replayed from the cache)" pp probe -q -x "$BIN" %addp
	pp stat -e "probe_$P:addp" -- "$BIN" 6 >"$T/pstat" 2>&1
	check_eq "perf stat counts every call" 6 \
		"$(awk -v e="probe_$P:addp" '$2 == e {gsub(",", "", $1); print $1}' "$T/pstat")"
	check "perf probe -d" pp probe -q -d "probe_$P:addp"
	# ---- perf writes a user probe, sdtrace reads it -----------------------------------------
	check "perf probe --cache (a named arg)" pp probe -q --cache -x "$BIN" "pfoo=up_name x=%si:s32"
	pp probe -q -d "probe_$P:pfoo" >/dev/null 2>&1
	# perf rewrote the probes file behind the index's back: found all the same
	check "record -e pfoo right after perf added it" st record -o "$T/p.data" -e pfoo -- "$BIN" 2
	check_eq "... 2 events" 2 "$(st report -i "$T/p.data" 2>/dev/null | grep -c "probe_$P:pfoo:")"
	check "sdtrace probe list shows perf's" sh -c "'$SDTRACE' probe list pfoo | grep -q '^pfoo  $BIN  up_name x=%si:s32\$'"
	check "probe add keeps perf's" st probe add -x "$BIN" another=up_name
	check "cache add keeps perf's" st cache add "$BIN"
	check_eq "perf's is still there" 1 "$(st probe list pfoo | wc -l)"
	check "record -e pfoo (perf's probe)" st record -o "$T/c.data" -e pfoo -- "$BIN" 3
	check_eq "... its x of every call" "x=0|x=1|x=2|" \
		"$(st report -i "$T/c.data" 2>/dev/null | sed -n "s/.*probe_$P:pfoo: //p" | tr '\n' '|')"
fi

# ---- ambiguity, stale binaries ---------------------------------------------------------------
# the same code under another build-id (a copy would be the same build, cached once)
python3 - "$PROGS_DIR/prog-userprobe" "$T/v$$" <<'PY'
import subprocess, sys
src, dst = sys.argv[1], sys.argv[2]
data = bytearray(open(src, 'rb').read())
out = subprocess.run(['readelf', '-W', '-S', src], capture_output=True, text=True).stdout
line = [l for l in out.splitlines() if '.note.gnu.build-id' in l][0]
off = int(line.split(']', 1)[1].split()[3], 16)
data[off + 16] ^= 0xff  # the first byte of the id (after namesz, descsz, type, "GNU\0")
open(dst, 'wb').write(data)
PY
chmod +x "$T/v$$"
check "the same name in another binary" st probe add -x "$T/v$$" addp=up_add
check_fails "record -e addp is ambiguous now" st record -o "$T/d.data" -e addp -- "$BIN" 1
cp "$T/.out" "$T/err"
check "... and says how to name one" grep -q "probe_$P:addp" "$T/err"
check "record -e probe_$P:addp names one" st record -o "$T/d.data" -e "probe_$P:addp" -- "$BIN" 1
# a probes file edited by hand: its arguments are checked again before they reach tracefs
check "add tamp" st probe add -x "$T/v$$" tamp=up_add a=%di:s64
f=$(grep -l '^#probe_v[0-9]*:tamp=' $(find "$SDTRACE_CACHE_DIR" -name probes))
sed -i 's/^\(#probe_v[0-9]*:tamp=up_add a=%di:s64\)$/\1)/' "$f"
check_fails "a tampered argument is refused" st record -o "$T/t.data" -e tamp -- "$T/v$$" 1
cp "$T/.out" "$T/err"
check "... naming the probe" grep -q "argument 1 of the probe 'tamp' in the cache" "$T/err"
cp "$PROGS_DIR/prog-sizes" "$BIN"
check_fails "a replaced binary is refused" st record -o "$T/e.data" -e "probe_$P:addp" -- "$BIN" 1
cp "$T/.out" "$T/err"
check "... as another build" grep -q "changed since the probe 'addp' was defined" "$T/err"
check "... with no data file" test ! -e "$T/e.data"
uprobes_unchanged "uprobe_events unchanged at the end"
finish
