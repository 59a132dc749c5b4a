#!/bin/sh
# The RECIPES of sdtrace(1) (BCC's u-tools asked of a runtime's probes), each run as the man page
# writes it: tests/e2e/recipes.py takes the commands out of man/sdtrace.1.scd, so the page and
# this test cannot drift (a recipe this test does not know fails it, as does one it knows that
# the page lost). Each recipe runs in its own directory on a small script of known work
# (app.rb, app.php, tp.rb: the page's names), `sdtrace` on PATH, and its rows are checked:
# ucalls -L (Ruby: Foo#bar 1000 calls, Foo#baz 300; PHP: the same and top() 200), ugc (50
# GC.start: every mark and sweep phase paired; live with -p, a big heap's collections, each of
# 1 ms or more), uobjnew (100 Foo, 30 Bar; string bytes per line), ustat (top --per-process: a
# live python3.11 process's row under -a, in a terminal made by script(1), --duration added;
# --json: Foo's 1300 method calls and GC.count collections), dbslower -m 50 (a throw-away
# PostgreSQL 15 cluster: live under -a, only the 60 ms query and not the 1 ms one; recorded with
# -p the postmaster, the slowest first, with its text) and uflow (a -> b -> c, a -> d indented).
# A runtime that is not installed skips its rows loudly.
E2E=$(dirname "$0")
if [ -x /usr/lib/postgresql/15/bin/postgres ] && [ -x /usr/lib/postgresql/15/bin/initdb ]; then
	. "$E2E/pg-lib.sh" # sources lib.sh and real-lib.sh, a cluster in $T/pg, PM its postmaster
	HAVE_PG=1
else
	. "$E2E/lib.sh"
	. "$E2E/real-lib.sh"
	HAVE_PG=
fi
RUBY=/usr/bin/ruby3.1
PHP=/usr/bin/php8.2
PY=/usr/bin/python3.11
need_cmd python3 script
need_tracefs
uprobes_guard
cd "$T" || exit 1
unset RUBYOPT USE_ZEND_DTRACE
mkdir bin && ln -s "$SDTRACE" bin/sdtrace || exit 1
PATH=$T/bin:/usr/bin:$PATH
export PATH

python3 "$SRC_DIR/tests/e2e/recipes.py" "$SRC_DIR/man/sdtrace.1.scd" >recipes.txt
check_eq "the man page's recipes are read" 0 $?
KNOWN="ucalls -L|ugc|uobjnew|ustat|dbslower -m 50|uflow"
check_eq "every recipe of the page is one this test runs, and each of those is there" \
	"$(echo "$KNOWN" | tr '|' '\n' | sort)" "$(cut -f1 recipes.txt | sort -u)"

# cmds NAME: the recipe's commands, one a line
cmds() { awk -F '\t' -v n="$1" '$1 == n { print $2 }' recipes.txt; }
# row_count FILE KEY: the count of the report row whose key is KEY
row_count() { awk -v k="$2" 'index($0, k) && $1 ~ /^[0-9]+$/ { print $1 }' "$1"; }

cp "$SRC_DIR/tests/e2e/work/calls.rb" calls.rb || exit 1
cp "$SRC_DIR/tests/e2e/work/calls.php" calls.php || exit 1

# run_recipe NAME APP...: a directory NAME/ with APP files (FILE=app.rb copies FILE as app.rb)
# and tp.rb, then each command of the recipe in order, its output in N.out/N.err (N from 1)
run_recipe() {
	d=$(echo "$1" | tr -c 'a-zA-Z0-9\n' _)
	shift
	mkdir -p "$T/$d" && cd "$T/$d" || return 1
	echo 'TracePoint.new(:call, :return) {}.enable' >tp.rb
	for a in "$@"; do
		cp "$T/${a%%=*}" "${a#*=}"
	done
	cd "$T" || return 1
}
# one DIR N CMD: command N of a recipe, run as the page writes it, in DIR
one() {
	(cd "$T/$1" && sh -c "$3" >"$2.out" 2>"$2.err")
	check_eq "$1: '$3' exits 0" 0 $?
}

# ucalls -L
if [ -x "$RUBY" ] && [ -x "$PHP" ]; then
	run_recipe "ucalls -L" calls.rb=app.rb calls.php=app.php
	n=0
	cmds "ucalls -L" >ucalls.cmds
	while IFS= read -r c; do
		n=$((n + 1))
		one ucalls__L "$n" "$c"
	done <ucalls.cmds
	D=$T/ucalls__L
	check_eq "ucalls -L: Foo#bar's 1000 calls" 1000 "$(row_count "$D/2.out" 'classname=Foo methodname=bar')"
	check_eq "ucalls -L: Foo#baz's 300 calls" 300 "$(row_count "$D/2.out" 'classname=Foo methodname=baz')"
	check_eq "ucalls -L: Foo::bar's 1000 calls (PHP)" 1000 \
		"$(row_count "$D/4.out" 'classname=Foo function_name=bar')"
	check_eq "ucalls -L: top()'s 200 calls (PHP)" 200 \
		"$(row_count "$D/4.out" 'classname= function_name=top')"
