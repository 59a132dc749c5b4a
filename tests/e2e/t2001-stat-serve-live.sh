#!/bin/sh
# stat --serve answers at scrape time, and serves the files armed during the run.
# Fresh: the command runs prog-filter three times (30 hits each), saying after each that it has
# finished; 100 ms later a scrape sees every hit so far: 30, 60, 90 (before: the page was read
# every second, and a scrape 100 ms after the hits saw some of them, or none).
# Late: with -x and no file at the start (the command, sh, has no probe), the program run by
# the command and a copy of it run after are armed at their exec; both are served, each with
# its binary label and its count (before: the rows were fixed when armed, so neither was ever
# served while stat counted them, and sdtrace_series_dropped said 0).
# Both engines (e2e/ and e2e-bpf/).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom-lib.sh"
P=$PROGS_DIR/prog-filter
need_file "$P"
need_cmd python3 curl
need_tracefs
uprobes_guard "^[p-r]:[^ ]+ ($PROGS_DIR|$T)/"
cd "$T" || exit 1

# run.sh PROG...: each PROG run with 30 rounds, then "done.N" and a wait for "seen.N" (at most
# about a minute each)
cat >run.sh <<'EOS'
i=0
for prog in "$@"; do
	i=$((i + 1))
	[ -x "$prog" ] || cp "$PROG" "$prog"
	"$prog" 30 >/dev/null
	touch "done.$i"
	n=0
	while [ ! -e "seen.$i" ] && [ "$n" -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
done
EOS
# hits BINARY: that binary's sdtrace_probe_hits_total on page.txt, or "none"
hits() {
	python3 - "$1" page.txt <<'EOP'
import sys
want = 'sdtrace_probe_hits_total{provider="filt",event="req",binary="%s"} ' % sys.argv[1]
v = [l[len(want):].strip() for l in open(sys.argv[2]) if l.startswith(want)]
print(v[0] if len(v) == 1 else "none" if not v else "%d samples" % len(v))
EOP
}
# round N SERVEPORT: wait for done.N, 100 ms more, scrape into page.txt, then say seen.N
round() {
	if ! wait_for 60 test -e "done.$1"; then
		fail "round $1 of the command finished"
		return
	fi
	sleep 0.1 # the 100 ms after the last hit that the scrape is measured at
	curl -s -o page.txt "http://127.0.0.1:$2/metrics"
	cp page.txt "page.$1.txt"
	touch "seen.$1"
}
listening() { grep -q "^sdtrace: serving metrics on http://127.0.0.1:$1/metrics$" "$2"; }

SP=$(free_port)
PROG=$P "$SDTRACE" stat --serve "127.0.0.1:$SP" -e "$P:%filt:req" -- sh run.sh "$P" "$P" "$P" \
	>fresh.out 2>fresh.err &
SD=$!
at_exit "touch '$T/seen.1' '$T/seen.2' '$T/seen.3'; wait $SD"
check "the address is said once listening" wait_for 20 listening "$SP" fresh.err
for n in 1 2 3; do
	round $n "$SP"
	check_eq "a scrape 100 ms after round $n's last hit sees all $((n * 30))" $((n * 30)) \
		"$(hits "$P")"
done
wait $SD
check_eq "stat --serve: exit 0" 0 $?
check "the table at the end" grep -Eq '^ +90  %filt:req$' fresh.out

rm -f done.* seen.*
SP=$(free_port)
C=$T/prog-copy
PROG=$P "$SDTRACE" stat --serve "127.0.0.1:$SP" -x "$P" -e '%filt:req' -- sh run.sh "$P" "$C" \
	>late.out 2>late.err &
SD=$!
at_exit "touch '$T/seen.1' '$T/seen.2'; wait $SD"
check "late: the address is said once listening" wait_for 20 listening "$SP" late.err
round 1 "$SP"
check_eq "late: the program the command ran is served" 30 "$(hits "$P")"
round 2 "$SP"
check_eq "late: the program is still served" 30 "$(hits "$P")"
check_eq "late: its copy, run later, is served with its own binary label" 30 "$(hits "$C")"
check "late: no series dropped" grep -qx 'sdtrace_series_dropped 0' page.txt
wait $SD
check_eq "late: stat --serve: exit 0" 0 $?
uprobes_unchanged
finish
