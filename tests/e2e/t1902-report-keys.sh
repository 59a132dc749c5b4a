#!/bin/sh
# report --latency --key / --by / --top and --count --by on a real recording of prog-filter
# (100 rounds): its op pairs cross on one thread (start A, start B, end A, end B; A spins 20 us),
# so without a key A's end closes B; with --key every pair's start and end have one key, and the
# 100 ends that passed over another key's start are counted as mismatches. --by groups have the
# program's counts and A's durations above 20 us, B's below; --top lists the slowest pairs
# sorted; --count --by counts per value; --filter and --by go together; --slice-name names the
# timeline's slices.
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR/prog-filter
need_file "$P"
need_cmd python3
need_tracefs
uprobes_guard
cd "$T" || exit 1

"$SDTRACE" record -e "$P:%filt:op__*(key:string,id:s32)" \
	-e "$P:%filt:job__start(id:s32,query:string)" -e "$P:%filt:job__done(id:s32)" \
	-e "$P:%filt:req(id:s32,delta:s64,query:string)" -- "$P" 100 >prog.out 2>rec.err
check_eq "record: exit 0" 0 $?
check "record: 700 events" grep -q "^sdtrace: 700 events recorded" rec.err

py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $1" "$2"; }
pair() { echo "p=[p for p in d['pairs'] if p['name']=='filt:$1'][0]"; }

# without a key: A's end closes B's start
"$SDTRACE" report --latency --json --top 400 >nokey.json 2>nokey.err
check_eq "no key: exit 0" 0 $?
check_eq "no key: all 200 op pairs close a start of the other key" 200 \
	"$(py "print(sum(1 for t in d['slowest'] if t['pair']=='filt:op' and t['start_args'].split()[0] != t['end_args'].split()[0]))" nokey.json)"

# --key: each pair on its own key, the mismatches counted
"$SDTRACE" report --latency --json --key key --top 400 >key.json 2>key.err
check_eq "--key: exit 0" 0 $?
check_eq "--key: every op pair has one key" 0 \
	"$(py "print(sum(1 for t in d['slowest'] if t['pair']=='filt:op' and t['start_args'].split()[0] != t['end_args'].split()[0]))" key.json)"
check_eq "--key: 200 op pairs" 200 "$(py "$(pair op); print(p['count'])" key.json)"
check_eq "--key: 100 key mismatches" 100 "$(py "$(pair op); print(p['key_mismatches'])" key.json)"
check_eq "--key: job pairs (no 'key' name) pair as before" 100 \
	"$(py "$(pair job); print(p['count'])" key.json)"
check "--key: job's kinds lack the name: said" \
	grep -q "^sdtrace: warning: --key: filt:job__start lacks one of the names: its events pair as without a key" key.err
check_eq "--top 400: sorted, slowest first" True \
	"$(py "s=[t['duration_ns'] for t in d['slowest']]; print(s == sorted(s, reverse=True) and len(s) == 300)" key.json)"
"$SDTRACE" report --latency --key key --top 3 >top.txt 2>/dev/null
check "--top 3: text lists 3" grep -q '^the 3 slowest pairs:$' top.txt
check_eq "--top 3: 3 lines" 3 "$(grep -c ' filt:op \| filt:job ' top.txt)"

# --by: one row per key, from the start
"$SDTRACE" report --latency --json --key key --by key >by.json 2>/dev/null
check_eq "--by key: two groups" 2 "$(py "$(pair op); print(p['groups_total'])" by.json)"
check_eq "--by key: A, B with 100 each" "A 100 B 100" \
	"$(py "$(pair op); print(' '.join('%s %d' % (g['key'][0], g['count']) for g in sorted(p['groups'], key=lambda g: g['key'])))" by.json)"
check_eq "--by key: A lasts over 20 us, B under" True \
	"$(py "$(pair op); g={g['key'][0]: g for g in p['groups']}; print(g['A']['p50_ns'] > 20000 and g['B']['p50_ns'] < 20000 and g['A']['min_ns'] >= 20000)" by.json)"
check_eq "--by key: sorted by total time (A first)" A "$(py "$(pair op); print(p['groups'][0]['key'][0])" by.json)"
"$SDTRACE" report --latency --key key --by key >by.txt 2>/dev/null
check "--by: a text row for A" grep -Eq '^ +100 .* key=A$' by.txt

# --by with --filter: only the SELECT jobs, by query
"$SDTRACE" report --latency --json --by query --filter 'query ~ "SELECT*"' >bf.json 2>/dev/null
check_eq "--by query --filter: the SELECT groups" "SELECT_a 25 SELECT_d_FROM_t 25" \
	"$(py "$(pair job); print(' '.join('%s %d' % (g['key'][0], g['count']) for g in sorted(p['groups'], key=lambda g: g['key'])))" bf.json)"
"$SDTRACE" report --latency --by query --top 1 >bt.txt 2>/dev/null
check "--by --top 1: one row, then how many more" grep -q '^  \.\.\. 3 more (--top)$' bt.txt

# --count --by
"$SDTRACE" report --count --by query --json >c.json 2>/dev/null
check_eq "--count --by query: 8 keys (req and job__start, 4 queries each)" 8 \
	"$(py "print(d['keys_total'])" c.json)"
check_eq "--count --by query: 25 each" "25" \
	"$(py "print(' '.join(sorted(set(str(c['count']) for c in d['counts']))))" c.json)"
check_eq "--count: the rest lack the name" 500 "$(py "print(d['without_names'])" c.json)"
"$SDTRACE" report --count --by nosuch >/dev/null 2>cn.err
check_eq "--count --by a name no kind has: exit 2" 2 $?

# --format=chrome --slice-name: slices named by the start's value, the pair as category
"$SDTRACE" report --format=chrome --slice-name key -o tl.json 2>/dev/null
check_eq "--slice-name key: 100 slices A and 100 B of category filt:op" "A 100 B 100" \
	"$(py "import collections; c=collections.Counter(e['name'] for e in d['traceEvents'] if e['ph']=='B' and e.get('cat')=='filt:op'); print(' '.join('%s %d' % kv for kv in sorted(c.items())))" tl.json)"
check_eq "--slice-name key: the job slices (no key) keep the pair's name" 100 \
	"$(py "print(sum(1 for e in d['traceEvents'] if e['ph']=='B' and e['name']=='filt:job'))" tl.json)"
"$SDTRACE" report --slice-name key >/dev/null 2>&1
check_eq "--slice-name without --format=chrome: exit 2" 2 $?

# usage
"$SDTRACE" report --by query >/dev/null 2>&1
check_eq "--by without --latency or --count: exit 2" 2 $?
"$SDTRACE" report --latency --top 0 >/dev/null 2>&1
check_eq "--top 0: exit 2" 2 $?
"$SDTRACE" report --count >/dev/null 2>&1
check_eq "--count without --by: exit 2" 2 $?
uprobes_unchanged
finish
