#!/bin/sh
# sdtrace probe: user probes defined from the symbol tables, kept as perf's `#` entries, and
# loaded into the kernel as real uprobes.
#  - add: entry (a=%di b=%si), return ($retval), a string argument, an SDT event under a short
#    name, a libc function (getppid) called a known number of times, filtered to our program;
#  - refused, with nothing written: a symbol defined twice, an offset outside the function,
#    a newline or a space in an argument (a second line of uprobe_events), an assembler register
#    name, $retval on an entry probe, an existing name;
#  - the stored `p:`/`r:` lines load into uprobe_events (in a group of this test) and report, per
#    call of `prog 7`, the arguments and return values the program computed;
#  - list (text, --json, a glob), remove.
. "$(dirname "$0")/lib.sh"
need_file "$PROGS_DIR/prog-userprobe"

BIN="$T/up$$"
cp "$PROGS_DIR/prog-userprobe" "$BIN"
LIBC=$(ldd "$BIN" | sed -n 's/.*libc\.so\.6 => \([^ ]*\) .*/\1/p')
[ -n "$LIBC" ] || skip "cannot find the libc of prog-userprobe (ldd)"
st() { "$SDTRACE" "$@"; }
probes_sum() { find "$SDTRACE_CACHE_DIR" -name probes -exec cat {} + 2>/dev/null | cksum; }

# ---- add -------------------------------------------------------------------------------------
check "add an entry probe with args" st probe add -x "$BIN" addp=up_add a=%di:s64 b=%si:s64
check "add a return probe" st probe add -x "$BIN" 'addr=up_add%return' 'ret=$retval:s64'
check "add a probe with a string" st probe add -x "$BIN" namep=up_name 'name=+0(%di):string' \
	flags=%si:s32
check "add an SDT event under a short name" st probe add -x "$BIN" tick2=%up:tick i=%bx:s64
check "add a libc function" st probe add -x "$LIBC" ppid=getppid
check "add at symbol+0 (an offset)" st probe add -x "$BIN" addo=up_add+0
ADDR=$(nm "$BIN" | sed -n 's/^0*\([0-9a-f]*\) T up_name$/\1/p')
check "add at an address (0x$ADDR, up_name)" st probe add -x "$BIN" "namea=0x$ADDR"

# ---- an offset inside the function: on an instruction boundary only ---------------------------
# the first instruction of up_name longer than one byte, from objdump
INS=$(objdump -d --no-show-raw-insn "$BIN" | sed -n '/<up_name>:/,/^$/p' |
	sed -n 's/^ *\([0-9a-f]*\):.*/\1/p' | tr '\n' ' ')
START=$(printf '%d' "0x$ADDR")
prev=""
OFF=""
for a in $INS; do
	a=$(printf '%d' "0x$a")
	if [ -n "$prev" ] && [ $((a - prev)) -ge 2 ] && [ $((prev - START)) -gt 0 ]; then
		OFF=$((prev - START))
		break
	fi
	prev=$a
done
[ -n "$OFF" ] || fail "an instruction of 2+ bytes inside up_name (objdump: $INS)"
if "$SDTRACE" --version | grep -q '+capstone'; then
	check "add at up_name+$OFF (an instruction starts there)" st probe add -x "$BIN" \
		"namei=up_name+$OFF"
	check_fails "up_name+$((OFF + 1)) (inside that instruction) is refused" \
		st probe add -x "$BIN" "namex=up_name+$((OFF + 1))"
	cp "$T/.out" "$T/err"
	check "... as inside an instruction" grep -q "is inside the instruction at up_name+$OFF" "$T/err"
	check_fails "the same place as an address is refused" \
		st probe add -x "$BIN" "namex=0x$(printf %x $((START + OFF + 1)))"
else
	say "built without capstone: offsets inside a function are only checked against its size"
	check "add at up_name+$OFF" st probe add -x "$BIN" "namei=up_name+$OFF"
fi

