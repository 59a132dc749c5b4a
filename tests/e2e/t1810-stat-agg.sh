#!/bin/sh
# stat --by and --latency, aggregated in the kernel by the BPF engine, on real uprobes, against
# what the programs do: prog-filter's queries (4 texts, 25 rounds each of 100) counted per text;
# its op pairs, which cross on one thread (start A, start B, end A, end B; A spins 20 us), timed
# per key with --key (A at least 20 us, B less); without a key the starts nest as a stack (B's
# end closes A's start, as report --latency pairs them); job pairs per the start's query text;
# strings past 126 bytes are cut and said so (prog-longstr); the cap on keys counts what it
# drops; a filter in the program counts only what passes; CPython's function__entry/return keyed by the provider note (filename, funcname)
# against sys.setprofile()'s count of calls. The tracefs engine and a filter the program cannot
# evaluate are refused with their reason; no BPF program, link or uprobe is left.
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR/prog-filter
L=$PROGS_DIR/prog-longstr
PY=/usr/bin/python3.11
need_file "$P" "$L"
need_cmd python3 bpftool
need_tracefs
uprobes_guard
cd "$T" || exit 1

progs() { bpftool -j prog list | python3 -c '
import json, sys
print(sum(1 for p in json.load(sys.stdin) if p.get("name") == "sdt_hit"))'; }
progs_before=$(progs)
REQ="$P:%filt:req(id:s32,delta:s64,query:string)"
OP="$P:%filt:op__*(key:string,id:s32)"
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $1" "$2"; }

# --by with a filter the program evaluates: only what passes is counted
"$SDTRACE" stat --by query --filter 'id >= 50 && delta > 0' -o byf.txt -e "$REQ" -- "$P" 100 >/dev/null 2>byf.err
check_eq "--by --filter: exit 0" 0 $?
check_eq "--by --filter: the rows count what passes" \
	"$("$P" 100 | awk '$2 == "filt:req" { split($3, a, "="); split($4, b, "="); split($5, q, "=");
		if (a[2] + 0 >= 50 && b[2] + 0 > 0) n[q[2]]++ } END { for (k in n) print n[k], k }' | sort)" \
	"$(sed -n 's/^ *\([0-9]*\)  %filt:req  query=\(.*\)$/\1 \2/p' byf.txt | sort)"

# --by with string tests the program evaluates (TEXT*, *TEXT, !=, comm ==; 4 literals at most)
"$SDTRACE" stat --by query -o bys.txt -e "$REQ" \
	--filter '(query ~ "SEL*" || query ~ "*_c") && query != "SELECT_a" && comm == "prog-filter"' \
	-- "$P" 100 >/dev/null 2>bys.err
check_eq "--by --filter on strings: exit 0" 0 $?
check_eq "--by --filter on strings: the rows that pass" "25 SELECT_d_FROM_t
25 UPDATE_c" "$(sed -n 's/^ *\([0-9]*\)  %filt:req  query=\(.*\)$/\1 \2/p' bys.txt | sort -k2)"

# --by: a row per query text, 25 each
"$SDTRACE" stat --by query -o by.txt -e "$REQ" -- "$P" 100 >/dev/null 2>by.err
check_eq "--by query: exit 0" 0 $?
check_eq "--by query: 4 rows of 25" 4 "$(grep -Ec '^ +25  %filt:req  query=(SELECT_a|INSERT_b|UPDATE_c|SELECT_d_FROM_t)$' by.txt)"
check "--by: the header names the key" grep -Eq '^ +count  event  by query$' by.txt
"$SDTRACE" stat --by query,id --json -o by.json -e "$REQ" -- "$P" 40 >/dev/null 2>&1
check_eq "--by query,id --json: 40 rows of 1, ids 0..39 with their queries" True \
	"$(py "q=['SELECT_a','INSERT_b','UPDATE_c','SELECT_d_FROM_t']; r=d['rows']; print(len(r)==40 and all(x['count']==1 and x['key']['query']==q[x['key']['id']%4] for x in r) and sorted(x['key']['id'] for x in r)==list(range(40)))" by.json)"
check_eq "--by: negative values are signed" True \
	"$("$SDTRACE" stat --by delta --json -e "$REQ" -- "$P" 10 2>/dev/null | tail -1 |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(sorted(x["key"]["delta"] for x in d["rows"]) == sorted((i*37)%1000-200 for i in range(10)))')"

# --top and the cap
"$SDTRACE" stat --by id --top 3 -o top.txt -e "$REQ" -- "$P" 50 >/dev/null 2>&1
check_eq "--top 3: 3 rows" 3 "$(grep -c '  %filt:req  id=' top.txt)"
check "--top 3: the rest said" grep -q '(47 more keys)' top.txt
"$SDTRACE" stat --by id --max-keys 10 --json -o cap.json -e "$REQ" -- "$P" 100 >/dev/null 2>cap.err
check_eq "--max-keys 10: exit 0" 0 $?
check_eq "--max-keys 10: 10 keys kept, the 90 hits of others counted as dropped" "10 90" \
	"$(py "print(len(d['rows']), d['dropped_keys'])" cap.json)"
