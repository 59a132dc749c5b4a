#!/bin/sh
# SPDX-License-Identifier: MIT
# sdtrace list, the command line: text lines that can be given back as patterns, globs and perf's
# sdt_ prefix, -v (sites, arguments, reasons), --json (valid, exactly the documented keys), exit
# codes as grep's (0 something listed, 1 nothing matched, 2 an error, usage errors too), one
# error line per failure, --help, and a closed pipe.
. "$(dirname "$0")/lib.sh"
need_cmd python3
PY=/usr/bin/python3.11
need_file "$PY"
INLINE=$PROGS_DIR/prog-inline
need_file "$INLINE" "$PROGS_DIR/prog-longdouble" "$PROGS_DIR/prog-forms-ld" "$PROGS_DIR/prog-nonotes"

# run OUT ERR ARGS...: sdtrace's stdout, stderr and exit code in files; $rc.
run() {
	_o=$1 _e=$2
	shift 2
	"$SDTRACE" "$@" >"$_o" 2>"$_e"
	rc=$?
}
lines() { wc -l <"$1" | tr -d ' '; }

# ---- text output: PATH:%provider:event, fed back as a pattern ----------------------------------
run "$T/all" "$T/err" list -x "$PY"
check_eq "python: exit 0" 0 "$rc"
check_eq "python: nothing on stderr" "" "$(cat "$T/err")"
check_eq "python: 8 probes, one line each" 8 "$(lines "$T/all")"
check "python: every line is PATH:%provider:event" \
	sh -c "! grep -v '^/usr/bin/python3\.11:%python:[a-z_]*\$' '$T/all'"
check "python: gc__start is listed" grep -qx "$PY:%python:gc__start" "$T/all"
ok=0
while read -r line; do
	"$SDTRACE" list "$line" >"$T/one" 2>&1
	[ "$(cat "$T/one")" = "$line" ] && ok=$((ok + 1))
done <"$T/all"
check_eq "python: each line, given back as a pattern, lists exactly itself" 8 "$ok"

# A path with a space and a quote: printed as it is, given back as a pattern, exact in JSON.
mkdir -p "$T/a dir\"q"
ODD="$T/a dir\"q/prog inline"
cp "$INLINE" "$ODD"
check_eq "odd path: printed as it is" "$ODD:%inline:hit" "$("$SDTRACE" list -x "$ODD" %inline:hit)"
check_eq "odd path: the line given back as a pattern" "$ODD:%inline:hit" \
	"$("$SDTRACE" list "$ODD:%inline:hit")"
check_eq "odd path: --json path" "$ODD" "$("$SDTRACE" list -x "$ODD" --json %inline:hit |
	python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["path"])')"
# A path with ":%" in it: the line still goes back as a pattern (the last ":%" ends the path).
mkdir -p "$T/x:%y"
cp "$INLINE" "$T/x:%y/prog"
check_eq "path with ':%': the line given back as a pattern" "$T/x:%y/prog:%inline:once" \
	"$("$SDTRACE" list "$("$SDTRACE" list -x "$T/x:%y/prog" %inline:once)" 2>&1)"
# A path with parentheses (not a typed argument list) round-trips too.
mkdir -p "$T/app (x86)"
cp "$INLINE" "$T/app (x86)/prog"
check_eq "path with '(...)': the line given back as a pattern" "$T/app (x86)/prog:%inline:once" \
	"$("$SDTRACE" list "$("$SDTRACE" list -x "$T/app (x86)/prog" %inline:once)" 2>&1)"

# One provider:event with three sites is one line (-v shows the three sites).
run "$T/out" "$T/err" list -x "$INLINE"
check_eq "prog-inline: one line per provider:event" \
	"$INLINE:%inline:hit
$INLINE:%inline:once" "$(cat "$T/out")"

