#!/bin/sh
# top --per-process (BCC ustat's question): a row per process, a column per category of the
# provider files' `@sdtrace category:` notes (python.d: function__entry is method, gc__start gc;
# ruby.d: method__entry method, gc__mark__begin gc). Two CPython 3.11 processes make known
# numbers of calls and collections (a sys.setprofile() so that function__entry fires, the
# filters keep only work() and generation 1: start-up's own are none of them); `top
# --per-process --json` gives each pid's exact method and gc counts, and `stat --by pid` the
# same numbers for the same events (one answer: top adds up stat's rows). A ruby3.1 process
# (when installed): its method calls, and its collections as GC.count counts them. --json
# without --per-process and --per-process with --by are usage errors.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3.11
RUBY=/usr/bin/ruby3.1
need_file "$PY"
need_cmd python3
need_tracefs
uprobes_guard
cd "$T" || exit 1

cat >w.py <<'EOF'
import gc, os, sys
calls, gcs = int(sys.argv[1]), int(sys.argv[2])
gc.disable()
def work(): pass
sys.setprofile(lambda *a: None)
for i in range(calls): work()
sys.setprofile(None)
for i in range(gcs): gc.collect(1)
open(sys.argv[3], "w").write(str(os.getpid()))
EOF
cat >run.sh <<EOF
"$PY" w.py 300 7 a.pid & "$PY" w.py 1200 3 b.pid
wait
EOF
PYEV="-x $PY -e %python:function__entry --filter funcname==\"work\" -e %python:gc__start --filter generation==1"

# json FILE EXPR: EXPR of the last JSON line of FILE (d), the rows by pid (p)
json() { python3 -c '
import json, sys
d = json.loads(open(sys.argv[1]).read().splitlines()[-1])
p = {str(r["pid"]): r for r in d.get("processes", [])}
print(eval(sys.argv[2]))' "$1" "$2"; }

# shellcheck disable=SC2086
"$SDTRACE" top --per-process --json -I 200 $PYEV -- sh run.sh >top.json 2>top.err
check_eq "top --per-process --json: exit 0" 0 $?
a=$(cat a.pid 2>/dev/null) b=$(cat b.pid 2>/dev/null)
check_eq "top: the categories are the notes' columns" "['method', 'gc']" \
	"$(json top.json 'd["categories"]')"
check_eq "top: the last line is the final one" True "$(json top.json 'd.get("final")')"
check_eq "top: a row per process" 2 "$(json top.json 'len(p)')"
check_eq "top: process a's calls and collections" "300 7" \
	"$(json top.json "'%d %d' % (p['$a']['total']['method'], p['$a']['total']['gc'])")"
check_eq "top: process b's calls and collections" "1200 3" \
	"$(json top.json "'%d %d' % (p['$b']['total']['method'], p['$b']['total']['gc'])")"
check_eq "top: the busiest first" "$b" "$(json top.json 'd["processes"][0]["pid"]')"
check_eq "top: every interval's counts add up to the totals" "1500 10" \
	"$(python3 -c '
import json, sys
m = g = 0
for l in open(sys.argv[1]):
    for r in json.loads(l)["processes"]:
        m += r["count"]["method"]; g += r["count"]["gc"]
print(m, g)' top.json)"

# the same events through stat --by pid: the same numbers per pid
# shellcheck disable=SC2086
"$SDTRACE" stat --by pid --json $PYEV -- sh run.sh >stat.json 2>stat.err
check_eq "stat --by pid: exit 0" 0 $?
a=$(cat a.pid) b=$(cat b.pid)
check_eq "stat --by pid: the rows per event and pid" \
	"function__entry $a 300|function__entry $b 1200|gc__start $a 7|gc__start $b 3" \
	"$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print("|".join(sorted("%s %s %d" % (r["name"], r["key"]["pid"], r["count"]) for r in d["rows"])))' stat.json)"

# Ruby: Foo#bar's 500 calls (its method probes fire under a TracePoint: ruby.d's needs note) and
# every collection, GC.count of them (start-up's and GC.start's: one mark each)
if [ -x "$RUBY" ]; then
	LIBRUBY=$(readlink -f /usr/lib/x86_64-linux-gnu/libruby-3.1.so.3.1)
	cat >w.rb <<'EOF'
GC.disable
class Foo
  def bar(n) = n + 1
end
f = Foo.new
500.times { |i| f.bar(i) }
4.times { GC.start(full_mark: true, immediate_sweep: true) }
File.write(ARGV[0], "#{Process.pid} #{GC.count}")
EOF
	echo 'TracePoint.new(:call, :return) {}.enable' >tp.rb
	RUBYOPT="-r$T/tp.rb" "$SDTRACE" top --per-process --json -x "$LIBRUBY" \
		-e %ruby:method__entry --filter 'methodname == "bar"' -e %ruby:gc__mark__begin \
		-- "$RUBY" w.rb r.out >rb.json 2>rb.err
	check_eq "ruby: top exits 0" 0 $?
	read -r r gcs <r.out
	check_eq "ruby: Foo#bar's calls and GC.count's collections" "['method', 'gc'] 500 $gcs" \
		"$(json rb.json "'%s %d %d' % (d['categories'], p['$r']['total']['method'], p['$r']['total']['gc'])")"
else
	say "$RUBY is not installed (Debian: ruby3.1): the Ruby part is skipped"
fi

check_fails "--json without --per-process is a usage error" \
	"$SDTRACE" top --json -e %python:gc__start -- true
check_fails "--per-process with --by is a usage error" \
	"$SDTRACE" top --per-process --by generation -e %python:gc__start -- true
uprobes_unchanged
finish
