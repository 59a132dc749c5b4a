#!/bin/sh
# sdtrace record, then report --json: every value every test program passed to every probe
# (each program prints them, "probe prov:name arg1=... ", before it fires) comes back, at the
# site that fired, with nothing dropped or shifted (tests/e2e/rec-compare.py):
# integer extremes of each size and sign in registers (-O2) and in memory (-O0), constants,
# globals in a PIE and a non-PIE, floats and doubles (registers and stack), one name with three
# inlined sites, 6/7/12 args, semaphore-gated probes (PIE and not), a shared library's probes
# (one gated), char * args (pointers; strings with a provider type file), a long double.
# Arguments the scanner marks unavailable (an indexed global, a thread-local) are null, in
# their places between the values.
# uprobe_events is left as it was.
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd python3
# only the probes on our programs: other test runs (other build trees) may record meanwhile
uprobes_guard "^[p-r]:[^ ]+ $PROGS_DIR/"
cd "$T" || exit 1
CMP="$SRC_DIR/tests/e2e/rec-compare.py"
ROUNDS=3

# run NAME PROG [-x BIN]... -e SPEC...: record PROG ROUNDS, report --json, compare
run() {
	tn=$1
	prog=$2
	shift 2
	need_file "$PROGS_DIR/$prog"
	lists=""
	for a in "$@"; do
		case $a in
		/*)
			bin=${a%%:%*}
			"$SDTRACE" list --json -x "$bin" >"$tn.list.$(basename "$bin")" &&
				lists="$lists --list $tn.list.$(basename "$bin")"
			;;
		esac
	done
	"$SDTRACE" record -o "$tn.data" "$@" -- "$PROGS_DIR/$prog" "$ROUNDS" >"$tn.out" \
		2>"$tn.err"
	check_eq "$tn: record exits 0" 0 $?
	n=$(grep -c '^probe ' "$tn.out")
	check_eq "$tn: record says how many it recorded" \
		"sdtrace: $n events recorded in '$tn.data'; the command exited with status 0" \
		"$(grep -v 'left by a killed sdtrace' "$tn.err")"
	"$SDTRACE" report -i "$tn.data" --json >"$tn.json" 2>"$tn.rerr"
	check_eq "$tn: report --json quiet on stderr" "" "$(cat "$tn.rerr")"
	# shellcheck disable=SC2086
	if python3 "$CMP" $lists "$tn.out" "$tn.json" >"$tn.cmp" 2>&1; then
		pass "$tn: report --json gives every value the program passed ($(cat "$tn.cmp"))"
	else
		fail "$tn: report --json gives every value the program passed" "$(cat "$tn.cmp")"
	fi
}

P=$PROGS_DIR
run sizes prog-sizes -x "$P/prog-sizes" -e '%sizes:*'
run memory-O0 prog-memory -x "$P/prog-memory" -e '%memory:*'
run const prog-const -x "$P/prog-const" -e '%const:*'
run globals-pie prog-globals-pie -x "$P/prog-globals-pie" -e '%globals:*'
run globals-nopie prog-globals-nopie -x "$P/prog-globals-nopie" -e '%globals:*'
run float prog-float -x "$P/prog-float" -e '%float:*'
run float-O0 prog-float-O0 -x "$P/prog-float-O0" -e '%float:*'
run longdouble prog-longdouble -x "$P/prog-longdouble" -e '%longdouble:*'
run unavail prog-rec-unavail -x "$P/prog-rec-unavail" -e '%unavail:*'
run forms prog-bpf-forms -x "$P/prog-bpf-forms" -e '%forms:*'
run pointers prog-string -x "$P/prog-string" -e '%string:*'
run inline prog-inline -x "$P/prog-inline" -e '%inline:*'
run many prog-many-args -x "$P/prog-many-args" -e '%many:*'
run sem-pie prog-semaphore -x "$P/prog-semaphore" -e '%sem:*'
run sem-nopie prog-semaphore-nopie -x "$P/prog-semaphore-nopie" -e '%sem:*'
run lib prog-uselib -e "$P/prog-uselib:%uselib:*" -e "$P/libprog-lib.so:%lib:*"
# with two -x binaries, each spec must match in one of them (not in both)
run lib-x prog-uselib -x "$P/prog-uselib" -x "$P/libprog-lib.so" -e '%uselib:*' -e '%lib:*'

# typed: with a provider type file the char * args are recorded as the strings
cat >t0600.d <<'EOF'
provider string {
	probe message(const char *text, int length);
	probe literal(const char *text);
};
provider lib {
	probe call(long round, const char *name);
};
EOF
run strings prog-string --types t0600.d -x "$P/prog-string" -e '%string:*'
run lib-typed prog-uselib --types t0600.d -e "$P/prog-uselib:%uselib:*" \
	-e "$P/libprog-lib.so:%lib:*"
check "strings: the char * args are JSON strings" python3 -c '
import json
got = [json.loads(l)["args"] for l in open("strings.json")]
assert ["hello-sdt"] in got and ["round-2", 7] in got, got
got = [json.loads(l)["args"] for l in open("lib-typed.json")]
assert [2, "libprog"] in got, got
'

# the comparisons can fail: a value off by one, a shifted arg, a missing event
if [ -s sizes.json ] && [ -s unavail.json ]; then
	sed '1s/"args":\[-128,/"args":[-127,/' sizes.json >bad1.json
	check_fails "self-check: a wrong value is caught" python3 "$CMP" --list sizes.list.prog-sizes \
		sizes.out bad1.json
	# (with the BPF engine the unavailable ones are values: shift those instead)
	sed -e '1s/"args":\[0,null,0,null,1000\]/"args":[0,0,null,1000,null]/' \
		-e '1s/"args":\[0,0,0,-5,1000\]/"args":[0,0,-5,1000,0]/' unavail.json >bad2.json
	check "self-check: the shifted line differs" sh -c '! cmp -s unavail.json bad2.json'
	check_fails "self-check: a shifted arg is caught" python3 "$CMP" \
		--list unavail.list.prog-rec-unavail unavail.out bad2.json
	sed '$d' sizes.json >bad3.json
	check_fails "self-check: a missing event is caught" python3 "$CMP" \
		--list sizes.list.prog-sizes sizes.out bad3.json
fi

# what the comparisons above rely on
if [ "${SDTRACE_ENGINE:-tracefs}" = bpf ]; then
	check "unavail (bpf): the indexed arg2 and the thread-local arg4 are values too" python3 -c '
import json
got = [json.loads(l)["args"] for l in open("unavail.json")]
assert got == [[r, r * 7, -r, r - 5, r + 1000] for r in range(3)], got
'
	check "forms (bpf): indexed and thread-local arguments are the values" python3 -c '
import json
ev = [json.loads(l) for l in open("forms.json")]
ix = [e["args"] for e in ev if e["name"] == "indexed"]
tl = [e["args"] for e in ev if e["name"] == "tls"]
assert [a[3] for a in ix] == [0, 1, 2] and None not in sum(ix, []), ix
assert tl == [[r * 1000 - 7, -r, r] for r in range(3)], tl
'
else
	check "unavail: arg2 and arg4 are null, the others values" python3 -c '
import json
got = [json.loads(l)["args"] for l in open("unavail.json")]
assert got == [[r, None, -r, None, r + 1000] for r in range(3)], got
'
	check "forms: indexed and thread-local arguments are null, the others values" python3 -c '
import json
ev = [json.loads(l) for l in open("forms.json")]
ix = [e["args"] for e in ev if e["name"] == "indexed"]
tl = [e["args"] for e in ev if e["name"] == "tls"]
assert ix == [[None, None, None, r % 4] for r in range(3)], ix
assert tl == [[None, None, r] for r in range(3)], tl
'
fi
check "longdouble: arg1 is 2.5 (the long double), arg2 is 7" python3 -c '
import json
got = [json.loads(l)["args"] for l in open("longdouble.json")]
assert got == [[2.5, 7]] * 3, got
'
check "inline: inline:hit fired at three sites" python3 -c '
import json
ev = [json.loads(l) for l in open("inline.json")]
hits = {e["address"] for e in ev if e["name"] == "hit"}
assert len(hits) == 3, hits
'
for s in sem-pie sem-nopie; do
	counts=""
	for re in 'always .* arg2=7$' first second third; do
		counts="$counts $(grep -c "^probe sem:$re" $s.out)"
	done
	check_eq "$s: every gated probe fired every round (mask 7)" " 3 3 3 3" "$counts"
done
check_eq "lib: the library's gated probe fired every round" 3 "$(grep -c '^probe lib:gated' lib.out)"
check_eq "many: 12 args recorded" 12 "$(python3 -c '
import json
print(max(len(json.loads(l)["args"]) for l in open("many.json")))')"
uprobes_unchanged
finish
