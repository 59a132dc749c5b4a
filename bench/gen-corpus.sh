#!/bin/sh
# Generate the cache benchmarks' corpus: DIR/bin/c1 .. cN, from bench/corpus.c compiled once to
# assembly; binary n gets provider h9c<n> and constant n, then is assembled and linked (as,
# ld.lld --build-id=sha1), one worker per CPU. N distinct build-ids (checked). Incremental: the
# binaries that exist are kept, so 10 -> 1000 -> 10000 reuses the work.
# Then DIR/nN/ holds hard links to c1 .. cN: the tree a cache of N binaries is built from.
# usage: gen-corpus.sh DIR N
set -eu
dir=$1
n=$2
src=$(cd "$(dirname "$0")" && pwd)/corpus.c
mkdir -p "$dir/bin"
if [ ! -e "$dir/template.s" ] || [ "$src" -nt "$dir/template.s" ]; then
	gcc -O1 -fno-pie -DPROV=h9cPROVX -DSEED=987654321 -S -o "$dir/template.s" "$src"
	rm -f "$dir"/bin/c*
	rm -rf "$dir"/n*
fi
jobs=$(nproc)
todo=$(i=1; while [ "$i" -le "$n" ]; do [ -e "$dir/bin/c$i" ] || echo "$i"; i=$((i + 1)); done)
if [ -n "$todo" ]; then
	echo "gen-corpus: building $(echo "$todo" | wc -l) binaries into $dir/bin ($jobs workers)"
	w=0
	while [ "$w" -lt "$jobs" ]; do
		(
			echo "$todo" | awk -v w="$w" -v j="$jobs" 'NR % j == w' | while read -r i; do
				t=$dir/bin/c$i.tmp
				sed "s/h9cPROVX/h9c$i/g; s/987654321/$i/g" "$dir/template.s" >"$t.s"
				as -o "$t.o" "$t.s"
				ld.lld --build-id=sha1 -o "$t" "$t.o"
				rm -f "$t.s" "$t.o"
				mv "$t" "$dir/bin/c$i"
			done
		) &
		w=$((w + 1))
	done
	wait
fi
if [ ! -e "$dir/n$n/c$n" ]; then
	rm -rf "$dir/n$n"
	mkdir -p "$dir/n$n"
	i=1
	while [ "$i" -le "$n" ]; do
		ln "$dir/bin/c$i" "$dir/n$n/c$i"
		i=$((i + 1))
	done
	dups=$(python3 -c '
import sys
seen = {}
for p in sys.argv[1:]:
    b = open(p, "rb").read()
    i = b.find(b"\x04\x00\x00\x00\x14\x00\x00\x00\x03\x00\x00\x00GNU\x00")
    seen.setdefault(b[i + 16:i + 36], []).append(p)
print(sum(len(v) - 1 for v in seen.values()))' "$dir"/n"$n"/*)
	[ "$dups" -eq 0 ] || { echo "gen-corpus: $dups duplicate build-ids" >&2; exit 1; }
fi
