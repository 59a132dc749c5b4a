#!/bin/sh
# Typed arguments in recordings, on tests/progs/prog-string (a `char *` in a register, 8@%rbx, and
# an int length; a pointer to a literal): an inline typed spec
#	%string:message(msg:string, len:s32)
# makes record write `msg=+0(%bx):string len=%r14:s32` into uprobe_events, and the strings the
# program passed come back exactly: in `report` text (msg="round-3" len=7) and in `report --json`,
# whose objects keep the ten keys time_ns cpu pid tid comm provider name path address args and add
# "fields" {name: value} only for events with named arguments (a value equal to args[i]). Partly
# named specs name only those arguments; a provider type file (--types, or the user's directory
# ~/.config/sdtrace/providers) names and types them when the spec has no list, and where its size disagrees with the note the note's type is kept (the
# name stays). `trace --json` prints the same fields live. uprobe_events is left as it was.
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd python3
P="$PROGS_DIR/prog-string"
need_file "$P" "$SDTRACE"
# our probes only (other sdtrace sessions on this machine may come and go meanwhile)
uprobes_guard "^[p-r]:[^ ]+ $(realpath "$PROGS_DIR")/"
cd "$T" || exit 1
export SDTRACE_PROVIDERS_DIR="$T/no-providers" # no shipped file names the string provider
N=5

# json_check FILE PROG_OUT SPEC: the events of FILE against the program's own lines; SPEC says
# which names each event must have in "fields" ("-" for none).
json_check() {
	python3 - "$@" <<'EOF'
import json, sys
path, progout, spec = sys.argv[1], sys.argv[2], sys.argv[3]
want_names = {}
for item in spec.split(";"):
    ev, names = item.split("=")
    want_names[ev] = [] if names == "-" else names.split(",")
TEN = ["time_ns", "cpu", "pid", "tid", "comm", "provider", "name", "path", "address", "args"]
prog = []
for l in open(progout):
    w = l.split()
    if w and w[0] == "probe":
        prog.append((w[1].split(":")[1], [kv.split("=", 1)[1] for kv in w[2:]]))
evs = [json.loads(l) for l in open(path)]
assert len(evs) == len(prog), "%d events, the program fired %d" % (len(evs), len(prog))
for e, (name, vals) in zip(evs, prog):
    assert e["name"] == name, (e["name"], name)
    names = want_names[name]
    keys = list(e)
    if names:
        assert keys == TEN + ["fields"], keys
        assert list(e["fields"]) == names, (e["fields"], names)
    else:
        assert keys == TEN, keys
    # every value as the program printed it, strings exactly
    got = [str(a) for a in e["args"]]
    assert got == vals, (got, vals)
    for i, a in enumerate(e["args"]):
        if i < len(names):
            assert e["fields"][names[i]] == a and type(e["fields"][names[i]]) is type(a), e
    if name == "message":
        assert type(e["args"][0]) is (str if names[:1] else int), e
print("%d events" % len(evs))
EOF
}

# 1. an inline typed spec; the command shows uprobe_events while our probes exist
"$SDTRACE" record -o typed.data -x "$P" -e '%string:message(msg:string, len:s32)' \
	-e '%string:literal(text:string)' -- \
	sh -c "grep -F ' $P:' $TRACEFS/uprobe_events >lines; exec $P $N" >typed.out 2>typed.err
check_eq "typed spec: record exits 0" 0 $?
if tracefs_engine; then
# the two events share one tracefs event (lib/record/tracefs/uprobe_layout.h): slots a1 (string), a2 (u64)
check_eq "typed spec: both events in one tracefs event" 1 \
	"$(sed 's/ .*//' lines | sort -u | wc -l)"
check "typed spec: message's pointer is read as a string, its length as a register" \
	grep -Eq '^p:sdtrace_[0-9_]+/string_[a-z]+ .* ev=\\[0-9]+:u16 a1=\+0\(%[a-z0-9]+\):string a2=%[a-z0-9]+:u64 _sdt_room=\$comm$' lines
check "typed spec: the literal's pointer is read as a string, a2 left to a constant" \
	grep -Eq '^p:sdtrace_[0-9_]+/string_[a-z]+ .* ev=\\[0-9]+:u16 a1=\+0\(%[a-z0-9]+\):string a2=\\0:u64 _sdt_room=\$comm$' lines
