#!/bin/sh
# OpenJDK 17's HotSpot markers (libjvm.so), recorded end to end: %hotspot:vm__init__begin and
# vm__init__end fire once each, in that order, on one thread of the java process; thread__start
# fires for each thread the VM starts, on that thread (native_tid = the event's tid), with Java
# thread ids counting up from 2. Thread names are counted strings (a pointer to bytes that are not
# NUL-terminated, and a length; share/providers/hotspot.d): each is recorded as the string, cut
# to its length. A tiny class (compiled with javac when the JDK is there) starts threads with
# names of known lengths and daemon flags, and each must have its thread__start with that name,
# length, flag and Java id. (Every site of libjvm.so is armed by t0609.)
# (This libjvm has no SDT semaphores: HotSpot gates its costly probes with -XX flags instead.)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real-lib.sh"
need_jdk
need_tracefs
need_cmd python3
real_guard "$JVM"
cd "$T" || exit 1

EVENTS="-e $JVM:%hotspot:vm__init__begin -e $JVM:%hotspot:vm__init__end
	-e $JVM:%hotspot:thread__start"
if [ -x "$JDK/bin/javac" ]; then
	mkdir cls
	cat >cls/Threads.java <<'EOF'
public class Threads {
	public static void main(String[] args) throws Exception {
		String[] names = {"t", "sdt-worker-22", "sdt-a-much-longer-thread-name-for-the-test", "\u00e9t\u00e9"};
		for (int i = 0; i < names.length; i++) {
			Thread t = new Thread(() -> {}, names[i]);
			t.setDaemon(i % 2 == 1);
			t.start();
			t.join();
			System.out.println("thread " + t.getId() + " " + names[i].getBytes("UTF-8").length + " "
					   + (t.isDaemon() ? 1 : 0) + " " + names[i]);
		}
	}
}
EOF
	"$JDK/bin/javac" -d cls cls/Threads.java >javac.out 2>&1
	check_eq "javac Threads.java" 0 $?
	set -- "$JAVA" -Xshare:auto -cp cls Threads
else
	say "no javac in $JDK (Debian: openjdk-17-jdk-headless): java -version only, no thread of ours"
	set -- "$JAVA" -version
fi
# shellcheck disable=SC2086
"$SDTRACE" record -o j.data $EVENTS -- "$@" >j.out 2>j.err &
rp=$!
wait "$rp"
check_eq "record -- java: exit 0" 0 $?
check "record: says how many, and the command's status 0" \
	grep -q '^sdtrace: [0-9]* events recorded .*exited with status 0' j.err
"$SDTRACE" report -i j.data --json >j.json 2>j.json.err
check_eq "report --json" 0 $?
"$SDTRACE" report -i j.data >j.txt 2>j.txt.err
check_eq "report (text)" 0 $?

python3 - >j.checks 2>&1 <<'EOF'
import json
ev = sorted((json.loads(l) for l in open("j.json")), key=lambda e: e["time_ns"])
def res(name, ok, why=""):
    print("ok " + name if ok else "not ok %s :: %s" % (name, why))
names = [e["name"] for e in ev]
res("vm__init__begin and vm__init__end once each, begin first",
    names.count("vm__init__begin") == 1 and names.count("vm__init__end") == 1 and
    names.index("vm__init__begin") < names.index("vm__init__end"), str(names[:5]))
res("every event of one java process, from libjvm.so",
    len({e["pid"] for e in ev}) == 1 and all(e["path"].endswith("/libjvm.so") for e in ev),
    str({(e["pid"], e["path"]) for e in ev}))
b = next((e for e in ev if e["name"] == "vm__init__begin"), None)
x = next((e for e in ev if e["name"] == "vm__init__end"), None)
if b and x:
    res("vm__init__begin/end on one thread, no arguments",
        b["tid"] == x["tid"] and b["args"] == [] and x["args"] == [], str((b, x)))
    print("info VM init: %.1f ms" % ((x["time_ns"] - b["time_ns"]) / 1e6))
ts = [e for e in ev if e["name"] == "thread__start"]
res("thread__start fired (the VM's own threads at least: %d)" % len(ts), len(ts) >= 3)
res("thread__start: 5 arguments, the names in fields",
    all(len(e["args"]) == 5 and set(e.get("fields", {})) >= {"thread_name", "thread_name_len",
        "java_tid", "native_tid", "is_daemon"} for e in ts), str(ts[:1]))
res("thread__start: native_tid is the thread's own tid",
    all(e["args"][3] == e["tid"] for e in ts), str([(e["tid"], e["args"][3]) for e in ts]))
res("thread__start: a name of the length given, 1..200 bytes",
    all(type(e["args"][0]) is str and len(e["args"][0].encode()) == e["args"][1] and
        0 < e["args"][1] <= 200 for e in ts),
    str([e["args"][:2] for e in ts]))
jids = [e["args"][2] for e in ts]
res("thread__start: Java thread ids distinct, the first 2",
    len(set(jids)) == len(jids) and min(jids) == 2, str(jids))
# the VM's own: "Reference Handler" (17 bytes) is thread 2 and "Finalizer" (9) thread 3
res("thread__start: Reference Handler (17) is Java thread 2, Finalizer (9) is 3",
    [e["args"][0:3] for e in ts[:2]] == [["Reference Handler", 17, 2], ["Finalizer", 9, 3]],
    str([e["args"][0:3] for e in ts[:2]]))
mine = [l.split(None, 4) for l in open("j.out") if l.startswith("thread ")]
by_jid = {e["args"][2]: e for e in ts}
for _, jid, length, daemon, name in mine:
    e = by_jid.get(int(jid))
    res("our thread %r: Java id %s, name length %s, daemon %s" % (name.strip(), jid, length, daemon),
        e is not None and e["args"][0] == name.strip() and e["args"][1] == int(length) and
        e["args"][4] == int(daemon), str(e and e["args"]))
print("info %d thread__start, %d of them ours; name lengths %s" %
      (len(ts), len(mine), [e["args"][1] for e in ts]))
EOF
real_checks j.checks
grep -q '^ok ' j.checks || fail "the event checks ran" "$(cat j.checks)"
if [ -x "$JDK/bin/javac" ]; then
	check_eq "our 4 threads ran" 4 "$(grep -c '^thread ' j.out)"
fi
check "report text: thread__start of \"Reference Handler\" with thread_name_len=17" \
	grep -q 'hotspot:thread__start: thread_name="Reference Handler" thread_name_len=17 ' j.txt
real_unchanged "$rp"
finish
