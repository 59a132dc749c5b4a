#!/bin/sh
# A `string`-typed argument on the real kernel: the typed fetches `sdtrace list -v` prints for a
# pointer in a register (+0(%reg):string), in memory (+0(-8(%bp)):string), in a global
# (+0(@+0x...):string) and at an address immediate ($g_str -> @+0x...:string) are placed as
# uprobes (our own group, a private ftrace instance) and read back the strings the program passed.
# Everything added is removed on every path; uprobe_events is compared before and after.
. "$(dirname "$0")/lib.sh"

need_cmd cc
need_file "$SDTRACE"
printf "#include <sys/sdt.h>\n" | cc -E - >/dev/null 2>&1 || skip "<sys/sdt.h> is not installed (systemtap-sdt-dev)"
need_tracefs
grep -q ref_ctr_offset "$TRACEFS/README" 2>/dev/null || skip "tracefs has no ref_ctr_offset"

G=sdtrace_t0501_$$
INST=$TRACEFS/instances/$G
export SDTRACE_PROVIDERS_DIR="$T/none"

cat >"$T/strprog.c" <<'EOF'
#include <stdio.h>
#include <sys/sdt.h>

char *volatile g_ptr = "from-a-global";
char g_arr[] = "an-array";

__attribute__((noinline)) static void in_memory(const char *s)
{
	/* -O0: the argument lives in the frame: 8@-8(%rbp) */
	STAP_PROBE1(t0501, mem, s);
}

int main(int argc, char **argv)
{
	char buf[32];
	(void)argv;
	snprintf(buf, sizeof(buf), "in-a-register-%d", argc);
	STAP_PROBE1(t0501, reg, buf);
	in_memory("in-memory");
	STAP_PROBE1(t0501, global, g_ptr);
	STAP_PROBE1(t0501, array, g_arr);
	return 0;
}
EOF
cc -O2 -o "$T/str-o2" "$T/strprog.c" || skip "cannot build the test program"
cc -O0 -o "$T/str-o0" "$T/strprog.c" || skip "cannot build the test program"
# An address immediate, 8@$g_str: compilers choose a register here, so the note is written in
# assembler (<sys/sdt.h> takes the argument text as it is there).
cat >"$T/addr.S" <<'EOF'
#include <sys/sdt.h>
	.data
g_str:	.asciz "an-address"
	.text
	.globl fire_addr
	.type fire_addr, @function
fire_addr:
	STAP_PROBE1(t0501, addr, 8@$g_str)
	ret
	.section .note.GNU-stack,"",@progbits
EOF
printf 'void fire_addr(void);\nint main(void) { fire_addr(); return 0; }\n' >"$T/addr-main.c"
cc -O2 -o "$T/str-addr" "$T/addr-main.c" "$T/addr.S" || skip "cannot build the test program"

uprobes_guard "^[p-r]:$G/"
defined=""
cleanup() {
	if [ -d "$INST" ]; then
		echo 0 >"$INST/events/enable" 2>/dev/null
		rmdir "$INST"
	fi
	for e in $defined; do
		echo "-:$G/$e" >>"$TRACEFS/uprobe_events"
	done
	defined=""
}
at_exit cleanup

# define EVENT BINARY PROBE: the uprobe for PROBE's first site, its argument typed s:string.
define() {
	"$SDTRACE" list -x "$2" -v "%t0501:$3(s:string)" >"$T/list.$1" 2>&1
	off=$(sed -n 's/.*file offset \(0x[0-9a-f]*\).*/\1/p' "$T/list.$1" | head -n 1)
	fetch=$(sed -n 's/^    arg1  s:string  .* -> \(.*\)$/\1/p' "$T/list.$1" | head -n 1)
	say "$3 in $(basename "$2"): $(grep '^    arg1' "$T/list.$1")"
	if [ -z "$off" ] || [ -z "$fetch" ]; then
		fail "$3: list -v gives a typed fetch" "$(cat "$T/list.$1")"
		return 1
	fi
	pass "$3: list -v gives a typed fetch ($fetch)"
	if echo "p:$G/$1 $2:$off s=$fetch" >>"$TRACEFS/uprobe_events"; then
		defined="$defined $1"
		pass "$3: the kernel accepts '$fetch'"
	else
		fail "$3: the kernel accepts '$fetch'" "$(tail -n 3 "$TRACEFS/error_log")"
	fi
}

define reg "$T/str-o2" reg
define global "$T/str-o2" global
define array "$T/str-o2" array
define addr "$T/str-addr" addr
define mem "$T/str-o0" mem
check "the -O0 build passes the pointer in memory" grep -qE '^    arg1  s:string  8@-?[0-9]+\(%rbp\)' "$T/list.mem"
check "the global is read through its pointer" grep -qE -- '-> \+0\(@\+0x[0-9a-f]+\):string$' "$T/list.global"
check "an address immediate is the string's address" grep -qE -- '8@\$g_str -> @\+0x[0-9a-f]+:string$' "$T/list.addr"

mkdir "$INST"
for e in $defined; do
	echo 1 >"$INST/events/$G/$e/enable"
done
"$T/str-o2" x y >/dev/null
"$T/str-o0" >/dev/null
"$T/str-addr"
echo 0 >"$INST/events/enable"
cat "$INST/trace" >"$T/trace"
check "reg: the string a register points to" grep -q ' reg: .* s="in-a-register-3"' "$T/trace"
check "mem: the string a pointer in memory points to" grep -q ' mem: .* s="in-memory"' "$T/trace"
check "global: the string a global pointer points to" grep -q ' global: .* s="from-a-global"' "$T/trace"
check "array: the string of an array" grep -q ' array: .* s="an-array"' "$T/trace"
check "addr: the string at an address immediate" grep -q ' addr: .* s="an-address"' "$T/trace"
cleanup
uprobes_unchanged "uprobe_events unchanged (every event removed)"
check "the private instance is gone" test ! -d "$INST"
finish
