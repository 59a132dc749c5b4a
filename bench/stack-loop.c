// The traced program of the user-stack benchmark (b92): N hits of one SDT probe, h9stack:hit(i),
// each under a known call chain of 8 of its own frames,
//	main;run;l1_X;l2_X;l3_X;l4_X;l5_X;l6_X     (X = a or b)
// the hit in l6_X. With PATHS 1 every hit takes the a-path (one distinct stack); with PATHS 64
// bit k of i picks l(k+1)_a or l(k+1)_b, so the hits spread evenly over 64 distinct stacks
// (N a multiple of 64: N/64 each). Built with frame pointers (-fno-omit-frame-pointer
// -mno-omit-leaf-frame-pointer -fno-optimize-sibling-calls: every level keeps its frame).
// Like loop.c it times its own loop with clock_gettime (start-up and arming excluded) and writes
// "loop_ns=T n=N paths=P" to OUTFILE (stdout if "-").
// usage: stack-loop N PATHS(1|64) OUTFILE
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <time.h>

static unsigned long paths_mask;

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static void nothing(long i)
{
	(void)i;
}

/* a call after the probe: l6 is no leaf, so it keeps a frame of its own (a leaf gets none, even
 * with -mno-omit-leaf-frame-pointer, and its caller would drop out of the chain) */
static void (*volatile after)(long) = nothing;

/* the bottom of the chain: the probe */
__attribute__((noinline)) void l6_a(long i)
{
	STAP_PROBE1(h9stack, hit, i);
	after(i);
}

__attribute__((noinline)) void l6_b(long i)
{
	STAP_PROBE1(h9stack, hit, i);
	after(i);
}

/* level K calls level K+1's a or b by bit K-1 of i (masked by PATHS) */
#define LEVEL(k, next_a, next_b, bit)                                                              \
	__attribute__((noinline)) void l##k##_a(long i)                                            \
	{                                                                                          \
		if ((unsigned long)i & paths_mask & (1ul << (bit)))                                \
			next_b(i);                                                                 \
		else                                                                               \
			next_a(i);                                                                 \
		__asm__ volatile("" ::: "memory");                                                 \
	}                                                                                          \
	__attribute__((noinline)) void l##k##_b(long i)                                            \
	{                                                                                          \
		if ((unsigned long)i & paths_mask & (1ul << (bit)))                                \
			next_b(i);                                                                 \
		else                                                                               \
			next_a(i);                                                                 \
		__asm__ volatile("" ::: "memory");                                                 \
	}

LEVEL(5, l6_a, l6_b, 5)
LEVEL(4, l5_a, l5_b, 4)
LEVEL(3, l4_a, l4_b, 3)
LEVEL(2, l3_a, l3_b, 2)
LEVEL(1, l2_a, l2_b, 1)

__attribute__((noinline)) void run(long n)
{
	long i;

	for (i = 0; i < n; i++) {
		if ((unsigned long)i & paths_mask & 1ul)
			l1_b(i);
		else
			l1_a(i);
	}
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	unsigned long long t0, t1;
	long n, paths;
	FILE *out;

	if (argc != 4)
		return 2;
	n = atol(argv[1]);
	paths = atol(argv[2]);
	if (paths != 1 && paths != 64)
		return 2;
	paths_mask = paths == 64 ? 63 : 0;
	t0 = now_ns();
	run(n);
	t1 = now_ns();
	out = argv[3][0] == '-' ? stdout : fopen(argv[3], "w");
	if (!out)
		return 1;
	fprintf(out, "loop_ns=%llu n=%ld paths=%ld\n", t1 - t0, n, paths);
	return fclose(out) ? 1 : 0;
}
