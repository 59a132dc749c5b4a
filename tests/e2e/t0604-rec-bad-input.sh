#!/bin/sh
# Bad input to record and stat: an unknown event, an ambiguous one under -a (one provider:event
# in two cached binaries: the error lists both and how to name one), a file that is not ELF, no
# tracefs (a private mount namespace where /sys/kernel is an empty read-only tmpfs; and one
# where only tracefs is hidden, which sdtrace mounts itself), not root (nobody). Each is one
# error line (no usage dump) on stderr, nothing on stdout, exit 1, no data file, and nothing left
# in uprobe_events. Usage errors exit 2.
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd python3
P=$PROGS_DIR
need_file "$P/prog-sizes" "$P/prog-semaphore" "$P/prog-semaphore-nopie"
cd "$T" || exit 1
PAT="^[p-r]:[^ ]+ $PROGS_DIR/"
uprobes_guard "$PAT"

# fails_cleanly NAME EXPECTED_ERROR_REGEX CMD...: exit 1, one error line, no stdout, no file
fails_cleanly() {
	tn=$1
	re=$2
	shift 2
	rm -f "$T/bad.data"
	"$@" >"$T/bad.out" 2>"$T/bad.err"
	check_eq "$tn: exit 1" 1 $?
	check_eq "$tn: one line on stderr" 1 "$(grep -c . "$T/bad.err")"
	check "$tn: the error says why" grep -Eq "^sdtrace: error: $re" "$T/bad.err"
	check_eq "$tn: nothing on stdout" "" "$(cat "$T/bad.out")"
	check "$tn: no data file" test ! -e "$T/bad.data"
	uprobes_unchanged "$tn: uprobe_events unchanged"
}
R="$SDTRACE record -o $T/bad.data"

fails_cleanly "unknown event" "no SDT event matches '%nosuch:event'" \
	$R -e %nosuch:event -- "$P/prog-sizes"
fails_cleanly "unknown event, stat" "no SDT event matches '%nosuch:event'" \
	"$SDTRACE" stat -e %nosuch:event -- "$P/prog-sizes"
fails_cleanly "unknown event in -x" "no SDT event matches .*%sizes:nosuch" \
	$R -x "$P/prog-sizes" -e %sizes:nosuch -- "$P/prog-sizes"
fails_cleanly "unknown event in two -x" "no SDT event matches '%nosuch:\*' in any of the 2 -x" \
	$R -x "$P/prog-sizes" -x "$P/prog-const" -e '%sizes:*' -e '%nosuch:*' -- "$P/prog-sizes"
fails_cleanly "not ELF" "'/etc/passwd': not an ELF file" \
	$R -x /etc/passwd -e %sizes:min -- "$P/prog-sizes"
fails_cleanly "not ELF, stat" "'/etc/passwd': not an ELF file" \
	"$SDTRACE" stat -x /etc/passwd -e %sizes:min -- "$P/prog-sizes"
fails_cleanly "no such file" "cannot open '$T/nosuch'" \
	$R -x "$T/nosuch" -e %sizes:min -- "$P/prog-sizes"

# ambiguous: sem:always is in both programs, both cached; system-wide, nothing says which (with a
# command, its own files do: that one is probed, see t1700-target-resolve)
"$SDTRACE" cache add "$P/prog-semaphore" "$P/prog-semaphore-nopie" >/dev/null 2>&1
$R -e %sem:always -a --duration 1 >bad.out 2>bad.err
check_eq "ambiguous: exit 1" 1 $?
check "ambiguous: says so" grep -q '^sdtrace: error: %sem:always is in 2 binaries:$' bad.err
check "ambiguous: lists the PIE" grep -q "^  $P/prog-semaphore (build-id [0-9a-f]*)$" bad.err
check "ambiguous: lists the non-PIE" grep -q "^  $P/prog-semaphore-nopie (build-id [0-9a-f]*)$" bad.err
check "ambiguous: says how to name one" grep -q "^name one with the binary, e.g. $P/prog-semaphore\(-nopie\)\{0,1\}:%sem:always$" bad.err
check_eq "ambiguous: nothing on stdout" "" "$(cat bad.out)"
check "ambiguous: no data file" test ! -e bad.data
uprobes_unchanged "ambiguous: uprobe_events unchanged"
"$SDTRACE" record -o named.data -e "$P/prog-semaphore-nopie:%sem:always" -- \
	"$P/prog-semaphore-nopie" 2 >named.out 2>named.err
check_eq "ambiguous: the name it suggests records" "2 0" \
	"$("$SDTRACE" report -i named.data | grep -c 'sem:always') $?"
"$SDTRACE" record -o own.data -e %sem:always -- "$P/prog-semaphore-nopie" 2 >own.out 2>own.err
check_eq "not ambiguous with a command: its own binary records" "2 0" \
	"$("$SDTRACE" report -i own.data | grep -c 'sem:always') $?"

# usage errors: exit 2, no usage dump
"$SDTRACE" record -- "$P/prog-sizes" >bad.out 2>bad.err
check_eq "no -e: exit 2" 2 $?
check "no -e: no usage dump" test "$(grep -c . bad.err)" -le 2
"$SDTRACE" record -e %sizes:min >bad.out 2>bad.err
check_eq "nothing to record: exit 2" 2 $?
"$SDTRACE" record -e %sizes:min -a -p 1 >bad.out 2>bad.err
check_eq "-a and -p: exit 2" 2 $?

