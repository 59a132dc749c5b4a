#!/bin/sh
# record --call-graph=dwarf (either engine: e2e/ and e2e-bpf/): the user registers and the top of the user stack per
# hit, unwound at report time with libdwfl. prog-stack-nofp (-O2 -fomit-frame-pointer, its
# library too), 50 rounds of main -> outer -> stack_lib_mid (libprog-stack-lib-nofp.so) -> inner
# -> fire (always_inline, holding stack:hit):
#  - dwarf: exactly one folded line  stack:hit;...;main;outer;stack_lib_mid;inner;fire 50
#    (the library's frame and the inlined one included), report -g the same frames leaf first;
#    --call-graph=dwarf,4096 the same;
#  - fp on the same build cannot recover it (the walk stops at the first frame without a frame
#    pointer): no line holds main;outer;
#  - report --json: each event's "stack" and "frames", the same unwound chain (one answer).
# Then /usr/bin/python3.11 (Debian's: no frame pointers, no .symtab: static functions such as
# gc_collect_main print as [FILE+0xOFF]): %python:gc__start under
# `python3.11 -c 'import gc; gc.collect()'`: with dwarf, the interpreter's exported callers are
# named, Py_RunMain;Py_FinalizeEx;PyGC_Collect and PyEval_EvalCode;_PyEval_EvalFrameDefault
# (gc.collect() from the script); with fp neither is.
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR/prog-stack-nofp
need_file "$P" "$PROGS_DIR/libprog-stack-lib-nofp.so"
need_tracefs
need_cmd python3
uprobes_guard
cd "$T" || exit 1

"$SDTRACE" record --call-graph=dwarf -o d.sdt -e '%stack:hit' -- "$P" 50 >/dev/null 2>r.err
check_eq "record --call-graph=dwarf: exit 0" 0 $?
"$SDTRACE" report --format=folded -i d.sdt >d.txt 2>d.err
check_eq "report --format=folded: exit 0" 0 $?
check_eq "dwarf: one distinct stack" 1 "$(wc -l <d.txt)"
check "dwarf: stack:hit;...;main;outer;stack_lib_mid;inner;fire 50" \
	grep -Eq '^stack:hit;([^;]+;)*main;outer;stack_lib_mid;inner;fire 50$' d.txt
"$SDTRACE" report -g -i d.sdt >g.txt 2>g.err
check_eq "report -g: exit 0" 0 $?
TAB=$(printf '\t')
check_eq "report -g: fire inlined, leaf first, 50 times" 50 \
	"$(grep -c "^$TAB *[0-9a-f]* fire (inlined) ($P)$" g.txt)"
check_eq "report -g: stack_lib_mid+0xOFF in the library, 50 times" 50 \
	"$(grep -c "^$TAB *[0-9a-f]* stack_lib_mid+0x[0-9a-f]* ($PROGS_DIR/libprog-stack-lib-nofp.so)$" g.txt)"
check_eq "report -g: main+0xOFF, 50 times" 50 "$(grep -c "^$TAB *[0-9a-f]* main+0x[0-9a-f]* ($P)$" g.txt)"
check_eq "report --json: 50 events" 50 "$("$SDTRACE" report --json -i d.sdt | tee d.json | grep -c '"name":"hit"')"
check "report --json: 50 unwound stacks, the folded frames leaf first" python3 -c '
import json
folded = open("d.txt").read().split(" ")[0].split(";")[1:][::-1]
ev = [json.loads(l) for l in open("d.json")]
assert len(ev) == 50
for e in ev:
	assert e["frames"] == folded, (e.get("frames"), folded)
	assert len(e["stack"]) == len(folded) >= 5, e["stack"]
'

"$SDTRACE" record --call-graph=dwarf,4096 -o d4.sdt -e '%stack:hit' -- "$P" 20 >/dev/null 2>&1
check_eq "dwarf,4096: exit 0" 0 $?
check "dwarf,4096: stack:hit;...;main;outer;stack_lib_mid;inner;fire 20" \
	grep -Eq '^stack:hit;([^;]+;)*main;outer;stack_lib_mid;inner;fire 20$' \
	"$("$SDTRACE" report --format=folded -i d4.sdt >d4.txt; echo d4.txt)"

"$SDTRACE" record -g -o f.sdt -e '%stack:hit' -- "$P" 50 >/dev/null 2>&1
check_eq "fp: exit 0" 0 $?
"$SDTRACE" report --format=folded -i f.sdt >f.txt 2>&1
check_eq "fp on the no-frame-pointer build: 50 stacks" 50 "$(awk '{ n += $NF } END { print n }' f.txt)"
check_fails "fp on the no-frame-pointer build: main;outer; not recovered" grep -q 'main;outer;' f.txt

PY=/usr/bin/python3.11
if [ -x "$PY" ] && readelf -n "$PY" 2>/dev/null | grep -q gc__start; then
	"$SDTRACE" record --call-graph=dwarf -o py.sdt -e '%python:gc__start' -- \
		"$PY" -c 'import gc; gc.collect()' >/dev/null 2>py.err
	check_eq "python dwarf: exit 0" 0 $?
	"$SDTRACE" report --format=folded -i py.sdt >py.txt 2>&1
	check "python dwarf: Py_RunMain;Py_FinalizeEx;PyGC_Collect" grep -q 'Py_RunMain;Py_FinalizeEx;PyGC_Collect;' py.txt
	check "python dwarf: gc.collect() under PyEval_EvalCode;_PyEval_EvalFrameDefault" \
		grep -q 'Py_RunMain;.*PyEval_EvalCode;_PyEval_EvalFrameDefault;' py.txt
	"$SDTRACE" record -g -o pyfp.sdt -e '%python:gc__start' -- \
		"$PY" -c 'import gc; gc.collect()' >/dev/null 2>&1
	"$SDTRACE" report --format=folded -i pyfp.sdt >pyfp.txt 2>&1
	check_fails "python fp: Py_FinalizeEx not recovered" grep -q 'Py_FinalizeEx' pyfp.txt
else
	say "SKIP (part): no $PY with SDT notes"
fi
uprobes_unchanged
finish
