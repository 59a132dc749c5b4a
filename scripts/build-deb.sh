#!/bin/bash
# make deb: the Debian packages (debian/) built from this checkout with
# `dpkg-buildpackage -us -uc -b`, in a copy of the tree at OUT/sdtrace (tracked and untracked
# files, not the ignored ones: build trees), so that the packages land in OUT, not beside the
# checkout. Usage: scripts/build-deb.sh OUT [dpkg-buildpackage options]
set -eu
out=${1:?usage: build-deb.sh OUT [dpkg-buildpackage options]}
shift
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/sdtrace"
mkdir -p "$out/sdtrace"
# Only the packages of this run in OUT afterwards.
rm -f "$out"/*.deb "$out"/*.ddeb "$out"/*.buildinfo "$out"/*.changes
(cd "$top" && git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do [ -e "$f" ] || [ -L "$f" ] && printf '%s\0' "$f"; done |
	tar --null -T - -cf -) | tar -xf - -C "$out/sdtrace"
cd "$out/sdtrace"
dpkg-buildpackage -us -uc -b "$@"
echo "build-deb: packages in $out:"
ls "$out"/*.deb