# ---- refused -------------------------------------------------------------------------------
before=$(probes_sum)
check_fails "a symbol defined twice" st probe add -x "$BIN" d=dup_fn
cp "$T/.out" "$T/err"
check "... says so" grep -q "defined 2 times" "$T/err"
check_fails "an offset outside the function" st probe add -x "$BIN" d=up_add+4096
check_fails "a newline in an argument" st probe add -x "$BIN" d=up_add "x=%di
p:evil/x $BIN:0x0"
check_fails "a space in an argument" st probe add -x "$BIN" d=up_add "x=%di p:evil/x"
check_fails "a newline in the name" st probe add -x "$BIN" "d
p:evil/x=up_add"
check_fails "an assembler register name" st probe add -x "$BIN" d=up_add x=%rdi
cp "$T/.out" "$T/err"
check "... names the pt_regs form" grep -q "pt_regs" "$T/err"
check_fails "\$retval on an entry probe" st probe add -x "$BIN" d=up_add 'r=$retval'
check_fails "an unknown type" st probe add -x "$BIN" d=up_add x=%di:u128
check_fails "an existing name" st probe add -x "$BIN" addp=up_name
check_fails "a missing symbol" st probe add -x "$BIN" d=no_such_function
check_fails "a return probe with an offset" st probe add -x "$BIN" 'd=up_add+1%return'
check_eq "nothing was written by the refused ones" "$before" "$(probes_sum)"
check_eq "the exit status of a bad argument is 1" 1 "$(st probe add -x "$BIN" d=up_add x=%zz >/dev/null 2>&1; echo $?)"
check_eq "the exit status of a missing -x is 2" 2 "$(st probe add d=up_add >/dev/null 2>&1; echo $?)"
check "no probes file holds an 'evil' line" sh -c "! find '$SDTRACE_CACHE_DIR' -name probes -exec cat {} + | grep -q evil"

# ---- list ----------------------------------------------------------------------------------
check_eq "list shows 8 probes" 8 "$(st probe list | wc -l)"
check_eq "list with a glob" "addo addp addr" "$(st probe list 'add*' | cut -d' ' -f1 | tr '\n' ' ' | sed 's/ $//')"
st probe list --json >"$T/list.json"
check "list --json is JSON with the return probe" python3 -c "
import json, sys
l = json.load(open('$T/list.json'))
r = [p for p in l if p['name'] == 'addr'][0]
assert r['return'] is True and r['args'] == ['ret=\$retval:s64'], r
assert r['lines'][0].startswith('r:'), r
assert all(p['build_id'] for p in l)
assert len(l) == 8
"

# ---- the lines load into the kernel and report what the program did ----------------------------
need_tracefs
GRP="sdtrace_t1200_$$"
uprobes_guard "^[p-r]:$GRP/"
INST="$TRACEFS/instances/t1200_$$"
cleanup() {
	[ -d "$INST" ] && echo 0 >"$INST/events/$GRP/enable" 2>/dev/null
	grep -E "^[p-r]:$GRP/" "$TRACEFS/uprobe_events" 2>/dev/null | sed 's/^[p-r]:\([^ ]*\) .*/-:\1/' |
		while read -r l; do echo "$l" >>"$TRACEFS/uprobe_events"; done
	[ -d "$INST" ] && rmdir "$INST"
}
at_exit cleanup
find "$SDTRACE_CACHE_DIR" -name probes -exec cat {} + | grep -E '^[pr]:probe_' |
	sed "s#^\\([pr]\\):[^/]*/#\\1:$GRP/#" >"$T/lines"
check_eq "8 p:/r: lines stored" 8 "$(wc -l <"$T/lines")"
ok=1
while read -r l; do
	printf '%s\n' "$l" >>"$TRACEFS/uprobe_events" || { ok=0; fail "the kernel takes: $l"; }