# ---- patterns ---------------------------------------------------------------------------------
gc="$PY:%python:gc__done
$PY:%python:gc__start"
check_eq "pattern %python:gc__*" "$gc" "$("$SDTRACE" list -x "$PY" '%python:gc__*')"
check_eq "pattern *:gc__*" "$gc" "$("$SDTRACE" list -x "$PY" '*:gc__*')"
check_eq "pattern python:gc__* (no %)" "$gc" "$("$SDTRACE" list -x "$PY" 'python:gc__*')"
check_eq "pattern sdt_python:gc__start (perf's group)" "$PY:%python:gc__start" \
	"$("$SDTRACE" list -x "$PY" sdt_python:gc__start)"
check_eq "pattern %python alone lists all 8" 8 "$("$SDTRACE" list -x "$PY" %python | wc -l)"
run "$T/out" "$T/err" list -x "$PY" '%python:line__*'
check_eq "pattern %python:line__* matches nothing, exit 1" ":1" "$(cat "$T/out"):$rc"
check_eq "pattern %python:line__* matches nothing, said so" \
	"sdtrace: no SDT event matches '%python:line__*' in '$PY'; did you mean %python:line?" \
	"$(cat "$T/err")"
check_eq "two patterns: the union" "$PY:%python:gc__start
$PY:%python:line" "$("$SDTRACE" list -x "$PY" %python:gc__start %python:line)"
check_eq "pattern with the binary inline" "$PY:%python:gc__start" \
	"$("$SDTRACE" list "$PY:%python:gc__start")"
check_eq "two -x files" "$INLINE:%inline:hit
$INLINE:%inline:once
$PY:%python:gc__start" "$("$SDTRACE" list -x "$INLINE" -x "$PY" '%inline:*' %python:gc__start)"

# A file named twice (-x and inline, or -x twice) is listed once; a pattern naming a binary
# matches in that binary only (two copies of prog-inline, with the same probes).
check_eq "-x P and a pattern P:%prov:ev: P listed once" "$PY:%python:gc__start" \
	"$("$SDTRACE" list -x "$PY" "$PY:%python:gc__start")"
check_eq "-x P twice: listed once" "$PY:%python:line" "$("$SDTRACE" list -x "$PY" -x "$PY" %python:line)"
cp "$INLINE" "$T/copy-a"
cp "$INLINE" "$T/copy-b"
check_eq "patterns naming binaries match in their own binary only" "$T/copy-a:%inline:hit
$T/copy-b:%inline:once" "$("$SDTRACE" list "$T/copy-a:%inline:hit" "$T/copy-b:%inline:once")"
check_eq "-x and patterns with and without a binary" "$T/copy-a:%inline:hit
$T/copy-b:%inline:hit
$T/copy-b:%inline:once" "$("$SDTRACE" list -x "$T/copy-a" "$T/copy-b:%inline:once" %inline:hit)"

# ---- -v: sites and arguments, and why an argument cannot be fetched ----------------------------
run "$T/v" "$T/err" list -x "$INLINE" -v %inline:hit
check_eq "-v: exit 0" 0 "$rc"
check_eq "-v: three sites of inline:hit" 3 "$(grep -c '^  site [123]: address 0x[0-9a-f]*, file offset 0x' "$T/v")"
check_eq "-v: two arguments per site" 6 "$(grep -c '^    arg[12] ' "$T/v")"
check "-v: a register argument and its fetcharg" grep -Eq '^    arg1 +-4@%e[bc]x +%[bc]x:s32' "$T/v"
run "$T/v" "$T/err" list -x "$PROGS_DIR/prog-longdouble" -v
check "-v: a long double on the stack is fetched as its 16 bytes" \
	grep -Eq '^    arg1 +16f@-[0-9]+\(%rbp\) +-[0-9]+\(%bp\):x64\[2\]' "$T/v"
check "-v: the next argument is still fetched" grep -Eq '^    arg2 +-4@-[0-9]+\(%rbp\) +-[0-9]+\(%bp\):s32' "$T/v"
run "$T/v" "$T/err" list -x "$PROGS_DIR/prog-forms-ld" -v
check "-v: a long double in an x87 register is unavailable, with the reason" \
	grep -Eq '^    arg5 +16f@%st +unavailable: .*[a-z]' "$T/v"
