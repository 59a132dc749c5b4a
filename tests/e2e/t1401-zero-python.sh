#!/bin/sh
# Never a silent zero, on CPython 3.11: %python:function__entry fires only on the evaluation
# loop's tracing path (share/providers/python.d, its `@sdtrace fires:` note, measured there): a
# plain run gives a handful of entries against thousands of returns, and stat/trace end with a
# line saying so ("sdtrace: N hits: %python:function__entry: fires: ..."). The rule itself is
# checked: with sys.setprofile() around a loop of 1000 calls, or with %python:line recorded too,
# every call has its entry; function__return fires on every return, and gets no line.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real-lib.sh"
PY=/usr/bin/python3.11
[ -x "$PY" ] || skip "'$PY' is not installed (Debian: python3.11)"
need_tracefs
real_guard "$PY"
cd "$T" || exit 1
pids=""

cat >plain.py <<'PYEOF'
def f(n):
    return n + 1
for i in range(1000):
    f(i)
PYEOF
cat >prof.py <<'PYEOF'
import sys
def f(n):
    return n + 1
sys.setprofile(lambda *a: None)
for i in range(1000):
    f(i)
sys.setprofile(None)
PYEOF

# stat_of FILE EVENT: EVENT's count in stat's output FILE
stat_of() { awk -v e="%python:$2" '$2 == e { print $1 }' "$1"; }

run() {
	out=$1
	shift
	"$SDTRACE" stat "$@" >"$out.out" 2>"$out.err" &
	p=$!
	pids="$pids $p"
	wait "$p"
	check_eq "stat $out: exit 0" 0 $?
}

FIRES="^sdtrace: [0-9]* hits: %python:function__entry: fires: only on CPython 3.11's tracing path: .*sys.setprofile() .*(.*python\.d:[0-9]*)$"

run plain -e %python:function__entry -e %python:function__return -- "$PY" plain.py
e=$(stat_of plain.out function__entry)
r=$(stat_of plain.out function__return)
say "plain: function__entry ${e:-?}, function__return ${r:-?}"
check "plain: a handful of entries (${e:-?}), thousands of returns (${r:-?})" \
	[ "${e:-9999}" -lt 50 -a "${r:-0}" -gt 1000 ]
check "plain: the line says when function__entry fires" grep -q "$FIRES" plain.err
check_fails "plain: no line for function__return" grep -q 'function__return' plain.err

run prof -e %python:function__entry -e %python:function__return -- "$PY" prof.py
e=$(stat_of prof.out function__entry)
say "sys.setprofile: function__entry ${e:-?}"
check "sys.setprofile: every one of the 1000 calls has its entry (${e:-?})" \
	[ "${e:-0}" -ge 1000 -a "${e:-0}" -lt 1100 ]

run line -e %python:function__entry -e %python:function__return -e %python:line -- "$PY" plain.py
e=$(stat_of line.out function__entry)
r=$(stat_of line.out function__return)
say "with line: function__entry ${e:-?}, function__return ${r:-?}"
check "line recorded too: as many entries as returns (${e:-?} ${r:-?})" \
	[ "${e:-0}" -gt 1000 -a "${e:-0}" = "${r:-x}" ]

# trace prints the same line
"$SDTRACE" trace -e %python:function__entry -- "$PY" -c pass >t.out 2>t.err &
p=$!
pids="$pids $p"
wait "$p"
check_eq "trace -- python3.11 -c pass: exit 0" 0 $?
check "trace: the line says when function__entry fires" grep -q "$FIRES" t.err
# shellcheck disable=SC2086
real_unchanged $pids
finish
