#!/bin/sh
# Issue 3: add every ELF file under /usr/lib to an empty cache.
#   ours: sdtrace --cache-dir D cache add -r /usr/lib            (full mode: the whole tree)
#         sdtrace --cache-dir D cache add F1 F2 ... F200         (both modes: a sample of 200 ELF
#         files, every (total/200)-th of the sorted list, so it spreads over the whole tree)
#   peer: for f in ...; do HOME=H perf --buildid-dir D buildid-cache --add $f; done   (file by file)
# Quick mode: only the sample. Target: <= 0.05x perf.
# Not the same work: perf stores every ELF file (elf + an empty probes file); sdtrace stores only
# the files with SDT notes (its summary line, printed below, says how many) and skips the rest.
. "$(dirname "$0")/common.sh"
elf_files /usr/lib >"$tmp/elfs"
total=$(wc -l <"$tmp/elfs")
awk -v k=$((total / 200)) '(NR - 1) % k == 0' "$tmp/elfs" | head -n 200 >"$tmp/sample"
runs=3
# Both sides: an empty cache each run, sdtrace and perf runs alternating.
for i in $(seq $runs); do
	rm -rf "$tmp/s" "$tmp/p"
	time_ms "$SDTRACE --cache-dir $tmp/s cache add \$(cat $tmp/sample)" >>"$tmp/ours"
	time_ms "while read -r f; do $perf_h --buildid-dir $tmp/p buildid-cache --add \"\$f\" || exit 1; done <$tmp/sample" >>"$tmp/peer"
done
o=$(median <"$tmp/ours")
echo "  sample: $($SDTRACE --cache-dir $tmp/s cache add $(cat $tmp/sample) 2>&1 | tail -1)"
p=$(median <"$tmp/peer")
emit "cache add: 200 ELF files of /usr/lib (sample) (median of $runs)" "$o ms ($(python3 -c "print('%.0f' % (200 / $o * 1e3))") files/s)" \
	"while read f; do perf --buildid-dir D buildid-cache --add \$f; done" \
	"$p ms ($(python3 -c "print('%.0f' % (200 / $p * 1e3))") files/s)" "$(ratio "$o" "$p")" "<= 0.05"
if [ "$BENCH_MODE" = full ]; then
	rm -rf "$tmp/s" "$tmp/p"
	o=$(time_ms "$SDTRACE --cache-dir $tmp/s cache add -r /usr/lib")
	echo "  whole tree: $($SDTRACE --cache-dir $tmp/s cache add -r /usr/lib 2>&1 | tail -1) (a second, no-op run)"
	p=$(time_ms "while read -r f; do $perf_h --buildid-dir $tmp/p buildid-cache --add \"\$f\" || exit 1; done <$tmp/elfs")
	emit "cache add -r /usr/lib: all $total ELF files (1 run)" "$o ms ($(python3 -c "print('%.0f' % ($total / $o * 1e3))") files/s)" \
		"perf buildid-cache --add, file by file" \
		"$p ms ($(python3 -c "print('%.0f' % ($total / $p * 1e3))") files/s)" "$(ratio "$o" "$p")" "<= 0.05"
	echo "  cache sizes: sdtrace $(du -sh "$tmp/s" | cut -f1), perf $(du -sh "$tmp/p" | cut -f1)"
fi
