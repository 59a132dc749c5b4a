#!/bin/sh
# Strings the kernel does not hand back whole, and text that is not ASCII, on real uprobes
# (tests/progs/prog-longstr, which prints each string it passes in hex: the ground truth).
# A :string fetch gives nothing from 4096 bytes on: such a string takes the room of the $comm field
# sdtrace puts after the strings (lib/record/tracefs/uprobe_defs.c), so a string of 4096, 4097 or 10000
# bytes is its first bytes (as many as the thread's name has: 12 for prog-longstr), byte for byte,
# marked truncated with "4096+ bytes"; one of 4095 bytes is cut by the kernel at the end of the
# page a hit's fields share, a prefix of the truth, marked "N+ bytes" with N one more than it
# kept; a short string is unchanged and unmarked.
# Text: valid UTF-8 (héllo wörld ✓ 日本語 😀) is shown as it is, control bytes (\x01, ESC, DEL,
# U+009B) and bytes that are not UTF-8 escaped as \xHH; --json parses (python3) and round-trips
# the valid text, each byte that is not UTF-8 a U+FFFD; --csv has the same values and a last
# column "truncated". Both the shared layout (two events in one tracefs event: slots) and the plain
# one (one event alone), record + report and trace (live). uprobe_events is left as it was.
# The BPF engine (the e2e-bpf pass) reads each string into 4096 bytes of its own, in a record of
# 16 KiB: a string of 4096 bytes or more keeps its first 4095, marked "4096+ bytes" the same way
# (its room field), and one of 4095 bytes is whole and unmarked (no page to share).
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd python3
P="$PROGS_DIR/prog-longstr"
need_file "$P" "$SDTRACE"
uprobes_guard "^[p-r]:[^ ]+ $(realpath "$PROGS_DIR")/"
cd "$T" || exit 1
export SDTRACE_PROVIDERS_DIR="$T/no-providers"
SPECS="-e %str:text(s:string,n:s32) -e %str:utf8(s:string,n:s32)"
# the room a long string gets: the thread's name, its NUL the string's last byte
PFX=$(basename "$P" | cut -c1-15 | tr -d '\n' | wc -c)
# KEEP: the bytes kept of a string of 4096 or more; PAGECUT: is one of 4095 cut at the page's end
if tracefs_engine; then
	KEEP=$PFX PAGECUT=1
else
	KEEP=4095 PAGECUT=0
fi
export PFX KEEP PAGECUT

# check_json FILE PROG_OUT: every event against the program's own lines.
check_json() {
	python3 - "$1" "$2" <<'EOF'
import json, os, sys
KEEP, PAGECUT = int(os.environ["KEEP"]), os.environ["PAGECUT"] == "1"
evs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
truth = []
for l in open(sys.argv[2]):
    w = l.split()
    if w and w[0] == "probe":
        truth.append((w[1].split(":")[1], bytes.fromhex(w[2].split("=", 1)[1])))
assert len(evs) == len(truth), "%d events, %d fired" % (len(evs), len(truth))
BAD = "bad\ufffd \ufffd\ufffd \ufffd\ufffd end"  # each byte that is not UTF-8: one U+FFFD
seen = set()
for e, (name, t) in zip(evs, truth):
    assert e["name"] == name, (e["name"], name)
    s, n = e["args"]
    assert n == len(t), (n, len(t))
    if name == "utf8":
        want = BAD if t.startswith(b"bad") else t.decode("utf-8")
        assert s == want, (s, want)
        assert "truncated" not in e, e
        seen.add("utf8")
        continue
    b = s.encode("ascii")
    if len(t) < 3000:
        assert b == t and "truncated" not in e, e
        seen.add("short")
    elif len(t) == 4095 and PAGECUT:  # cut at the page's end by the kernel: a prefix, marked
        assert 3000 < len(b) < len(t) and b == t[:len(b)], (len(b), b[:20])
        assert e["truncated"] == {"s": len(b) + 1}, e["truncated"]
        seen.add("page")
    elif len(t) == 4095:  # the BPF engine: whole
        assert b == t and "truncated" not in e, (len(b), e.get("truncated"))
        seen.add("page")
    else:  # tracefs: nothing of its own from :string, the room's bytes; bpf: 4095 bytes
        assert b == t[:KEEP], (len(b), b[:20], t[:20])
        assert e["truncated"] == {"s": 4096}, e["truncated"]
        assert list(e)[-1] == "truncated", list(e)
        seen.add("long")
assert seen == {"utf8", "short", "page", "long"}, seen
print("%d events" % len(evs))
EOF
}

# 1. shared: both events in one tracefs event, the string in a slot
"$SDTRACE" -v record -o shared.data -x "$P" $SPECS -- "$P" >shared.out 2>shared.err
check_eq "shared: record exits 0" 0 $?
if tracefs_engine; then
	check "shared: the line ends with the room of long strings" \
		grep -Eq 'a1=\+0\(%[a-z0-9]+\):string .* _sdt_room=\$comm$' shared.err
fi
"$SDTRACE" report -i shared.data --json >shared.json 2>&1
check_eq "shared: report --json exits 0" 0 $?
if check_json shared.json shared.out >shared.check 2>&1; then
	pass "shared: --json: prefixes byte-exact, marks, short strings unchanged, UTF-8 round-trips ($(cat shared.check))"