# what each engine says: tracefs needs tracefs, the BPF engine needs BTF (under /sys/kernel too)
if tracefs_engine; then
	NO_FS="no tracefs with uprobe_events"
else
	NO_FS="the kernel has no BTF"
fi
# not root: said first, before anything else is tried (either engine)
NOT_ROOT="(record|stat) needs root: placing uprobes needs root"
# no tracefs at all, and no place to mount one
if command -v unshare >/dev/null 2>&1 && unshare -m true 2>/dev/null; then
	fails_cleanly "no tracefs, cannot mount" "$NO_FS" \
		unshare -m sh -c 'mount -t tmpfs -o ro none /sys/kernel && exec "$@"' sh \
		$R -x "$P/prog-sizes" -e '%sizes:*' -- "$P/prog-sizes"
	fails_cleanly "no tracefs, cannot mount, stat" "$NO_FS" \
		unshare -m sh -c 'mount -t tmpfs -o ro none /sys/kernel && exec "$@"' sh \
		"$SDTRACE" stat -x "$P/prog-sizes" -e '%sizes:*' -- "$P/prog-sizes"
	# tracefs not mounted (empty dirs over both places): sdtrace mounts it and records
	unshare -m sh -c 'mount -t tmpfs none /sys/kernel/tracing &&
		mount -t tmpfs none /sys/kernel/debug && exec "$@"' sh \
		"$SDTRACE" record -o mounted.data -x "$P/prog-sizes" -e '%sizes:*' -- \
		"$P/prog-sizes" 2 >mounted.out 2>mounted.err
	check_eq "tracefs not mounted: sdtrace mounts it, records, exit 0" 0 $?
	check_eq "tracefs not mounted: every event recorded" 6 \
		"$("$SDTRACE" report -i mounted.data | grep -c sizes:)"
	uprobes_unchanged "tracefs not mounted: uprobe_events unchanged"
else
	say "unshare -m is not available: the no-tracefs cases are not run"
fi

# not root: a copy of sdtrace and the program that nobody can reach (lib.sh: nobody_prepare)
if nobody_prepare "$P/prog-sizes"; then
	N=$(mktemp -d /tmp/sdtrace-t0604-nobody.XXXXXX)
	at_exit "rm -rf $N"
	chmod 777 "$N"
	NB_ENV="HOME=$N SDTRACE_CACHE_DIR=$N/cache"
	# shellcheck disable=SC2086
	fails_cleanly "not root" "$NOT_ROOT" \
		as_nobody $NB_ENV "$NB_SDTRACE" record -o "$N/bad.data" -x "$NB/prog-sizes" \
		-e '%sizes:*' -- "$NB/prog-sizes"
	check "not root: no data file in its directory" test ! -e "$N/bad.data"
	# shellcheck disable=SC2086
	fails_cleanly "not root, stat" "$NOT_ROOT" \
		as_nobody $NB_ENV "$NB_SDTRACE" stat -x "$NB/prog-sizes" -e '%sizes:*' -- \
		"$NB/prog-sizes"
	echo previous >"$N/keep.data"
	chmod 666 "$N/keep.data"
	# shellcheck disable=SC2086
	as_nobody $NB_ENV "$NB_SDTRACE" record -o "$N/keep.data" -x "$NB/prog-sizes" -e '%sizes:*' \
		-- "$NB/prog-sizes" >/dev/null 2>"$N/keep.err"
	check_eq "not root: record fails (exit 1, not 126: it ran)" 1 $?
	check "not root: it says why" grep -q "needs root" "$N/keep.err"
	check_eq "not root: an existing recording is kept as it was" "previous" "$(cat "$N/keep.data")"
	check "not root: no .old left" test ! -e "$N/keep.data.old"
	# the user's own home and cache: the first error is that recording needs root, not the
	# cache, and nothing is left in the home (before: "cannot create the cache directory
	# '/nonexistent/.debug'", and a failed run left ~/.debug's index files)
	for c in record stat; do
		as_nobody env -u SDTRACE_CACHE_DIR HOME=/nonexistent "$NB_SDTRACE" $c -x "$NB/prog-sizes" -e '%sizes:*' -- \
			"$NB/prog-sizes" >/dev/null 2>"$N/home.err"
		check "not root, HOME=/nonexistent, $c: the first error is that it needs root" \
			sh -c "head -n 1 '$N/home.err' | grep -Eq '^sdtrace: error: $c needs root'"
		mkdir -p "$N/home"
		chmod 777 "$N/home"
		as_nobody env -u SDTRACE_CACHE_DIR HOME="$N/home" "$NB_SDTRACE" $c -x "$NB/prog-sizes" -e '%sizes:*' -- \
			"$NB/prog-sizes" >/dev/null 2>&1
		check_eq "not root, $c: nothing left in the user's home" "" "$(ls -A "$N/home")"
	done
else
	say "not root, or setpriv or the user nobody is missing: the not-root cases are not run"
fi
uprobes_unchanged
finish
