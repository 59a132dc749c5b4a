#!/bin/sh
# sdtrace report on synthetic recordings: every size and sign at its extremes, floats from raw
# bits, strings (quotes, control bytes, non-UTF-8, a fault), unavailable args, rebased addresses
# and sites told apart by the probe ip. --json is parsed by python3 and must have exactly the
# documented keys; the text output keeps signs (-5, never 251) and quotes strings.
. "$(dirname "$0")/lib.sh"
need_cmd python3
: "${HELPER_DIR:=$BUILD_DIR/tests/helper}"
WRITE=$HELPER_DIR/sdtrace-test-write
need_file "$WRITE"
cd "$T" || exit 1

check "write a recording of every kind of value" \
	"$WRITE" -o values.data ints floats strings unavailable rebase
check "report --json" sh -c '"$0" report -i values.data --json >json.out 2>json.err' "$SDTRACE"
check_eq "nothing on stderr" "" "$(cat json.err)"

cat >check.py <<'EOF'
import json, math, sys
KEYS = ["time_ns", "cpu", "pid", "tid", "comm", "provider", "name", "path", "address", "args"]
lines = open(sys.argv[1]).read().splitlines()
ev = [json.loads(l) for l in lines]
bad = []
def want(cond, what):
    if not cond:
        bad.append(what)
want(len(ev) == 21, "21 events, got %d" % len(ev))
for e in ev:
    want(list(e.keys()) == KEYS, "keys in order: %s" % list(e.keys()))
    want(type(e["time_ns"]) is int and type(e["address"]) in (int, type(None)), "integer types")
ints = [e["args"] for e in ev if e["name"] == "ints"]
want(ints == [
    [0] * 10,
    [255, 127, 65535, 32767, 4294967295, 2147483647, 18446744073709551615,
     9223372036854775807, -5, -5],
    [1, -128, 1, -32768, 1, -2147483648, 1, -9223372036854775808, -128, -128],
    [128, -1, 32768, -1, 2147483648, -1, 9223372036854775808, -1, 127, 127],
], "integer extremes: %s" % ints)
fl = [e["args"] for e in ev if e["name"] == "floats"]
want(fl[0] == [1.5, -0.1, 1.5], "floats 1: %s" % fl[0])
want(fl[1] == [-0.25, 1e300, -0.25], "floats 2: %s" % fl[1])
want(fl[2] == [3.4028234663852886e38, 5e-324, 3.4028234663852886e38], "floats 3: %s" % fl[2])
want(fl[3][0] == 0 and math.copysign(1, fl[3][1]) == -1, "zero and -0.0: %s" % fl[3])
want(fl[4] == ["nan", "inf", "-inf"], "NaN and infinities are the strings nan, inf, -inf in JSON: %s" % fl[4])
st = [e["args"] for e in ev if e["name"] == "strings"]
want(st == [["hello", -1], ["", 2], ["say \"hi\"\\\n\ttab", 3], ["caf\ufffd \ufffd", 4],
            [None, 5], ["x" * 255, 6]], "strings: %s" % st)
un = [e["args"] for e in ev if e["name"] == "unavailable"]
want(un == [[-7, None, None, 42]], "unavailable args are null: %s" % un)
rb = [(e["pid"], e["tid"], e["comm"], e["address"], e["args"]) for e in ev if e["name"] == "rebase"]
want(rb == [(200, 201, "worker", 0x2248, [0x7f1234564010, 1]),
            (200, 201, "worker", 0x3130, [0x7f1234564010, 2]),
            (300, 300, None, None, [None, 3])], "rebase and sites: %s" % rb)
rb = [(e["pid"], e["address"], e["args"]) for e in ev if e["name"] == "rebase2"]
want(rb == [(200, 0x6130, [0x7f1234564020]), (300, None, [None])],
     "the process's bias from another event of the library: %s" % rb)
