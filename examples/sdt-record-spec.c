/* SPDX-License-Identifier: MIT */
/*
 * sdt-record-spec: record an event of a command with one call, and count its hits.
 *	sdt-record-spec %example:job__start ./sdt-example 3
 *	%example:job__start: 3 hits
 * An event with no hit gets the library's reason (sdt_recorder__silence()); a launcher (sh -c,
 * a shim) whose execs had none of the events, what it ran (sdt_recorder__exec()):
 *	sdt-record-spec %example:job__start sh -c 'exec true'
 *	sdt-record-spec: '%example:job__start' matches nothing the command ran: /usr/bin/dash -> ...
 * Build: cc -o sdt-record-spec sdt-record-spec.c $(pkg-config --cflags --libs libsdtrace)
 */
#include <stdio.h>
#include <sdtrace/sdtrace.h>

int main(int argc, char **argv)
{
	SDT_OPTS(sdt_recorder_opts, o, .argv = argv + 2, .count_only = true);
	struct sdt_recorder *r = NULL;
	const char *path, *script;
	char why[1024];
	int ret = 1, reason;
	size_t i;

	if (argc < 3) {
		fprintf(stderr, "usage: sdt-record-spec %%provider:event CMD [ARGS...]\n");
		return 2;
	}
	if (sdt_recorder__new(&o, &r) ||
	    sdt_recorder__add_specs(r, (const char **)&argv[1], 1, NULL) < 0 ||
	    sdt_recorder__run(r, NULL)) {
		fprintf(stderr, "sdt-record-spec: %s\n", sdt_errmsg());
		goto out;
	}
	for (i = 0; i < sdt_recorder__event_count(r); i++) {
		const struct sdt_trace_event_desc *d = sdt_recorder__event(r, i);

		printf("%%%s:%s: %llu hits\n", sdt_trace_event_desc__provider(d),
		       sdt_trace_event_desc__name(d),
		       (unsigned long long)sdt_recorder__count(r, i));
		reason = sdt_recorder__silence(r, i, NULL, why, sizeof(why));
		if (reason > 0)
			printf("  %s: %s\n", sdt_silence__key(reason), why);
	}
	if (!sdt_recorder__event_count(r)) {
		/* a launcher, and nothing it exec'd had the event: say what it ran */
		fprintf(stderr, "sdt-record-spec: '%s' matches nothing the command ran", argv[1]);
		for (i = 0; !sdt_recorder__exec(r, i, NULL, &path, &script, NULL); i++)
			fprintf(stderr, "%s%s", i ? " -> " : ": ", script ? script : path);
		fprintf(stderr, "\n");
		goto out;
	}
	ret = 0;
out:
	sdt_recorder__free(r);
	return ret;
}
