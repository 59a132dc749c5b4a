#!/bin/sh
# record -g and the engines: prog-stack-fp's stack:hit, 40 rounds under main -> outer ->
# stack_lib_mid (libprog-stack-lib-fp.so) -> inner -> fire (inlined), recorded with
# --engine=tracefs (PERF_SAMPLE_CALLCHAIN) and --engine=bpf (bpf_get_stack in the program, the
# mappings from watch events): report --format=folded is the same on both, the chain by name
# with the library's frame and the exact count; report -g names the library's file; -p on a
# running process (its mappings from /proc/PID/maps) names the chain; without -g the BPF engine
# records no stack. --engine=auto with -g no longer picks tracefs for it (no
# "auto:" reason in the header). --call-graph=dwarf: on prog-stack-nofp (no frame pointers)
# both engines (the BPF engine copies the registers and the stack in the program) give the same
# folded line, main;outer;stack_lib_mid;inner;fire 50; --engine=auto picks as without it (3
# events with a dwarf stack: folded counts 3, no "auto:" reason); dwarf,16384 is above the BPF
# engine's 8192: auto records on tracefs and says why, --engine=bpf is refused before the command
# runs; dwarf,BYTES is checked as perf checks it (a multiple of 8, at most 65528).
# engine: tracefs
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR/prog-stack-fp
need_file "$P" "$PROGS_DIR/prog-stack-nofp"
need_tracefs
uprobes_guard
cd "$T" || exit 1
unset SDTRACE_ENGINE

for e in tracefs bpf; do
	"$SDTRACE" record -g --engine=$e -o $e.sdt -e '%stack:hit' -- "$P" 40 >/dev/null 2>$e.err
	check_eq "$e -g: exit 0" 0 $?
	"$SDTRACE" report --format=folded -i $e.sdt >$e.folded 2>>$e.err
	check_eq "$e: report --format=folded: exit 0" 0 $?
	check_eq "$e: one folded stack" 1 "$(wc -l <$e.folded)"
	check "$e: main;outer;stack_lib_mid;inner;fire 40, by name" \
		grep -q '^stack:hit;.*main;outer;stack_lib_mid;inner;fire 40$' $e.folded
	check "$e: the header's engine" sh -c "'$SDTRACE' report --header -i $e.sdt | grep -qx '# engine: $e'"
done
check "bpf and tracefs: the same folded stacks" cmp tracefs.folded bpf.folded
"$SDTRACE" report -g -i bpf.sdt >bpf.g 2>>bpf.err
check_eq "bpf: report -g: exit 0" 0 $?
check_eq "bpf: report -g: 40 library frames with their file" 40 \
	"$(grep -c 'stack_lib_mid+0x[0-9a-f]* (.*/libprog-stack-lib-fp.so)' bpf.g)"
check_eq "bpf: report -g: 40 inner frames in the program" 40 \
	"$(grep -c 'inner+0x[0-9a-f]* (.*/prog-stack-fp)' bpf.g)"

# -p: a process running before the start, its mappings read from /proc/PID/maps
"$P" 100000000 >/dev/null &
pid=$!
at_exit "kill $pid 2>/dev/null"
sleep 0.2
"$SDTRACE" record -g --engine=bpf -x "$P" -p $pid --duration 0.4 -o p.sdt -e '%stack:hit' 2>p.err
check_eq "bpf -g -p: exit 0" 0 $?
kill $pid 2>/dev/null
"$SDTRACE" report --format=folded -i p.sdt >p.folded 2>>p.err
check "bpf -g -p: the chain by name" grep -q '^stack:hit;.*main;outer;stack_lib_mid;inner;fire [1-9][0-9]*$' p.folded
check_eq "bpf -g -p: one folded stack" 1 "$(wc -l <p.folded)"

"$SDTRACE" record --engine=bpf -o n.sdt -e '%stack:hit' -- "$P" 5 >/dev/null 2>&1
check_eq "bpf without -g: no stacks" 0 "$("$SDTRACE" report --json -i n.sdt | grep -c '"stack":\[')"

"$SDTRACE" -v record -g --engine=auto -o a.sdt -e '%stack:hit' -- "$P" 3 >/dev/null 2>a.err
check_eq "auto -g: exit 0" 0 $?
check "auto -g: no reason of -g's" sh -c "! grep -q 'auto: user stacks' a.err"
check "auto -g: the header gives no reason" sh -c "! '$SDTRACE' report --header -i a.sdt | grep -q '^# engine: .*(auto:'"
check_eq "auto -g: 3 events with a stack" 3 "$("$SDTRACE" report --json -i a.sdt | grep -c '"stack":\[')"

N=$PROGS_DIR/prog-stack-nofp
for e in tracefs bpf; do
	"$SDTRACE" record --call-graph=dwarf --engine=$e -o dw$e.sdt -e '%stack:hit' -- "$N" 50 \
		>/dev/null 2>dw$e.err
	check_eq "$e dwarf: exit 0" 0 $?
	"$SDTRACE" report --format=folded -i dw$e.sdt >dw$e.folded 2>>dw$e.err
	check_eq "$e dwarf: one folded stack" 1 "$(wc -l <dw$e.folded)"
	check "$e dwarf: ...;main;outer;stack_lib_mid;inner;fire 50" \
		grep -Eq '^stack:hit;([^;]+;)*main;outer;stack_lib_mid;inner;fire 50$' dw$e.folded
	check "$e dwarf: the header's engine" \
		sh -c "'$SDTRACE' report --header -i dw$e.sdt | grep -qx '# engine: $e'"
done
check "dwarf: bpf and tracefs: the same folded stacks" cmp dwtracefs.folded dwbpf.folded

"$SDTRACE" record --call-graph=dwarf --engine=auto -o d.sdt -e '%stack:hit' -- "$P" 3 >/dev/null 2>d.err
check_eq "dwarf --engine=auto: exit 0" 0 $?
check "dwarf --engine=auto: the header gives no reason" \
	sh -c "! '$SDTRACE' report --header -i d.sdt | grep -q '^# engine: .*(auto:'"
check_eq "dwarf --engine=auto: 3 events with a stack" 3 \
	"$("$SDTRACE" report --format=folded -i d.sdt | awk '{ n += $NF } END { print n }')"
"$SDTRACE" record --call-graph=dwarf,16384 --engine=auto -o d16.sdt -e '%stack:hit' -- "$P" 3 \
	>/dev/null 2>d16.err
check_eq "dwarf,16384 --engine=auto: exit 0" 0 $?
check "dwarf,16384 --engine=auto: the header says why tracefs" \
	sh -c "'$SDTRACE' report --header -i d16.sdt | grep -q '^# engine: tracefs (auto: --call-graph=dwarf above 8192 bytes is the tracefs engine'"
"$SDTRACE" record --call-graph=dwarf,16384 --engine=bpf -o db.sdt -e '%stack:hit' -- "$P" 3 >db.out 2>db.err
check_eq "dwarf,16384 --engine=bpf: exit 1" 1 $?
check "dwarf,16384 --engine=bpf: the error says so" grep -q "call-graph=dwarf above 8192 bytes is the tracefs engine's" db.err
check "dwarf,16384 --engine=bpf: the command did not run" sh -c "! grep -q 'probe stack:hit' db.out"
for bad in dwarf,12 dwarf,65536 dwarf,0 dwarf,x fpx; do
	"$SDTRACE" record --call-graph=$bad -o x.sdt -e '%stack:hit' -- "$P" 1 >/dev/null 2>x.err
	check_eq "--call-graph=$bad: usage error (2)" 2 $?
done
uprobes_unchanged
finish
