/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer: the symbolizer (lib/stack) over a hostile ELF/DWARF file. The input is the file a
 * recording's mapping names: written to a scratch path, mapped (by a recording made once, at
 * the start) at 0x400000 from offset 0 in process 1, whose one event has a stack of addresses
 * spread over the first 64 KiB. Every frame the symbolizer gives must have a name, and that
 * name escaped (sdt_escape()) must be safe for a terminal. The cache and debug directories
 * are empty scratch ones; debuginfod is off. Seeds: fuzz/corpus/fuzz-symbolizer/ (small
 * programs with DWARF, one with 1,000 nested inlined subroutines: tests/e2e/deep-dwarf.py).
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sdtrace/sdtrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[] = "/tmp/fuzz-symbolizer.XXXXXX";
static char elf_path[64], rec_path[64], none_path[64];

static const uint64_t ips[] = {0x400000, 0x401000, 0x401040, 0x401130, 0x401139, 0x401200,
			       0x401500, 0x402000, 0x403000, 0x404010, 0x40f000, 0x410000};

/* The scratch directory goes at exit (a crash leaves it: the reproducer is the input). */
static void cleanup(void)
{
	unlink(elf_path);
	unlink(rec_path);
	rmdir(dir);
}

/* The recording, once: one event whose stack is @ips, in a mapping of @elf_path. */
static void make_recording(void)
{
	SDT_OPTS(sdt_trace_writer_opts, o, .cmdline = "fuzz");
	struct sdt_trace_mapping m = {.pid = 1, .start = 0x400000, .len = 0x100000, .path = elf_path};
	struct sdt_trace_sample s = {.time_ns = 1, .pid = 1, .tid = 1};
	struct sdt_trace_event_desc *d = NULL;
	struct sdt_trace_writer *w = NULL;
	unsigned char raw[64];
	int n;

	if (!mkdtemp(dir))
		abort();
	atexit(cleanup);
	snprintf(elf_path, sizeof(elf_path), "%s/elf", dir);
	snprintf(rec_path, sizeof(rec_path), "%s/rec.data", dir);
	snprintf(none_path, sizeof(none_path), "%s/none", dir);
	if (sdt_trace_writer__open(rec_path, &o, &w) < 0 ||
	    sdt_trace_event_desc__new(0, "fz", "hit", NULL, &d) < 0 ||
	    sdt_trace_writer__event(w, d) < 0 ||
	    (n = sdt_trace_event_desc__pack(d, 0, NULL, 0, raw, sizeof(raw))) < 0 ||
	    sdt_trace_writer__mapping(w, &m) < 0)
		abort();
	s.raw = raw;
	s.raw_size = (uint32_t)n;
	s.callchain = ips;
	s.callchain_nr = sizeof(ips) / sizeof(ips[0]);
	if (sdt_trace_writer__sample(w, &s) < 0 || sdt_trace_writer__finish(w, 0) < 0)
		abort();
	sdt_trace_event_desc__free(d);
}

static void check_name(const char *name)
{
	char buf[512];
	size_t i, n, k;

	if (!name)
		__builtin_trap();
	n = sdt_escape(buf, sizeof(buf), name, strlen(name), SDT_ESC_FOLDED);
	if (n >= sizeof(buf))
		n = strlen(buf);
	for (i = 0; i < n; i += k) {
		k = sdt_utf8_len(buf + i, n - i);
		if (!k || (unsigned char)buf[i] < 0x20 || buf[i] == 0x7f || buf[i] == ';' ||
		    ((unsigned char)buf[i] == 0xc2 && (unsigned char)buf[i + 1] < 0xa0))
			__builtin_trap();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	SDT_OPTS(sdt_symbolizer_opts, so, .cache_dir = none_path, .debug_dir = none_path,
		 .no_debuginfod = true);
	const struct sdt_trace_event *ev;
	const struct sdt_frame *fr;
	struct sdt_trace_reader *r = NULL;
	struct sdt_symbolizer *s = NULL;
	int fd, n, i;

	if (!rec_path[0])
		make_recording();
	fd = open(elf_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
	if (sdt_trace_reader__open(rec_path, NULL, &r) < 0)
		abort();
	if (sdt_symbolizer__new(r, &so, &s) < 0)
		abort();
	while (sdt_trace_reader__next(r, &ev) > 0) {
		n = sdt_symbolizer__frames(s, ev, &fr);
		for (i = 0; i < n; i++)
			check_name(fr[i].name);
	}
	sdt_symbolizer__free(s);
	sdt_trace_reader__free(r);
	return 0;
}
