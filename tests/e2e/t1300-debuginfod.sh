#!/bin/sh
# Binaries by build-id from a real debuginfod server (issue 9): `cache add --build-id`,
# `list --build-id`, report -g of a recording whose binary is gone (its stack named from the
# server's file), and the errors: unknown build-id, no DEBUGINFOD_URLS (no network at all),
# a server that does not answer, a timeout, a server sending a file of another build-id.
#
# The server and every sdtrace command run inside a network namespace of the test's own
# (`unshare -n`, only `lo` up): debuginfod 0.188 listens on every interface. A fake HTTP server
# (python3) plays the lying and the silent servers.
. "$(dirname "$0")/lib.sh"

need_root
need_cmd unshare ip debuginfod python3 gcc
"$SDTRACE" --version | grep -q debuginfod || skip "sdtrace was built without debuginfod (libdebuginfod-dev)"

mkdir -p "$T/srv" "$T/other"
cat >"$T/p.c" <<'C'
#include <sys/sdt.h>
int main(int argc, char **argv) { (void)argv; STAP_PROBE1(dbgtest, hello, argc); return 0; }
C
gcc -O1 -Wl,--build-id=sha1 -o "$T/srv/prog" "$T/p.c" || skip "cannot compile the test program"
printf '%s\n' 'int main(void) { return 1; }' >"$T/q.c"
gcc -O1 -Wl,--build-id=sha1 -o "$T/other/liar" "$T/q.c" || skip "cannot compile"
bid=$(readelf -n "$T/srv/prog" | sed -n 's/.*Build ID: //p')
other_bid=$(readelf -n "$T/other/liar" | sed -n 's/.*Build ID: //p')
[ -n "$bid" ] || skip "no build-id in the test program"

# A recording of a binary that is then gone from this host: report fetches it by build-id.
recorded=0
if ( need_tracefs ) >/dev/null 2>&1; then
	need_tracefs
	uprobes_guard
	mkdir -p "$T/run" && cp "$T/srv/prog" "$T/run/prog"
	if "$SDTRACE" --cache-dir "$T/reccache" record -g -x "$T/run/prog" -e %dbgtest:hello \
		-o "$T/rec.data" -- "$T/run/prog" a b >/dev/null 2>&1; then
		recorded=1
		rm -f "$T/run/prog"
	fi
	uprobes_unchanged "record left no uprobe behind"
fi

