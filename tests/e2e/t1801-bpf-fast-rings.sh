#!/bin/sh
# The BPF engine's fast rings (lib/bpf/plan.h, struct sdt_fring): every record is written into
# its CPU's mapped ring (a fast site's in place, the others copied) and read from the mapping.
# Checked against the BPF ring buffers (SDTRACE_BPF_RINGBUF=1) and against both at once (=copied:
# the records not written in place go through the BPF rings, as those of a hit that finds its
# CPU's fast ring busy do, and the reader merges the two kinds of ring by time):
#   - the same events with the same values, each thread's in the order it fired them, every
#     thread named; record -v says which rings carried how many records;
#   - a reader that stops: a 4 KiB ring fills, the losses are counted, and the hits recorded
#     plus those lost are every hit fired;
#   - a ring larger than a fast ring's region can be (2 GiB a CPU) is refused with the limit.
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd python3
need_cmd cc
cd "$T" || exit 1
uprobes_guard "^[p-r]:[^ ]+ $T/"
unset SDTRACE_ENGINE SDTRACE_BPF_RINGBUF SDTRACE_BPF_PROBE_FAIL SDTRACE_BPF_NO_MULTI
ENGINE=bpf # for armed()

cat >fr.c <<'CEOF'
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <unistd.h>

static long n;
static const char *go;

/* per thread: fast (2 integers) every iteration, str (a string) every 7th, wide (8 args) every 5th */
static void *run(void *arg)
{
	long id = (long)arg, i;
	char s[32];

	while (go && access(go, F_OK) != 0)
		usleep(2000);
	for (i = 0; i < n; i++) {
		STAP_PROBE2(fr, fast, id, i);
		if (i % 7 == 0) {
			snprintf(s, sizeof(s), "t%ld-%ld", id, i);
			STAP_PROBE2(fr, str, id, s);
		}
		if (i % 5 == 0)
			STAP_PROBE8(fr, wide, id, i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6);
	}
	return NULL;
}

/* fr N THREADS [GO]: THREADS threads (and main) fire N iterations each, after GO exists */
int main(int argc, char **argv)
{
	long k, threads = atol(argv[2]);
	pthread_t t[16];

	n = atol(argv[1]);
	go = argc > 3 ? argv[3] : NULL;
	for (k = 0; k < threads && k < 16; k++)
		pthread_create(&t[k], NULL, run, (void *)(k + 1));
	run(0);
	for (k = 0; k < threads && k < 16; k++)
		pthread_join(t[k], NULL);
	return 0;
}
CEOF
cc -O2 -pthread -o fr fr.c || skip "cannot compile the test program"
# str's second argument a string (so not a fast site: its record is copied)
cat >fr.d <<'EOF'
provider fr {
	probe fast(long id, long i);
	probe str(long id, const char *s);
	probe wide(long id, long i, long a, long b, long c, long d, long e, long f);
};
EOF
if ! "$SDTRACE" record --engine=bpf -o probe.data -x ./fr -e '%fr:fast' -- ./fr 1 0 \
	>/dev/null 2>probe.err; then
	skip "the BPF engine cannot run here: $(cat probe.err)"
fi

N=3000
TH=3
fast_n=$((N * (TH + 1)))
str_n=$((((N + 6) / 7) * (TH + 1)))
wide_n=$((((N + 4) / 5) * (TH + 1)))
total=$((fast_n + str_n + wide_n))

# rec NAME MODE [ENGINE]: record fr with SDTRACE_BPF_RINGBUF=MODE ("" for none), -v
rec() {
	env ${2:+SDTRACE_BPF_RINGBUF=$2} "$SDTRACE" -v record --engine="${3:-bpf}" -o "$1.data" \
		-x ./fr --types fr.d -e '%fr:*' -- ./fr $N $TH >"$1.out" 2>"$1.err"
	check_eq "$1: record exits 0" 0 $?
	"$SDTRACE" report -i "$1.data" --json >"$1.json"
	check_eq "$1: every hit recorded, none lost" "$total 0" \
		"$("$SDTRACE" report -i "$1.data" --stats | awk '$2 == "total" { t = $1 } $2 == "lost" { l = $1 } END { print t, l }')"
}
# rings NAME: "FAST BPF" from record -v's count line
rings() {
	sed -n 's/.*bpf: \([0-9]*\) records through the fast rings, \([0-9]*\) through the BPF ring buffers.*/\1 \2/p' "$1.err"
}

