#!/bin/bash
# make check-deb: the packages of `make deb` (in BUILD/deb) checked, then installed into a clean
# Debian 12 root and tried there:
#   - lintian --pedantic finds nothing (each override in debian/*.lintian-overrides says why);
#   - the sdtrace in the package needs libsdtrace.so.0 (readelf -d);
#   - in the root: sdtrace --version, list -x on the bundled example, a record + report of it
#     (where tracefs is reachable: /proc, /sys, /dev and /sys/kernel/tracing bind-mounted), and
#     python3 reading that recording into pandas through the module.
# The root is debootstrapped once (minbase, with the packages' dependencies) and kept as a tarball
# in BUILD/deb-root, unpacked afresh for each run. Its mirror is the first deb.debian.org-style
# URI of this machine's apt sources (DEB_MIRROR overrides). CHECK_DEB_LOCK=FILE: the record step
# holds flock FILE (where other tests place uprobes at the same time). Needs root.
# Usage: scripts/check-deb.sh BUILD
set -euo pipefail
build=$(cd "${1:?usage: check-deb.sh BUILD}" && pwd)
debs=$build/deb
cache=$build/deb-root
root=$cache/run
t0=$(date +%s)
say() { echo "check-deb: $*"; }
fail() { echo "check-deb: FAIL: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "needs root (debootstrap, chroot, bind mounts)"
ls "$debs"/sdtrace_*.deb >/dev/null 2>&1 || fail "no packages in $debs: run make deb first"
example=$(ls "$debs"/sdtrace/obj-*/examples/sdt-example 2>/dev/null | head -n 1)
[ -x "$example" ] || fail "no examples/sdt-example in the package build tree under $debs/sdtrace"

# 1. lintian, on the binary packages of the build (the .changes lists them)
say "lintian --pedantic"
out=$(lintian --pedantic --fail-on none "$debs"/sdtrace_*.changes 2>&1 | grep -v '^running with root' || true)
[ -z "$out" ] || fail "lintian: $out"

# 2. the command links the library's package, not a copy of it
tmp=$(mktemp -d)
mounted=()
cleanup() {
	local i
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
dpkg-deb -x "$debs"/sdtrace_*.deb "$tmp/x"
readelf -d "$tmp/x/usr/bin/sdtrace" | grep -q 'NEEDED.*\[libsdtrace\.so\.0\]' ||
	fail "the packaged sdtrace does not need libsdtrace.so.0"
say "ok: the packaged sdtrace needs libsdtrace.so.0"

# 3. the clean root: debootstrapped once, a pristine tarball unpacked for each run
# the dependencies of the packages (libsdtrace-dev's too: it is installed and configured as well)
deps="python3 python3-cffi python3-pandas libelf1 libdw1 libbpf1 libzstd1 libcdb1 libmicrohttpd12
	libbpf-dev libcdb-dev libdw-dev libelf-dev libzstd-dev"
stamp="bookworm minbase $deps"
if [ ! -f "$cache/root.tar" ] || [ "$(cat "$cache/root.stamp" 2>/dev/null)" != "$stamp" ]; then
	mirror=${DEB_MIRROR:-$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)$/\1/p; s/^deb \(http[^ ]*\/debian\) .*/\1/p' \
		/etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null | head -n 1 || true)}
	mirror=${mirror:-http://deb.debian.org/debian}
	say "debootstrap bookworm from $mirror (once; cached in $cache)"
	rm -rf "$cache/boot"
	mkdir -p "$cache"
	debootstrap --variant=minbase bookworm "$cache/boot" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
		fail "debootstrap: see $cache/debootstrap.log"
	# the dependencies afterwards, by apt in the root (python3's postinst fails inside
	# debootstrap's own configure step)
	mount -t proc proc "$cache/boot/proc"
	mounted+=("$cache/boot/proc")
	DEBIAN_FRONTEND=noninteractive chroot "$cache/boot" apt-get install -y -q \
		--no-install-recommends $deps >>"$cache/debootstrap.log" 2>&1 ||
		fail "apt-get install in the root: see $cache/debootstrap.log"
	umount "$cache/boot/proc"
	mounted=()
	chroot "$cache/boot" apt-get clean
	tar -C "$cache/boot" -cf "$cache/root.tar.tmp" .
	mv "$cache/root.tar.tmp" "$cache/root.tar"
	echo "$stamp" >"$cache/root.stamp"
	rm -rf "$cache/boot"
fi
rm -rf "$root"
mkdir -p "$root"
tar -C "$root" -xf "$cache/root.tar"

# 4. the packages installed there (their dependencies are in the root already: no download)
mkdir -p "$root/debs" "$root/work"
cp "$debs"/*.deb "$root/debs/"
rm -f "$root"/debs/*-dbgsym_*.deb
cp "$example" "$root/work/sdt-example"
say "installing: $(cd "$root/debs" && echo *.deb)"
chroot "$root" sh -c 'dpkg -i /debs/*.deb' >"$tmp/dpkg.log" 2>&1 ||
	{ cat "$tmp/dpkg.log" >&2; fail "dpkg -i in the clean root"; }

for d in proc sys dev; do
	mount --bind "/$d" "$root/$d"
	mounted+=("$root/$d")
done
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }

v=$(in_root sdtrace --version | head -n 1)
[ "$v" = "sdtrace $(dpkg-deb -f "$debs"/sdtrace_*.deb Version)" ] || fail "sdtrace --version: $v"
say "ok: $v"
in_root sdtrace list -x /work/sdt-example >"$tmp/list" || fail "sdtrace list -x"
grep -qx '/work/sdt-example:%example:job__start' "$tmp/list" || fail "list -x: $(cat "$tmp/list")"
say "ok: list -x /work/sdt-example: $(wc -l <"$tmp/list") events"

if [ -d /sys/kernel/tracing ] && grep -q ' /sys/kernel/tracing tracefs ' /proc/mounts; then
	mount --bind /sys/kernel/tracing "$root/sys/kernel/tracing"
	mounted+=("$root/sys/kernel/tracing")
	lock=()
	[ -z "${CHECK_DEB_LOCK:-}" ] || lock=(flock "$CHECK_DEB_LOCK")
	"${lock[@]}" chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		sdtrace record -o /work/ex.data -e '%example:job__*' -- /work/sdt-example 3 \
		>"$tmp/rec.out" 2>"$tmp/rec.err" || { cat "$tmp/rec.err" >&2; fail "sdtrace record"; }
	in_root sdtrace report -i /work/ex.data >"$tmp/report" || fail "sdtrace report"
	[ "$(grep -c 'example:job__start' "$tmp/report")" = 3 ] ||
		fail "report: 3 job__start expected: $(cat "$tmp/report")"
	say "ok: record + report of sdt-example: $(wc -l <"$tmp/report") events"
	in_root python3 -c '
import sdtrace
df = sdtrace.Recording("/work/ex.data").to_pandas()
assert len(df) == 6, df
assert str(df["time_ns"].dtype) == "uint64", df.dtypes
assert (df["event"] == "example:job__start").sum() == 3, df
lat = sdtrace.Recording("/work/ex.data").latency()
assert len(lat) == 3, lat
print(len(df), "events,", len(lat), "pairs")
' >"$tmp/py" || fail "python3: the recording into pandas"
	say "ok: python3 -c 'import sdtrace': $(cat "$tmp/py")"
else
	echo "check-deb: SKIP: record + report: no tracefs at /sys/kernel/tracing" >&2
	in_root python3 -c 'import sdtrace; print(sdtrace.version())' >"$tmp/py" ||
		fail "python3 -c 'import sdtrace'"
	say "ok: python3 -c 'import sdtrace': version $(cat "$tmp/py")"
fi
cleanup
mounted=()
trap - EXIT
rm -rf "$root"
say "passed in $(($(date +%s) - t0)) s"
