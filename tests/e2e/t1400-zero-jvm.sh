#!/bin/sh
# Never a silent zero, on the JVM: HotSpot fires %hotspot:method__entry only when started with
# -XX:+ExtendedDTraceProbes (or -XX:+DTraceMethodProbes), and share/providers/hotspot.d says so in
# an `@sdtrace needs:` note. trace and stat of `java -version` without the flag end with one line
# on stderr naming the flag ("sdtrace: 0 hits: %hotspot:method__entry: needs: ..."); with the
# flag, the probe fires and no such line is printed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real-lib.sh"
need_jdk
need_tracefs
real_guard "$JVM"
cd "$T" || exit 1
pids=""

NEEDS='^sdtrace: 0 hits: %hotspot:method__entry: needs: -XX:+ExtendedDTraceProbes (or -XX:+DTraceMethodProbes) (.*hotspot\.d:[0-9]*)$'

"$SDTRACE" trace -x "$JVM" -e %hotspot:method__entry -- "$JAVA" -version >t.out 2>t.err &
p=$!
pids="$pids $p"
wait "$p"
check_eq "trace -- java -version: exit 0" 0 $?
check_eq "trace: no event printed" 0 "$(wc -l <t.out)"
check "trace: a line names -XX:+ExtendedDTraceProbes" grep -q "$NEEDS" t.err
check_eq "trace: one line for the one event" 1 "$(grep -c '^sdtrace: [0-9]* hits:' t.err)"

"$SDTRACE" stat -x "$JVM" -e %hotspot:method__entry -e %hotspot:object__alloc \
	-e %hotspot:vm__init__begin -- "$JAVA" -version >s.out 2>s.err &
p=$!
pids="$pids $p"
wait "$p"
check_eq "stat -- java -version: exit 0" 0 $?
check "stat: method__entry counted 0" grep -Eq '^ +0  %hotspot:method__entry$' s.out
check "stat: a line names -XX:+ExtendedDTraceProbes" grep -q "$NEEDS" s.err
check "stat: object__alloc's line names -XX:+DTraceAllocProbes" \
	grep -q '^sdtrace: 0 hits: %hotspot:object__alloc: needs: .*-XX:+DTraceAllocProbes' s.err
check_fails "stat: no line for vm__init__begin (it fired)" grep -q 'vm__init__begin' s.err

for flag in -XX:+ExtendedDTraceProbes -XX:+DTraceMethodProbes; do
	"$SDTRACE" stat --json -x "$JVM" -e %hotspot:method__entry -- "$JAVA" "$flag" -version \
		>f.json 2>f.err &
	p=$!
	pids="$pids $p"
	wait "$p"
	check_eq "stat -- java $flag -version: exit 0" 0 $?
	n=$(sed -n 's/.*"name":"method__entry","count":\([0-9]*\).*/\1/p' f.json)
	check "$flag: method__entry fired (${n:-?} times)" [ "${n:-0}" -gt 100 ]
	check_fails "$flag: no line about it" grep -q '^sdtrace: [0-9]* hits:' f.err
done
# shellcheck disable=SC2086
real_unchanged $pids
finish