check "--max-keys: said on stderr" grep -q "^sdtrace: warning: 90 hits had a new key past the cap" cap.err

# strings: cut at 126 bytes, and said so
"$SDTRACE" stat --by text,len --json -o str.json \
	-e "$L:%str:text(text:string,len:s32)" -- "$L" 3 >/dev/null 2>&1
check_eq "string keys: 8 bytes whole, 4095 and more cut at 126" True \
	"$(py "r={x['key']['len']: x for x in d['rows']}; print(sorted(r)==[8,4095,4096,4097,10000] and r[8]['count']==6 and 'cut' not in r[8] and all(r[n].get('cut') and len(r[n]['key']['text'])==126 and r[n]['count']==3 for n in (4095,4096,4097,10000)))" str.json)"

# --latency --by past the cap: the pair's header is the total, the rest a labelled line
"$SDTRACE" stat --latency --by id --max-keys 10 -o lcap.txt -e "$P:%filt:job__start(id:s32,query:string)" \
	-e "$P:%filt:job__done(id:s32)" -- "$P" 100 >/dev/null 2>lcap.err
check_eq "--latency --max-keys 10: the header counts all 100 pairs" 100 "$(sed -n 's/^  count \([0-9]*\) .*/\1/p' lcap.txt)"
check_eq "--latency --max-keys 10: 10 rows of 1, the 90 others on the cap's line" "10 90" \
	"$(grep -Ec '^ +1 .*  id=[0-9]+$' lcap.txt) $(sed -n 's/^ *\([0-9]*\) .*(keys past the --max-keys cap: in the total above, in no row)$/\1/p' lcap.txt)"
check "--latency --max-keys: said on stderr" grep -q "^sdtrace: warning: 90 pairs had a key past the cap" lcap.err

# --latency --key: pairs on their own key; A spins 20 us, B does not
"$SDTRACE" stat --latency --key key --by key --json -o lat.json -e "$OP" -- "$P" 100 >/dev/null 2>lat.err
check_eq "--latency --key --by: exit 0" 0 $?
check_eq "--key: 200 op pairs, none unmatched" "200 0" \
	"$(py "p=[p for p in d['pairs'] if p['name']=='filt:op'][0]; print(p['count'], d['unmatched_ends'])" lat.json)"
check_eq "--by key: A 100 pairs of 20 us or more, B 100 below 20 us (its median)" True \
	"$(py "p=[p for p in d['pairs'] if p['name']=='filt:op'][0]; g={x['key']['key']: x for x in p['groups']}; print(g['A']['count']==100 and g['A']['min_ns']>=20000 and g['B']['count']==100 and g['B']['p50_ns']<20000 and g['A']['p50_ns']>=g['A']['min_ns'] and g['A']['p99_ns']<=g['A']['max_ns'])" lat.json)"
"$SDTRACE" stat --latency -o nokey.txt -e "$OP" -- "$P" 100 >/dev/null 2>&1
check_eq "no key: the starts nest: 200 pairs, no end left over" "200 " \
	"$(sed -n 's/^  count \([0-9]*\) .*/\1/p' nokey.txt) $(sed -n 's/^ *\([0-9]*\)  ends with no open start.*/\1/p' nokey.txt)"
"$SDTRACE" stat --latency --by query --json -o job.json -e "$P:%filt:job__start(id:s32,query:string)" \
	-e "$P:%filt:job__done(id:s32)" -- "$P" 100 >/dev/null 2>&1
check_eq "--by from the start (its end has no query): 4 groups of 25" True \
	"$(py "p=d['pairs'][0]; print(p['count']==100 and sorted((x['key']['query'], x['count']) for x in p['groups'])==sorted((q,25) for q in ['SELECT_a','INSERT_b','UPDATE_c','SELECT_d_FROM_t']))" job.json)"
"$SDTRACE" stat --latency --pair "%filt:op__start,%filt:op__done" --key key -o pair.txt \
	-e "$OP" -e "$P:%filt:job__start(id:s32,query:string)" -e "$P:%filt:job__done(id:s32)" \
	-- "$P" 10 >/dev/null 2>&1
check "--pair: only that pair" grep -q '^%filt:op__start,%filt:op__done  ' pair.txt
check_fails "--pair: not the job pair" grep -q '^filt:job' pair.txt

# live: --interval prints the rows so far; --serve serves them with their values as labels
printf 'for i in 1 2 3; do "%s" 400 >/dev/null; sleep 0.3; done\n' "$P" >run.sh
"$SDTRACE" stat --by query --json -I 100 -o iv.json -e "$REQ" -- sh run.sh >/dev/null 2>&1
check_eq "--by --interval: growing totals per key, then the final 300 each" True \
	"$(python3 -c '
