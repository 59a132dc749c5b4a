#!/bin/sh
# Names a user types: -x NAME (list, record) and a spec's bare binary (NAME:%provider:event) are
# found as a user expects: an executable through $PATH, a file in the current directory, a
# library through the ld.so cache (libstdc++.so.6, whose %libstdcxx:throw is recorded from a C++
# program), a library in the library trees (libjvm.so: of two JVMs the one $PATH runs, recorded
# from java -version); list prints the file found, so that its lines paste back anywhere. A name found
# nowhere says where it was looked for (and the ld.so cache's sonames that begin with it).
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd c++ ldconfig
P=$PROGS_DIR
need_file "$P/prog-const"
uprobes_guard "^[p-r]:[^ ]+ ($T/|/[^ ]*libstdc)"

# hits FILE EVENT: the recorded events of that name
hits() { "$SDTRACE" report -i "$1" | grep -c " $2: "; }

mkdir -p "$T/bin" "$T/away" "$T/here"
cp "$P/prog-const" "$T/bin/sdt-t1600-const"
cp "$P/prog-const" "$T/here/localprog"
PATH="$T/bin:$PATH"
export PATH

# ---- an executable through $PATH -------------------------------------------------------------
cd "$T/away" || exit 1
"$SDTRACE" list -x sdt-t1600-const >path.list 2>path.err
check_eq "list -x NAME from \$PATH: exit 0" 0 $?
check_eq "list -x NAME from \$PATH: the file found, pasteable" \
	"$T/bin/sdt-t1600-const:%const:values" "$(head -n 1 path.list)"
"$SDTRACE" record -o p1.data -x sdt-t1600-const -e %const:zero -- sdt-t1600-const 3 \
	>p1.out 2>p1.err
check_eq "record -x NAME from \$PATH: exit 0" 0 $?
check_eq "record -x NAME from \$PATH: every hit" 3 "$(hits p1.data const:zero)"
"$SDTRACE" record -o p2.data -e 'sdt-t1600-const:%const:zero' -- sdt-t1600-const 2 \
	>p2.out 2>p2.err
check_eq "record -e NAME:%p:e from \$PATH: exit 0" 0 $?
check_eq "record -e NAME:%p:e from \$PATH: every hit" 2 "$(hits p2.data const:zero)"
"$SDTRACE" list 'sdt-t1600-const:%const:zero' >pat.list 2>pat.err
check_eq "list NAME:%p:e: the one probe of the file found" \
	"$T/bin/sdt-t1600-const:%const:zero" "$(cat pat.list)"

# ---- a file in the current directory (not in $PATH) ---------------------------------------------
cd "$T/here" || exit 1
"$SDTRACE" list -x localprog >here.list 2>here.err
check_eq "list -x NAME in the current directory: the file found" \
	"$T/here/localprog:%const:values" "$(head -n 1 here.list)"
"$SDTRACE" stat -x localprog -e %const:values -- ./localprog 4 >here.stat 2>&1
check_eq "stat -x NAME in the current directory: exit 0" 0 $?
check "stat -x NAME in the current directory: 4 hits" grep -Eq 'const:values.* 4( |$)|^ *4 .*const:values' here.stat

# ---- a library through the ld.so cache ----------------------------------------------------------
lib=$(ldconfig -p | sed -n 's/^[[:space:]]*libstdc++\.so\.6 (libc6,x86-64) => //p' | head -n 1)
[ -n "$lib" ] || lib=$(ldconfig -p | sed -n 's/^[[:space:]]*libstdc++\.so\.6 ([^)]*) => //p' | head -n 1)
if [ -n "$lib" ] && "$SDTRACE" list -x "$lib" '%libstdcxx:throw' 2>/dev/null | grep -q throw; then
	real=$(readlink -f "$lib")
	cat >"$T/throw.cc" <<'CEOF'
#include <cstdlib>
int main(int argc, char **argv)
{
	int n = argc > 1 ? std::atoi(argv[1]) : 1, caught = 0;

	for (int i = 0; i < n; i++) {
		try {
			throw i;
		} catch (int) {
			caught++;
		}
	}
	return caught == n ? 0 : 1;
}
CEOF
	c++ -O1 -o "$T/thrower" "$T/throw.cc"
	"$SDTRACE" list -x libstdc++.so.6 '%libstdcxx:throw' >lib.list 2>lib.err
	check_eq "list -x SONAME from the ld.so cache: the library ld.so loads" \
		"$real:%libstdcxx:throw" "$(cat lib.list)"
	"$SDTRACE" record -o l1.data -x libstdc++.so.6 -e %libstdcxx:throw -- "$T/thrower" 5 \
		>l1.out 2>l1.err
	check_eq "record -x libstdc++.so.6: exit 0" 0 $?
	check_eq "record -x libstdc++.so.6: every throw" 5 "$(hits l1.data libstdcxx:throw)"
	"$SDTRACE" record -o l2.data -e 'libstdc++.so.6:%libstdcxx:throw' -- "$T/thrower" 3 \
		>l2.out 2>l2.err
	check_eq "record -e libstdc++.so.6:%libstdcxx:throw: exit 0" 0 $?
	check_eq "record -e libstdc++.so.6:%libstdcxx:throw: every throw" 3 \
		"$(hits l2.data libstdcxx:throw)"
