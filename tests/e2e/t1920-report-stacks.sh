#!/bin/sh
# report --format=folded and report -g over a record -g recording of prog-stack-fp (frame
# pointers, tracefs engine): 50 rounds of main -> outer -> stack_lib_mid (libprog-stack-lib-fp.so)
# -> inner -> fire (always_inline, holding stack:hit) give exactly one folded line
#	stack:hit;...;main;outer;stack_lib_mid;inner;fire 50
# (fire an inlined frame of its own, from DWARF), and -g the same frames leaf first with the
# right files; report --format=flamegraph draws them. Then the program is moved away: its frames
# come from the cache's copy (record does not copy the probed binary into the cache: `sdtrace
# cache add` does, by build-id); with the library moved away too, its frame prints as
# [FILE+0xOFF] and is not dropped.
# engine: tracefs
. "$(dirname "$0")/lib.sh"
need_file "$PROGS_DIR/prog-stack-fp" "$PROGS_DIR/libprog-stack-lib-fp.so"
need_tracefs
need_cmd python3 readelf
uprobes_guard
cd "$T" || exit 1

# a copy of the program and its library of our own, to move away later
mkdir bin && cp "$PROGS_DIR/prog-stack-fp" "$PROGS_DIR/libprog-stack-lib-fp.so" bin/ || exit 1
P=$T/bin/prog-stack-fp
LIB_BID=$(readelf -n bin/libprog-stack-lib-fp.so | sed -n 's/.*Build ID: //p')

LD_LIBRARY_PATH=$T/bin "$SDTRACE" record -g -o g.sdt -e '%stack:hit' -- "$P" 50 >/dev/null 2>r.err
check_eq "record -g: exit 0" 0 $?
"$SDTRACE" report --format=folded -i g.sdt >f.txt 2>f.err
check_eq "report --format=folded: exit 0" 0 $?
check_eq "one distinct stack" 1 "$(wc -l <f.txt)"
check "stack:hit;...;main;outer;stack_lib_mid;inner;fire 50" \
	grep -Eq '^stack:hit;([^;]+;)*main;outer;stack_lib_mid;inner;fire 50$' f.txt

"$SDTRACE" report -g -i g.sdt >g.txt 2>g.err
check_eq "report -g: exit 0" 0 $?
check_eq "report -g: 50 events" 50 "$(grep -c 'stack:hit' g.txt)"
TAB=$(printf '\t')
check_eq "report -g: fire inlined, leaf first, 50 times" 50 \
	"$(grep -c "^$TAB *[0-9a-f]* fire (inlined) ($P)$" g.txt)"
check_eq "report -g: inner+0xOFF in the program" 50 \
	"$(grep -c "^$TAB *[0-9a-f]* inner+0x[0-9a-f]* ($P)$" g.txt)"
check_eq "report -g: stack_lib_mid+0xOFF in the library" 50 \
	"$(grep -c "^$TAB *[0-9a-f]* stack_lib_mid+0x[0-9a-f]* ($T/bin/libprog-stack-lib-fp.so)$" g.txt)"
check_eq "report -g: main+0xOFF" 50 "$(grep -c "^$TAB *[0-9a-f]* main+0x[0-9a-f]* ($P)$" g.txt)"

# the flame graph of the same stacks: valid XML, a frame per function, the title given
"$SDTRACE" report --format=flamegraph --title 'stacks of t1920' -o fg.svg -i g.sdt 2>fg.err
check_eq "report --format=flamegraph: exit 0" 0 $?
check "flamegraph: valid XML with the frames and the title" python3 -c '
import sys, xml.etree.ElementTree as ET
t = ET.parse("fg.svg")
text = "".join(t.getroot().itertext())
for want in ("stacks of t1920", "stack:hit", "main", "outer", "stack_lib_mid", "inner", "fire"):
    assert want in text, want
assert sum(1 for e in t.iter() if e.tag.endswith("rect")) >= 7
'

# the program moved away: the cache's copy (found by build-id) names its frames. record does not
# copy the binary into the cache; `cache add` does
"$SDTRACE" cache add "$P" >/dev/null 2>&1
P_BID=$(readelf -n "$P" | sed -n 's/.*Build ID: //p')
P_REST=${P_BID#??}
check "the cache holds the program by build-id" \
	test -f "$SDTRACE_CACHE_DIR/.build-id/${P_BID%"$P_REST"}/$P_REST/elf"
mkdir moved && mv "$P" moved/ || exit 1
"$SDTRACE" report --format=folded -i g.sdt >m.txt 2>m.err
check_eq "moved: exit 0" 0 $?
check "moved: the same line, from the cache's copy" cmp -s f.txt m.txt

# the library moved away too (not in the cache: it has no SDT notes): [FILE+0xOFF], the file's
# name (not its 40-character build-id: the widest box of a flame graph)
mv bin/libprog-stack-lib-fp.so moved/ || exit 1
"$SDTRACE" report --format=folded -i g.sdt >u.txt 2>u.err
check_eq "library gone: exit 0" 0 $?
check "library gone: its frame is [FILE+0xOFF], not dropped" \
	grep -Eq "^stack:hit;([^;]+;)*main;outer;\\[libprog-stack-lib-fp\\.so\\+0x[0-9a-f]+\\];inner;fire 50\$" u.txt

# without -g: no stacks, said so
LD_LIBRARY_PATH=$T/moved "$SDTRACE" record -o n.sdt -e '%stack:hit' -- "$T/moved/prog-stack-fp" 3 \
	>/dev/null 2>&1
check_fails "folded without stacks: an error" "$SDTRACE" report --format=folded -i n.sdt
uprobes_unchanged
finish
