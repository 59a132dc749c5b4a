# Shared by the tests on real programs (tests/e2e/t10*-real-*.sh), sourced after lib.sh.
#
# Other sdtrace sessions (other tests, other users) may probe the same binary meanwhile and come
# and go, and other tools (perf probe) may add their own; these compare the lines of one binary
# before and after, only those of the groups of our own sdtrace sessions:
#	real_guard BINARY          snapshot now (needs TRACEFS: need_tracefs first)
#	real_unchanged PID...      at the end, PID... being the sdtrace processes the test ran
#	need_jdk                   JDK ($JDK, else OpenJDK 17), JAVA its java, JVM its libjvm.so;
#	                           skips without them
#	real_checks FILE           FILE's lines from a python checker of the recording, "ok NAME"
#	                           and "not ok NAME :: DETAIL", counted as this test's; others said

need_jdk() {
	JDK=${JDK:-/usr/lib/jvm/java-17-openjdk-amd64} # not `java` from PATH: it may be another JDK
	JAVA=$JDK/bin/java
	JVM=$JDK/lib/server/libjvm.so
	[ -x "$JAVA" ] || skip "'$JAVA' is not installed (Debian: openjdk-17-jre-headless)"
	need_file "$JVM"
}

real_guard() {
	_real_pat="^[p-r]:[^ ]+ $1:"
	grep -E "$_real_pat" "$TRACEFS/uprobe_events" >"$T/.real-before" 2>/dev/null || true
}
# _real_filter FILE PID...: FILE's lines without the sdtrace groups of other processes
_real_filter() {
	_f=$1
	shift
	awk -v mine=" $* " '{
		g = $1; sub(/^[p-r]:/, "", g); sub(/\/.*/, "", g)
		if (g ~ /^sdtrace_[0-9]+_/) { split(g, w, "_"); if (index(mine, " " w[2] " ") == 0) next }
		else next
		print }' "$_f"
}
real_unchanged() {
	grep -E "$_real_pat" "$TRACEFS/uprobe_events" >"$T/.real-after" 2>/dev/null || true
	_real_filter "$T/.real-before" "$@" >"$T/.real-before.f"
	_real_filter "$T/.real-after" "$@" >"$T/.real-after.f"
	if cmp -s "$T/.real-before.f" "$T/.real-after.f"; then
		pass "uprobe_events unchanged (the lines on $(echo "$_real_pat" | sed 's/.* //'))"
	else
		fail "uprobe_events unchanged" "$(diff "$T/.real-before.f" "$T/.real-after.f" | head -n 20)"
	fi
}
real_checks() {
	while read -r line; do
		case $line in
		"ok "*) pass "${line#ok }" ;;
		"not ok "*)
			w=${line#not ok }
			fail "${w%% :: *}" "${w#* :: }"
			;;
		*) say "$line" ;;
		esac
	done <"$1"
}
