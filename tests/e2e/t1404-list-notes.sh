#!/bin/sh
# Provider notes (`@sdtrace KEY: TEXT` comment lines of the .d files): `list -v` shows each of a
# probe's notes under its line, the provider's first, any key (the vocabulary may grow); without
# -v they are not shown; a malformed note is an error naming FILE:LINE. The shipped files' notes:
# HotSpot's method__entry needs -XX:+ExtendedDTraceProbes, CPython's function__entry fires only
# on the tracing path. dtrace itself, when installed (systemtap-sdt-dev), takes the noted file.
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR
need_file "$P/prog-sizes"
cd "$T" || exit 1

cat >notes.d <<'EOF2'
/*
 * Every probe's:
 * @sdtrace fires: only in tests
 */
provider sizes {
	/*
	 * The smallest values.
	 * @sdtrace needs: --min, a switch whose text
	 *   runs over two lines
	 * @sdtrace pair: sizes:max
	 */
	probe min(signed char, unsigned char, short, unsigned short, int, unsigned int, long long,
		  unsigned long long);
	probe small();
};
EOF2
"$SDTRACE" list -v --types notes.d -x "$P/prog-sizes" '%sizes:min' >l.out 2>l.err
check_eq "list -v --types notes.d: exit 0" 0 $?
check_eq "the notes under the probe's line, in order" \
	"$P/prog-sizes:%sizes:min|  fires: only in tests|  needs: --min, a switch whose text runs over two lines|  pair: sizes:max" \
	"$(head -n 4 l.out | tr '\n' '|' | sed 's/|$//')"
sed -n 5p l.out >l5.out
check "then its sites" grep -q '^  site 1: ' l5.out
"$SDTRACE" list --types notes.d -x "$P/prog-sizes" '%sizes:min' >n.out 2>&1
check_eq "without -v: no notes" "$P/prog-sizes:%sizes:min" "$(cat n.out)"

printf 'provider sizes {\n\t/* @sdtrace needs */\n\tprobe min();\n};\n' >bad.d
"$SDTRACE" list -v --types bad.d -x "$P/prog-sizes" >b.out 2>b.err
check_eq "a malformed note: exit 2 (list's error, as grep)" 2 $?
check "the error names FILE:LINE" grep -q "bad.d:2: expected '@sdtrace KEY: TEXT'" b.err

JVM=/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
if [ -e "$JVM" ]; then
	"$SDTRACE" list -v -x "$JVM" '%hotspot:method__entry' >j.out 2>&1
	check_eq "hotspot:method__entry: its note" \
		"  needs: -XX:+ExtendedDTraceProbes (or -XX:+DTraceMethodProbes)" "$(sed -n 2p j.out)"
	"$SDTRACE" list -v -x "$JVM" '%hotspot:monitor__*' >m.out 2>&1
	check_eq "hotspot:monitor__*: each of the 7 has its note" 7 \
		"$(grep -c '^  needs: -XX:+ExtendedDTraceProbes (or -XX:+DTraceMonitorProbes)$' m.out)"
	"$SDTRACE" list -v -x "$JVM" '%hotspot:gc__begin' >g.out 2>&1
	check_fails "hotspot:gc__begin: no note" grep -q '^  needs:' g.out
fi
if [ -x /usr/bin/python3.11 ]; then
	"$SDTRACE" list -v -x /usr/bin/python3.11 '%python:function__*' >p.out 2>&1
	check "python:function__entry: its fires note" \
		grep -q "^  fires: only on CPython 3.11's tracing path: while sys.setprofile()" p.out
	check_eq "python:function__return: none" 1 "$(grep -c '^  fires:' p.out)"
fi
if command -v dtrace >/dev/null 2>&1; then
	for f in notes.d "$SRC_DIR/share/providers/hotspot.d" "$SRC_DIR/share/providers/python.d"; do
		dtrace -h -s "$f" -o "$T/h.h" >d.err 2>&1
		check_eq "dtrace -h takes $(basename "$f")" 0 $?
	done
else
	say "no dtrace (systemtap-sdt-dev): the files are not given to it"
fi
finish
