#!/bin/sh
# Issue 16: what the room of long strings (a `_sdt_room=$comm` field after the strings of an
# event, lib/record/tracefs/uprobe_defs.c; a string the kernel's :string gives nothing of, 4096 bytes and
# more, takes it) costs the common case: a short string (54-59 bytes, a query__start's
# "SELECT ... aid = I;") at 200,000 hits (1,000,000 with FULL=1; RUNS=N runs, default 3 or 5):
#   sdtrace record -x LOOP -e '%h9bench:tickS(q:string, n:s32)' -o F -- LOOP N s 0 OUT
# cost per event = (traced loop time - untraced loop time) / hits, bytes per event = file size /
# events, and the kernel's record per hit (the event's format: fields + the string). With
# SDTRACE_BASE=path/to/an/older/sdtrace, the same for it, runs interleaved (old, new, old, ...).
. "$(dirname "$0")/common.sh"
need_root_tracefs
loop=$(loop_bin)
n=200000
runs=3
[ "$BENCH_MODE" = full ] && n=1000000 && runs=5
runs=${RUNS:-$runs}
loop_ns() { sed -n 's/^loop_ns=\([0-9]*\).*/\1/p' "$1"; }
per_event() { python3 -c "print('%.0f' % (($1 - $2) / $3))"; }
sc=$tmp/sc
bins="new:$SDTRACE"
[ -n "${SDTRACE_BASE:-}" ] && bins="old:$SDTRACE_BASE $bins"
for i in $(seq $runs); do
	"$loop" "$n" s 0 "$tmp/out" && loop_ns "$tmp/out" >>"$tmp/base"
	for b in $bins; do
		tag=${b%%:*} bin=${b#*:}
		"$bin" --cache-dir "$sc" record -x "$loop" -e '%h9bench:tickS(q:string, n:s32)' \
			-o "$tmp/$tag.data" -- "$loop" "$n" s 0 "$tmp/out" >/dev/null 2>"$tmp/$tag.err" ||
			{ cat "$tmp/$tag.err" >&2; exit 1; }
		loop_ns "$tmp/out" >>"$tmp/$tag.ns"
		ev=$("$bin" report -i "$tmp/$tag.data" --stats 2>/dev/null | awk '$2 == "total" { print $1 }')
		[ "$ev" = "$n" ] || echo "  $tag: $ev events of $n" >&2
		python3 -c "print($(stat -c %s "$tmp/$tag.data") / $n)" >>"$tmp/$tag.bytes"
	done
done
base=$(median <"$tmp/base")
for b in $bins; do
	tag=${b%%:*}
	c=$(per_event "$(median <"$tmp/$tag.ns")" "$base" $n)
	by=$(median <"$tmp/$tag.bytes")
	echo "  $tag: $c ns/event, $by bytes/event (runs: $(tr '\n' ' ' <"$tmp/$tag.ns"))"
	emit "record, a short string: cost per event, $tag ($n hits, median of $runs)" "$c ns" "" "" "" ""
	emit "record, a short string: bytes per event in the file, $tag" "$by B" "" "" "" ""
done
