#!/bin/sh
# Ruby 3.1 (Debian's ruby3.1) through share/providers/ruby.d, `sdtrace record` then `report
# --latency`: method latency by class and method with exact call counts, on a script of known
# calls, the GC's mark and sweep phases paired begin -> end, and allocations per class and
# string bytes per line (`report --count --sum length`, uobjnew's question). Ruby fires its Ruby-method probes only while a TracePoint on :call/:return is
# enabled (ruby.d's `@sdtrace needs:` note, measured there): with one loaded by RUBYOPT=-rFILE,
# Foo#bar's 1000 calls and Foo#baz's 300 are counted exactly; without it, the 0-hit line names it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real-lib.sh"
RUBY=/usr/bin/ruby3.1
[ -x "$RUBY" ] || skip "'$RUBY' is not installed (Debian: ruby3.1)"
need_tracefs
LIBRUBY=$(readlink -f /usr/lib/x86_64-linux-gnu/libruby-3.1.so.3.1)
need_file "$LIBRUBY"
real_guard "$LIBRUBY"
export XDG_CONFIG_HOME="$T/config"
unset RUBYOPT
cd "$T" || exit 1
pids=""

cp "$SRC_DIR/tests/e2e/work/calls.rb" calls.rb || exit 1
echo 'TracePoint.new(:call, :return) {}.enable' >tp.rb
cat >gc.rb <<'RBEOF'
GC.disable
50.times { GC.start(full_mark: true, immediate_sweep: true) }
RBEOF

# run NAME CMD...: sdtrace CMD... in the background, waited for; its output in NAME.out/.err
run() {
	out=$1
	shift
	"$SDTRACE" "$@" >"$out.out" 2>"$out.err" &
	p=$!
	pids="$pids $p"
	wait "$p"
	check_eq "$out: sdtrace $1 exits 0" 0 $?
}

# The count of the --by row whose key is $2 in report output $1
row_count() { awk -v k="$2" 'index($0, k) && $1 ~ /^[0-9]+$/ { print $1 }' "$1"; }

RUBYOPT="-r$T/tp.rb" run rec record -o calls.sdt -e '%ruby:method__*' -- "$RUBY" calls.rb
"$SDTRACE" report -i calls.sdt --latency --by classname,methodname >lat.out 2>lat.err
check_eq "report --latency --by classname,methodname: exit 0" 0 $?
check "the pair is method__entry -> method__return" \
	grep -q '^ruby:method  (ruby:method__entry -> ruby:method__return)$' lat.out
check_eq "Foo#bar: exactly 1000 calls" 1000 "$(row_count lat.out 'classname=Foo methodname=bar')"
check_eq "Foo#baz: exactly 300 calls" 300 "$(row_count lat.out 'classname=Foo methodname=baz')"
check_eq "the pair counts 1300 calls (no other Ruby method runs with the TracePoint on)" \
	"count 1300" "$(grep -o '^  count [0-9]*' lat.out | head -n 1 | sed 's/^ *//')"
check_fails "no start left unmatched" grep -q 'unmatched: [1-9][0-9]* starts' lat.out

# Without the TracePoint: no entry, and the end says what it needs
run plain stat -e '%ruby:method__entry' -- "$RUBY" calls.rb
check "without a TracePoint: the 0-hit line names it" \
	grep -q "^sdtrace: 0 hits: %ruby:method__entry: needs: a TracePoint on :call and :return .*ruby\.d:[0-9]*)$" plain.err

# GC: each mark and sweep phase pairs begin -> end, on its thread
run gc record -o gc.sdt -e '%ruby:gc__*' -- "$RUBY" gc.rb
"$SDTRACE" report -i gc.sdt --latency >gclat.out 2>gclat.err
check_eq "report --latency on the GC: exit 0" 0 $?
for ph in mark sweep; do
	check "gc__$ph pairs begin -> end" \
		grep -q "^ruby:gc__$ph  (ruby:gc__${ph}__begin -> ruby:gc__${ph}__end)$" gclat.out
	n=$(awk -v h="ruby:gc__$ph " 'index($0, h) == 1 { f = 1; next } f && /^  count / { print $2; exit }' gclat.out)
	check "gc__$ph: at least the 50 GC.start phases paired (${n:-none})" [ "${n:-0}" -ge 50 ]
done
check_fails "no GC phase left unmatched" grep -q 'unmatched:' gclat.out
# Allocations (uobjnew): objects per class, and string bytes per line with --sum
cp "$SRC_DIR/tests/e2e/work/alloc.rb" alloc.rb || exit 1
run alloc record -o alloc.sdt -e '%ruby:object__create' -e '%ruby:string__create' -- "$RUBY" alloc.rb
"$SDTRACE" report -i alloc.sdt --count --by classname >objs.out 2>objs.err
check_eq "objects by class: Foo 100" 100 "$(awk '$NF == "classname=Foo" { print $1 }' objs.out)"
check_eq "objects by class: Bar 30" 30 "$(awk '$NF == "classname=Bar" { print $1 }' objs.out)"
"$SDTRACE" report -i alloc.sdt --count --by filename,lineno --sum length >bytes.out 2>bytes.err
check_eq "report --count --sum length: exit 0" 0 $?
# line 6 makes a 1-byte literal and a 1000-byte string, 50 times: 100 strings, 50050 bytes
check_eq "string bytes of line 6: 100 strings, 50050 bytes" "100 50050" \
	"$(awk '$NF == "lineno=6" && $(NF-1) == "filename=alloc.rb" { print $1, $2 }' bytes.out)"
check_eq "string bytes of line 7: 40 strings, 220 bytes" "40 220" \
	"$(awk '$NF == "lineno=7" && $(NF-1) == "filename=alloc.rb" { print $1, $2 }' bytes.out)"
"$SDTRACE" report -i alloc.sdt --count --by lineno --sum classname >/dev/null 2>sum.err
check_eq "--sum of a string argument: exit 2" 2 $?
check "... naming the argument and the event" \
	grep -q "argument 'classname' of ruby:object__create is not an integer" sum.err

# shellcheck disable=SC2086
real_unchanged $pids
finish
