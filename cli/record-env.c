/* SPDX-License-Identifier: MIT */
/* The recorder's test switches from the environment (record-env.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "record-env.h"

/* Set, not empty and not "0". */
static bool env_on(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0");
}

void rec_env_switches(struct sdt_recorder_opts *o)
{
	const char *guard = getenv("SDTRACE_FORK_GUARD");
	const char *rings = getenv("SDTRACE_BPF_RINGBUF");

	o->fork_guard_thread = guard && !strcmp(guard, "thread");
	o->bpf_off = env_on("SDTRACE_BPF_PROBE_FAIL");
	o->bpf_no_multi = env_on("SDTRACE_BPF_NO_MULTI");
	if (env_on("SDTRACE_BPF_RINGBUF"))
		o->bpf_rings =
		    !strcmp(rings, "copied") ? SDT_BPF_RINGS_COPIED : SDT_BPF_RINGS_RINGBUF;
}
