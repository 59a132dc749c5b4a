#!/bin/sh
# SPDX-License-Identifier: MIT
# When tracefs cannot be used, the error names the real cause: not root (as the user nobody:
# not an offer to mount it), a missing mount point (a private mount
# namespace whose /sys/kernel is an empty tmpfs: not "needs root" to root), a mount refused to a
# root without CAP_SYS_ADMIN (tracefs unmounted in a private namespace). Each is one error line,
# exit 1, nothing on stdout, and nothing left in uprobe_events. The mounts are only ever changed
# inside `unshare -m`, never on the host.
# Not root is said before an engine is tried, the same on both (cli/privilege.c). Under the BPF
# engine (the e2e-bpf pass) the other cases name its own needs: with /sys/kernel hidden, the
# kernel's BTF; with tracefs unmounted and no CAP_SYS_ADMIN it records, for it does not use tracefs.
. "$(dirname "$0")/lib.sh"
need_tracefs
P=$PROGS_DIR
need_file "$P/prog-sizes"
cd "$T" || exit 1
uprobes_guard

# fails NAME REGEX CMD...: exit 1, one line on stderr matching REGEX, nothing on stdout.
fails() {
	_n=$1 _re=$2
	shift 2
	"$@" >"$T/out" 2>"$T/err"
	check_eq "$_n: exit 1" 1 "$?"
	check_eq "$_n: one line on stderr" 1 "$(grep -c . "$T/err")"
	check "$_n: the cause" grep -Eq "^sdtrace: error: $_re" "$T/err"
	check_eq "$_n: nothing on stdout" "" "$(cat "$T/out")"
}

if tracefs_engine; then
	NO_POINT="no tracefs with uprobe_events \\(tried /sys/kernel/tracing and /sys/kernel/debug/tracing\\): not mounted, and its mount point /sys/kernel/tracing does not exist"
else
	NO_POINT="the kernel has no BTF \\(/sys/kernel/btf/vmlinux\\): the BPF engine needs it \\(--engine=tracefs does not\\)"
fi
# Not root is found before either engine is tried (cli/privilege.c), the same on both
NOT_ROOT="[a-z]+ needs root: placing uprobes needs root \\(or CAP_SYS_ADMIN and access to tracefs\\), the BPF engine CAP_BPF and CAP_PERFMON"

# ---- not root ------------------------------------------------------------------------------
if nobody_prepare "$P/prog-sizes"; then
	N=$(mktemp -d /tmp/sdtrace-t0615-nobody.XXXXXX)
	at_exit "rm -rf $N"
	chmod 777 "$N"
	for cmd in trace stat "record -o $N/x.data"; do
		# shellcheck disable=SC2086
		fails "as nobody: $cmd" "$NOT_ROOT" \
			as_nobody HOME="$N" SDTRACE_CACHE_DIR="$N/cache" "$NB_SDTRACE" $cmd \
			-x "$NB/prog-sizes" -e '%sizes:*' -- "$NB/prog-sizes"
		check "as nobody: $cmd: no offer to mount what is mounted" \
			sh -c "! grep -q mount '$T/err'"
	done
	check "as nobody: no data file" test ! -e "$N/x.data"
else
	say "not root, or setpriv or the user nobody is missing: the not-root cases are not run"
fi

# ---- root, but no place to mount tracefs: the mount point is missing --------------------------
if command -v unshare >/dev/null 2>&1 && unshare -m true 2>/dev/null; then
	fails "no mount point" "$NO_POINT" \
		unshare -m sh -c 'mount -t tmpfs -o ro none /sys/kernel && exec "$@"' sh \
		"$SDTRACE" trace -x "$P/prog-sizes" -e '%sizes:*' -- "$P/prog-sizes"
	check "no mount point: root is not told it needs root" sh -c "! grep -q 'needs root' '$T/err'"
	uprobes_unchanged "no mount point: uprobe_events unchanged"
	# tracefs and debugfs unmounted, and no CAP_SYS_ADMIN to mount them again
	if command -v setpriv >/dev/null 2>&1 && ! tracefs_engine; then
		unshare -m sh -c 'umount /sys/kernel/tracing 2>/dev/null
			umount /sys/kernel/debug/tracing 2>/dev/null
			umount /sys/kernel/debug 2>/dev/null
			exec setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin "$@"' sh \
			"$SDTRACE" trace -x "$P/prog-sizes" -e '%sizes:*' -- "$P/prog-sizes" \
			>"$T/out" 2>"$T/err"
		check_eq "tracefs unmounted: the BPF engine records without it (exit 0)" 0 "$?"
		check_eq "tracefs unmounted: every hit" 3 "$(grep -c '^ *prog-sizes .* sizes:' "$T/out")"
	elif command -v setpriv >/dev/null 2>&1; then
		fails "mount refused" \
			"no tracefs with uprobe_events .*: not mounted, and mounting it was refused" \
			unshare -m sh -c 'umount /sys/kernel/tracing 2>/dev/null
				umount /sys/kernel/debug/tracing 2>/dev/null
				umount /sys/kernel/debug 2>/dev/null
				exec setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin "$@"' sh \
			"$SDTRACE" trace -x "$P/prog-sizes" -e '%sizes:*' -- "$P/prog-sizes"
		check "mount refused: root is not told it needs root" \
			sh -c "! grep -q 'needs root' '$T/err'"
	fi
	uprobes_unchanged "mount refused: uprobe_events unchanged"
else
	say "unshare -m is not available: the mount cases are not run"
fi
uprobes_unchanged
finish
