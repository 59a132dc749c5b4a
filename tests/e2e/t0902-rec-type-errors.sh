#!/bin/sh
# Typed specs that cannot be recorded, for record, trace and stat alike (prog-string:
# string:message has 8@%rbx and -4@%r14d):
#  - a type whose size differs from the note's, a string on a 4-byte argument, more names than
#    arguments, a name that collides with an unnamed argument's argN, a broken --types file:
#    runtime errors, exit 1 (the spec is well-formed; the binary disagrees with it), the message
#    names provider:event, the argument and both sizes;
#  - an unknown type, a bad or reserved name, a name used twice: usage errors, exit 2.
# In every case nothing is printed on stdout, the command is never started, and uprobe_events is
# left exactly as it was.
. "$(dirname "$0")/lib.sh"
need_tracefs
P="$PROGS_DIR/prog-string"
need_file "$P" "$SDTRACE"
uprobes_guard "^[p-r]:[^ ]+ $(realpath "$P"):"
cd "$T" || exit 1
export SDTRACE_PROVIDERS_DIR="$T/no-providers"
printf 'provider string {\n\tprobe message(const char *text int length);\n};\n' >broken.d

n=0
# expect CODE SPEC PATTERN... : every command exits CODE, stderr matches each PATTERN (grep -F)
expect() {
	code=$1 spec=$2
	shift 2
	for cmd in record trace stat; do
		n=$((n + 1))
		rm -f ran
		if [ "$cmd" = record ]; then
			extra="-o $T/x$n.data"
		else
			extra=""
		fi
		# shellcheck disable=SC2086
		"$SDTRACE" $cmd $extra -x "$P" $TYPES -e "$spec" -- touch "$T/ran" >out.$n 2>err.$n
		rc=$?
		what="$cmd -e '$spec'${TYPES:+ $TYPES}"
		check_eq "$what: exit $code" "$code" "$rc"
		check_eq "$what: nothing on stdout" "" "$(cat out.$n)"
		check "$what: the command was not started" test ! -e ran
		for pat in "$@"; do
			check "$what: the message says '$pat'" grep -qF -- "$pat" err.$n
		done
	done
}

TYPES=""
expect 1 '%string:message(x:s8)' "string:message: argument 1 (x:s8)" "has 1 bytes" \
	"'8@%rbx' has 8 bytes"
expect 1 '%string:message(msg:string, len:string)' "string:message: argument 2 (len:string)" \
	"8-byte pointer" "'-4@%r14d' has 4 bytes"
expect 1 '%string:message(msg, len:u64)' "argument 2 (len:u64) has 8 bytes" "has 4 bytes"
expect 1 '%string:message(a, b, c)' "string:message" "names 3 arguments" "has 2"
expect 1 '%string:message(arg2)' "string:message" "both named 'arg2'"
expect 2 '%string:message(x:int)' "unknown type 'int' for 'x'"
expect 2 '%string:message(1x)' "'1x' is not a valid argument name"
expect 2 '%string:message(common_pid)' "'common_pid' is not a valid argument name"
expect 2 '%string:message(a, a:u32)' "the name 'a' is used twice"
TYPES="--types $T/broken.d"
expect 1 '%string:message' "broken.d:2"
TYPES="--types $T/missing.d"
expect 1 '%string:message' "missing.d"
uprobes_unchanged
finish
