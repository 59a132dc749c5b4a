#!/bin/sh
# The flame graph SVG (cli/flamegraph.c, through sdtrace-test-flamegraph) from a known folded
# input: valid XML (python3's xml.etree), the exact number of frames, a known frame's text and
# width; then opened in a real headless Chromium: the DOM after the script ran has the frames,
# #zoom=outer makes outer's rect the full width, #search=inner highlights inner, and a
# screenshot is not blank and has the frames' colours. No tracefs: nothing is recorded.
. "$(dirname "$0")/lib.sh"
: "${HELPER_DIR:=$BUILD_DIR/tests/helper}"
FG=$HELPER_DIR/sdtrace-test-flamegraph
need_file "$FG"
need_cmd python3
cd "$T" || exit 1

cat >in.folded <<'IN'
main;outer;inner 12
main;outer;other 3
main;alpha 5
main;<&"weird'> 1
IN
"$FG" --title "t1960 <test>" <in.folded >fg.svg 2>fg.err
check_eq "helper: exit 0" 0 $?
check_eq "layout: 7 frames, all drawn, 21 samples, depth 3" "nodes 7 drawn 7 total 21 depth 3" \
	"$(cat fg.err)"

# frames in the file: "NAME WIDTH" per <g class="f">, in document order
cat >frames.py <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {'s': 'http://www.w3.org/2000/svg'}
root = ET.parse(sys.argv[1]).getroot()
for g in root.iter('{http://www.w3.org/2000/svg}g'):
    if g.get('class') != 'f':
        continue
    title = g.find('s:title', ns).text
    r = g.find('s:rect', ns)
    print(title.split(' (')[0], r.get('width'), r.get('fill'))
PY
check "valid XML" python3 frames.py fg.svg
python3 frames.py fg.svg >frames.txt 2>&1
check_eq "7 frame elements" 7 "$(wc -l <frames.txt)"
check_eq "outer: 15 of 21 samples of 1180 px" "outer 842.9" "$(grep '^outer ' frames.txt | cut -d' ' -f1,2)"
check_eq "the hostile name escaped and read back" "<&\"weird'>" \
	"$(grep -F 'weird' frames.txt | sed 's/ [0-9.]* rgb.*//')"
check "a known frame's title" grep -qF '<title>inner (12 samples, 57.14%)</title>' fg.svg
check "a known frame's text" grep -qF '>outer</text>' fg.svg
check "self-contained: no external reference" sh -c '! grep -qE "(xlink:)?href=|src=|@import|url\(" fg.svg'

if ! command -v chromium >/dev/null 2>&1; then
	say "SKIP: chromium is not installed (scripts/install-deps.sh installs it): the browser checks did not run"
	printf '%d passed, %d failed, (browser checks) skipped\n' "$_passed" "$_failed"
	[ "$_failed" -eq 0 ] || exit 1
	exit 77
fi
mkdir -p ud
chrome() {
	timeout 90 chromium --headless=new --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$T/ud" --virtual-time-budget=3000 "$@" 2>>chrome.err
}

chrome --dump-dom "file://$T/fg.svg" >dom.svg
check_eq "chromium --dump-dom: exit 0" 0 $?
check_eq "DOM: 7 frames" 7 "$(grep -o '<g class="f"' dom.svg | wc -l)"
check_eq "DOM: 7 rects in the frames" 7 "$(grep -o '<g class="f"[^>]*><title>[^<]*</title><rect' dom.svg | wc -l)"
check "DOM: inner's text" grep -qF '>inner</text>' dom.svg

chrome --dump-dom "file://$T/fg.svg#zoom=outer" >zoom.svg
check_eq "#zoom=outer: outer's rect is the full width" 'x=10.0 width=1180.0' \
	"$(sed -n 's/.*<title>outer [^<]*<\/title><rect x="\([^"]*\)" y="[^"]*" width="\([^"]*\)".*/x=\1 width=\2/p' zoom.svg)"
check_eq "#zoom=outer: inner is 12/15 of it" 'width="944.0"' \
	"$(grep -o '<title>inner [^<]*</title><rect [^>]*' zoom.svg | grep -o 'width="[^"]*"')"
check "#zoom=outer: alpha hidden" grep -qE '<g class="f"[^>]*style="display: none;"><title>alpha ' zoom.svg
check "#zoom=outer: Reset Zoom shown" grep -qE 'id="unzoom"[^>]*style="opacity: 1;"' zoom.svg

chrome --dump-dom "file://$T/fg.svg#search=^inn" >search.svg
check "#search=^inn: inner highlighted" \
	grep -qE '<title>inner [^<]*</title><rect [^>]*fill="rgb\(230,0,230\)"' search.svg
check "#search=^inn: matched share" grep -qF 'Matched: 57.1%' search.svg

chrome --screenshot="$T/shot.png" --window-size=1200,800 "file://$T/fg.svg" >/dev/null
check "chromium --screenshot: a PNG" test -s shot.png
# the colours of the screenshot's pixels (PNG decoded with zlib; filters undone)
cat >png.py <<'PY'
import struct, sys, zlib
d = open(sys.argv[1], 'rb').read()
assert d[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
i, idat = 8, b''
while i < len(d):
    n, t = struct.unpack('>I4s', d[i:i + 8])
    c = d[i + 8:i + 8 + n]
    if t == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', c[:10])
    elif t == b'IDAT':
        idat += c
    i += 12 + n
assert depth == 8 and ctype in (2, 6), (depth, ctype)
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, colours, pos = bytearray(stride), set(), 0
for y in range(h):
    f, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
    pos += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]
        c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        colours.add(tuple(line[x:x + 3]))
    prev = line
print(len(colours))
for c in sorted(colours):
    print('rgb(%d,%d,%d)' % c)
PY
python3 png.py shot.png >colours.txt 2>png.err
check_eq "screenshot decoded" 0 $?
check "screenshot: more than 2 distinct colours" test "$(head -1 colours.txt)" -gt 2
for f in outer inner alpha; do
	fill=$(grep "^$f " frames.txt | cut -d' ' -f3)
	check "screenshot: $f's colour $fill is drawn" grep -qxF "$fill" colours.txt
done
finish
