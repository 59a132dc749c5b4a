#!/bin/sh
# Install what a fresh Debian 12 machine lacks to build, test and benchmark sdtrace.
# Says what it installs; does nothing when everything is present.
# Usage: scripts/install-deps.sh [build|test|bench|fixtures|deb]   (default: test)
# deb: what make deb and make check-deb need (debhelper, lintian, debootstrap)
# fixtures: what tests/fixtures/gen.sh needs to rebuild the committed ELF fixtures
set -eu
want=${1:-test}

# libbpf-dev, clang (-target bpf), bpftool (gen skeleton), linux-libc-dev (UAPI): the BPF engine
# libmicrohttpd-dev: stat --serve; prometheus (with promtool): the test that scrapes it (t2000)
# tmux: the test that drives sdtrace top in a terminal (t2010)
# ruby3.1, php8.2-cli, libvirt0, libvirt-clients (virsh), sssd-common: the runtimes (t22*);
# sssd-proxy: a real sssd with a proxy domain (t2209)
# protobuf-compiler: protoc --decode of report --format=perfetto (t1940)
# python3-cffi, python3-pandas, python3-pytest: the Python module (python/) and its tests
# chromium: the test that opens the flame graph SVG headless (t1960)
# bpfcc-tools: BCC's ucalls and dbslower beside ours (bench/b84, b85); BCC compiles against the
# running kernel's headers, which Debian has only for its own kernels: linux-headers-amd64 gives
# it a 6.1 tree (bench/common.sh: bcc_headers)
build="cmake ninja-build pkg-config gcc libelf-dev libdw-dev libzstd-dev libcdb-dev libcmocka-dev systemtap-sdt-dev libdebuginfod-dev libcapstone-dev scdoc libbpf-dev clang bpftool linux-libc-dev libmicrohttpd-dev"
test="$build lld llvm binutils python3 libclang-rt-14-dev linux-perf bpftrace debuginfod curl iproute2 valgrind prometheus tmux protobuf-compiler chromium postgresql-15 openjdk-17-jdk-headless python3-cffi python3-pandas python3-pytest ruby3.1 php8.2-cli libvirt0 libvirt-clients sssd-common sssd-proxy"
bench="$test hyperfine valgrind strace time bpfcc-tools linux-headers-amd64"
fixtures="$test binutils-s390x-linux-gnu"
deb="$build dpkg-dev debhelper dh-python lintian debootstrap"

case $want in
build) pkgs=$build ;;
test) pkgs=$test ;;
bench) pkgs=$bench ;;
fixtures) pkgs=$fixtures ;;
deb) pkgs=$deb ;;
*) echo "usage: $0 [build|test|bench|fixtures|deb]" >&2; exit 2 ;;
esac

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing packages:$missing" >&2
	echo "install-deps: run as root, or: sudo apt-get install$missing" >&2
	exit 1
fi
echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# An old or empty package list makes apt miss packages: refresh it when it is older than a day.
if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null | head -n 1)" ]; then
	apt-get update -q
fi
apt-get install -y -q --no-install-recommends $missing
