#!/bin/sh
# SPDX-License-Identifier: MIT
# sdtrace list --json against perf's SDT cache: perf 6.1 (`perf buildid-cache --add`, into a
# private --buildid-dir with HOME in $T, never ~/.debug) writes one `p:` line per site with the
# file offset, the semaphore's ref_ctr offset and the fetchargs it can express. For every site,
# sdtrace's file_offset and semaphore_offset must equal perf's, every fetcharg perf wrote must be
# sdtrace's, and the constants and globals perf drops must still be fetched by sdtrace.
# The comparison is list-perf-compare.py's.
. "$(dirname "$0")/lib.sh"
need_cmd python3
need_peer perf
CMP="python3 $SRC_DIR/tests/e2e/list-perf-compare.py"
PC=$T/perfcache

# Not ~/.debug: perf_private (lib.sh) sets HOME=$T/perfhome and --buildid-dir $T/perfcache.
real_home_debug=$(getent passwd "$(id -un)" | cut -d: -f6)/.debug
before=$(ls -la "$real_home_debug" 2>/dev/null | md5sum)

files=""
for f in "$PROGS_DIR"/prog-* "$PROGS_DIR"/libprog-lib.so; do
	[ -f "$f" ] && [ -x "$f" ] || continue
	# prog-globals-stripped has prog-globals-pie's build-id: perf caches that build-id once
	case $f in */prog-nonotes | */prog-globals-stripped) continue ;; esac
	files="$files $f"
done
for f in /usr/bin/python3.11 /usr/lib/postgresql/15/bin/postgres \
	/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so \
	/usr/lib/x86_64-linux-gnu/libstdc++.so.6; do
	if [ -f "$f" ]; then
		files="$files $f"
	else
		say "SKIP: '$f' does not exist on this machine"
	fi
done
[ -n "$files" ] || skip "no file to compare (no test programs in '$PROGS_DIR'?)"

for f in $files; do
	name=$(basename "$f")
	if ! perf_private buildid-cache --add "$f" >"$T/perf.out" 2>&1; then
		fail "$name: perf buildid-cache --add" "$(head -c 1000 "$T/perf.out")"
		continue
	fi
	check "$name: sites, semaphores and fetchargs agree with perf" $CMP "$SDTRACE" "$PC" "$f"
	grep -h . "$T/.out" | sed 's/^/# /'
done
check "perf's cache is under \$T" test -d "$PC/.build-id"
check_eq "~/.debug untouched" "$before" "$(ls -la "$real_home_debug" 2>/dev/null | md5sum)"

# The comparison can fail: a wrong semaphore offset and a wrong fetcharg must be caught.
f=$PROGS_DIR/prog-semaphore
cat >"$T/fake-sdtrace" <<EOS
#!/bin/sh
"$SDTRACE" "\$@" | sed 's/"semaphore_offset":\([0-9]\)/"semaphore_offset":1\1/'
EOS
chmod +x "$T/fake-sdtrace"
$CMP "$T/fake-sdtrace" "$PC" "$f" >"$T/cmp.out" 2>&1
check "the comparison catches a wrong semaphore offset" grep -q "semaphore_offset .* != perf" \
	"$T/cmp.out"
cat >"$T/fake-sdtrace" <<EOS
#!/bin/sh
"$SDTRACE" "\$@" | sed 's/"fetch":"\([^"]*\):s64"/"fetch":"\1:u64"/'
EOS
$CMP "$T/fake-sdtrace" "$PC" "$f" >"$T/cmp.out" 2>&1
check "the comparison catches a different fetcharg" grep -q "sdtrace \(.*\):u64 != perf \1:s64" \
	"$T/cmp.out"
finish
