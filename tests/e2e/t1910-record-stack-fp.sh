#!/bin/sh
# record -g (frame pointers; both engines: e2e/ and e2e-bpf/) at prog-stack-fp's stack:hit,
# 50 rounds under main -> outer -> stack_lib_mid (libprog-stack-lib-fp.so) -> inner: 50 events,
# each with a user stack of at least 4 ips (report --json "stack"), all the same stack (one
# STACK record: same ips), the program's and the library's mappings in the recording with their
# paths, each mapping once (the command is followed: the watch events that arm late files are
# also those that bring the mappings; issue #19: the BPF engine had a second set, the tracefs
# engine its sample events' MMAP2 too, and every MAPPING record came twice), with --no-follow
# too; without -g, no stacks. prog-stack-nofp: the walk stops early (what fp cannot serve), but
# the events are there.
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR/prog-stack-fp
need_file "$P"
need_tracefs
need_cmd python3
uprobes_guard
cd "$T" || exit 1

"$SDTRACE" record -g -o g.sdt -e '%stack:hit' -- "$P" 50 >/dev/null 2>r.err
check_eq "record -g: exit 0" 0 $?
"$SDTRACE" report --json -i g.sdt >g.json
check_eq "report --json: exit 0" 0 $?
check_eq "50 events" 50 "$(grep -c '"name":"hit"' g.json)"
check_eq "50 events with a stack" 50 "$(grep -c '"stack":\[' g.json)"
check_eq "one distinct stack of depth >= 4" 1 "$(python3 -c '
import json, sys
st = {tuple(json.loads(l)["stack"]) for l in open("g.json")}
print(len(st) if all(len(s) >= 4 for s in st) else 0)')"
check "the program's mapping recorded" grep -qa "prog-stack-fp" g.sdt
check "the library's mapping recorded" grep -qa "libprog-stack-lib-fp.so" g.sdt
M=$SRC_DIR/tests/e2e/rec-mappings.py
python3 "$M" g.sdt >g.maps
check_eq "followed: the library's mapping once" 1 "$(grep -c '/libprog-stack-lib-fp.so$' g.maps)"
check_eq "followed: no mapping twice" "" "$(sort g.maps | uniq -d)"

"$SDTRACE" record -g --no-follow -o nf.sdt -e '%stack:hit' -- "$P" 50 >/dev/null 2>nf.err
check_eq "record -g --no-follow: exit 0" 0 $?
python3 "$M" nf.sdt >nf.maps
check_eq "--no-follow: the library's mapping once" 1 "$(grep -c '/libprog-stack-lib-fp.so$' nf.maps)"
check_eq "--no-follow: no mapping twice" "" "$(sort nf.maps | uniq -d)"
check_eq "--no-follow: 50 events with a stack of depth >= 4" 50 "$("$SDTRACE" report --json -i nf.sdt |
	python3 -c '
import json, sys
print(sum(len(json.loads(l).get("stack", [])) >= 4 for l in sys.stdin))')"

"$SDTRACE" record -o n.sdt -e '%stack:hit' -- "$P" 5 >/dev/null 2>&1
check_eq "without -g: no stacks" 0 "$("$SDTRACE" report --json -i n.sdt | grep -c '"stack":\[')"
uprobes_unchanged
finish