first = ev[0]
want(first["time_ns"] == 1000000000000 and first["cpu"] == 1 and first["pid"] == 100 and
     first["comm"] == "test-prog" and first["provider"] == "test" and
     first["path"] == "/usr/bin/test-prog" and first["address"] == 0x401136,
     "first event: %s" % first)
want(all(ev[i]["time_ns"] < ev[i + 1]["time_ns"] for i in range(len(ev) - 1)), "time order")
if bad:
    print("\n".join(bad))
    sys.exit(1)
EOF
check "JSON: exact keys, integers with the spec's sign and size, floats, strings, nulls" \
	python3 check.py json.out

check "report (text)" sh -c '"$0" report -i values.data >text.out 2>text.err' "$SDTRACE"
check_eq "text: nothing on stderr" "" "$(cat text.err)"
check_eq "text: 21 lines" 21 "$(wc -l <text.out | tr -d ' ')"
check_eq "text: the perf script layout" \
	"       test-prog     100/100     [001] 1000.000001000: test:ints: arg1=255 arg2=127 arg3=65535 arg4=32767 arg5=4294967295 arg6=2147483647 arg7=18446744073709551615 arg8=9223372036854775807 arg9=-5 arg10=-5" \
	"$(sed -n 2p text.out)"
check_eq "text: minimums" \
	"arg1=1 arg2=-128 arg3=1 arg4=-32768 arg5=1 arg6=-2147483648 arg7=1 arg8=-9223372036854775808 arg9=-128 arg10=-128" \
	"$(sed -n 3p text.out | sed 's/.*test:ints: //')"
check_eq "text: floats, shortest form" "arg1=1.5 arg2=-0.1 arg3=1.5" \
	"$(grep -m1 'test:floats' text.out | sed 's/.*test:floats: //')"
check_eq "text: float extremes" "arg1=3.4028235e+38 arg2=5e-324 arg3=3.4028235e+38" \
	"$(grep 'test:floats' text.out | sed -n 3p | sed 's/.*test:floats: //')"
check_eq "text: NaN and infinities" "arg1=nan arg2=inf arg3=-inf" \
	"$(grep 'test:floats' text.out | sed -n 5p | sed 's/.*test:floats: //')"
check_eq "text: strings quoted and escaped" \
	'arg1="hello" arg2=-1|arg1="" arg2=2|arg1="say \"hi\"\\\n\ttab" arg2=3|arg1="caf\xe9 \xff" arg2=4|arg1=<unavailable> arg2=5' \
	"$(grep 'test:strings' text.out | head -n 5 | sed 's/.*test:strings: //' | paste -sd'|')"
check_eq "text: unavailable args" "arg1=-7 arg2=<unavailable> arg3=<unavailable> arg4=42" \
	"$(grep 'test:unavailable' text.out | sed 's/.*test:unavailable: //')"
check_eq "text: rebased addresses in hex; unknown comm as :TID" \
	"worker 200/201 arg1=0x7f1234564010|:300 300/300 arg1=<unavailable>" \
	"$(grep 'test:rebase' text.out | awk '{print $1, $2, $6}' | sed -n '1p;3p' | paste -sd'|')"
check "text: no s8 printed unsigned (perf script's 251)" sh -c '! grep -q "=251\b" text.out'

check "report --header names the session and why args are missing" \
	sh -c '"$0" report -i values.data --header >hdr.out' "$SDTRACE"
check "header: command line" grep -qF "# command: sdtrace record -e '%test:*' -- ./test-prog 1 2" hdr.out
check "header: host and kernel" sh -c 'grep -q "^# host: test-host" hdr.out && grep -q "^# kernel: 6.18.0-test" hdr.out'
check "header: the reason an arg is unavailable" \
	grep -q '^#   arg3 16f@(%rsp): unavailable: 16-byte floating-point argument' hdr.out

check "report --help" "$SDTRACE" report --help
check "help has examples" sh -c '"$0" report --help | grep -q "^examples:"' "$SDTRACE"
check "sdtrace help report" "$SDTRACE" help report
check "the command table lists report" sh -c '"$0" --help | grep -q "^  report "' "$SDTRACE"
finish
