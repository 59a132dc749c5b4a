#!/bin/sh
# Provider type files (share/providers/*.d) against the real binaries of this machine: every probe
# the binary has is declared, every declared probe exists, and for every site the number of
# arguments and every argument's size agree with the note (`sdtrace list -v` prints a "types:"
# line when they do not). A binary that is not installed is skipped loudly; the test skips when
# none is. Also: the search path (--types, the user's directory, the shipped one) and typed specs.
. "$(dirname "$0")/lib.sh"

SHIPPED="$SRC_DIR/share/providers"
need_file "$SDTRACE" "$SHIPPED/python.d"

# Only the files named with --types: not the user's, not the shipped directory.
export SDTRACE_PROVIDERS_DIR="$T/no-shipped"
export XDG_CONFIG_HOME="$T/config"

# The probe names declared in a .d file for provider $2 (one per line, sorted).
declared() {
	awk -v want="$2" '
		/^[ \t]*provider[ \t]/ { prov = $2 }
		prov == want && match($0, /probe[ \t]+[A-Za-z0-9_]+/) {
			s = substr($0, RSTART, RLENGTH); sub(/probe[ \t]+/, "", s); print s
		}' "$1" | sort -u
}

# The probe names of provider $2 in binary $1.
in_binary() {
	"$SDTRACE" list -x "$1" "%$2" | sed 's/.*:%[^:]*://' | sort -u
}

checked=0
# check_pair FILE.d PROVIDER BINARY
check_pair() {
	file=$SHIPPED/$1
	prov=$2
	bin=$3
	if [ ! -e "$bin" ]; then
		say "SKIP: '$bin' is not installed: $1 ($prov) not checked against a binary"
		return 0
	fi
	checked=$((checked + 1))
	declared "$file" "$prov" >"$T/declared"
	in_binary "$bin" "$prov" >"$T/binary"
	check_eq "$prov: $(wc -l <"$T/binary") probes in $(basename "$bin"), all declared in $1" \
		"" "$(comm -13 "$T/declared" "$T/binary" | tr '\n' ' ')"
	check_eq "$prov: every probe declared in $1 is in $(basename "$bin")" \
		"" "$(comm -23 "$T/declared" "$T/binary" | tr '\n' ' ')"
	"$SDTRACE" list -x "$bin" -v --types "$file" "%$prov" >"$T/list" 2>"$T/err"
	check_eq "$prov: list -v --types $1 succeeds" "0" "$?"
	check_eq "$prov: argument counts and sizes agree at every site" \
		"" "$(grep 'types:' "$T/list" | head -n 5)"
	check_eq "$prov: every typed argument can be fetched as typed" \
		"" "$(grep 'unavailable as' "$T/list" | head -n 5)"
	# every argument of every site got a name from the file
	check_eq "$prov: every argument is named" \
		"" "$(grep -E '^    arg[0-9]+  ' "$T/list" | grep -vE '^    arg[0-9]+  [A-Za-z_][A-Za-z0-9_]*:[a-z0-9]+  ' | head -n 5)"
}

check_pair python.d python /usr/bin/python3.11
check_pair postgresql.d postgresql /usr/lib/postgresql/15/bin/postgres
JVM=/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
check_pair hotspot.d hotspot "$JVM"
check_pair hotspot_jni.d hotspot_jni "$JVM"
check_pair libstdcxx.d libstdcxx /usr/lib/x86_64-linux-gnu/libstdc++.so.6
[ "$checked" -gt 0 ] || skip "none of python3.11, postgres 15, OpenJDK 17's libjvm.so, libstdc++.so.6 is installed"

