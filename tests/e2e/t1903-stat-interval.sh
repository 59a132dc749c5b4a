#!/bin/sh
# stat --interval on real uprobes: a shell runs prog-filter (1000 filt:req hits) three times with
# 0.3 s pauses; every 100 ms a line (or a JSON object) gives the hits of the interval and their
# rate; the intervals add up to the total the final object gives (3000), their times grow about
# 100 ms apart (the last, cut by the exit, may be shorter) and about the whole run is covered;
# the totals say how long it recorded. Bad values: usage errors.
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR/prog-filter
need_file "$P"
need_cmd python3
need_tracefs
uprobes_guard
cd "$T" || exit 1

printf 'for i in 1 2 3; do "%s" 1000 >/dev/null; sleep 0.3; done\n' "$P" >run.sh
"$SDTRACE" stat --json --interval 100 -e "$P:%filt:req" -- sh run.sh \
	>i.json 2>i.err
check_eq "stat --interval --json: exit 0" 0 $?
python3 - i.json >i.check <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
ivs, final = lines[:-1], lines[-1]
print("intervals>=8", len(ivs) >= 8)
print("numbered", [o["interval"] for o in ivs] == list(range(1, len(ivs) + 1)))
el = [o["elapsed_s"] for o in ivs]
print("growing", all(b > a for a, b in zip(el, el[1:])))
# the last interval is the rest of the run when the command exits (stat(1)): any length up to one
steps = [b - a for a, b in zip(el, el[1:])]
print("steps~0.1", all(0.05 < d < 0.5 for d in steps[:-1]) and 0 < steps[-1] < 0.5)
c = [o["events"][0]["count"] for o in ivs]
print("sum", sum(c))
print("totals", all(o["events"][0]["total"] == sum(c[:k + 1]) for k, o in enumerate(ivs)))
print("some-zero", 0 in c)
# the counts come while it runs (each interval's read), not all at the end
print("live", sum(c[:-1]) > 0)
r = [(o["events"][0]["rate"], o["events"][0]["count"]) for o in ivs[1:-1]]
print("rates", all(abs(rate - n / 0.1) <= max(0.6 * n / 0.1, 1) for rate, n in r))
print("final", final["events"][0]["count"], final["elapsed_s"] > 0.9 and final["elapsed_s"] < 10)
PY
check "at least 8 intervals of 100 ms" grep -qx 'intervals>=8 True' i.check
check "numbered from 1" grep -qx 'numbered True' i.check
check "elapsed time grows" grep -qx 'growing True' i.check
check "about 100 ms apart" grep -qx 'steps~0.1 True' i.check
check "the intervals add up to the 3000 hits" grep -qx 'sum 3000' i.check
check "each total is the sum so far" grep -qx 'totals True' i.check
check "the pauses show as empty intervals" grep -qx 'some-zero True' i.check
check "the counts come during the run, not all at the end" grep -qx 'live True' i.check
check "rates are per second" grep -qx 'rates True' i.check
check "the totals: 3000 and the time recorded" grep -qx 'final 3000 True' i.check

"$SDTRACE" stat -I 100 -e "$P:%filt:req" -- "$P" 500 >t.out 2>t.err
check_eq "stat -I (text): exit 0" 0 $?
check "text: the header" grep -q '^# *time (s) *count *rate/s *event$' t.out
check "text: a line per interval" grep -Eq '^ +[0-9]+\.[0-9]{3} +[0-9]+ +[0-9.]+ +%filt:req$' t.out
check "text: then the total" grep -Eq '^ +500  %filt:req$' t.out
check "text: and the time" grep -Eq '^ +[0-9]+\.[0-9]{3}  seconds elapsed$' t.out

"$SDTRACE" stat --interval 5 -e "$P:%filt:req" -- "$P" 1 >/dev/null 2>e.err
check_eq "--interval 5: exit 2" 2 $?
"$SDTRACE" stat --interval 1s -e "$P:%filt:req" -- "$P" 1 >/dev/null 2>e.err
check_eq "--interval 1s: exit 2" 2 $?
uprobes_unchanged
finish
