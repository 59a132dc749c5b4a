/* SPDX-License-Identifier: MIT */
/*
 * The environment variables that switch the recorder for tests and benchmarks (sdtrace(1),
 * ENVIRONMENT), mapped to the recorder's options: the library reads no environment.
 */
#ifndef SDTRACE_RECORD_ENV_H
#define SDTRACE_RECORD_ENV_H

#include "sdtrace/sdtrace.h"

/* SDTRACE_FORK_GUARD, SDTRACE_BPF_PROBE_FAIL, SDTRACE_BPF_NO_MULTI, SDTRACE_BPF_RINGBUF -> @o. */
void rec_env_switches(struct sdt_recorder_opts *o);

#endif
