#!/bin/sh
# HotSpot's method and memory-pool probes paired by their provider notes' keys (hotspot.d:
# class_name,method_name,signature and manager_name,pool_name), on real uprobes, against the
# program's own counts (the ground truth). Names are counted strings (pointer and length), so
# the key is the string cut to its length. A collection begins every pool of its manager, then
# ends them in the same order: without the key each end closed the latest begin (another pool's).
# Interpreted (-Xint), so that no call is inlined away; -XX:+ExtendedDTraceProbes, so that the
# method probes fire at all.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real-lib.sh"
JDK=${JDK:-/usr/lib/jvm/java-17-openjdk-amd64}
JVM=$JDK/lib/server/libjvm.so
[ -x "$JDK/bin/javac" ] || skip "no javac in '$JDK' (Debian: openjdk-17-jdk-headless)"
need_file "$JVM"
need_tracefs
need_cmd python3
real_guard "$JVM"
cd "$T" || exit 1

cat >M.java <<'EOF2'
public class M {
	static int leaf(int n) { return n * 2; }
	static int mid(int n) { return leaf(n) + leaf(n + 1); }
	public static void main(String[] a) {
		int s = 0;
		for (int i = 0; i < 300; i++)
			s += mid(i);
		for (int i = 0; i < 3; i++)
			System.gc();
		System.out.println("leaf 600 mid 300 main 1 gc 3 " + s);
	}
}
EOF2
"$JDK/bin/javac" -d . M.java >javac.out 2>&1
check_eq "javac M.java" 0 $?
# a ring of 16 MiB per CPU: the JVM's start fires some 10^5 method probes in a burst
"$SDTRACE" record -m 4096 -e "$JVM:%hotspot:method__*" -e "$JVM:%hotspot:mem__pool__gc__*" -- \
	"$JDK/bin/java" -Xint -XX:+UseSerialGC -XX:+ExtendedDTraceProbes -cp . M >m.out 2>m.err &
rp=$!
wait "$rp"
check_eq "record -- java: exit 0" 0 $?
check "the program ran" grep -q '^leaf 600 mid 300 main 1 gc 3 ' m.out
"$SDTRACE" report --latency --json --by class_name,method_name >by.json 2>by.err
check_eq "report --latency --by class_name,method_name: exit 0" 0 $?
"$SDTRACE" report --latency --json --by pool_name --top 1000 >pool.json 2>pool.err
check_eq "report --latency --by pool_name: exit 0" 0 $?
"$SDTRACE" report --latency --json --top 100 \
	--pair %hotspot:mem__pool__gc__begin,%hotspot:mem__pool__gc__end >slow.json 2>slow.err
check_eq "report --latency --top: exit 0" 0 $?

# events the rings lost (a loaded machine, an ASan build) leave entries without their return
lost=$(sed -n 's/.*warning: \([0-9]*\) events were lost.*/\1/p' by.err | head -n 1)
python3 - by.json pool.json slow.json "${lost:-0}" >k.check <<'EOF2'
import json, re, sys
def res(name, ok, why=""):
    print("ok " + name if ok else "not ok %s :: %s" % (name, why))
by, pool, slow = (json.load(open(f)) for f in sys.argv[1:4])
def pair(d, name):
    return [p for p in d["pairs"] if p["name"] == name][0]
m = pair(by, "hotspot:method")
g = {tuple(x["key"]): x["count"] for x in m["groups"]}
for meth, n in (("leaf", 600), ("mid", 300), ("main", 1)):
    res("method M.%s: %d pairs" % (meth, n), g.get(("M", meth)) == n, str(g.get(("M", meth))))
lost = int(sys.argv[4])
if lost:
    print("%d events lost: the mismatch check of the method pairs is left out" % lost)
else:
    res("method pairs: no key mismatch (entry and return nest per thread)",
        m["key_mismatches"] == 0, str(m["key_mismatches"]))
p = pair(pool, "hotspot:mem__pool__gc")
pg = {x["key"][0]: x["count"] for x in p["groups"]}
res("6 pools of the serial collector", len(pg) == 6, str(pg))
# 3 System.gc() calls; the JVM may collect once more on its own
res("each pool: one pair per collection (3, or 4 with one of the VM's own)",
    len(set(pg.values())) == 1 and list(pg.values())[0] in (3, 4), str(pg))
res("the ends that passed over another pool's begin are counted (5 a collection)",
    p["key_mismatches"] == 5 * list(pg.values())[0], str(p["key_mismatches"]))
s = slow.get("slowest", [])
def pool_of(args):
    m = re.search(r'pool_name="([^"]*)"', args)
    return m and m.group(1)
res("every pool pair (%d): begin and end of one pool" % len(s),
    len(s) == sum(pg.values()) and all(pool_of(t["start_args"]) == pool_of(t["end_args"]) for t in s),
    str([(t["start_args"][:80], t["end_args"][:80]) for t in s if pool_of(t["start_args"]) != pool_of(t["end_args"])][:2]))
EOF2
real_checks k.check
grep -q '^ok ' k.check || fail "the checks ran" "$(cat k.check)"
real_unchanged "$rp"
finish