else
	say "no libstdc++.so.6 with SDT notes in the ld.so cache: the library part not checked"
fi

# ---- a library in the library trees: libjvm.so (the README's example) ---------------------------
JDK=${JDK:-/usr/lib/jvm/java-17-openjdk-amd64}
if [ -x "$JDK/bin/java" ] && [ -f "$JDK/lib/server/libjvm.so" ]; then
	jvm=$(readlink -f "$JDK/lib/server/libjvm.so")
	mkdir -p "$T/jdkbin" "$T/empty"
	ln -s "$JDK/bin/java" "$T/jdkbin/java"
	# $PATH runs this JDK's java: its libjvm.so, however many JVMs /usr/lib/jvm holds
	PATH="$T/jdkbin" "$SDTRACE" list -x libjvm.so '%hotspot:vm__init__begin' >jvm.list 2>jvm.err
	check_eq "list -x libjvm.so: exit 0" 0 $?
	check_eq "list -x libjvm.so: the JDK of \$PATH's java" "$jvm:%hotspot:vm__init__begin" \
		"$(cat jvm.list)"
	PATH="$T/jdkbin" "$SDTRACE" record -o j1.data -x libjvm.so -e %hotspot:vm__init__begin \
		-e %hotspot:vm__init__end -- "$JDK/bin/java" -Xshare:auto -version >j1.out 2>j1.err
	check_eq "record -x libjvm.so -- java -version: exit 0" 0 $?
	check_eq "record -x libjvm.so: vm__init__begin once" 1 \
		"$("$SDTRACE" report -i j1.data | grep -c ' hotspot:vm__init__begin:')"
	check_eq "record -x libjvm.so: vm__init__end once" 1 \
		"$("$SDTRACE" report -i j1.data | grep -c ' hotspot:vm__init__end:')"
	PATH="$T/jdkbin" "$SDTRACE" stat -e 'libjvm.so:%hotspot:vm__init__begin' \
		-- "$JDK/bin/java" -Xshare:auto -version >j2.out 2>&1
	check_eq "stat -e libjvm.so:%hotspot:vm__init__begin -- java: exit 0" 0 $?
	# a $PATH that runs no java: one libjvm.so is found, two are an error naming both
	njvm=$(find /usr/lib /usr/lib64 /usr/local/lib /opt -maxdepth 6 -name libjvm.so -type f \
		2>/dev/null | wc -l)
	PATH="$T/empty" "$SDTRACE" list -x libjvm.so '%hotspot:vm__init__begin' >jvm0.list 2>jvm0.err
	rc=$?
	if [ "$njvm" -gt 1 ]; then
		check_eq "two JVMs, \$PATH runs neither: exit 2 (list's error, as grep)" 2 "$rc"
		check "two JVMs, \$PATH runs neither: both named" grep -q "$jvm" jvm0.err
		check "two JVMs, \$PATH runs neither: give the path" grep -q "give the path" jvm0.err
	else
		check_eq "one JVM: found without \$PATH" "$jvm:%hotspot:vm__init__begin" "$(cat jvm0.list)"
	fi
else
	say "no $JDK (Debian: openjdk-17-jre-headless): libjvm.so not checked"
fi

# ---- names found nowhere --------------------------------------------------------------------------
"$SDTRACE" list -x libsdt-t1600-nowhere.so >none.out 2>none.err
check_eq "a name found nowhere: exit 2 (list's error, as grep)" 2 $?
check "it says where it looked" grep -q "no such file in the current directory, \$PATH, /etc/ld.so.cache" none.err
check "and that a full path finds it" grep -q "give its full path" none.err
if [ -n "$lib" ]; then
	"$SDTRACE" list -x libstdc++ >so.out 2>so.err
	check "a name without its version: the ld.so cache's sonames are suggested" \
		grep -q "the ld.so cache has libstdc++.so.6 (" so.err
fi
"$SDTRACE" record -o x.data -x sdt-t1600-nowhere -e %const:zero -- true >x.out 2>x.err
check_eq "record -x NAME found nowhere: exit 1" 1 $?
uprobes_unchanged
finish
