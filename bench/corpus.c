// The template of the cache benchmarks' corpus (bench/gen-corpus.sh). It is compiled once to
// assembly with the placeholders PROV=h9cPROVX and SEED=987654321; each binary n then gets its
// own provider name (h9c<n>) and constant (n) in that assembly, and is assembled and linked
// (no libc: the binaries are only scanned and cached, never run), so every binary has its own
// notes, code and build-id. Four events (ev_a .. ev_d), as in /work/shared/perf-anchor.md §3.
#include <sys/sdt.h>

volatile long corpus_sink;

void _start(void);

void _start(void)
{
	long v = corpus_sink;

	STAP_PROBE1(PROV, ev_a, v + SEED);
	STAP_PROBE2(PROV, ev_b, v, SEED);
	STAP_PROBE1(PROV, ev_c, v * 2);
	STAP_PROBE3(PROV, ev_d, v, v + 1, SEED);
	corpus_sink = v + SEED;
	for (;;)
		__asm__ volatile("mov $60, %%eax\n\txor %%edi, %%edi\n\tsyscall" ::
				     : "rax", "rdi", "memory");
}
