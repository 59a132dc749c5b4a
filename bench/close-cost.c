// Experiment (not part of run.sh; run by bench/x-close-cost.sh): what closing the perf events
// of N uprobe events costs, one after another versus from T threads at once.
// Each last close of a uprobe trace event unregisters its uprobe, and the kernel waits for a
// grace period there; concurrent closes can share grace periods.
// usage: close-cost GROUP N THREADS     (the events GROUP/e0 .. e<N-1> must exist in tracefs)
// Prints "closed N events with T threads in MS ms".
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int *fds;
static int nfds, nthreads;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *closer(void *arg)
{
	long t = (long)arg;

	for (int i = (int)t; i < nfds; i += nthreads)
		close(fds[i]);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[256];
	double t0, t1;

	if (argc != 4)
		return 2;
	nfds = atoi(argv[2]);
	nthreads = atoi(argv[3]);
	if (nfds <= 0 || nthreads <= 0 || nthreads > 256)
		return 2;
	fds = calloc((size_t)nfds, sizeof(*fds));
	if (!fds)
		return 1;
	for (int i = 0; i < nfds; i++) {
		struct perf_event_attr attr;
		char path[256];
		FILE *f;
		long id;

		snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/e%d/id", argv[1], i);
		f = fopen(path, "r");
		if (!f || fscanf(f, "%ld", &id) != 1) {
			perror(path);
			return 1;
		}
		fclose(f);
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_TRACEPOINT;
		attr.config = (unsigned long long)id;
		attr.sample_period = 1;
		fds[i] = (int)syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
		if (fds[i] < 0) {
			perror("perf_event_open");
			return 1;
		}
	}
	t0 = now_ms();
	for (long t = 0; t < nthreads; t++)
		pthread_create(&th[t], NULL, closer, (void *)t);
	for (int t = 0; t < nthreads; t++)
		pthread_join(th[t], NULL);
	t1 = now_ms();
	printf("closed %d events with %d threads in %.1f ms\n", nfds, nthreads, t1 - t0);
	return 0;
}