import json, sys
l = [json.loads(x) for x in open(sys.argv[1])]
iv, fin = l[:-1], l[-1]
tot = [sum(r["count"] for r in o["rows"]) for o in iv]
print(len(iv) >= 8 and [o["interval"] for o in iv] == list(range(1, len(iv) + 1)) and
      tot == sorted(tot) and 0 < min(t for t in tot if t) < 1200 and
      sorted(r["count"] for r in fin["rows"]) == [300] * 4)' iv.json)"
if command -v curl >/dev/null; then
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	printf '"%s" 100 >/dev/null; sleep 3\n' "$P" >run2.sh
	"$SDTRACE" stat --serve "127.0.0.1:$port" --by query --max-keys 3 -o serve.txt -e "$REQ" \
		-- sh run2.sh >/dev/null 2>serve.err &
	spid=$!
	at_exit "kill $spid 2>/dev/null"
	n=0
	until curl -s "http://127.0.0.1:$port/metrics" 2>/dev/null | grep -q 'sdtrace_probe_key_hits_total{.*} 25$'; do
		n=$((n + 1))
		[ $n -gt 100 ] && break
		sleep 0.05
	done
	curl -s "http://127.0.0.1:$port/metrics" >page.txt
	wait $spid
	check_eq "--serve --by: 3 keys of 25 (the cap)" 3 "$(grep -Ec '^sdtrace_probe_key_hits_total\{provider="filt",event="req",binary="[^"]*",query="[A-Z_a-z]+"\} 25$' page.txt)"
	check "--serve --by: the hits past the cap" grep -qx 'sdtrace_key_hits_dropped_total 25' page.txt
	if command -v promtool >/dev/null; then
		check "--serve --by: promtool accepts the page" sh -c 'promtool check metrics <page.txt'
	fi
else
	say "SKIP the --serve part: no curl"
fi

# refused, with the reason
"$SDTRACE" stat --engine=tracefs --by query -e "$REQ" -- "$P" 1 >/dev/null 2>tr.err
check_eq "--engine=tracefs --by: exit 1" 1 $?
check "--engine=tracefs: needs the BPF engine" grep -q "^sdtrace: error: aggregation in the kernel (--by, --latency) needs the BPF engine" tr.err
"$SDTRACE" stat --by query --filter 'query ~ "*EL*"' -e "$REQ" -- "$P" 1 >/dev/null 2>f.err
check_eq "--filter on a string glob the program cannot --by: exit 1" 1 $?
check "--filter '*EL*' --by: why" grep -q "takes globs of the forms TEXT, TEXT\*, \*TEXT and \* only; aggregation in the kernel sees no event to evaluate it on" f.err
"$SDTRACE" stat --by nosuch -e "$REQ" -- "$P" 1 >/dev/null 2>n.err
check_eq "--by a name no event has: exit 1" 1 $?
check "--by nosuch: said" grep -q "^sdtrace: error: --by nosuch: no event probed has this argument" n.err
"$SDTRACE" stat --key key -e "$OP" -- "$P" 1 >/dev/null 2>k.err
check_eq "--key without --latency: exit 2" 2 $?

# CPython: function__entry/return keyed by the note (filename, funcname), against the profiler
if [ -x "$PY" ]; then
	cat >app.py <<'EOF2'
import sys, collections, json
calls = collections.Counter()
def prof(frame, event, arg):
    if event == 'call':
        calls[frame.f_code.co_name] += 1
def leaf(n): return n * 2
def mid(n): return leaf(n) + leaf(n + 1)
def top(n): return mid(n) // 2
def gen():
    for i in range(3):
        yield leaf(i)
sys.setprofile(prof)
for i in range(200):
    top(i)
    list(gen())
sys.setprofile(None)
print(json.dumps({k: calls[k] for k in ('leaf', 'mid', 'top', 'gen')}))
EOF2
	"$SDTRACE" stat --latency --by funcname --json -o py.json -e '%python:function__*' \
		-- "$PY" app.py >truth.json 2>py.err
	check_eq "python: exit 0" 0 $?
	python3 - truth.json py.json >py.check <<'EOF2'
import json, sys
truth = json.load(open(sys.argv[1]))
d = json.load(open(sys.argv[2]))
p = [p for p in d["pairs"] if p["name"] == "python:function"][0]
g = {x["key"]["funcname"]: x for x in p["groups"]}
for f in ("leaf", "mid", "top", "gen"):
    print(f, truth[f], g[f]["count"] if f in g else 0)
print("caller-longer", g["top"]["avg_ns"] >= g["mid"]["avg_ns"] >= g["leaf"]["avg_ns"])
EOF2
	for f in leaf mid top gen; do
		check "python: $f, the calls sys.setprofile() counted" grep -Eq "^$f ([0-9]+) \\1$" py.check
	done
	check "python: a caller lasts at least as long as its callees" grep -qx 'caller-longer True' py.check
else
	say "SKIP the CPython part: no $PY"
fi

check_eq "no sdt_hit program left" "$progs_before" "$(progs)"
uprobes_unchanged
finish