check "-v: the argument after it is still fetched" grep -Eq '^    arg6 +-8@%rcx +%cx:s64' "$T/v"
run "$T/v" "$T/err" list -x "$PY" -v %python:gc__start
check "-v: a semaphore and its file offset" \
	grep -Eq '^  site 1: .*, semaphore 0x[0-9a-f]+ \(file offset 0x[0-9a-f]+\)' "$T/v"

# ---- --json --------------------------------------------------------------------------------------
cat >"$T/keys.py" <<'EOS'
import json, sys
SITE = {"provider", "name", "path", "build_id", "address", "file_offset", "semaphore",
        "semaphore_offset", "types_from", "names_from", "args"}
ARG = {"n", "name", "type", "spec", "size", "signed", "float", "fetch", "typed_fetch"}
j = json.load(sys.stdin)
assert isinstance(j, list), "not an array"
assert len(j) == int(sys.argv[1]), f"{len(j)} sites, expected {sys.argv[1]}"
unavail = 0
for s in j:
    assert set(s) == SITE, f"site keys {sorted(s)}"
    assert s["types_from"] in ("none", "spec", "file", "tapset", "probe"), s["types_from"]
    for n, a in enumerate(s["args"], 1):
        want = set(ARG)
        assert a["n"] == n, f"arg {n} numbered {a['n']}"
        if a["fetch"] is None:
            want.add("unavailable")
            assert a["unavailable"], "no reason"
            unavail += 1
        if a["typed_fetch"] is None:
            want.add("typed_unavailable")
            assert a["typed_unavailable"], "no reason"
        assert set(a) == want, f"arg keys {sorted(a)}"
print(unavail)
EOS
run "$T/j" "$T/err" list -x "$PY" --json
check_eq "--json: exit 0" 0 "$rc"
check "--json: valid JSON (python3 -m json.tool)" python3 -m json.tool "$T/j"
check "--json python: 8 sites with exactly the documented keys" python3 "$T/keys.py" 8 <"$T/j"
run "$T/j" "$T/err" list -x "$PROGS_DIR/prog-forms-ld" --json
check_eq "--json long double in %st: 'fetch' null and 'unavailable' given" 1 \
	"$(python3 "$T/keys.py" 1 <"$T/j" 2>&1)"
