/* SPDX-License-Identifier: MIT */
/*
 * Can this process record at all? Placing uprobes needs root (or CAP_SYS_ADMIN, with access to
 * tracefs), the BPF engine CAP_BPF and CAP_PERFMON. Asked first, so that an unprivileged user's
 * first error says so, not something about the cache (whose files it would create meanwhile in
 * that user's home).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define CAP_SYS_ADMIN_BIT 21
#define CAP_PERFMON_BIT	  38
#define CAP_BPF_BIT	  39

/* The effective capabilities (/proc/self/status CapEff), or 0 when unreadable. */
static uint64_t effective_caps(void)
{
	char line[256];
	unsigned long long v = 0;
	FILE *fp = fopen("/proc/self/status", "re");

	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "CapEff: %llx", &v) == 1)
			break;
	fclose(fp);
	return v;
}

int cli_check_can_record(const char *cmd)
{
	uint64_t caps;

	if (geteuid() == 0)
		return 0;
	caps = effective_caps();
	if (caps & (1ull << CAP_SYS_ADMIN_BIT) ||
	    (caps & (1ull << CAP_BPF_BIT) && caps & (1ull << CAP_PERFMON_BIT)))
		return 0;
	cli_error("%s needs root: placing uprobes needs root (or CAP_SYS_ADMIN and access to "
		  "tracefs), the BPF engine CAP_BPF and CAP_PERFMON; run it with sudo",
		  cmd);
	return EXIT_RUNTIME;
}