else
	say "SKIP: ucalls -L: $RUBY or $PHP is not installed (Debian: ruby3.1, php8.2-cli)"
fi

# ugc
if [ -x "$RUBY" ]; then
	printf 'GC.disable\n50.times { GC.start(full_mark: true, immediate_sweep: true) }\n' >gc.rb
	cat >big.rb <<'EOF'
$keep = Array.new(1_000_000) { |i| "s#{i}" }
File.write("ruby.pid", Process.pid.to_s)
sleep 0.05 until File.exist?("go")
10.times { GC.start(full_mark: true, immediate_sweep: true) }
EOF
	run_recipe ugc gc.rb=app.rb big.rb=big.rb
	cmds ugc >ugc.cmds
	one ugc 1 "$(sed -n 1p ugc.cmds)"
	one ugc 2 "$(sed -n 2p ugc.cmds)"
	for ph in mark sweep; do
		c=$(awk -v h="ruby:gc__$ph " 'index($0, h) == 1 { f = 1; next } f && /^  count / { print $2; exit }' ugc/2.out)
		check "ugc: gc__$ph pairs at least the 50 GC.start phases (${c:-none})" [ "${c:-0}" -ge 50 ]
	done
	# ugc -m 1: live, -p a process whose 10 full collections of a big heap take 1 ms or more
	(cd ugc && exec "$RUBY" big.rb) &
	rb=$!
	at_exit "kill $rb 2>/dev/null"
	wait_file ugc/ruby.pid 300
	c=$(sed -n 3p ugc.cmds | sed "s/-p PID/-p $rb/")
	(cd ugc && exec sh -c "exec $c" >3.out 2>3.err) &
	tp=$!
	wait_for 30 armed "$tp"
	touch ugc/go
	wait "$tp"
	check_eq "ugc: '$c' ends with its process, 0" 0 $?
	wait "$rb"
	check "ugc -m 1: the 10 collections' marks printed, each of 1 ms or more" \
		awk '$3 == "ruby:gc__mark" { n++; if ($4 !~ /m?s$/ || ($4 ~ /ms$/ && $4 + 0 < 1)) bad++ }
			END { exit !(n >= 10 && !bad) }' ugc/3.out
	check "ugc -m 1: nothing under 1 ms" sh -c "! grep -Eq '  [0-9.]+(ns|us)  ' ugc/3.out"
else
	say "SKIP: ugc: $RUBY is not installed (Debian: ruby3.1)"
fi

# uobjnew
if [ -x "$RUBY" ]; then
	cp "$SRC_DIR/tests/e2e/work/alloc.rb" alloc.rb || exit 1
	run_recipe uobjnew alloc.rb=app.rb
	n=0
	cmds uobjnew >uobjnew.cmds
	while IFS= read -r c; do
		n=$((n + 1))
		one uobjnew "$n" "$c"
	done <uobjnew.cmds
	check_eq "uobjnew: 100 Foo" 100 "$(awk '$NF == "classname=Foo" { print $1 }' uobjnew/2.out)"
	check_eq "uobjnew: 30 Bar" 30 "$(awk '$NF == "classname=Bar" { print $1 }' uobjnew/2.out)"
	check_eq "uobjnew: line 6's 100 strings, 50050 bytes" "100 50050" \
		"$(awk '$NF == "lineno=6" && $(NF-1) == "filename=app.rb" { print $1, $2 }' uobjnew/3.out)"
else
	say "SKIP: uobjnew: $RUBY is not installed (Debian: ruby3.1)"
fi

# ustat: the live table under -a (the cache knows the runtimes), then --json on a script
if [ -x "$RUBY" ] && [ -x "$PY" ]; then
	cat >stat.rb <<'EOF'
GC.disable
class Foo
  def bar(n) = n + 1
  def baz(n) = n * 2
end
f = Foo.new
1000.times { |i| f.bar(i) }
300.times { |i| f.baz(i) }
4.times { GC.start(full_mark: true, immediate_sweep: true) }
File.write("gc.count", GC.count.to_s)
EOF
	cat >loop.py <<'EOF'
import gc, os, sys, time
def work(): pass
open("py.pid", "w").write(str(os.getpid()))
sys.setprofile(lambda *a: None)
while not os.path.exists("stop"):
    for i in range(100): work()
    gc.collect(0)
    time.sleep(0.01)
