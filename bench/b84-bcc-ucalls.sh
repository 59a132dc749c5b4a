#!/bin/sh
# Issue 35: BCC's ucalls beside sdtrace on Ruby method latency. A ruby3.1 script calls Foo#bar
# a known number of times (N), with a TracePoint on :call/:return enabled in the script (Ruby
# 3.1 fires its method probes only then: share/providers/ruby.d), after it is told to start,
# and prints the loop's own time. Attached to that process by its pid:
#   ours: sdtrace stat -e %ruby:method__entry -e %ruby:method__return --latency
#         --by classname,methodname -p PID   (pairs timed in the kernel, BPF engine)
#   peer: ucalls -L -l ruby PID              (BCC; the same two probes, timed in the kernel)
# Figures: the cost per call (loop time with the tool attached minus without, over N), runs
# alternating (none, ucalls, ours), medians of 3 (quick) or 5 (full); and both tools' count of
# Foo#bar against N. BCC compiles its program against the kernel's headers: see bcc_check in
# common.sh for what it uses here, and BENCHMARKS.md.
. "$(dirname "$0")/common.sh"
need_root_tracefs
RUBY=/usr/bin/ruby3.1
[ -x "$RUBY" ] || { echo "  skipped: no $RUBY (Debian: ruby3.1)"; exit 0; }
UCALLS=$(command -v ucalls-bpfcc || command -v /usr/sbin/ucalls || true)
[ -n "$UCALLS" ] || { PEER_ERR="BCC's ucalls is not installed (Debian: bpfcc-tools)"; peer_broken bcc; exit 0; }
bcc_check
n=100000 runs=3
[ "$BENCH_MODE" = full ] && n=500000 runs=5
sc=$tmp/sc
unset RUBYOPT
cat >"$tmp/calls.rb" <<'RB'
TracePoint.new(:call, :return) {}.enable
class Foo
  def bar(n) = n + 1
end
f = Foo.new
go, n = ARGV[0], ARGV[1].to_i
sleep 0.01 until File.exist?(go)
t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
n.times { |i| f.bar(i) }
puts Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond) - t0
RB

# start_ruby: the script, waiting for $tmp/go; rb_pid
start_ruby() {
	rm -f "$tmp/go"
	"$RUBY" "$tmp/calls.rb" "$tmp/go" "$n" >"$tmp/rb.out" 2>"$tmp/rb.err" &
	rb_pid=$!
	at_exit "kill $rb_pid 2>/dev/null"
}
# go_ruby: start the loop, wait for the script's end, print the loop's time in ns
go_ruby() {
	touch "$tmp/go"
	wait "$rb_pid" || { cat "$tmp/rb.err" >&2; exit 1; }
	cat "$tmp/rb.out"
}
# one run of each: the loop's time (ns) appended to $tmp/MODE.ns; the count of Foo#bar to .n
run_none() { start_ruby; go_ruby >>"$tmp/none.ns"; }
run_bcc() {
	start_ruby
	rm -f "$tmp/u.out" # the last run's "Tracing" line must not pass for this one's
	env --default-signal=INT /usr/bin/python3 -u "$UCALLS" -L -l ruby "$rb_pid" >"$tmp/u.out" 2>"$tmp/u.err" &
	u_pid=$!
	at_exit "kill -INT $u_pid 2>/dev/null"
	k=0
	until grep -q '^Tracing calls' "$tmp/u.out"; do
		kill -0 "$u_pid" 2>/dev/null || { cat "$tmp/u.err" >&2; exit 1; }
		[ $k -gt 1200 ] && { echo "  ucalls never attached" >&2; exit 1; }
		sleep 0.1
		k=$((k + 1))
	done
	go_ruby >>"$tmp/bcc.ns"
	kill -INT "$u_pid"
	wait "$u_pid" || true
	# ucalls keys its map by 80 bytes read from each string, past its NUL too: one method can
	# have many rows of the same name; their calls are added up, the rows counted
	awk '$1 == "Foo.bar" { n += $2; r++ } END { printf "%d (%d rows)\n", n, r }' "$tmp/u.out" >>"$tmp/bcc.n"
}
run_ours() {
	start_ruby
	$SDTRACE --cache-dir "$sc" stat -p "$rb_pid" --json -e '%ruby:method__entry' \
		-e '%ruby:method__return' --latency --by classname,methodname >"$tmp/s.json" 2>"$tmp/s.err" &
	s_pid=$!
	at_exit "kill -INT $s_pid 2>/dev/null"
	k=0
	until ls -l "/proc/$s_pid/fd" 2>/dev/null | grep -q 'perf_event\|bpf'; do
		kill -0 "$s_pid" 2>/dev/null || { cat "$tmp/s.err" >&2; exit 1; }
		[ $k -gt 300 ] && { echo "  sdtrace never armed" >&2; exit 1; }
		sleep 0.1
		k=$((k + 1))
	done
	sleep 0.5
	go_ruby >>"$tmp/ours.ns"
	wait "$s_pid" || { cat "$tmp/s.err" >&2; exit 1; }
	python3 - "$tmp/s.json" >>"$tmp/ours.n" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = 0
for p in d.get("pairs", []):
    for g in p.get("groups", []):
        k = g["key"]
        if k.get("classname") == "Foo" and k.get("methodname") == "bar":
            n += g["count"]
print(n)
PY
}

run_none # warm
: >"$tmp/none.ns"
for i in $(seq $runs); do
	run_none
	run_bcc
	run_ours
done
base=$(median <"$tmp/none.ns")
cost() { python3 -c "print('%.0f' % ((float('$1') - float('$base')) / $n))"; }
ours=$(cost "$(median <"$tmp/ours.ns")")
peer=$(cost "$(median <"$tmp/bcc.ns")")
echo "  loop of $n calls: none $base ns, ucalls $(median <"$tmp/bcc.ns") ns, ours $(median <"$tmp/ours.ns") ns (medians of $runs); BCC: $BCC_HEADERS"
emit "Ruby method latency by class and method: cost per call (ns, with the tool minus without)" \
	"$ours ns" "ucalls -L -l ruby PID (BCC, $BCC_HEADERS)" "$peer ns" "$(ratio "$ours" "$peer")" "<= 1.0"
oc=$(paste -sd, "$tmp/ours.n") pc=$(paste -sd, "$tmp/bcc.n")
echo "  Foo#bar counted per run: ours $oc, ucalls $pc; the script made $n"
emit "Ruby method latency: Foo#bar's count per run, of $n calls" "$oc" "ucalls -L -l ruby PID" "$pc" "n/a"
