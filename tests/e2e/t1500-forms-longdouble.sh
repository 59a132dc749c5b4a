#!/bin/sh
# 16-byte floats (x87 long double) recorded and decoded: the forms gcc -O0 writes
# (prog-longdouble: "16f@-32(%rbp)") and the ones written by hand (prog-forms-ld: a global
# "16f@g_ld(%rip)", "16f@(%rdi)", "16f@16(%rdi)"), fetched as 16-byte arrays (x64[2]) and
# decoded by report into every digit of the value the program passed: 2.5, -0, pi, -1/3, a
# denormal, the largest and the smallest normal long double, one beyond a double's range.
# rec-compare.py compares them exactly (both round to the same x87 value, sign of zero too).
# An x87 register operand ("16f@%st") stays unavailable, naming the register. Text, --json and
# --csv print the same digits. uprobe_events is left as it was.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/forms-lib.sh"
need_tracefs
need_cmd python3
uprobes_guard "^[p-r]:[^ ]+ $PROGS_DIR/"
cd "$T" || exit 1
P=$PROGS_DIR

# the scanner: 16 bytes of memory, fetched as an array; %st unavailable with its name
"$SDTRACE" list -v -x "$P/prog-forms-ld" >ld.list.txt 2>&1
for a in 'arg2  16f@g_ld(%rip)       @+0x[0-9a-f]*:x64\[2\]' \
	'arg3  16f@(%rdi)           +0(%di):x64\[2\]' \
	'arg4  16f@16(%rdi)         +16(%di):x64\[2\]' \
	'arg5  16f@%st              unavailable: floating-point or vector register %st: '; do
	if grep -q -- "$a" ld.list.txt; then
		pass "list: $a"
	else
		fail "list: $a" "$(cat ld.list.txt)"
	fi
done

# 8 rounds: each of the 8 values in each long double argument; only %st is null
forms_run ld prog-forms-ld 8 -x "$P/prog-forms-ld" -e '%ld:*'
check_eq "ld: only the %st argument is null (8 rounds)" 8 "$FORMS_NULLS"
forms_run O0 prog-longdouble 3 -x "$P/prog-longdouble" -e '%longdouble:*'
check_eq "O0: no argument is null" 0 "$FORMS_NULLS"

# every output prints the digits: pi, -1/3, the largest, the denormal (x87: 21 digits at most)
"$SDTRACE" report -i ld.data >ld.txt 2>&1
"$SDTRACE" report -i ld.data --format=csv >ld.csv 2>&1
for v in 3.1415926535897932385 -0.33333333333333333334 1.189731495357231765e+4932 \
	1.2825405666779e-4937 3.3621031431120935063e-4932; do
	check "text report prints $v" grep -q -- "=$v " ld.txt
	check "csv report prints $v" grep -q -- ",$v," ld.csv
	check "json report prints $v" grep -q -- "[,[]$v[],]" ld.json
done
check "text report: -0 keeps its sign" grep -q "arg2=-0 " ld.txt
check "json report: -0 keeps its sign" grep -q "[,[]-0\.0[],]" ld.json
check "text report: beyond a double (-1e600)" grep -q "arg2=-1e+600 " ld.txt

uprobes_unchanged
finish
