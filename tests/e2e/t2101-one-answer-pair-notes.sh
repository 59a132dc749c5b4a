#!/bin/sh
# One answer for a provider file's pairing notes: prog-oneq's libvirt-style messages,
# rpc_client_msg_tx_queue on the main thread and rpc_client_msg_rx on another, differently named
# (an `@sdtrace pair:` note pairs them), keyed by client and serial and paired on the key alone
# (`@sdtrace pair-by: key`). stat --latency in the kernel, and record + report --latency with
# either engine, give the same pairs: the same count, the same rows per client (--by client),
# nothing unmatched; stat --latency of the plain req__start/req__done, paired across threads by
# their pair-by note, too. (report alone: t2204; every other shape: t2100.)
# engine: tracefs (the script names each engine itself; one run is enough)
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR/prog-oneq
need_file "$P"
need_cmd python3
need_tracefs
uprobes_guard
cd "$T" || exit 1
unset SDTRACE_ENGINE
N=21
export XDG_CONFIG_HOME="$T/config"
mkdir -p "$XDG_CONFIG_HOME/sdtrace/providers"
cat >"$XDG_CONFIG_HOME/sdtrace/providers/oneq.d" <<'DEOF'
provider oneq {
	/*
	 * a request, ended by another thread
	 * @sdtrace key: id
	 * @sdtrace pair-by: key
	 */
	probe req__start(long id);
	/* @sdtrace key: id */
	probe req__done(long id);
	/*
	 * a message queued for the server; its reply is received on another thread
	 * @sdtrace pair: rpc_client_msg_rx
	 * @sdtrace key: client,serial
	 * @sdtrace pair-by: key
	 */
	probe rpc_client_msg_tx_queue(long client, long serial);
	/* @sdtrace key: client,serial */
	probe rpc_client_msg_rx(long client, long serial);
};
DEOF
MSG='%oneq:rpc_client_msg_*'
REQ='%oneq:req__*'

if ! "$SDTRACE" stat --engine=bpf -e "$P:%oneq:val" -- "$P" 1 >/dev/null 2>probe.err; then
	skip "the BPF engine cannot run here: $(cat probe.err)"
fi

for e in tracefs bpf; do
	"$SDTRACE" record --engine=$e -o $e.data -e "$P:$MSG" -e "$P:$REQ" -- "$P" $N >/dev/null \
		2>$e.err
	check_eq "record --engine=$e: exit 0" 0 $?
	"$SDTRACE" report -i $e.data --latency --by client --json >$e.json 2>$e.rep.err
	check_eq "report --latency --by client ($e): exit 0" 0 $?
done
"$SDTRACE" stat --latency --by client --json -o stat.json -e "$P:$MSG" -e "$P:$REQ" -- "$P" $N \
	>/dev/null 2>stat.err
check_eq "stat --latency --by client: exit 0" 0 $?
"$SDTRACE" stat --latency -o stat.txt -e "$P:$MSG" -- "$P" $N >/dev/null 2>stat.txt.err
check_eq "stat --latency (text): exit 0" 0 $?
check "stat's text names the noted pair, start and end" \
	grep -qx 'oneq:rpc_client_msg  (oneq:rpc_client_msg_tx_queue -> oneq:rpc_client_msg_rx)' stat.txt
check_fails "... and no end is left without its start" grep -q 'no open start' stat.txt

python3 - "$N" >check.out <<'EOF'
import json, sys
N = int(sys.argv[1])

def load(path):
    try:
        return json.load(open(path))
    except (OSError, ValueError):
        return {"pairs": []}

def say(ok, what):
    print("%s %s" % ("ok" if ok else "FAIL", what))

def pair(d, name):
    p = [p for p in d.get("pairs", []) if p["name"] == name]
    return p[0] if p else None

def rows(p):
    # stat: {"client": value}; report: [value] (the --by names in order)
    out = {}
    for g in (p or {}).get("groups", []):
        k = g["key"]["client"] if isinstance(g["key"], dict) else g["key"][0]
        out[str(k)] = g["count"]
    return out

want = {"1": (N + 1) // 2, "2": N // 2}
answers = {}
for what, path in (("tracefs report", "tracefs.json"), ("bpf report", "bpf.json"),
                   ("bpf stat", "stat.json")):
    d = load(path)
    m = pair(d, "oneq:rpc_client_msg")
    say(m is not None and m.get("start") == "oneq:rpc_client_msg_tx_queue"
        and m.get("end") == "oneq:rpc_client_msg_rx",
        "%s: the pair note's pair, tx_queue -> rx (%s)" %
        (what, m and (m.get("name"), m.get("start"), m.get("end"))))
    say(m is not None and m["count"] == N, "%s: every message a pair across threads: %d (%s)" %
        (what, N, m and m["count"]))
    say(rows(m) == want, "%s: --by client: %s (%s)" % (what, want, rows(m)))
    r = pair(d, "oneq:req")
    say(r is not None and r["count"] == N, "%s: the pair-by note: %d requests (%s)" %
        (what, N, r and r["count"]))
    answers[what] = (m and m["count"], rows(m), r and r["count"])
say(len(set(json.dumps(a, sort_keys=True) for a in answers.values())) == 1,
    "one answer on every path: %s" % answers)
EOF
while read -r verdict what; do
	check_eq "$what" ok "$verdict"
done <check.out

uprobes_unchanged
finish