done <"$T/lines"
[ $ok = 1 ] && pass "the kernel takes every stored line"
mkdir "$INST" || skip "cannot create a tracefs instance"
# libc's getppid fires for every process of the system: the kernel filter keeps our program's
echo "comm == \"up$$\"" >"$INST/events/$GRP/ppid/filter"
echo 1 >"$INST/events/$GRP/enable"
"$BIN" 7 >"$T/prog.out"
echo 0 >"$INST/events/$GRP/enable"
cat "$INST/trace" >"$T/trace"
check_eq "the program ran" "calls 7 sum $(cut -d' ' -f4 "$T/prog.out")" "$(cat "$T/prog.out")"
for ev in addp addr namep tick2 addo namea namei; do
	check_eq "$ev fired 7 times" 7 "$(grep -c " $ev: " "$T/trace")"
done
check_eq "ppid (libc getppid) fired 7 times, all in our program" "7 7" \
	"$(grep -c " ppid: " "$T/trace") $(grep " ppid: " "$T/trace" | grep -c "up$$-")"
exp=""
got=""
i=0
while [ $i -lt 7 ]; do
	exp="$exp a=$i b=100 ret=$((i + 100)) name=\"userprobe-$i\" flags=$i i=$i"
	i=$((i + 1))
done
got=$(sed -n 's/.* addp: ([^)]*) \(a=[0-9]* b=[0-9]*\)$/\1/p' "$T/trace" | tr '\n' ' ')
rets=$(sed -n 's/.* addr: ([^)]*) ret=\([0-9-]*\)$/\1/p' "$T/trace" | tr '\n' ' ')
names=$(sed -n 's/.* namep: ([^)]*) \(name=.*\)$/\1/p' "$T/trace" | tr '\n' ' ')
ticks=$(sed -n 's/.* tick2: ([^)]*) i=\([0-9-]*\)$/\1/p' "$T/trace" | tr '\n' ' ')
check_eq "entry args a, b per call" "a=0 b=100 a=1 b=100 a=2 b=100 a=3 b=100 a=4 b=100 a=5 b=100 a=6 b=100 " "$got"
check_eq "return values per call" "100 101 102 103 104 105 106 " "$rets"
check_eq "strings and flags per call" 'name="userprobe-0" flags=0 name="userprobe-1" flags=1 name="userprobe-2" flags=2 name="userprobe-3" flags=3 name="userprobe-4" flags=4 name="userprobe-5" flags=5 name="userprobe-6" flags=6 ' "$names"
check_eq "the SDT alias's argument per call" "0 1 2 3 4 5 6 " "$ticks"
cleanup
uprobes_unchanged "uprobe_events as before"

# ---- remove --------------------------------------------------------------------------------
check "remove one and a glob of three" st probe remove addp 'name*'
check_eq "4 left" 4 "$(st probe list | wc -l)"
check_fails "removing a missing one fails" st probe remove addp
check "remove the libc one by path" st probe remove -x "$LIBC" ppid
check_eq "3 left" 3 "$(st probe list | wc -l)"
check "the SDT entries stay" sh -c "find '$SDTRACE_CACHE_DIR' -name probes -exec cat {} + | grep -q '^%sdt_up:tick='"

# ---- cache list and check cover the user probes ---------------------------------------------
check "cache list counts them" sh -c "'$SDTRACE' cache list | grep -q ' 3 probes  $BIN\$'"
check "cache list --json names them" sh -c "'$SDTRACE' cache list --json | grep -q '\"user_probes\":\[\"addr\",\"tick2\",\"addo\"\]'"
check "cache check: fine" st cache check
f=$(grep -l '^#probe_up[0-9]*:addo=' $(find "$SDTRACE_CACHE_DIR" -name probes))
sed -i 's#^p:probe_up[0-9]*/addo #p:elsewhere/addo #' "$f"
check_fails "cache check: a user probe line of another group" st cache check
cp "$T/.out" "$T/err"
check "... named" grep -q "user probe 'probe_up[0-9]*:addo=up_add+0'" "$T/err"
check "cache check --repair drops it" st cache check --repair
check "cache check: fine again" st cache check
check_eq "addr is left" "addr" "$(st probe list "add*" | cut -d' ' -f1)"
finish
