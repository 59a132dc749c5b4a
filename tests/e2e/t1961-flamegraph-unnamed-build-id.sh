#!/bin/sh
# An unnamed frame in the flame graph (issue 33): record -g of prog-stack-fp with its library
# copied, then the library moved away, so that no file names its frame. The folded stacks show it
# as [libprog-stack-lib-fp.so+0xOFF] (the file's name and the offset in it), and report
# --format=flamegraph draws that box with the same name and a <title> (its tooltip) that carries
# the library's build-id on a line of its own ("build-id HEX"); named frames' titles carry none.
# engine: tracefs
. "$(dirname "$0")/lib.sh"
need_file "$PROGS_DIR/prog-stack-fp" "$PROGS_DIR/libprog-stack-lib-fp.so"
need_tracefs
need_cmd python3 readelf
uprobes_guard
cd "$T" || exit 1

mkdir bin moved && cp "$PROGS_DIR/prog-stack-fp" "$PROGS_DIR/libprog-stack-lib-fp.so" bin/ || exit 1
LIB_BID=$(readelf -n bin/libprog-stack-lib-fp.so | sed -n 's/.*Build ID: //p')
check "the library has a build-id" test -n "$LIB_BID"
LD_LIBRARY_PATH=$T/bin "$SDTRACE" record -g -o g.sdt -e '%stack:hit' -- bin/prog-stack-fp 5 \
	>/dev/null 2>r.err
check_eq "record -g: exit 0" 0 $?
mv bin/libprog-stack-lib-fp.so moved/ || exit 1

"$SDTRACE" report --format=folded -i g.sdt >f.txt 2>f.err
check_eq "folded: exit 0" 0 $?
check "folded: the library's frame is [libprog-stack-lib-fp.so+0xOFF]" \
	grep -Eq '^stack:hit;([^;]+;)*main;outer;\[libprog-stack-lib-fp\.so\+0x[0-9a-f]+\];inner;fire 5$' f.txt

"$SDTRACE" report --format=flamegraph -o fg.svg -i g.sdt 2>fg.err
check_eq "flamegraph: exit 0" 0 $?
python3 - "$LIB_BID" >titles.txt 2>&1 <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {'s': 'http://www.w3.org/2000/svg'}
for g in ET.parse("fg.svg").getroot().iter('{http://www.w3.org/2000/svg}g'):
    if g.get('class') == 'f':
        print(repr(g.find('s:title', ns).text))
PY
check "flamegraph: valid XML" test -s titles.txt
check "the unnamed frame's title: its name, samples, then its build-id" grep -Eq \
	"^'\\[libprog-stack-lib-fp\\.so\\+0x[0-9a-f]+\\] \\(5 samples, [0-9.]+%\\)\\\\nbuild-id $LIB_BID'\$" \
	titles.txt
check_eq "one title with a build-id" 1 "$(grep -c 'build-id' titles.txt)"
check "a named frame's title has none" grep -Eq "^'outer \\(5 samples, [0-9.]+%\\)'\$" titles.txt
uprobes_unchanged
finish