run "$T/j" "$T/err" list -x "$INLINE" --json %inline:hit
check "--json inline:hit: 3 sites" python3 "$T/keys.py" 3 <"$T/j"
# The names and types -v prints are in the JSON: from the shipped python.d, or from the pattern.
args() { python3 -c 'import json,sys
for a in json.load(sys.stdin)[0]["args"]:
    print(a["n"], a["name"], a["type"], a["fetch"], a["typed_fetch"])' <"$1"; }
run "$T/j" "$T/err" list -x "$PY" --json %python:function__entry
check_eq "--json: names and types of the type file" "1 filename string %bp:u64 +0(%bp):string
2 funcname string %r12:u64 +0(%r12):string
3 lineno s32 %ax:s32 %ax:s32" "$(args "$T/j")"
check_eq "--json: types_from file" file \
	"$(python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["types_from"])' <"$T/j")"
run "$T/v" "$T/err" list -x "$PY" -v %python:function__entry
check_eq "-v: the same names, types and typed fetches" \
	"    arg1  filename:string  8@%rbp -> +0(%bp):string
    arg2  funcname:string  8@%r12 -> +0(%r12):string
    arg3  lineno:s32  -4@%eax -> %ax:s32" "$(grep '^    arg' "$T/v")"
run "$T/j" "$T/err" list -x "$PY" --json '%python:function__entry(f, fn:string, l:x32)'
check_eq "--json: names and types of the pattern (a name alone keeps the note's type)" \
	"1 f u64 %bp:u64 %bp:u64
2 fn string %r12:u64 +0(%r12):string
3 l x32 %ax:s32 %ax:x32" "$(args "$T/j")"
run "$T/j" "$T/err" list -x "$INLINE" --json %inline:once
check_eq "--json, no type file: unnamed, the note's type" "1 None s64 %R:s64 %R:s64" \
	"$(args "$T/j" | sed 's/%[a-z0-9]*/%R/g')"
run "$T/j" "$T/err" list -x "$PY" --json '%nothing:*'
check_eq "--json, nothing matches: an empty array" "[]" "$(tr -d ' \n' <"$T/j")"

# ---- files without probes, missing files, non-ELF files -----------------------------------------
run "$T/out" "$T/err" list -x "$PROGS_DIR/prog-nonotes"
check_eq "no notes: exit 1 (nothing listed)" 1 "$rc"
check_eq "no notes: nothing on stdout" "" "$(cat "$T/out")"
check_eq "no notes: says so on stderr" "sdtrace: '$PROGS_DIR/prog-nonotes' has no SDT probes" \
	"$(cat "$T/err")"
run "$T/out" "$T/err" list -x "$T/missing"
check_eq "missing file: exit 2" 2 "$rc"
check_eq "missing file: nothing on stdout" "" "$(cat "$T/out")"
check_eq "missing file: one error line" 1 "$(lines "$T/err")"
check "missing file: the error names the file" grep -q "^sdtrace: error: .*'$T/missing'" "$T/err"
printf 'not an ELF file\n' >"$T/text"
run "$T/out" "$T/err" list -x "$T/text"
check_eq "non-ELF file: exit 2" 2 "$rc"
check_eq "non-ELF file: one error line" 1 "$(lines "$T/err")"
check "non-ELF file: the error names the file" grep -q "^sdtrace: error: .*'$T/text'" "$T/err"
run "$T/out" "$T/err" list -x "$T/missing" -x "$PY" %python:gc__start
check_eq "missing file then a good one: exit 2, the good one still listed" \
	"2 $PY:%python:gc__start" "$rc $(cat "$T/out")"
run "$T/out" "$T/err" list -x "$T"
check_eq "a directory: its binaries listed (none here has notes), exit 0" 0 "$rc"

# ---- usage errors: exit 2, nothing on stdout ----------------------------------------------------
for args in "-x $PY a\ b" "-x $PY %py:x:y:z" "-p notanumber" "-p 0" "-p 1 -x $PY" "-x" \
	"--no-such-option -x $PY"; do
	eval "run \"\$T/out\" \"\$T/err\" list $args"
	check_eq "usage error 'list $args': exit 2" 2 "$rc"
	check_eq "usage error 'list $args': nothing on stdout" "" "$(cat "$T/out")"
	check "usage error 'list $args': a message on stderr" test -s "$T/err"
done
# With neither -x nor -p, list reads the cache (SDTRACE_CACHE_DIR=$T/cache, empty here).
run "$T/out" "$T/err" list
check_eq "no -x/-p: the (empty) cache, exit 1" "1:" "$rc:$(cat "$T/out")"

# ---- help ----------------------------------------------------------------------------------------
run "$T/help" "$T/err" list --help
check_eq "--help: exit 0" 0 "$rc"
check "--help: usage on stdout" grep -q '^usage: sdtrace list -x PATH' "$T/help"
check_eq "--help: nothing on stderr" "" "$(cat "$T/err")"
run "$T/help2" "$T/err" help list
check_eq "help list: exit 0" 0 "$rc"
check "'sdtrace help list' prints the same as 'list --help'" cmp "$T/help" "$T/help2"

# ---- a closed pipe: no message ----------------------------------------------------------------
JVM=/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
[ -f "$JVM" ] || JVM=$PROGS_DIR/libprog-lib.so
for opt in "" "-v" "--json"; do
	{
		"$SDTRACE" list -x "$JVM" $opt 2>"$T/err"
		echo $? >"$T/rc"
	} | head -c 1 >"$T/first"
	check_eq "closed pipe ($opt): no message on stderr" "" "$(cat "$T/err")"
	check_eq "closed pipe ($opt): the output began" 1 "$(wc -c <"$T/first" | tr -d ' ')"
	# SIGPIPE ignored: the write fails with EPIPE, which is not worth a message either.
	(
		trap '' PIPE
		{
			"$SDTRACE" list -x "$JVM" $opt 2>"$T/err"
			echo $? >"$T/rc"
		} | head -c 1 >/dev/null
	)
	check_eq "closed pipe, SIGPIPE ignored ($opt): no message on stderr" "" "$(cat "$T/err")"
done
finish
