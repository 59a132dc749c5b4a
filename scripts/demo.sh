#!/bin/sh
# The tour that `make demo` runs on the bundled example (examples/sdt-example).
set -eu
build=${1:-build}
sdtrace="$build/sdtrace"
example="$build/examples/sdt-example"

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

step "sdtrace list -x $example"
"$sdtrace" list -x "$example"

step "sdtrace list -x $example -v"
"$sdtrace" list -x "$example" -v

step "sdtrace list -x $example --json '%example:job__*'"
"$sdtrace" list -x "$example" --json '%example:job__*' | python3 -m json.tool | head -n 40
