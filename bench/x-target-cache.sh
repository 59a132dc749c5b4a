#!/bin/sh
# Experiment behind the choice of resolution by the target (lib/cache/resolve.c): is the cache
# worth a look for the files a process maps, or is reading their notes cheaper? A python3.11
# that dlopen()ed libjvm.so (531 notes) besides its ~20 libraries; the spec %python:gc__start
# wants none of libjvm's events. sdt_cache__resolve_target() timed in-process (resolve-cost.c):
#   empty cache: every file with notes is decoded (libjvm's 531 included)
#   warm cache:  libjvm.so and python3.11 cached: libjvm's build-id is looked up, not decoded
# Places no probe. usage: sh bench/x-target-cache.sh [BUILD_DIR]
. "$(dirname "$0")/common.sh"
build=${1:-$(dirname "$SDTRACE")}
jvm=/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
py=/usr/bin/python3.11
[ -e "$jvm" ] && [ -x "$py" ] || { echo "bench: SKIP $(basename "$0"): $jvm or $py missing"; exit 0; }
gcc -O2 -I"$bench_dir/../include" -o "$tmp/resolve-cost" "$bench_dir/resolve-cost.c" \
	"$build/libsdtrace.a" -lelf -lcdb -lz -ldl -lpthread
"$py" -c "import ctypes, time; ctypes.CDLL('$jvm'); time.sleep(600)" &
ppid=$!
at_exit "kill $ppid"
sleep 1
"$SDTRACE" --cache-dir "$tmp/warm" cache add "$jvm" "$py" >/dev/null
for i in 1 2 3; do
	printf '  empty cache: '
	"$tmp/resolve-cost" "$ppid" "$tmp/empty" '%python:gc__start' 50
	printf '  warm cache:  '
	"$tmp/resolve-cost" "$ppid" "$tmp/warm" '%python:gc__start' 50
done
