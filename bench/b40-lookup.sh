#!/bin/sh
# Issues 2 and 4: look one event up by name in a cache of N binaries, and how `cache add` and the
# lookup grow with N (10, 100, 1,000, 10,000; quick mode: 10 and 1,000).
# Corpus: bench/gen-corpus.sh (N distinct binaries from bench/corpus.c, provider h9c<n>, kept in
# $BENCH_WORK/corpus between runs). Each N gets two fresh caches of the same N binaries:
#   sdtrace --cache-dir D cache add -r CORPUS/nN
#   perf --buildid-dir P buildid-cache --add c1,c2,...   (comma lists of 500: one perf per 500)
# The lookup of the event of the binary in the middle (h9c<N/2>:ev_b):
#   ours: sdtrace --cache-dir D list '%h9c<K>:ev_b'
#   peer: perf --buildid-dir P probe -q --dry-run sdt_h9c<K>:ev_b
#         (the cheapest perf command that resolves one event by name through its cache: it reads
#         the cache, builds the uprobe definition and stops short of writing it; it creates no
#         event, checked below against uprobe_events)
#   also: perf --buildid-dir P list sdt (lists every cached event; shown for scale)
# Targets: flat (ours at 10,000 <= 1.2x ours at 10), <= 0.01x perf at 1,000.
. "$(dirname "$0")/common.sh"
need_root_tracefs
at_exit "P probe -q -d 'sdt_h9c*:*' >/dev/null 2>&1"
sizes="10 100 1000 10000"
runs=11
[ "$BENCH_MODE" = full ] || { sizes="10 1000"; runs=7; }
corpus=$BENCH_WORK/corpus
first_ours=""
for n in $sizes; do
	sh "$bench_dir/gen-corpus.sh" "$corpus" "$n"
	d=$tmp/sc$n
	p=$tmp/pc$n
	add_ours=$(time_ms "$SDTRACE --cache-dir $d cache add -r $corpus/n$n")
	ls "$corpus/n$n" | sed "s|^|$corpus/n$n/|" | split -l 500 - "$tmp/chunk$n."
	add_perf=$(time_ms "for c in $tmp/chunk$n.*; do $perf_h --buildid-dir $p buildid-cache --add \$(paste -sd, \$c) || exit 1; done")
	rm -f "$tmp"/chunk$n.*
	k=$((n / 2))
	ours="$SDTRACE --cache-dir $d list '%h9c$k:ev_b'"
	peer="$perf_h --buildid-dir $p probe -q --dry-run sdt_h9c$k:ev_b"
	# both must find exactly that event, and perf's dry run must leave uprobe_events alone
	got=$(sh -c "$ours")
	[ "$got" = "$corpus/n$n/c$k:%h9c$k:ev_b" ] || { echo "bench: sdtrace list found '$got'" >&2; exit 1; }
	sh -c "$perf_h --buildid-dir $p probe --dry-run sdt_h9c$k:ev_b" 2>&1 | grep -q "sdt_h9c$k:ev_b" ||
		{ echo "bench: perf probe --dry-run did not resolve sdt_h9c$k:ev_b" >&2; exit 1; }
	! grep -q "sdt_h9c" /sys/kernel/tracing/uprobe_events ||
		{ echo "bench: perf probe --dry-run created an event" >&2; exit 1; }
	python3 "$bench_dir/abtime.py" --runs $runs --warmup 2 --label "lookup one event, $n cached binaries" \
		--json "$tmp/lookup$n.json" -- "$ours" "$peer" "$perf_h --buildid-dir $p list sdt"
	cat "$tmp/lookup$n.json" >>"$BENCH_OUT"
	read -r lo lp ll <<-EOT
	$(python3 -c "import json; r = json.load(open('$tmp/lookup$n.json'))['rows']; print(' '.join('%.2f' % x['median_ms'] for x in r))")
	EOT
	[ -n "$first_ours" ] || first_ours=$lo
	# instructions of our lookup (callgrind; immune to the machine's load)
	ins=n/a
	if command -v valgrind >/dev/null; then
		eval "valgrind --tool=callgrind --callgrind-out-file=$tmp/cg.out $ours" >/dev/null 2>"$tmp/cg.err" &&
			ins=$(sed -n 's/^summary: //p' "$tmp/cg.out")
		rm -f "$tmp/cg.out"
	fi
	emit_growth "cache size N: sdtrace cache add -r (ms) | perf buildid-cache --add (ms) | sdtrace list (ms) | sdtrace list (instructions) | perf probe --dry-run (ms) | perf list sdt (ms) | cache du sdtrace | cache du perf" \
		"$n" "$add_ours" "$add_perf" "$lo" "$ins" "$lp" "$ll" "$(du -sh "$d" | cut -f1)" "$(du -sh "$p" | cut -f1)"
	if [ "$n" = 1000 ]; then
		emit "lookup one event, 1,000 cached binaries" "$lo ms" "perf probe --dry-run sdt_h9c500:ev_b" "$lp ms" "$(ratio "$lo" "$lp")" "<= 0.01"
	fi
	last_n=$n
	last_ours=$lo
	rm -rf "$d" "$p"
done
emit "lookup growth: ours at $last_n / ours at 10 cached binaries" "$last_ours ms" "ours at 10" "$first_ours ms" "$(ratio "$last_ours" "$first_ours")" "<= 1.2"