# events NAME: one line per event, sorted: event and its values (the first is the thread's id)
events() {
	python3 - "$1.json" <<'PY'
import json, sys
out = []
for line in open(sys.argv[1]):
    e = json.loads(line)
    a = e['args']
    a = list(a.values()) if isinstance(a, dict) else a
    out.append('%s %s' % (e['name'], ' '.join(str(v) for v in a)))
for l in sorted(out):
    print(l)
PY
}

# in_order NAME: every thread's events in the order it fired them (args[0] is the thread's id,
# args[1] its iteration, or for str "tID-ITERATION", which comes after that iteration's fast
# hit), and every thread named
in_order() {
	python3 - "$1.json" <<'PY'
import json, sys
last, named, bad = {}, {}, []
for line in open(sys.argv[1]):
    e = json.loads(line)
    name, tid, a = e['name'], e['tid'], e['args']
    a = list(a.values()) if isinstance(a, dict) else a
    named[tid] = e.get('comm') == 'fr'
    it = int(str(a[1]).split('-')[1]) if name == 'str' else int(a[1])
    if (tid, name) in last and it <= last[(tid, name)]:
        bad.append('%s %s after %s (tid %s)' % (name, it, last[(tid, name)], tid))
    last[(tid, name)] = it
    if name != 'fast' and last.get((tid, 'fast'), -1) < it:
        bad.append('%s %s before its fast hit (tid %s)' % (name, it, tid))
if bad:
    print('out of order:', bad[:5])
    sys.exit(1)
if len(named) < 2 or not all(named.values()):
    print('threads without their name:', [t for t, ok in named.items() if not ok])
    sys.exit(1)
print('%d threads in order' % len(named))
PY
}

rec fast ""
rec ringbuf 1
rec mixed copied
rec tracefs "" tracefs
threads=$((TH + 1))
check_eq "fast: every record through the fast rings (and a name per thread)" \
	"$((total + threads)) 0" "$(rings fast)"
check_eq "ringbuf: every record through the BPF ring buffers" "0 $((total + threads))" \
	"$(rings ringbuf)"
set -- $(rings mixed)
check "mixed: the fast sites' records through the fast rings, the others' through the BPF ring buffers ($1 / $2)" \
	test "${1:-0}" -ge "$fast_n" -a "${2:-0}" -ge "$((str_n + wide_n))" -a \
	"$((${1:-0} + ${2:-0}))" -eq "$((total + threads))"
events fast >fast.ev
events tracefs >tracefs.ev
check "fast: the values tracefs records" cmp -s fast.ev tracefs.ev
events ringbuf >ringbuf.ev
check "ringbuf: the same values" cmp -s fast.ev ringbuf.ev
events mixed >mixed.ev
check "mixed: the same values" cmp -s fast.ev mixed.ev
for m in fast ringbuf mixed; do
	check "$m: each thread's events in the order it fired them, every thread named" in_order $m
done

# A reader that stops: -p, a 4 KiB ring per CPU (-m 1), sdtrace stopped (SIGSTOP) while the
# target fires 20000 fast hits; then it goes on and ends with the target.
./fr 5000 3 "$T/go" &
tpid=$!
at_exit "kill $tpid 2>/dev/null"
"$SDTRACE" record --engine=bpf -m 1 -o stopped.data -x ./fr -e '%fr:fast' -p $tpid \
	>stopped.out 2>stopped.err &
spid=$!
at_exit "kill -CONT $spid 2>/dev/null; kill $spid 2>/dev/null"
check "stopped: armed" armed $spid "$T/fr"
kill -STOP $spid
touch "$T/go"
wait $tpid
kill -CONT $spid
wait $spid
check_eq "stopped: record exits 0" 0 $?
set -- $("$SDTRACE" report -i stopped.data --stats | awk '$2 == "total" { t = $1 } $2 == "lost" { l = $1 } END { print t, l }')
check "stopped: the full ring lost hits, counted ($2 lost)" test "${2:-0}" -gt 0
check_eq "stopped: recorded + lost = the 20000 hits fired" 20000 "$((${1:-0} + ${2:-0}))"
check "stopped: the loss is said" grep -qi 'lost' stopped.err

# a ring too large for a fast ring's region (one map value, 32 bits of size): refused, said
"$SDTRACE" record --engine=bpf -m 1048576 -o big.data -x ./fr -e '%fr:fast' -- ./fr 1 0 \
	>/dev/null 2>big.err
check_eq "-m 1048576 (4 GiB a CPU): an error" 1 $?
check "  ... that names the limit" grep -q 'at most 2 GiB' big.err

uprobes_unchanged
finish
