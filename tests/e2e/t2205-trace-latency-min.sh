#!/bin/sh
# trace --latency --min (BCC's dbslower): the pairs slower than a bound, printed as they end with
# their start's arguments, paired as `record` + `report --latency` pairs them (one answer).
# 1. tests/progs/prog-pairs: 5 fast pairs and 3 slow ones (200 ms sleeps): exactly the 3 slow
#    ones, with their texts escaped as report escapes them; --latency alone prints all 8; a
#    recording of the same program gives report --latency the same 8 pairs and the same 3 slowest.
# 2. tests/progs/prog-oneq (recursion, crossing pairs, a request ended on another thread with a
#    provider file's `pair-by: key` note): trace --latency --json forms as many pairs of each
#    pair as report --latency does from a recording.
# 3. The usage: --min without --latency, a bad duration, --flow with --latency.
# (PostgreSQL's slow queries: t2210.)
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR/prog-pairs
O=$PROGS_DIR/prog-oneq
need_file "$P" "$O"
need_cmd python3
need_tracefs
uprobes_guard
cd "$T" || exit 1
SPEC="$P:%pairs:query__*(query:string)"

# 1. the slow ones
"$SDTRACE" trace --latency --min 50ms -e "$SPEC" -- "$P" >min.out 2>min.err
check_eq "trace --latency --min 50ms: exit 0" 0 $?
grep -v '^probe ' min.out >min.pairs
check_eq "exactly the 3 slow pairs printed" 3 "$(grep -c . min.pairs)"
# shellcheck disable=SC2016
sed -E 's/^[0-9]+\.[0-9]{9} +[0-9]+\/[0-9]+ +//; s/  [0-9.]+ms  / DUR /' min.pairs >min.cut
printf '%s\n' 'pairs:query DUR query="slow-1"' \
	'pairs:query DUR query="slow-2 \x1b[31m\tred"' 'pairs:query DUR query="slow-3"' >min.want
check "their pair, a duration in ms and the start's text, escaped" cmp min.want min.cut
check "each between 200 ms and 1 s" awk '{ d = $4; if (d !~ /ms$/ || d + 0 < 200) exit 1 }' \
	min.pairs
check "the closing line: 3 of 8 pairs, the slowest, none open" \
	grep -qE '^sdtrace: 3 of 8 pairs lasted 50\.00ms or longer; the slowest 2[0-9.]+ms \(pairs:query\); 0 still open at the end$' \
	min.err

"$SDTRACE" trace --latency -e "$SPEC" -- "$P" >all.out 2>all.err
check_eq "--latency alone: every pair (8)" 8 "$(grep -vc '^probe ' all.out)"
check "... said in the closing line" grep -q '^sdtrace: 8 pairs; the slowest' all.err
"$SDTRACE" trace --latency --min 10s -e "$SPEC" -- "$P" >none.out 2>none.err
check_eq "--min 10s: no pair printed" 0 "$(grep -vc '^probe ' none.out)"
check "... never a silent zero: 0 of 8, and the slowest" \
	grep -qE '^sdtrace: 0 of 8 pairs lasted 10\.000s or longer; the slowest 2[0-9.]+ms' none.err
"$SDTRACE" trace --latency --min 50ms --json -e "$SPEC" -- "$P" 2>/dev/null | grep '^{' >min.json
check "--json: one object per slow pair, the start's text" python3 - <<'PYEOF'
import json
rows = [json.loads(l) for l in open("min.json")]
assert [r["start_args"] for r in rows] == ['query="slow-1"', 'query="slow-2 \x1b[31m\tred"',
                                           'query="slow-3"'], rows
assert all(r["pair"] == "pairs:query" and r["duration_ns"] >= 200000000 and
           r["end_ns"] - r["start_ns"] == r["duration_ns"] for r in rows), rows
PYEOF

# the same program recorded: report --latency, the same pairs
"$SDTRACE" record -o p.data -e "$SPEC" -- "$P" >/dev/null 2>rec.err
check_eq "record: exit 0" 0 $?
"$SDTRACE" report -i p.data --latency --json >p.lat.json 2>/dev/null
check "report --latency: the same 8 pairs" python3 - <<'PYEOF'
import json
p = json.load(open("p.lat.json"))["pairs"]
assert [(x["name"], x["count"]) for x in p] == [("pairs:query", 8)], p
PYEOF
"$SDTRACE" report -i p.data --latency --top 3 2>/dev/null |
	sed -n 's/^ *[0-9.]*ms  pairs:query  [0-9/]*  [0-9.]*  \(.*\)  ->  .*/\1/p' | sort >top.args
sed 's/^pairs:query DUR //' min.cut | sort >min.args
check "report --latency --top 3: the same starts, escaped the same" cmp min.args top.args

# 2. prog-oneq: every kind of pair, with a provider file's pair-by note
export XDG_CONFIG_HOME="$T/config"
mkdir -p "$XDG_CONFIG_HOME/sdtrace/providers"
cat >"$XDG_CONFIG_HOME/sdtrace/providers/oneq.d" <<'DEOF'
provider oneq {
	/*
	 * a request, ended by another thread
	 * @sdtrace key: id
	 * @sdtrace pair-by: key
	 */
	probe req__start(long id);
	/* @sdtrace key: id */
	probe req__done(long id);
	probe call__entry(const char *fn, int depth);
	probe call__return(const char *fn, int depth);
	probe op__start(int key);
	probe op__done(int key);
};
DEOF
N=20
ONEQ="-e $O:%oneq:call__* -e $O:%oneq:op__* -e $O:%oneq:req__*"
# shellcheck disable=SC2086
"$SDTRACE" trace --latency --json $ONEQ -- "$O" $N >oneq.out 2>oneq.err
check_eq "trace --latency on prog-oneq: exit 0" 0 $?
# shellcheck disable=SC2086
"$SDTRACE" record -o oneq.data $ONEQ -- "$O" $N >/dev/null 2>oneq.rec.err
check_eq "record prog-oneq: exit 0" 0 $?
"$SDTRACE" report -i oneq.data --latency --json >oneq.lat.json 2>/dev/null
check "one answer: trace's pairs per pair = report --latency's counts" python3 - <<'PYEOF'
import collections, json
t = collections.Counter(json.loads(l)["pair"] for l in open("oneq.out") if l.startswith("{"))
r = {p["name"]: p["count"] for p in json.load(open("oneq.lat.json"))["pairs"]}
assert set(r) == {"oneq:call", "oneq:op", "oneq:req"}, r
assert t == collections.Counter(r), (dict(t), r)
assert r["oneq:req"] == 20, r
PYEOF
unset XDG_CONFIG_HOME

# 3. the usage
check_fails "--min without --latency: a usage error" "$SDTRACE" trace --min 50ms -e "$SPEC" -- "$P"
"$SDTRACE" trace --min 50ms -e "$SPEC" -- "$P" >/dev/null 2>use.err
check "... that says --min needs --latency" grep -q 'min 50ms needs --latency' use.err
"$SDTRACE" trace --latency --min 50 -e "$SPEC" -- "$P" >/dev/null 2>use2.err
check_eq "--min 50 (no unit): exit 2" 2 $?
check "... that asks for a unit" grep -q "'50' is not a duration (a number and a unit" use2.err
check_fails "--flow with --latency: a usage error" "$SDTRACE" trace --flow --latency -e "$SPEC" -- "$P"

uprobes_unchanged
finish
