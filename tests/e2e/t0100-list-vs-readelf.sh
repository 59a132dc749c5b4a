#!/bin/sh
# SPDX-License-Identifier: MIT
# sdtrace list --json against readelf -n: for every test program and for the real binaries with
# SDT notes on this machine, the same sites (provider, name, location, semaphore, argument
# strings), in order, and the same build-id. The comparison is list-readelf-compare.py's.
. "$(dirname "$0")/lib.sh"
need_cmd readelf python3
CMP="python3 $SRC_DIR/tests/e2e/list-readelf-compare.py"

# The test programs: each must have SDT sites (prog-nonotes must have none).
n=0
for f in "$PROGS_DIR"/prog-* "$PROGS_DIR"/libprog-lib.so; do
	[ -f "$f" ] && [ -x "$f" ] || continue
	case $f in
	*/prog-nonotes) check "$(basename "$f"): no sites in either" $CMP "$SDTRACE" "$f" ;;
	*) check "$(basename "$f"): sites agree with readelf" $CMP --expect-sites "$SDTRACE" "$f" ;;
	esac
	n=$((n + 1))
done
# Not vacuous: every program of tests/progs/CMakeLists.txt was found.
check "all 17 test programs found in $PROGS_DIR (found $n)" test "$n" -ge 17

# The real binaries with notes (REFERENCE.md §1); a missing one is skipped loudly, not failed.
for f in /usr/bin/python3.11 /usr/lib/postgresql/15/bin/postgres \
	/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so \
	/usr/lib/x86_64-linux-gnu/libstdc++.so.6; do
	if [ ! -f "$f" ]; then
		say "SKIP: '$f' does not exist on this machine"
		continue
	fi
	check "$f: sites agree with readelf" $CMP --expect-sites "$SDTRACE" "$f"
done

# The comparison itself can fail: a file whose notes sdtrace reports differently must be caught.
# Fake an sdtrace that drops the last site of the real output.
cat >"$T/fake-sdtrace" <<EOS
#!/bin/sh
"$SDTRACE" "\$@" | python3 -c 'import json,sys; j=json.load(sys.stdin); print(json.dumps(j[:-1]))'
EOS
chmod +x "$T/fake-sdtrace"
$CMP "$T/fake-sdtrace" "$PROGS_DIR/prog-inline" >"$T/cmp.out" 2>&1
check "the comparison catches a missing site" grep -q "site count: sdtrace 3, readelf 4" "$T/cmp.out"
cat >"$T/fake-sdtrace" <<EOS
#!/bin/sh
"$SDTRACE" "\$@" | sed 's/"spec":"[^"]*"/"spec":"9@%zz"/'
EOS
$CMP "$T/fake-sdtrace" "$PROGS_DIR/prog-inline" >"$T/cmp.out" 2>&1
check "the comparison catches a different argument" grep -q "'9@%zz [^']*') != readelf" "$T/cmp.out"
finish