EOF
	run_recipe ustat stat.rb=app.rb loop.py=loop.py
	"$SDTRACE" cache add "$(readlink -f /usr/lib/x86_64-linux-gnu/libruby-3.1.so.3.1)" "$PY" \
		>cache.out 2>&1
	check_eq "ustat: the runtimes are cached for -a" 0 $?
	cmds ustat >ustat.cmds
	c=$(sed -n 1p ustat.cmds)
	(cd ustat && exec "$PY" loop.py) &
	py=$!
	at_exit "touch $T/ustat/stop; kill $py 2>/dev/null"
	wait_file ustat/py.pid
	# a terminal for the full screen (script(1)), and an end (--duration)
	(cd ustat && script -qec "$c --duration 3" /dev/null </dev/null >1.out 2>1.err)
	check_eq "ustat: '$c' in a terminal exits 0" 0 $?
	touch ustat/stop
	wait "$py"
	pid=$(cat ustat/py.pid)
	check "ustat: the last frame has the python process's row, with calls and collections" \
		grep -Eq "^ *$pid python3\.11 +[1-9][0-9]*\.[0-9] +[1-9][0-9]*\.[0-9]" ustat/1.out
	grep -Eq "^ *$pid python3" ustat/1.out || say "ustat's terminal: $(tr -d '\033' <ustat/1.out | tail -n 12)"
	check "ustat: the columns are the category notes'" \
		grep -Eq "PID COMM +method/s +gc/s +objnew/s +cload/s +excp/s" ustat/1.out
	c=$(sed -n 2p ustat.cmds)
	one ustat 2 "$c"
	# Foo's 1300, and gc.rb's own Ruby methods: GC.disable, GC.start (4), GC.count
	check_eq "ustat --json: Foo's 1300 calls and GC's 6, GC.count's collections" \
		"1306 $(cat ustat/gc.count)" \
		"$(python3 -c '
import json, sys
d = json.loads(open(sys.argv[1]).read().splitlines()[-1])
print(sum(p["total"]["method"] for p in d["processes"]), sum(p["total"]["gc"] for p in d["processes"]))' ustat/2.out)"
else
	say "SKIP: ustat: $RUBY or $PY is not installed (Debian: ruby3.1, python3.11)"
fi

# dbslower -m 50: live under -a (the cache knows postgres), then recorded with -p the postmaster,
# whose backends run the queries
if [ -n "$HAVE_PG" ]; then
	run_recipe "dbslower -m 50"
	D=dbslower__m_50
	"$SDTRACE" cache add "$PG_BIN/postgres" >pgcache.out 2>&1
	check_eq "dbslower: postgres is cached for -a" 0 $?
	cmds "dbslower -m 50" >db.cmds
	c=$(sed -n 1p db.cmds)
	(cd $D && exec $FOREGROUND sh -c "exec $c" >1.out 2>1.err) &
	tp=$!
	at_exit "kill -INT $tp 2>/dev/null"
	wait_for 30 armed "$tp"
	psql -X -q -c "SELECT pg_sleep(0.06), 'slow60'" -c "SELECT pg_sleep(0.001), 'fast1'" \
		>/dev/null 2>&1
	wait_grep $D/1.out slow60 10
	kill -INT "$tp"
	wait "$tp"
	check_eq "dbslower: '$c' ends 0 on SIGINT" 0 $?
	check "dbslower -m 50: the 60 ms query, with its text" \
		grep -Eq "postgresql:query  [0-9.]+ms  query=\"SELECT pg_sleep\(0\.06\), 'slow60'\"" $D/1.out
	check_fails "dbslower -m 50: not the 1 ms one" grep -q fast1 $D/1.out
	c=$(sed -n 2p db.cmds | sed "s/-p PID/-p $PM/")
	(cd $D && exec $FOREGROUND sh -c "exec $c" >2.out 2>2.err) &
	rec=$!
	wait_for 30 armed "$rec"
	for i in 1 2 3; do
		psql -qAt -c "SELECT pg_sleep(0.0$i), 'slow$i'" >/dev/null 2>&1
	done
	psql -qAt -c "SELECT 1" >/dev/null 2>&1
	kill -INT "$rec"
	wait "$rec"
	check_eq "dbslower: '$c' ends 0 on SIGINT" 0 $?
	one $D 3 "$(sed -n 3p db.cmds)"
	check "dbslower: the query pair is timed" \
		grep -q '^postgresql:query  (postgresql:query__start -> postgresql:query__done)$' $D/3.out
	check "dbslower: the slowest query first, with its text" \
		sh -c "grep -A1 'slowest pairs:' $D/3.out | tail -n 1 | grep -q \"'slow3'\""
else
	say "SKIP: dbslower -m 50: PostgreSQL 15 is not installed (Debian: postgresql-15)"
fi

# uflow: a -> b -> c, a -> d under sys.setprofile(), indented two spaces a level
if [ -x "$PY" ]; then
	cp "$SRC_DIR/tests/e2e/work/flow.py" flow.py || exit 1
	run_recipe uflow flow.py=app.py
	one uflow 1 "$(cmds uflow)"
	A=$T/uflow/app.py # as CPython names it
	grep -F " $A." uflow/1.out | sed -E 's/^[0-9]+\.[0-9]{9} .{16}//' >uflow.cut
	printf '%s\n' "-> $A.a" "  -> $A.b" "    -> $A.c" "    <- $A.c" "  <- $A.b" "  -> $A.d" \
		"  <- $A.d" "<- $A.a" >uflow.want
	check "uflow: a -> b -> c, a -> d: the exact indented lines" cmp uflow.want uflow.cut
	[ -s uflow.cut ] || say "uflow: $(head -n 12 uflow/1.out; head -n 5 uflow/1.err)"
else
	say "SKIP: uflow: $PY is not installed (Debian: python3.11)"
fi

uprobes_unchanged
finish
