#!/bin/sh
# Argument names from a SystemTap tapset, for a provider no `.d` file declares: prog-string's
# provider "string" has none, and a tapset in $T (SDTRACE_TAPSET_DIR, in place of
# /usr/share/systemtap/tapset) names message's arguments, the first a string (user_string).
# list -v says the names and where they came from (text and JSON); record + report prints the
# arguments by those names, the string as a string. The tapset's process("PATH") is matched on
# the binary's path and realpath; a provider file of the provider wins over it. Broken tapsets
# (an open comment, binary data, a control byte in a path, $arg13, braces never closed) are a
# warning naming the file and line, never a failure or a crash.
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR/prog-string
need_file "$P"
need_cmd python3
need_tracefs
uprobes_guard
cd "$T" || exit 1
export XDG_CONFIG_HOME="$T/config"
export SDTRACE_PROVIDERS_DIR="$T/no-shipped"
export SDTRACE_TAPSET_DIR="$T/tapset"
mkdir -p "$SDTRACE_TAPSET_DIR/sub" "$SDTRACE_PROVIDERS_DIR"
# a symbolic link to the binary: the tapset names the link, the binary is listed by its path
ln -s "$P" "$T/prog-link"
cat >"$SDTRACE_TAPSET_DIR/sub/prog.stp" <<EOF
/**
 * probe strprog.message - a message of prog-string (as Debian's tapsets are written)
 * @text: the message (string)
 */
probe strprog.message =
      process("$T/prog-link").mark("message")
{
	text = user_string(\$arg1)
	length = \$arg2
	probestr = sprintf("%s(%d)", text, length)
}
# not ours: a function, a kernel probe, a probe of another binary
function twice(x) { return x * 2 }
probe kernel.function("do_sys_open") { name = \$arg1 }
probe other = process("/nonexistent/bin").mark("message") { wrong = \$arg1 }
EOF

"$SDTRACE" list -x "$P" -v '%string:message' >list.out 2>list.err
check_eq "list -v: exit 0" 0 $?
check_eq "... no warning" "" "$(cat list.err)"
check "list -v: says the names came from the tapset, with its line" \
	grep -qx "    names from tapset $SDTRACE_TAPSET_DIR/sub/prog.stp:6" list.out
check "list -v: arg1 is the tapset's text, a string" grep -Eq '^    arg1  text:string  ' list.out
check "list -v: arg2 is the tapset's length, the note's own type" \
	grep -Eq '^    arg2  length:s32  ' list.out
"$SDTRACE" list -x "$P" -v '%string:literal' >lit.out 2>&1
check "list -v: a probe the tapset does not name: no names (argN)" \
	grep -qx '    no names (argN)' lit.out
"$SDTRACE" list -x "$P" --json '%string:message' >list.json 2>/dev/null
check_eq "list --json: types_from tapset, names_from the tapset, the names and types" \
	"tapset $SDTRACE_TAPSET_DIR/sub/prog.stp:6 text:string length:s32" \
	"$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))[0]
print(s["types_from"], s["names_from"], " ".join("%s:%s" % (a["name"], a["type"]) for a in s["args"]))
' list.json)"

# recorded and reported by those names, the string as a string
"$SDTRACE" record -o s.data -e "$P:%string:message" -- "$P" 3 >prog.out 2>rec.err
check_eq "record -- prog-string 3: exit 0" 0 $?
"$SDTRACE" report -i s.data >rep.out 2>rep.err
check_eq "report: the three messages by the tapset's names, text a string" \
	'text="round-0" length=7|text="round-1" length=7|text="round-2" length=7' \
	"$(sed -n 's/.*string:message: //p' rep.out | paste -sd'|')"

# without the tapset: no names
SDTRACE_TAPSET_DIR= "$SDTRACE" list -x "$P" -v '%string:message' >none.out 2>&1
check "without a tapset (SDTRACE_TAPSET_DIR empty): no names (argN)" \
	grep -qx '    no names (argN)' none.out

# a provider file of the provider wins over the tapset
mkdir -p "$XDG_CONFIG_HOME/sdtrace/providers"
printf 'provider string {\n\tprobe message(const char *msg, int len);\n};\n' \
	>"$XDG_CONFIG_HOME/sdtrace/providers/string.d"
"$SDTRACE" list -x "$P" -v '%string:message' >d.out 2>&1
check "a .d file wins: names from it" \
	grep -qx "    names from $XDG_CONFIG_HOME/sdtrace/providers/string.d:2" d.out
check "... arg1 msg:string" grep -Eq '^    arg1  msg:string  ' d.out
rm -r "$XDG_CONFIG_HOME/sdtrace/providers"

# broken tapsets beside it: warnings naming file and line; the good one still names
B=$SDTRACE_TAPSET_DIR
printf 'probe a = process("/bin/true").mark("x") { v = $arg1 }\n/* never closed\n' >"$B/open-comment.stp"
printf 'probe a = process("/bin/true").mark("x") {\n\tv = $arg13\n}\n' >"$B/arg13.stp"
printf 'probe a = process("/bin/\001true").mark("x") { v = $arg1 }\n' >"$B/ctl.stp"
printf 'probe a = process("/bin/true").mark("x") {\n v = $arg1\n\000\n}\n' >"$B/nul.stp"
printf 'probe a = process("/bin/true").mark("x") {\n s = "never closed\n}\n' >"$B/string.stp"
python3 -c 'import sys; sys.stdout.write("probe a = process(\"/bin/true\").mark(\"x\")\n" + "{" * 200000)' \
	>"$B/braces.stp"
head -c 65536 /dev/urandom >"$B/random.stp"
"$SDTRACE" list -x "$P" -v '%string:message' >bad.out 2>bad.err
check_eq "broken tapsets: list exits 0" 0 $?
check "... the good tapset still names the arguments" grep -Eq '^    arg1  text:string  ' bad.out
for w in "arg13.stp:2: \$arg13: an SDT probe has at most 12 arguments" \
	"ctl.stp:1: process(\"/bin/?true\"): not a path" \
	"nul.stp:3: a NUL byte" \
	"open-comment.stp:2: a comment is not closed" \
	"string.stp:2: a string is not closed" \
	"braces.stp:1: the probe's body is not closed"; do
	check "warning: $w" grep -qF "sdtrace: warning: tapset $B/$w" bad.err
done
"$SDTRACE" record -o b.data -e "$P:%string:message" -- "$P" 1 >/dev/null 2>brec.err
check_eq "broken tapsets: record exits 0" 0 $?
check "... and warns too" grep -qF "tapset $B/arg13.stp:2:" brec.err

uprobes_unchanged
finish
