#!/bin/sh
# A record/report cycle under valgrind memcheck is clean (issue 8): no invalid read or write, no
# use of uninitialised memory, no definite leak — on the normal build (the ASan build is checked by
# its own sanitizers, which cannot run under valgrind).
. "$(dirname "$0")/lib.sh"

need_tracefs
need_cmd valgrind
if ldd "$SDTRACE" 2>/dev/null | grep -q 'libasan\|libubsan' || nm "$SDTRACE" 2>/dev/null | grep -q '__asan_init'; then
	skip "this sdtrace is built with sanitizers (valgrind runs on the normal build)"
fi
EX="$BUILD_DIR/examples/sdt-example"
need_file "$EX"
uprobes_guard

vg() {
	valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		--suppressions="$SRC_DIR/tests/e2e/valgrind-libbpf.supp" \
		--track-fds=no "$@"
}
# System-wide for a few seconds while the example runs again and again: valgrind 3.19 does not
# know pidfd_open, which watching a command or -p processes needs. The example runs until the
# recording ends: under memcheck the BPF engine's start (libbpf reading the kernel's BTF) takes
# about 9 s against 2 s for tracefs, so a fixed number of runs could all end before it arms.
( while :; do "$EX" 1 >/dev/null; sleep 0.2; done ) &
loop=$!
at_exit "kill $loop"
vg "$SDTRACE" record -x "$EX" -e '%example:*' -a --duration 5 -o "$T/v.data" >"$T/rec.out" 2>"$T/rec.err"
check_eq "record under memcheck: no error (exit 0)" 0 $?
kill "$loop" 2>/dev/null
wait "$loop" 2>/dev/null
check "record under memcheck recorded the events" grep -Eq '^sdtrace: [1-9][0-9]* events recorded' "$T/rec.err"
vg "$SDTRACE" report -i "$T/v.data" >"$T/rep.out" 2>"$T/rep.err"
check_eq "report under memcheck: no error" 0 $?
check "report printed the events" grep -q 'example:job__start' "$T/rep.out"
vg "$SDTRACE" report -i "$T/v.data" --json --stats >/dev/null 2>"$T/rep2.err"
check_eq "report --json --stats under memcheck: no error" 0 $?
vg "$SDTRACE" report -i "$T/v.data" --latency >/dev/null 2>"$T/rep3.err"
check_eq "report --latency under memcheck: no error" 0 $?
vg "$SDTRACE" list -x "$EX" -v --json >/dev/null 2>"$T/list.err"
check_eq "list -v --json under memcheck: no error" 0 $?
for f in rec rep rep2 rep3 list; do
	grep -q '==[0-9]*==' "$T/$f.err" && fail "$f: valgrind reported" "$(grep '==' "$T/$f.err" | head -n 10)"
done
pass "no valgrind report in any run"
uprobes_unchanged
finish