else
	check_eq "typed spec ($ENGINE): no uprobe line while recording" "" "$(cat lines)"
fi
# an event alone keeps the plain form, with the names of the spec
"$SDTRACE" record -o alone.data -x "$P" -e '%string:message(msg:string, len:s32)' -- \
	sh -c "grep -F ' $P:' $TRACEFS/uprobe_events >alone.lines; exec $P 1" >/dev/null 2>&1
tracefs_engine && check "typed spec: alone, the uprobe line names the string fetch" \
	grep -Eq '^p:sdtrace_[0-9_]+/string_message .* msg=\+0\(%[a-z0-9]+\):string len=%[a-z0-9]+:s32 _sdt_room=\$comm$' alone.lines
"$SDTRACE" report -i typed.data --json >typed.json 2>typed.rerr
check_eq "typed spec: report --json exits 0" 0 $?
if json_check typed.json typed.out "message=msg,len;literal=text" >typed.check 2>&1; then
	pass "typed spec: every string and length exactly, ten keys + fields ($(cat typed.check))"
else
	fail "typed spec: every string and length exactly, ten keys + fields" "$(cat typed.check)"
fi
"$SDTRACE" report -i typed.data >typed.txt 2>&1
check_eq "typed spec: text shows msg=\"round-i\" len=7, in order" \
	"$(awk -v n=$N 'BEGIN { for (i = 0; i < n; i++) printf "msg=\"round-%d\" len=7\n", i }')" \
	"$(sed -n 's/.* string:message: //p' typed.txt)"
check_eq "typed spec: text shows text=\"hello-sdt\" each round" \
	"$(awk -v n=$N 'BEGIN { for (i = 0; i < n; i++) print "text=\"hello-sdt\"" }')" \
	"$(sed -n 's/.* string:literal: //p' typed.txt)"

# 2. partly named: only msg in fields, the length keeps arg2; an untyped event has no fields key
"$SDTRACE" record -o part.data -x "$P" -e '%string:message(msg:string)' -e '%string:literal' \
	-- "$P" 2 >part.out 2>part.err
check_eq "partly typed: record exits 0" 0 $?
"$SDTRACE" report -i part.data --json >part.json 2>&1
python3 - <<'EOF' >part.fix 2>&1 # the literal's pointer is a number here: not comparable
import json
for l in open("part.json"):
    e = json.loads(l)
    if e["name"] == "literal":
        assert type(e["args"][0]) is int and e["args"][0] > 4096, e
EOF
check_eq "partly typed: the untyped literal stays a pointer" "" "$(cat part.fix)"
grep -v literal part.out >part.msg.out
grep -v '"literal"' part.json >part.msg.json
if json_check part.msg.json part.msg.out "message=msg" >part.check 2>&1 &&
	python3 -c '
import json
ev = [json.loads(l) for l in open("part.json") if "\"literal\"" in l]
assert len(ev) == 2 and all(list(e)[-1] == "args" and len(e) == 10 for e in ev), ev' >>part.check 2>&1; then
	pass "partly typed: fields {msg} only; the untyped event has exactly the ten keys"
else
	fail "partly typed: fields {msg} only; the untyped event has exactly the ten keys" "$(cat part.check)"
fi
"$SDTRACE" report -i part.data >part.txt 2>&1
check "partly typed: text shows msg=\"round-1\" arg2=7" grep -q 'string:message: msg="round-1" arg2=7$' part.txt

# 3. a provider type file
cat >string.d <<'EOF'
provider string {
	probe message(const char *text, int length);
	probe literal(const char *s);
};
EOF
"$SDTRACE" record -o dfile.data -x "$P" --types string.d -e '%string:*' -- "$P" 3 \
	>dfile.out 2>dfile.err
check_eq "--types: record exits 0" 0 $?
"$SDTRACE" report -i dfile.data --json >dfile.json 2>&1
if json_check dfile.json dfile.out "message=text,length;literal=s" >dfile.check 2>&1; then
	pass "--types: names and types from the .d file ($(cat dfile.check))"
else
	fail "--types: names and types from the .d file" "$(cat dfile.check)" "$(cat dfile.err)"
