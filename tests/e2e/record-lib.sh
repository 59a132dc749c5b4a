# Shared by the recording tests tests/e2e/t03*.sh (sourced after lib.sh): a target program with
# SDT probes compiled into $T, and the recorder's test driver.
#
#	rt-target N [GO_FILE [EXIT [STOP_FILE]]]
#	  waits until GO_FILE exists (when given), then fires rt:fire N times with
#	  arg1=i arg2=-(i%3)-1 (s8) arg3=3i-7 (s32) arg4=-1000000007*i (s64) arg5=i+1 (a global),
#	  and rt:gated (arg1=i) each time its semaphore is set; creates GO_FILE.fired; waits for
#	  STOP_FILE (when given); prints "sem=<rt:gated's semaphore>"; exits with EXIT
#	  (-1: abort()).

: "${HELPER_DIR:=$BUILD_DIR/tests/helper}"
REC="$HELPER_DIR/sdtrace-test-record"
[ -x "$REC" ] || skip "test driver '$REC' is not built"
need_cmd cc

cat >"$T/rt-target.c" <<'CEOF'
#define _SDT_HAS_SEMAPHORES 1
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <unistd.h>

__extension__ unsigned short rt_fire_semaphore __attribute__((unused, section(".probes")));
__extension__ unsigned short rt_gated_semaphore __attribute__((unused, section(".probes")));
volatile long g_counter;

static void wait_for(const char *path)
{
	while (path && access(path, F_OK) != 0)
		usleep(5000);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10, i;
	const char *go = argc > 2 && argv[2][0] ? argv[2] : NULL;
	int code = argc > 3 ? atoi(argv[3]) : 0;
	const char *stop = argc > 4 ? argv[4] : NULL;
	char fired[4096];

	wait_for(go);
	for (i = 0; i < n; i++) {
		signed char c = (signed char)(-(i % 3) - 1);
		int v = (int)(i * 3 - 7);
		long l = -1000000007L * i;

		g_counter = i + 1;
		STAP_PROBE5(rt, fire, i, c, v, l, g_counter);
		if (__builtin_expect(rt_gated_semaphore, 0))
			STAP_PROBE1(rt, gated, i);
	}
	if (go) {
		snprintf(fired, sizeof(fired), "%s.fired", go);
		fclose(fopen(fired, "w"));
	}
	wait_for(stop);
	printf("sem=%u\n", (unsigned)rt_gated_semaphore);
	fflush(stdout);
	if (code == -1)
		abort();
	return code;
}
CEOF
cc -O2 -g -o "$T/rt-target" "$T/rt-target.c" || skip "cannot compile the target program"
TARGET="$T/rt-target"

# The sample lines rt:fire must give for N firings, sorted.
expected_fire() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++)
		printf "arg1=%d arg2=%d arg3=%d arg4=%s arg5=%d\n", i, -(i % 3) - 1, 3 * i - 7,
			(i ? sprintf("%.0f", -1000000007 * i) : "0"), i + 1 }' | sort
}
# The args of the rt:fire sample lines of file $1, sorted.
actual_fire() {
	grep '^sample rt:fire ' "$1" | sed 's/.* tid=[0-9]* //' | sort
}
# wait_gone PID [SECONDS]: wait (10 s by default) until process PID has ended; 1 if it has not
wait_gone() {
	_wg=0
	while kill -0 "$1" 2>/dev/null && [ "$(ps -o stat= -p "$1" 2>/dev/null | cut -c1)" != Z ] &&
		[ "$_wg" -lt "$((${2:-10} * 10))" ]; do
		sleep 0.1
		_wg=$((_wg + 1))
	done
	! kill -0 "$1" 2>/dev/null || [ "$(ps -o stat= -p "$1" 2>/dev/null | cut -c1)" = Z ]
}
# left_by FILE...: how many uprobe_events lines the sdtrace groups named in the driver's outputs
# FILE... ("event P:N GROUP/EVENT ...") still have; "no group seen" when none was named. Only our
# own groups are counted, so that other sdtrace sessions running meanwhile do not disturb.
left_by() {
	_groups=$(sed -n 's/^event [^ ]* \([^/]*\)\/.*/\1/p' "$@" | sort -u)
	if [ -z "$_groups" ]; then
		echo "no group seen"
		return
	fi
	_n=0
	for _g in $_groups; do
		_n=$((_n + $(grep -c "^[pr]:$_g/" "$TRACEFS/uprobe_events")))
	done
	echo "$_n"
}
