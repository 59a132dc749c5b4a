#!/bin/sh
# Sessions of two pid namespaces share one tracefs. A session in a container (unshare -p -f
# --mount-proc) and one on the host, at the same time, both record every hit, and neither side's
# sweep of dead sessions removes the other's probes, also in the moment a session holds its
# probes without a perf event on them (the kernel's EBUSY protects only opened events: on the
# previous version, the container's sweep deleted a live host session there, and the other way
# round). A container session that is gone is removed by the host, never by a sibling container;
# names of the previous format (no namespace) are removed only where that is provable: from the
# initial pid namespace.
. "$(dirname "$0")/lib.sh"
need_tracefs
. "$(dirname "$0")/record-lib.sh"
need_cmd unshare pgrep
IN="unshare -p -f --mount-proc --kill-child"
$IN true 2>/dev/null || skip "cannot make a pid namespace (unshare -p -f --mount-proc)"
# Only lines of probes on our own files ($T): other tests may run at the same time.
uprobes_guard "^[p-r]:[^ ]* $T/"
sees_all=0
[ "$(readlink /proc/self/ns/pid)" = "pid:[4026531836]" ] && [ "$(id -u)" = 0 ] && sees_all=1

# lines GROUP: its lines in uprobe_events
lines() { grep -c "^[pr]:$1/" "$TRACEFS/uprobe_events"; }
# held OUT: the group a --hold session printed
held() { sed -n 's/^group //p' "$1"; }
# exited PID: wait until process PID has exited: gone, or a zombie nobody reaps (5 s at most)
state() { awk '/^State:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
exited() {
	_n=0
	while [ -n "$(state "$1")" ] && [ "$(state "$1")" != Z ] && [ "$_n" -lt 50 ]; do
		sleep 0.1
		_n=$((_n + 1))
	done
	[ -z "$(state "$1")" ] || [ "$(state "$1")" = Z ]
}
# sweep NAME [IN]: a sweep of dead sessions (in a new container with IN), its output in NAME.out
sweep() {
	_o=$1
	shift
	check "a sweep $_o succeeds" "$@" "$REC" --remove-stale
	cp "$T/.out" "$T/$_o.out"
}
# hostpid PATTERN: the host pid of the one process whose command line matches
hostpid() { pgrep -f -- "$1"; }

# ---- two recordings at once, one in a container -------------------------------------------
"$REC" --ready "$T/h.ready" -e rt:fire "$TARGET" -- "$TARGET" 5 "$T/go" >"$T/h.out" 2>&1 &
h=$!
$IN "$REC" --ready "$T/c.ready" -e rt:fire "$TARGET" -- "$TARGET" 7 "$T/go" >"$T/c.out" 2>&1 &
c=$!
at_exit "kill $h 2>/dev/null; kill -9 $c 2>/dev/null"
check "host session armed" wait_file "$T/h.ready"
check "container session armed" wait_file "$T/c.ready"
hg=$(sed -n 's/^event rt:fire \([^/]*\)\/.*/\1/p' "$T/h.out")
cg=$(sed -n 's/^event rt:fire \([^/]*\)\/.*/\1/p' "$T/c.out")
check "the two groups differ" test -n "$hg" -a -n "$cg" -a "$hg" != "$cg"
check_eq "both groups are in uprobe_events" 2 "$(left_by "$T/h.out" "$T/c.out")"
sweep "in-a-container" $IN
check_eq "it leaves the host session alone" "removed 0 stale group(s)" \
	"$(cat "$T/in-a-container.out")"
sweep "on-the-host"
check "it leaves the container session alone" sh -c "! grep -q '$cg' '$T/on-the-host.out'"
check_eq "both groups are still there" 2 "$(left_by "$T/h.out" "$T/c.out")"
touch "$T/go"
wait "$h"
check_eq "the host session ends normally" 0 $?
wait "$c"
check_eq "the container session ends normally" 0 $?
check_eq "the host session got its 5 hits" "samples=5 lost=0 status=0" \
	"$(grep '^samples=' "$T/h.out" | sed 's/ method=.*//')"
check_eq "the container session got its 7 hits" "samples=7 lost=0 status=0" \
	"$(grep '^samples=' "$T/c.out" | sed 's/ method=.*//')"
check_eq "both removed their events" 0 "$(left_by "$T/h.out" "$T/c.out")"

# ---- a session holding its probes unopened, swept from the other side ----------------------
"$REC" --hold "$T/stop1" --ready "$T/hold1" -e rt:fire "$TARGET" >"$T/hold1.out" 2>&1 &
hp=$!
at_exit "touch $T/stop1"
check "a host session holds its probes" wait_file "$T/hold1"
g1=$(held "$T/hold1.out")
site=$(grep "^p:$g1/" "$TRACEFS/uprobe_events" | head -n 1 | awk '{ print $2 }' | sed 's/(.*//')
$IN "$SDTRACE" record -o "$T/c1.data" -x "$TARGET" -e %rt:fire -- "$TARGET" 3 >/dev/null \
	2>"$T/c1.err"
check_eq "sdtrace record in a container: exit 0" 0 $?
check_eq "it left the host session's probes" 1 "$(lines "$g1")"
check "and did not take it for dead" sh -c "! grep -q '$g1' '$T/c1.err'"
touch "$T/stop1"
wait "$hp"
check_eq "the host session removes its own probes" "0 0" "$? $(lines "$g1")"

$IN "$REC" --hold "$T/stop2" --ready "$T/hold2" -e rt:fire "$TARGET" >"$T/hold2.out" 2>&1 &
cp=$!
at_exit "touch $T/stop2"
check "a container session holds its probes" wait_file "$T/hold2"
g2=$(held "$T/hold2.out")
"$SDTRACE" record -o "$T/h2.data" -x "$TARGET" -e %rt:fire -- "$TARGET" 3 >/dev/null 2>"$T/h2.err"
check_eq "sdtrace record on the host: exit 0" 0 $?
check_eq "it left the container session's probes" 1 "$(lines "$g2")"
check "and did not take it for dead" sh -c "! grep -q '$g2' '$T/h2.err'"
touch "$T/stop2"
wait "$cp"
check_eq "the container session removes its own probes" "0 0" "$? $(lines "$g2")"

# ---- container sessions that are gone ------------------------------------------------------
# killed while its namespace lives on: its init sleeps and never reaps it (a zombie)
$IN sh -c "'$REC' --hold '$T/never3' --ready '$T/hold3' -e rt:fire '$TARGET' >'$T/hold3.out' \
	2>&1 & exec sleep 600" >/dev/null 2>&1 &
ns3=$!
at_exit "kill -9 $ns3 2>/dev/null"
check "a container session holds its probes (namespace with another process)" \
	wait_file "$T/hold3"
g3=$(held "$T/hold3.out")
p3=$(hostpid "^$REC --hold $T/never3")
kill -9 "$p3"
check "it is killed (a zombie)" exited "$p3"
sweep "in-a-sibling-container" $IN
check_eq "it cannot see it: its probes stay" 1 "$(lines "$g3")"
sweep "on-the-host-3"
check "it removes it" grep -q "$g3" "$T/on-the-host-3.out"
check_eq "its probes are gone" 0 "$(lines "$g3")"
kill -9 "$ns3" # unshare ignores SIGTERM; --kill-child ends its child

# killed with its namespace (it was the namespace's init)
$IN "$REC" --hold "$T/never4" --ready "$T/hold4" -e rt:fire "$TARGET" >"$T/hold4.out" 2>&1 &
ns4=$!
at_exit "kill -9 $ns4 2>/dev/null"
check "a container session holds its probes (alone in its namespace)" wait_file "$T/hold4"
g4=$(held "$T/hold4.out")
p4=$(hostpid "^$REC --hold $T/never4")
kill -9 "$p4"
wait "$ns4"
check "it is killed, and its namespace with it" exited "$p4"
if [ "$sees_all" = 1 ]; then
	sweep "on-the-host-4"
	check "it removes it (no process of that namespace is left)" grep -q "$g4" \
		"$T/on-the-host-4.out"
	check_eq "its probes are gone" 0 "$(lines "$g4")"
else
	say "not root in the initial pid namespace: a dead namespace is not provable, not checked"
	printf -- '-:%s/rt_fire\n' "$g4" >>"$TRACEFS/uprobe_events"
fi

# ---- names of the previous format: sdtrace_<pid>_<start>_<seq> ----------------------------
check "the probe site is known" test -n "$site"
dead_pid=$(sh -c 'echo $$')
sleep 600 >/dev/null 2>&1 &
live=$!
at_exit "kill $live 2>/dev/null"
$IN sleep 600 >/dev/null 2>&1 &
ns5=$!
at_exit "kill -9 $ns5 2>/dev/null"
sleep 0.3
inner=$(pgrep -P "$ns5")
old_dead="sdtrace_${dead_pid}_1_0"
old_live="sdtrace_${live}_$(awk '{ print $22 }' "/proc/$live/stat")_0"
old_cont="sdtrace_1_$(awk '{ print $22 }' "/proc/$inner/stat")_0"
for g in "$old_dead" "$old_live" "$old_cont"; do
	printf 'p:%s/rt_fire %s\n' "$g" "$site" >>"$TRACEFS/uprobe_events"
	at_exit "printf -- '-:%s/rt_fire\n' $g >>$TRACEFS/uprobe_events"
done
check_eq "three sessions of the previous format" "1 1 1" \
	"$(lines "$old_dead") $(lines "$old_live") $(lines "$old_cont")"
sweep "in-a-container-5" $IN
check_eq "it removes none of them (their namespace is unknown)" "1 1 1" \
	"$(lines "$old_dead") $(lines "$old_live") $(lines "$old_cont")"
if [ "$sees_all" = 1 ]; then
	sweep "on-the-host-5"
	check_eq "it removes the dead one only (a live container process keeps its own)" "0 1 1" \
		"$(lines "$old_dead") $(lines "$old_live") $(lines "$old_cont")"
else
	say "not root in the initial pid namespace: the previous format is not provable, not checked"
fi
for g in "$old_dead" "$old_live" "$old_cont"; do
	printf -- '-:%s/rt_fire\n' "$g" >>"$TRACEFS/uprobe_events" 2>/dev/null
done
kill -9 "$live" "$ns5"
uprobes_unchanged
finish
