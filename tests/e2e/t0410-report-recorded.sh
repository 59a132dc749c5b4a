#!/bin/sh
# sdtrace record, then sdtrace report: the values report prints are the values the test programs
# passed to their probes (each program prints them itself, "probe prov:name arg1=... ").
# Integer extremes of every size and sign, floats and doubles (-O2 registers and -O0 stack),
# constants, globals of a PIE, memory operands, inlined sites (several sites, one event), many
# arguments. --json args are checked against the same lines. uprobe_events is left as found.
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd python3
# only the probes on our programs: other test runs (other build trees) may record meanwhile
uprobes_guard "^[p-r]:[^ ]+ $PROGS_DIR/"
cd "$T" || exit 1

# The tracefs format of a recorded event is what report decodes: report must need none of it.
record() { # PROG PROVIDER [ROUNDS]
	"$SDTRACE" record -o "$1.data" -x "$PROGS_DIR/$1" -e "%$2:*" -- "$PROGS_DIR/$1" "${3:-2}" \
		>"$1.prog" 2>"$1.rec"
}
for p in prog-sizes:sizes prog-float:float prog-float-O0:float prog-const:const \
	prog-globals-pie:globals prog-memory:memory prog-inline:inline prog-many-args:many; do
	prog=${p%%:*}
	prov=${p#*:}
	need_file "$PROGS_DIR/$prog"
	if ! "$SDTRACE" list -x "$PROGS_DIR/$prog" "%$prov:*" | grep -q .; then
		fail "$prog has probes of provider $prov" "$("$SDTRACE" list -x "$PROGS_DIR/$prog")"
		continue
	fi
	check "record $prog" record "$prog" "$prov"
	sed -n 's/^probe //p' "$prog.prog" >"$prog.expected"
	"$SDTRACE" report -i "$prog.data" 2>"$prog.err" | sed 's/^.*\] [0-9]*\.[0-9]*: //; s/^\([^ ]*\):/\1/' \
		>"$prog.actual"
	check "$prog: the program fired" test -s "$prog.expected"
	check "$prog: report prints the values the program passed" \
		sh -c 'diff "$0.expected" "$0.actual" >"$0.diff"' "$prog"
	[ -s "$prog.diff" ] && say "$(head -n 10 "$prog.diff")"
	check_eq "$prog: report quiet on stderr" "" "$(cat "$prog.err")"
done

# --json: the same values, typed (ints as JSON integers, floats as numbers)
"$SDTRACE" report -i prog-sizes.data --json >sizes.json
check "sizes --json: the args are the program's, as integers" python3 -c '
import json
exp = [l.split() for l in open("prog-sizes.expected")]
got = [json.loads(l) for l in open("sizes.json")]
assert len(exp) == len(got) == 6, (len(exp), len(got))
for e, g in zip(exp, got):
    assert e[0] == "%s:%s" % (g["provider"], g["name"]), (e, g)
    want = [int(a.split("=", 1)[1]) for a in e[1:]]
    assert g["args"] == want and all(type(a) is int for a in g["args"]), (e, g)
    assert g["comm"] == "prog-sizes" and g["pid"] == g["tid"], g
    assert type(g["address"]) is int and g["address"] > 0, g
'
# the site that fired, as a link-time address: PIE and non-PIE, inlined copies of one probe
for prog in prog-sizes prog-globals-pie prog-inline prog-memory; do
	[ -f "$prog.data" ] || continue
	"$SDTRACE" list -x "$PROGS_DIR/$prog" --json >"$prog.list"
	"$SDTRACE" report -i "$prog.data" --json >"$prog.json"
	check "$prog --json: address is a site 'sdtrace list --json' gives for the event" \
		python3 -c '
import json, sys
prog = sys.argv[1]
sites = {}
for s in json.load(open(prog + ".list")):
    sites.setdefault((s["provider"], s["name"]), set()).add(s["address"])
n = 0
for l in open(prog + ".json"):
    g = json.loads(l)
    assert g["address"] in sites[(g["provider"], g["name"])], (g, sites)
    n += 1
assert n > 0
' "$prog"
done
check "prog-inline: the three inlined sites of inline:hit are told apart" python3 -c '
import json
seen = {}
for l in open("prog-inline.json"):
    g = json.loads(l)
    if g["name"] == "hit":
        seen.setdefault(g["args"][0], set()).add(g["address"])
assert len(seen) == 3 and all(len(a) == 1 for a in seen.values()), seen
assert len(set.union(*seen.values())) == 3, seen
'
"$SDTRACE" report -i prog-float.data --json >float.json
check "float --json: floats as numbers, exact" python3 -c '
import json
exp = [l.split() for l in open("prog-float.expected")]
got = [json.loads(l) for l in open("float.json")]
assert len(exp) == len(got), (len(exp), len(got))
for e, g in zip(exp, got):
    want = [float(a.split("=", 1)[1]) for a in e[1:]]
    assert g["args"] == want and all(type(a) is float for a in g["args"]), (e, g)
'
uprobes_unchanged
finish
