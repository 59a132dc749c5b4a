#!/bin/sh
# -a over programs any local user controls (issue 34, defects 5, 10 and 11; root using another
# user's cache).
# - A copy of prog-follow (the -x binary's build-id) started from a directory named with a space,
#   ESC and BEL ("a b<ESC>]0;owned<BEL>"): under tracefs it cannot be armed, and the warning and
#   the end's reason name the path escaped (text-safe.py) and --engine=bpf; under bpf it is
#   armed and its hits recorded.
# - stat -a -x F: a binary with the same provider:event but another build-id (another user's
#   program) is not armed, a copy of F is; stat -a --owner root: a file owned by nobody is not
#   armed; stat -a alone: both count, and the table has a binary column, a row each.
# - a cache directory owned by nobody: root is warned once.
# Both engines: sdtrace record and sdtrace stat under each (e2e/, e2e-bpf/).
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd python3 objcopy readelf
F=$PROGS_DIR/prog-follow
need_file "$F"
cd "$T" || exit 1
uprobes_guard "^[p-r]:[^ ]+ ($PROGS_DIR|$T)/"
SAFE="python3 $SRC_DIR/tests/e2e/text-safe.py"
ESC=$(printf '\033')
BEL=$(printf '\007')

# start SDTRACE_ARGS...: sdtrace in the background (pid in $sd), output in $out.{out,err}, armed
start() {
	$FOREGROUND "$SDTRACE" -v "$@" >"$out.out" 2>"$out.err" &
	sd=$!
	at_exit "kill $sd 2>/dev/null"
	check "$out: sdtrace armed" armed "$sd" "$F"
}
# run PROG N: PROG fires follow:tick N times once go.PROG exists (made by go PROG)
run() {
	rm -f "$T/go.$(basename "$1")"
	FOLLOW_WAIT="$T/go.$(basename "$1")" "$1" "$2" >/dev/null 2>&1 &
	eval "pid_$(basename "$1")=$!"
	at_exit "kill $! 2>/dev/null"
}
go() {
	touch "$T/go.$1"
	eval "wait \$pid_$1"
}
stop() {
	kill -INT "$sd"
	wait "$sd"
	check_eq "$out: sdtrace exit status" 0 $?
}

# ---- a directory named with a space and ESC
D="$T/a b${ESC}]0;owned${BEL}"
mkdir "$D" && cp "$F" "$D/hidden" || exit 1
out=dir
start record -o dir.data -x "$F" -e '%follow:tick' -a
run "$D/hidden" 3
if tracefs_engine; then
	check "tracefs: the hostile directory is not armed, and said" \
		wait_grep dir.err "cannot arm '.*hidden'"
	go hidden
	stop
	check "tracefs: stderr is safe for a terminal" $SAFE dir.err
	check "tracefs: the path escaped" grep -qF 'a b\x1b]0;owned\x07/hidden' dir.err
	check "tracefs: the way out named" grep -q -- '--engine=bpf' dir.err
	check_eq "tracefs: the end's not-armed reason names it too" 2 \
		"$(grep -c -- 'whitespace.*--engine=bpf' dir.err)"
else
	check "bpf: the hostile directory is armed" wait_grep dir.err "armed [0-9]+ events in '.*hidden'"
	go hidden
	stop
	check "bpf: stderr is safe for a terminal" $SAFE dir.err
	check_eq "bpf: its 3 hits recorded" 3 "$("$SDTRACE" report -i dir.data | grep -c 'follow:tick')"
fi

# ---- another binary with the same provider:event: another build-id
printf '\004\000\000\000\024\000\000\000\003\000\000\000GNU\000sdtrace-issue34-other' >note
objcopy --update-section .note.gnu.build-id=note "$F" other || fail "objcopy: another build-id"
cp "$F" copy
check "the other binary has another build-id" test \
	"$(readelf -n other | sed -n 's/.*Build ID: //p')" != \
	"$(readelf -n "$F" | sed -n 's/.*Build ID: //p')"

out=x
start stat -x "$F" -e '%follow:tick' -a
run "$T/other" 5
check "stat -a -x: the other binary passed over" wait_grep x.err "not arming '$T/other': not a copy"
go other
run "$T/copy" 3
check "stat -a -x: the copy armed" wait_grep x.err "armed [0-9]+ events in '$T/copy'"
go copy
stop
check_eq "stat -a -x: the copy's 3 hits, nothing of the other" "3 0" \
	"$(awk -v p="$T/copy" '$2 == "%follow:tick" && $3 == p {print $1}' x.out) $(grep -c other x.out)"

chown nobody other
out=own
start stat --owner root -e '%follow:tick' -a
run "$T/other" 5
check "stat -a --owner root: nobody's file passed over" \
	wait_grep own.err "not arming '$T/other': owned by uid"
go other
run "$T/copy" 3
check "stat -a --owner root: root's armed" wait_grep own.err "armed [0-9]+ events in '$T/copy'"
go copy
stop
check_eq "stat -a --owner root: root's file's 3 hits, nothing of nobody's" "3 0" \
	"$(awk -v p="$T/copy" '$2 == "%follow:tick" && $3 == p {print $1}' own.out) $(grep -c other own.out)"

out=both
start stat -e '%follow:tick' -a
run "$T/other" 5
check "stat -a: the other armed" wait_grep both.err "armed [0-9]+ events in '$T/other'"
go other
run "$T/copy" 3
check "stat -a: the copy armed" wait_grep both.err "armed [0-9]+ events in '$T/copy'"
go copy
stop
check "stat -a: a binary column" grep -qE '^ +count +event +binary$' both.out
check_eq "stat -a: the other's 5 hits on its row" 5 \
	"$(awk -v p="$T/other" '$2 == "%follow:tick" && $3 == p {print $1}' both.out)"
check_eq "stat -a: the copy's 3 on its own" 3 \
	"$(awk -v p="$T/copy" '$2 == "%follow:tick" && $3 == p {print $1}' both.out)"

# ---- a cache another user owns
mkdir ucache && chown nobody ucache
"$SDTRACE" --cache-dir "$T/ucache" cache list >/dev/null 2>uc.err
check "root is warned about nobody's cache" grep -q "the cache '$T/ucache' belongs to uid" uc.err
uprobes_unchanged
finish
