#!/bin/sh
# Query texts an attacker chooses (issue 34, defects 5 and 8, CSV): prog-hostile-text passes
# texts with ESC (an OSC that sets the title), a C1 CSI, bytes that are not UTF-8, a cut
# character, a newline, and spreadsheet formulas, from a thread named with ESC and C1 bytes.
# stat --by, and report's event lines, --count --by, --latency --by and --latency --top
# print them escaped: every line valid UTF-8 with no C0 (but the newline), DEL or C1 control
# (text-safe.py), each escape as sdtrace-report(1) names it. --format=perfetto decodes with
# protoc against cli/perfetto-trace.proto without a complaint (string fields are UTF-8).
# --format=csv writes each formula with a ' before it, numbers as they are.
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd python3 protoc
P=$PROGS_DIR/prog-hostile-text
need_file "$P"
uprobes_guard "^[p-r]:[^ ]+ $(realpath "$PROGS_DIR")/"
cd "$T" || exit 1
SAFE="python3 $SRC_DIR/tests/e2e/text-safe.py"
Q='%hq:query__start(query:string)'
D='%hq:query__done(query:string)'

"$SDTRACE" stat -e "$Q" -e "$D" --by query -- "$P" 2 >stat.out 2>stat.err
check_eq "stat --by: exit 0" 0 $?
grep -v '^probe ' stat.out >stat.tab
check "stat --by: the table is safe for a terminal" $SAFE stat.tab stat.err
check "stat --by: ESC as \\x1b" grep -qF 'query=SELECT 1\x1b]0;owned\x07' stat.tab
check "stat --by: C1 as \\xc2\\x9b" grep -qF 'query=SELECT 2\xc2\x9b2J' stat.tab
check "stat --by: not UTF-8 as \\xff\\xfe" grep -qF 'query=SELECT 3\xff\xfe' stat.tab
check "stat --by: a cut character as \\xe6\\x97" grep -qF 'query=SELECT 4\xe6\x97' stat.tab
check "stat --by: a newline as \\n" grep -qF 'query=SELECT 5;fake_frame 999999\nx' stat.tab
check "stat --by: UTF-8 as it is" grep -qF 'query=SELECT 6 héllo' stat.tab

"$SDTRACE" record -o r.sdt -e "$Q" -e "$D" -- "$P" 2 >/dev/null 2>rec.err
check_eq "record: exit 0" 0 $?
n=0
for a in "" "--count --by query" "--latency --by query" "--latency --top 20"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	"$SDTRACE" report -i r.sdt $a >rep$n.out 2>rep$n.err
	check_eq "report $a: exit 0" 0 $?
	check "report $a: safe for a terminal" $SAFE rep$n.out rep$n.err
	check "report $a: C1 as \\xc2\\x9b" grep -qF 'SELECT 2\xc2\x9b2J' rep$n.out
	check "report $a: not UTF-8 as \\xff\\xfe" grep -qF 'SELECT 3\xff\xfe' rep$n.out
done
check "report: the thread's name escaped" grep -qF 'hq\x1b[2J\xc2\x9b ' rep1.out

"$SDTRACE" report -i r.sdt --format=perfetto -o t.pftrace 2>pf.err
check_eq "perfetto: exit 0" 0 $?
protoc --proto_path="$SRC_DIR/cli" --decode=perfetto.protos.Trace perfetto-trace.proto \
	<t.pftrace >t.txt 2>protoc.err
check_eq "perfetto: protoc decodes it" 0 $?
check_eq "perfetto: no string field with invalid UTF-8 (protoc says none)" 0 \
	"$(grep -c 'invalid UTF-8' protoc.err)"
check "perfetto: the bytes that are not UTF-8 as U+FFFD" grep -q 'SELECT 3\\357\\277\\275' t.txt

"$SDTRACE" report -i r.sdt --format=csv -o r.csv 2>csv.err
check_eq "csv: exit 0" 0 $?
check "csv: =HYPERLINK behind a '" grep -qF "\"'=HYPERLINK(\"\"http" r.csv
check "csv: @SUM behind a '" grep -qF ",'@SUM(1+1)" r.csv
check "csv: +1+2 and -2+3 behind a '" sh -c "grep -qF \",'+1+2\" r.csv && grep -qF \",'-2+3\" r.csv"
check_eq "csv: no field begins with = + - @ unquoted" 0 \
	"$(grep -cE ',[=+@-][^0-9]|,"[=+@-]' r.csv)"
uprobes_unchanged
finish