else
	fail "shared: --json: prefixes byte-exact, marks, short strings unchanged, UTF-8 round-trips" "$(cat shared.check)"
fi
"$SDTRACE" report -i shared.data >shared.txt 2>&1
prefix=$(python3 -c '
import sys
for l in open("shared.out"):
    w = l.split()
    if w[1] == "str:text" and w[3] == "arg2=10000":
        print(bytes.fromhex(w[2][5:])[:'"$KEEP"'].decode())')
check "text: 10000 bytes: its first $KEEP bytes, … and the mark" \
	grep -qF "str:text: s=\"$prefix…\"(truncated, 4096+ bytes) n=10000" shared.txt
check_eq "text: 4096, 4097, 10000 bytes marked 4096+" 3 "$(grep -c '(truncated, 4096+ bytes) n=' shared.txt)"
if [ "$PAGECUT" = 1 ]; then
	check "text: 4095 bytes cut at the page's end, marked" \
		grep -Eq 's="[a-z0-9]{3000,}…"\(truncated, [0-9]{4}\+ bytes\) n=4095$' shared.txt
else
	check "text: 4095 bytes whole, unmarked" grep -Eq 's="[a-z0-9]{4095}" n=4095$' shared.txt
fi
check_eq "text: the short strings unchanged" 2 "$(grep -c 'str:text: s="ahovcjqx" n=8$' shared.txt)"
check "text: UTF-8 as it is" grep -qF 's="héllo wörld ✓ 日本語 😀" n=' shared.txt
check "text: control bytes escaped (C0, ESC, DEL, C1)" \
	grep -qF 's="ctl\x01 \x1b[31mred\x7f \xc2\x9b2J" n=19' shared.txt
check "text: bytes that are not UTF-8 escaped" grep -qF 's="bad\xff \xe6\x97 \xc0\xaf end" n=14' shared.txt

# CSV: the same values, and a last column naming what was cut
"$SDTRACE" report -i shared.data --format=csv -o shared.csv 2>&1
check_eq "csv: exits 0" 0 $?
if python3 - <<'EOF' >csv.check 2>&1; then
import csv, os
KEEP = int(os.environ["KEEP"])
rows = list(csv.reader(open("shared.csv", newline="")))
head, rows = rows[0], rows[1:]
assert head[-3:] == ["s", "n", "truncated"], head
truth = [l.split() for l in open("shared.out") if l.startswith("probe")]
assert len(rows) == len(truth)
for r, w in zip(rows, truth):
    t = bytes.fromhex(w[2][5:])
    n = int(w[3][5:])
    if w[1] == "str:text" and n >= 4096:
        assert r[-3].encode() == t[:KEEP] and r[-1] == "s (4096+ bytes)", (r[-3][:20], r[-1])
    elif w[1] == "str:text" and n < 100:
        assert r[-3].encode() == t and r[-1] == "", r
    elif t.startswith(b"h"):
        assert r[-3] == t.decode() and r[-1] == "", r
print("%d rows" % len(rows))
EOF
	pass "csv: prefixes, the truncated column, UTF-8 ($(cat csv.check))"
else
	fail "csv: prefixes, the truncated column, UTF-8" "$(cat csv.check)"
fi

# 2. plain: the text event alone
"$SDTRACE" -v record -o plain.data -x "$P" -e '%str:text(s:string,n:s32)' -- "$P" >plain.out 2>plain.err
check_eq "plain: record exits 0" 0 $?
if tracefs_engine; then
	check "plain: the line fetches the string, then the room of long strings" \
		grep -Eq ' s=\+0\(%[a-z0-9]+\):string n=%[a-z0-9]+:s32 _sdt_room=\$comm$' plain.err
fi
"$SDTRACE" report -i plain.data --json >plain.json 2>&1
if python3 - <<'EOF' >plain.check 2>&1; then
import json, os
KEEP, PAGECUT = int(os.environ["KEEP"]), os.environ["PAGECUT"] == "1"
evs = [json.loads(l) for l in open("plain.json")]
truth = [bytes.fromhex(l.split()[2][5:]) for l in open("plain.out")
         if l.startswith("probe str:text")]
assert len(evs) == len(truth) == 6
for e, t in zip(evs, truth):
    s = e["args"][0].encode()
    if len(t) >= 4096:
        assert s == t[:KEEP] and e["truncated"] == {"s": 4096}, (len(s), e.get("truncated"))
    elif len(t) == 4095 and PAGECUT:
        assert s == t[:len(s)] and e["truncated"] == {"s": len(s) + 1}, e.get("truncated")
    else:
        assert s == t and "truncated" not in e
print("6 events")
EOF
	pass "plain: prefixes byte-exact and marked ($(cat plain.check))"
else
	fail "plain: prefixes byte-exact and marked" "$(cat plain.check)"
fi

# 3. live: trace --json says what record + report say
# the program's lines to a file of their own: trace writes lines of 10 KB in several writes, and
# the program's output, on the same stdout, could land inside one
"$SDTRACE" trace --json -x "$P" $SPECS -- sh -c 'exec "$1" >trace.out' sh "$P" \
	>trace.json 2>trace.err
check_eq "trace: exits 0" 0 $?
if check_json trace.json trace.out >trace.check 2>&1; then
	pass "trace --json: the same prefixes and marks live ($(cat trace.check))"
else
	fail "trace --json: the same prefixes and marks live" "$(cat trace.check)"
fi
uprobes_unchanged
finish