cat >"$T/inner.sh" <<INNER
set -u
ip link set lo up
debuginfod -F -p 18777 -d "$T/db.sqlite" -t 0 -g 0 "$T/srv" >"$T/dbgd.log" 2>&1 &
echo \$! >"$T/dbgd.pid"
# a server that lies (sends another build) on 18778, one that never answers on 18779
python3 - "$T/other/liar" >"$T/fake.log" 2>&1 <<'PY' &
import http.server, sys, threading, time
data = open(sys.argv[1], 'rb').read()
class Lie(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.send_header('Content-Length', str(len(data))); self.end_headers()
        self.wfile.write(data)
    def log_message(self, *a): pass
class Mute(http.server.BaseHTTPRequestHandler):
    def do_GET(self): time.sleep(30)
    def log_message(self, *a): pass
for port, h in ((18778, Lie), (18779, Mute)):
    s = http.server.ThreadingHTTPServer(('127.0.0.1', port), h)
    threading.Thread(target=s.serve_forever, daemon=True).start()
time.sleep(120)
PY
echo \$! >"$T/fake.pid"
# ready when the scan has counted our file (ready 1 comes before the scan ends)
i=0
while [ \$i -lt 100 ]; do
	curl -s http://127.0.0.1:18777/metrics 2>/dev/null | grep -q 'scanned_files_total{source="file"} [1-9]' && break
	sleep 0.2; i=\$((i + 1))
done
export DEBUGINFOD_CACHE_PATH="$T/dcache"
run() { "\$@" >"$T/out.\$step" 2>"$T/err.\$step"; echo \$? >"$T/rc.\$step"; }
step=add;      DEBUGINFOD_URLS=http://127.0.0.1:18777 run "$SDTRACE" --cache-dir "$T/cache" cache add --build-id "$bid"
step=list;     DEBUGINFOD_URLS=http://127.0.0.1:18777 run "$SDTRACE" --cache-dir "$T/cache2" list --build-id "$bid"
step=unknown;  DEBUGINFOD_URLS=http://127.0.0.1:18777 run "$SDTRACE" --cache-dir "$T/cache3" cache add --build-id 00112233445566778899aabbccddeeff00112233
step=nourls;   DEBUGINFOD_URLS= run "$SDTRACE" --cache-dir "$T/cache4" cache add --build-id "$bid"
step=refused;  DEBUGINFOD_CACHE_PATH="$T/dc5" DEBUGINFOD_URLS=http://127.0.0.1:18770 run "$SDTRACE" --cache-dir "$T/cache5" cache add --build-id "$bid"
step=liar;     DEBUGINFOD_CACHE_PATH="$T/dc6" DEBUGINFOD_URLS=http://127.0.0.1:18778 run "$SDTRACE" --cache-dir "$T/cache6" cache add --build-id "$bid"
step=timeout;  DEBUGINFOD_CACHE_PATH="$T/dc7" DEBUGINFOD_TIMEOUT=2 DEBUGINFOD_URLS=http://127.0.0.1:18779 run "$SDTRACE" --cache-dir "$T/cache7" cache add --build-id "$bid"
if [ $recorded = 1 ]; then
	step=report;  DEBUGINFOD_URLS=http://127.0.0.1:18777 run "$SDTRACE" --cache-dir "$T/cache8" report -i "$T/rec.data"
	step=stacks;  DEBUGINFOD_CACHE_PATH="$T/dc9" DEBUGINFOD_URLS=http://127.0.0.1:18777 run "$SDTRACE" --cache-dir "$T/cache9" report -g -i "$T/rec.data"
	step=nostacks; DEBUGINFOD_CACHE_PATH="$T/dc10" DEBUGINFOD_URLS= run "$SDTRACE" --cache-dir "$T/cache10" report -g -i "$T/rec.data"
fi
kill \$(cat "$T/dbgd.pid") \$(cat "$T/fake.pid") 2>/dev/null
wait
INNER
at_exit 'kill $(cat "$T/dbgd.pid" "$T/fake.pid" 2>/dev/null) 2>/dev/null'
timeout 120 unshare -n sh "$T/inner.sh" || fail "the namespace run failed or timed out" "$(tail -n 5 "$T/dbgd.log" 2>/dev/null)"

check_eq "cache add --build-id: exit 0" 0 "$(cat "$T/rc.add")"
check "cache add --build-id: says added" grep -q "build-id $bid: added" "$T/out.add"
check "the entry is in perf's layout" test -d "$T/cache/.build-id/$(echo "$bid" | cut -c1-2)"
"$SDTRACE" --cache-dir "$T/cache" cache list --json >"$T/cl.json" 2>&1
check "cache list shows the build-id" grep -q "$bid" "$T/cl.json"
# The path it had on the server comes from the X-DEBUGINFOD-FILE header when the client library
# passes it on; else the entry is kept under the downloaded file's path. Either is a real file.
if grep -q "$T/srv/prog" "$T/cl.json"; then
	say "cached under the path the server had"
else
	check "else cached under the downloaded file's path" grep -q "$T/dcache/$bid/executable" "$T/cl.json"
fi
check_eq "list --build-id: exit 0" 0 "$(cat "$T/rc.list")"
check "list --build-id lists the probe" grep -q '%dbgtest:hello' "$T/out.list"
check_eq "unknown build-id: exit 1" 1 "$(cat "$T/rc.unknown")"
check "unknown build-id: one clear line" grep -q 'no server in DEBUGINFOD_URLS has it' "$T/err.unknown"
check_eq "no DEBUGINFOD_URLS: exit 1" 1 "$(cat "$T/rc.nourls")"
check "no DEBUGINFOD_URLS: says so" grep -q 'DEBUGINFOD_URLS is not set' "$T/err.nourls"
check_eq "server unreachable: exit 1" 1 "$(cat "$T/rc.refused")"
check_eq "a file of another build: exit 1" 1 "$(cat "$T/rc.liar")"
check "a file of another build: rejected, naming both" grep -q "sent a file with build-id $other_bid: rejected" "$T/err.liar"
check_fails "a rejected file is not cached" grep -rq dbgtest "$T/cache6"
check_eq "timeout: exit 1" 1 "$(cat "$T/rc.timeout")"
if [ $recorded = 1 ]; then
	check_eq "report of a recording whose binary is gone: exit 0" 0 "$(cat "$T/rc.report")"
	check "report still prints the event (the recording describes itself)" grep -q 'dbgtest:hello' "$T/out.report"
	"$SDTRACE" --cache-dir "$T/cache8" cache list --json >"$T/cl8.json" 2>&1
	check "report fetched the recorded build-id into the cache" grep -q "$bid" "$T/cl8.json"
	# the stack (record -g) of the gone binary: named from the file the server has
	check_eq "report -g of the gone binary: exit 0" 0 "$(cat "$T/rc.stacks")"
	check "report -g: main named through debuginfod" grep -Eq "^[[:space:]]+[0-9a-f]+ main\+0x[0-9a-f]+ \(" "$T/out.stacks"
	check_eq "report -g without DEBUGINFOD_URLS: exit 0" 0 "$(cat "$T/rc.nostacks")"
	check "report -g without a server: the frame by file and offset" grep -Eq "^[[:space:]]+[0-9a-f]+ \[prog\+0x[0-9a-f]+\]" "$T/out.nostacks"
else
	say "SKIP: the report-fetch part (no tracefs or the recording failed)"
fi
for s in add list unknown nourls refused liar timeout; do
	n=$(wc -l <"$T/err.$s")
	[ "$n" -le 1 ] || fail "$s: more than one line on stderr" "$(cat "$T/err.$s")"
done
pass "every error is one line"
finish
