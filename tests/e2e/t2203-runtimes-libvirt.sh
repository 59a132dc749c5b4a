#!/bin/sh
# libvirt0 through share/providers/libvirt.d: `virsh -c test:///default` runs libvirt's test
# driver in-process (no daemon), and `sdtrace record` of its object probes, then `report
# --latency --by klassname`, pairs each object's object_new with its object_dispose, by the
# `@sdtrace pair:` note of libvirt.d, keyed by the object's address (objects are not disposed
# in the order they were made: the key tells them apart). `virsh list --all` on the test driver
# makes one connection and looks up its one domain.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real-lib.sh"
VIRSH=/usr/bin/virsh
LIBVIRT=$(readlink -f /usr/lib/x86_64-linux-gnu/libvirt.so.0)
[ -x "$VIRSH" ] || skip "'$VIRSH' is not installed (Debian: libvirt-clients)"
need_file "$LIBVIRT"
need_tracefs
real_guard "$LIBVIRT"
export XDG_CONFIG_HOME="$T/config"
cd "$T" || exit 1
pids=""

"$SDTRACE" record -o v.sdt -e '%libvirt:object_*' -- "$VIRSH" -c test:///default list --all \
	>rec.out 2>rec.err &
p=$!
pids="$pids $p"
wait "$p"
check_eq "sdtrace record -- virsh -c test:///default list --all: exit 0" 0 $?
check "virsh listed the test driver's domain" grep -q ' test  *running' rec.out

"$SDTRACE" report -i v.sdt --latency --by klassname >lat.out 2>lat.err
check_eq "report --latency --by klassname: exit 0" 0 $?
check "libvirt.d's pair note pairs object_new -> object_dispose" \
	grep -q '^libvirt:object  (libvirt:object_new -> libvirt:object_dispose)$' lat.out
row_count() { awk -v k="$2" '$NF == k && $1 ~ /^[0-9]+$/ { print $1 }' "$1"; }
check_eq "one connection made and disposed" 1 "$(row_count lat.out klassname=virConnect)"
check_eq "one domain looked up and disposed" 1 "$(row_count lat.out klassname=virDomain)"
disposed=$("$SDTRACE" report -i v.sdt | grep -c ': libvirt:object_dispose: ')
paired=$(sed -n 's/^  count \([0-9]*\) .*/\1/p' lat.out | head -n 1)
check "every object disposed had its object_new: $disposed disposed, ${paired:-no} pairs" \
	[ "$disposed" -gt 0 -a "${paired:-x}" = "$disposed" ]
check_fails "no dispose without its object_new" grep -q 'unmatched: [0-9]* starts (never ended), [1-9]' lat.out
# shellcheck disable=SC2086
real_unchanged $pids
finish
