#!/bin/sh
# record -g and the engines: --engine=auto with -g records on tracefs (stacks there) and says why
# in report --header's engine line and under -v; -g with --engine=bpf and --call-graph=dwarf are
# refused with a clear error (not recorded yet) before the command runs; --call-graph=dwarf,BYTES
# is checked as perf checks it (a multiple of 8, at most 65528).
# engine: tracefs
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR/prog-stack-fp
need_file "$P"
need_tracefs
uprobes_guard
cd "$T" || exit 1

"$SDTRACE" -v record -g --engine=auto -o a.sdt -e '%stack:hit' -- "$P" 3 >/dev/null 2>a.err
check_eq "auto -g: exit 0" 0 $?
check "auto -g: -v says why tracefs" grep -q "engine tracefs (auto: user stacks" a.err
check "auto -g: the header says why" sh -c "'$SDTRACE' report --header -i a.sdt | grep -q '^# engine: tracefs (auto: user stacks'"
check_eq "auto -g: 3 events with a stack" 3 "$("$SDTRACE" report --json -i a.sdt | grep -c '"stack":\[')"

"$SDTRACE" record -g --engine=bpf -o b.sdt -e '%stack:hit' -- "$P" 3 >b.out 2>b.err
check_eq "-g --engine=bpf: exit 1" 1 $?
check "-g --engine=bpf: the error says so" grep -q "not supported by the BPF engine yet" b.err
check "-g --engine=bpf: the command did not run" sh -c "! grep -q 'probe stack:hit' b.out"

"$SDTRACE" record --call-graph=dwarf -o d.sdt -e '%stack:hit' -- "$P" 3 >/dev/null 2>d.err
check_eq "dwarf: exit 1" 1 $?
check "dwarf: not recorded yet" grep -q "dwarf.*not recorded yet" d.err
for bad in dwarf,12 dwarf,65536 dwarf,0 dwarf,x fpx; do
	"$SDTRACE" record --call-graph=$bad -o x.sdt -e '%stack:hit' -- "$P" 1 >/dev/null 2>x.err
	check_eq "--call-graph=$bad: usage error (2)" 2 $?
done
uprobes_unchanged
finish