PY=/usr/bin/python3.11
if [ -e "$PY" ]; then
	# What the types change, as list -v shows it.
	"$SDTRACE" list -x "$PY" -v --types "$SHIPPED/python.d" '%python:function__entry' >"$T/list"
	check "python: funcname is fetched as the string %r12 points to" \
		grep -qE '^    arg2  funcname:string  8@%r12 -> \+0\(%r12\):string$' "$T/list"
	check "python: lineno stays s32" \
		grep -qE '^    arg3  lineno:s32  -4@%eax -> %ax:s32$' "$T/list"

	# The check above can fail: a file whose sizes disagree is reported, and not applied.
	printf 'provider python { probe gc__start(long long generation); };\n' >"$T/wrong.d"
	"$SDTRACE" list -x "$PY" -v --types "$T/wrong.d" '%python:gc__start' >"$T/list"
	check "a size that disagrees is reported with file:line, argument and both sizes" \
		grep -qE "types: partly used: .*wrong.d:1: python:gc__start: argument 1 \(generation:s64\) has 8 bytes, but the note's argument '-4@112\(%rsp\)' has 4 bytes" "$T/list"
	check "... and the note's type is used, with the name" \
		grep -qE '^    arg1  generation:s32  -4@112\(%rsp\) -> \+112\(%sp\):s32$' "$T/list"
	printf 'provider python { probe gc__start(int a, int b); };\n' >"$T/count.d"
	"$SDTRACE" list -x "$PY" -v --types "$T/count.d" '%python:gc__start' >"$T/list"
	check "a count that disagrees is reported, and the types not used" \
		grep -q "types: not used: .*count.d:1: python:gc__start is declared with 2 arguments, the note has 1" "$T/list"

	# The search path: no --types, the user's directory, then the shipped one.
	unset SDTRACE_PROVIDERS_DIR
	"$SDTRACE" list -x "$PY" -v '%python:function__entry' >"$T/list"
	check "the shipped directory is used by default" \
		grep -q '^    arg1  filename:string  ' "$T/list"
	mkdir -p "$XDG_CONFIG_HOME/sdtrace/providers"
	printf 'provider python { probe function__entry(char *mine, char *, int); };\n' \
		>"$XDG_CONFIG_HOME/sdtrace/providers/mine.d"
	"$SDTRACE" list -x "$PY" -v '%python:function__entry' >"$T/list"
	check "the user's directory comes before the shipped one" \
		grep -q '^    arg1  mine:string  ' "$T/list"
	printf 'provider python { probe function__entry(char *cli, char *, int); };\n' >"$T/cli.d"
	"$SDTRACE" list -x "$PY" -v --types "$T/cli.d" '%python:function__entry' >"$T/list"
	check "--types comes first" grep -q '^    arg1  cli:string  ' "$T/list"
	printf 'provider python {\n probe broken(;\n};\n' >"$T/broken.d"
	"$SDTRACE" list -x "$PY" -v --types "$T/broken.d" >"$T/list" 2>"$T/err"
	check_eq "a broken type file fails with exit 2 (list's error, as grep)" "2" "$?"
	check "... naming file:line" grep -q "broken.d:2" "$T/err"
	check_fails "a missing --types file fails" "$SDTRACE" list -x "$PY" --types "$T/nope.d"
	export SDTRACE_PROVIDERS_DIR="$T/no-shipped"
	rm -rf "$XDG_CONFIG_HOME"

	# Typed specs: names and types in the pattern win over the files, and are strict.
	"$SDTRACE" list -x "$PY" -v --types "$SHIPPED/python.d" \
		'%python:function__entry(f:string, g, l:x32)' >"$T/list"
	check "spec types: a string" grep -qE '^    arg1  f:string  8@%rbp -> \+0\(%bp\):string$' "$T/list"
	check "spec types: a name alone keeps the note's type" \
		grep -qE '^    arg2  g:u64  8@%r12 -> %r12:u64$' "$T/list"
	check "spec types: hex" grep -qE '^    arg3  l:x32  -4@%eax -> %ax:x32$' "$T/list"
	"$SDTRACE" list -x "$PY" -v '%python:function__entry(a, b, c:string)' >"$T/list" 2>"$T/err"
	check_eq "spec types: a size mismatch fails with exit 2 (list's error)" "2" "$?"
	check "... naming provider:event, the argument and both sizes" \
		grep -q "python:function__entry: argument 3 (c:string) is a string, which needs a 8-byte pointer, but the note's argument '-4@%eax' has 4 bytes" "$T/err"
	"$SDTRACE" list -x "$PY" -v '%python:gc__start(a:nosuch)' >/dev/null 2>"$T/err"
	check_eq "spec types: an unknown type is a usage error" "2" "$?"
	"$SDTRACE" list -x "$PY" -v '%python:gc__start(x
y)' >/dev/null 2>"$T/err"
	check_eq "spec types: a newline in a name is a usage error" "2" "$?"
fi

finish
