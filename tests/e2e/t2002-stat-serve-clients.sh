#!/bin/sh
# stat --serve under hostile clients, all on loopback: while one address (127.0.0.2) holds
# 1,000 idle connections and another (127.0.0.3) 40 slow ones (a header line a second, never
# ending the request), a scrape from 127.0.0.1 is served at once, with every hit; a slow client
# is cut at the deadline of a whole request (10 s), though it sends a byte every second; after
# the clients are gone, scrapes still work. Before: 32 connections in all, held by anyone for as
# long as a byte came every 10 s: 0 of the scrapes were served.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom-lib.sh"
P=$PROGS_DIR/prog-filter
need_file "$P"
need_cmd python3 curl
need_tracefs
uprobes_guard
cd "$T" || exit 1

cat >run.sh <<'EOS'
"$1" 77 >/dev/null
touch fired
n=0
while [ ! -e seen ] && [ "$n" -lt 1200 ]; do sleep 0.1; n=$((n + 1)); done
EOS
SP=$(free_port)
"$SDTRACE" stat --serve "127.0.0.1:$SP" -e "$P:%filt:req" -- sh run.sh "$P" >stat.out 2>stat.err &
SD=$!
at_exit "touch '$T/seen'; wait $SD"
check "the command ran" wait_for 30 test -e fired

# The clients: 1,000 idle from 127.0.0.2, 40 slow from 127.0.0.3; "held" once they are
# connected. The slow ones write a header line every second until the server closes them; the
# script ends when it has closed them all (at most 30 s), writing slow.txt: for each slow client
# the server kept, the seconds until it was closed.
cat >clients.py <<'EOP'
import resource, socket, sys, time
port = int(sys.argv[1])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
def connect(src):
    s = socket.socket()
    s.bind((src, 0))
    s.settimeout(5)
    try:
        s.connect(("127.0.0.1", port))
    except OSError:
        pass
    return s
idle = [connect("127.0.0.2") for _ in range(1000)]
slow = []
for _ in range(40):
    s = connect("127.0.0.3")
    try:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
        s.setblocking(False)  # reads below never wait; a header line fits any send buffer
        slow.append([s, time.monotonic(), None])
    except OSError:
        pass
open("held", "w").close()
# A client is closed when the server's end says so: end of file or a reset on read, or a
# failed write. Reads are polled every 0.1 s, so a client the server turned away at once (over
# the address's limit) reads as closed within a fraction of a second, whatever a write says.
def closed(s):
    try:
        while True:
            if not s.recv(4096):
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True
end = time.monotonic() + 30
next_line = time.monotonic() + 1
while time.monotonic() < end and any(c[2] is None for c in slow):
    time.sleep(0.1)
    now = time.monotonic()
    for c in slow:
        if c[2] is None and closed(c[0]):
            c[2] = now - c[1]
    if now >= next_line:
        next_line += 1
        for c in slow:
            if c[2] is None:
                try:
                    c[0].sendall(b"X-Slow: 1\r\n")
                except OSError:
                    c[2] = time.monotonic() - c[1]
# kept: open for more than 5 s (one turned away is closed in well under 1 s)
with open("slow.txt", "w") as f:
    for c in slow:
        if c[2] is not None and c[2] > 5:
            f.write("%.1f\n" % c[2])
with open("turned-away.txt", "w") as f:
    for c in slow:
        if c[2] is not None and c[2] <= 5:
            f.write("%.1f\n" % c[2])
EOP
python3 clients.py "$SP" >clients.log 2>&1 &
CL=$!
at_exit "kill $CL 2>/dev/null; wait $CL"
check "1,000 idle and 40 slow connections are held" wait_for 60 test -e held
# 3 s: served at once, or not at all while the connections are held
curl -s -m 3 -o page.txt -w '%{http_code} %{time_total}\n' "http://127.0.0.1:$SP/metrics" >scrape.txt
say "a scrape while they are held: $(cat scrape.txt)"
check_eq "a scrape while they are held is served" 200 "$(cut -d' ' -f1 scrape.txt)"
check "it has every hit" grep -q '^sdtrace_probe_hits_total{.*} 77$' page.txt
# the slow clients the server kept are cut at the deadline: the script ends when all are
wait $CL
say "slow clients kept, closed after (s): $(tr '\n' ' ' <slow.txt)"
say "slow clients turned away, closed after (s): $(tr '\n' ' ' <turned-away.txt)"
check "some slow clients were kept (one address: at most 8)" python3 -c '
import sys
n = len(open("slow.txt").read().split())
sys.exit(not 1 <= n <= 8)'
check "each was cut at the deadline, between 9 and 14 s" python3 -c '
import sys
v = [float(x) for x in open("slow.txt").read().split()]
sys.exit(not v or not all(9 <= x <= 14 for x in v))'
check_eq "after them, a scrape is served" 200 \
	"$(curl -s -m 3 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$SP/metrics")"
touch seen
wait $SD
check_eq "stat --serve: exit 0" 0 $?
uprobes_unchanged
finish