fi
# the user's directory (~/.config/sdtrace/providers), without --types
mkdir -p "$HOME/.config/sdtrace/providers"
sed 's/text/utext/; s/length/ulength/' string.d >"$HOME/.config/sdtrace/providers/string.d"
(
	unset XDG_CONFIG_HOME
	"$SDTRACE" record -o user.data -x "$P" -e '%string:message' -- "$P" 2 >user.out 2>user.err
)
check_eq "user's provider directory: record exits 0" 0 $?
"$SDTRACE" report -i user.data --json >user.json 2>&1
grep -v literal user.out >user.msg.out
if json_check user.json user.msg.out "message=utext,ulength" >user.check 2>&1; then
	pass "user's provider directory: its names are used ($(cat user.check))"
else
	fail "user's provider directory: its names are used" "$(cat user.check)" "$(cat user.err)"
fi
rm -r "$HOME/.config/sdtrace"
# a declared size that disagrees (char for a 4-byte int): that argument keeps the note's type
cat >bad.d <<'EOF'
provider string { probe message(const char *text, char length); };
EOF
"$SDTRACE" record -o bad.data -x "$P" --types bad.d -e '%string:message' -- "$P" 2 \
	>bad.out 2>bad.err
check_eq "--types, a size mismatch: record exits 0" 0 $?
"$SDTRACE" report -i bad.data --json >bad.json 2>&1
grep -v literal bad.out >bad.msg.out
if json_check bad.json bad.msg.out "message=text,length" >bad.check 2>&1; then
	pass "--types, a size mismatch: the name stays, the value is the note's int"
else
	fail "--types, a size mismatch: the name stays, the value is the note's int" "$(cat bad.check)"
fi
"$SDTRACE" record -o none.data -x "$P" --types "$T/missing.d" -e '%string:message' -- "$P" \
	>none.out 2>none.err
check_eq "--types of a missing file: exit 1" 1 $?
check "--types of a missing file: the message names it" grep -q "missing.d" none.err

# 5. integer types change the sign and the base shown, char is a quoted character (prog-sizes:
# sizes:min fires -128 255 -32768 65535 INT32_MIN UINT32_MAX INT64_MIN UINT64_MAX)
PS="$PROGS_DIR/prog-sizes"
if [ -x "$PS" ]; then
	"$SDTRACE" record -o sizes.data -x "$PS" \
		-e '%sizes:min(a:char, b:x8, c:u16, d, e:x32, f:s32, g:x64, h:s64)' -- "$PS" \
		>sizes.out 2>sizes.err
	check_eq "int types: record exits 0" 0 $?
	"$SDTRACE" report -i sizes.data >sizes.txt 2>&1
	check_eq "int types: text in the types' sign and base" \
		"a='\\x80' b=0xff c=32768 d=65535 e=0x80000000 f=-1 g=0x8000000000000000 h=-1" \
		"$(sed -n 's/.* sizes:min: //p' sizes.txt)"
	"$SDTRACE" report -i sizes.data --json >sizes.json 2>&1
	check_eq "int types: JSON numbers in the types' sign, fields = args" \
		'[-128,255,32768,65535,2147483648,-1,9223372036854775808,-1] {"a":-128,"b":255,"c":32768,"d":65535,"e":2147483648,"f":-1,"g":9223372036854775808,"h":-1}' \
		"$(sed -n 's/.*"args":\(\[[^]]*\]\),"fields":\({[^}]*}\)}$/\1 \2/p' sizes.json)"
else
	say "prog-sizes is not built: integer types not checked"
fi

# 4. trace --json: the same fields, live
"$SDTRACE" trace --json -x "$P" -e '%string:message(msg:string, len:s32)' -- "$P" 3 \
	>trace.json 2>trace.err
check_eq "trace --json: exits 0" 0 $?
grep '^{' trace.json >trace.ev.json
grep '^probe string:message' trace.json >trace.prog
if json_check trace.ev.json trace.prog "message=msg,len" >trace.check 2>&1; then
	pass "trace --json: fields live ($(cat trace.check))"
else
	fail "trace --json: fields live" "$(cat trace.check)" "$(head -c 600 trace.json)"
fi
uprobes_unchanged
finish
