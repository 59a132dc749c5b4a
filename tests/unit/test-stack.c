/* SPDX-License-Identifier: MIT */
/*
 * lib/stack without tracefs: a recording written with the public writer whose mapping is this
 * test's own executable segment as the kernel mapped it (/proc/self/maps: a PIE, pgoff != 0)
 * and whose stacks are addresses of this program's functions. The symbolizer must name them
 * with the right offsets (the first frame at ip, return addresses at ip - 1), print a frame of a
 * file it cannot find as [BUILD-ID+0xOFF] and one outside every mapping as [0xIP]; folded
 * stacks count each distinct stack, root first, sorted.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <dlfcn.h>

#include "sdtrace/sdtrace.h"
#include "stack/demangle.h"
#include "tmpdir-test.h"

int stack_test_leaf(int x);
int stack_test_caller(int x);

__attribute__((noinline, used)) int stack_test_leaf(int x)
{
	__asm__ volatile("" ::: "memory");
	return x * 3 + 1;
}

__attribute__((noinline, used)) int stack_test_caller(int x)
{
	__asm__ volatile("" ::: "memory");
	return stack_test_leaf(x) + 2;
}

TMPDIR_FIXTURE("stack")

/* The executable mapping of this program containing @addr (from /proc/self/maps). */
static void self_mapping(uint64_t addr, struct sdt_trace_mapping *m, char *path, size_t size)
{
	char line[4096];
	FILE *f = fopen("/proc/self/maps", "r");
	bool found = false;

	assert_non_null(f);
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char perms[8];
		int n = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &s, &e, perms, &off, &n) < 4 ||
		    !n)
			continue;
		if (addr < s || addr >= e || perms[2] != 'x')
			continue;
		snprintf(path, size, "%s", line + n);
		path[strcspn(path, "\n")] = '\0';
		*m = (struct sdt_trace_mapping){
		    .pid = 100, .start = s, .len = e - s, .pgoff = off, .path = path};
		found = true;
	}
	fclose(f);
	assert_true(found);
}

static void sample(struct sdt_trace_writer *w, const struct sdt_trace_event_desc *d, uint32_t pid,
		   const uint64_t *ips, uint32_t n)
{
	uint8_t raw[256];
	int len = sdt_trace_event_desc__pack(d, ips[0], NULL, 0, raw, sizeof(raw));
	struct sdt_trace_sample s = {.time_ns = 1000,
				     .pid = pid,
				     .tid = pid,
				     .event = 0,
				     .raw = raw,
				     .callchain = ips,
				     .callchain_nr = n};

	assert_true(len > 0);
	s.raw_size = (uint32_t)len;
	assert_int_equal(sdt_trace_writer__sample(w, &s), 0);
}

static const char bogus_bid[] = "00112233445566778899aabbccddeeff00112233";

static void write_recording(const char *path, uint64_t *leaf, uint64_t *caller)
{
	struct sdt_trace_writer *w;
	struct sdt_trace_event_desc *d;
	struct sdt_trace_mapping m, gone;
	char self[4096];

	*leaf = (uint64_t)(uintptr_t)&stack_test_leaf;
	*caller = (uint64_t)(uintptr_t)&stack_test_caller;
	self_mapping(*leaf, &m, self, sizeof(self));
	assert_int_equal(sdt_trace_writer__open(path, NULL, &w), 0);
	assert_int_equal(sdt_trace_event_desc__new(0, "t", "hit", NULL, &d), 0);
	assert_int_equal(sdt_trace_writer__event(w, d), 0);
	assert_int_equal(sdt_trace_writer__mapping(w, &m), 0);
	/* pid 200: a file not to be found anywhere, by a build-id nobody has */
	gone = (struct sdt_trace_mapping){.pid = 200,
					  .start = 0x7f0000000000ull,
					  .len = 0x10000,
					  .pgoff = 0x3000,
					  .build_id = bogus_bid,
					  .path = "/nonexistent/libgone.so"};
	assert_int_equal(sdt_trace_writer__mapping(w, &gone), 0);

	/* the leaf at +4 (the probe ip), its caller's return address at +8, one outside */
	uint64_t a[] = {*leaf + 4, *caller + 8, 0x10};
	uint64_t b[] = {*caller + 4};
	uint64_t c[] = {0x7f0000000123ull};

	sample(w, d, 100, a, 3);
	sample(w, d, 100, a, 3);
	sample(w, d, 100, b, 1);
	sample(w, d, 100, a, 3);
	sample(w, d, 200, c, 1);
	assert_int_equal(sdt_trace_writer__finish(w, 0), 0);
	sdt_trace_event_desc__free(d);
}

static void test_frames(void **state)
{
	struct sdt_symbolizer_opts so = {.sz = sizeof(so), .cache_dir = dir, .debug_dir = dir};
	const struct sdt_trace_event *ev;
	struct sdt_trace_reader *r;
	struct sdt_symbolizer *s;
	const struct sdt_frame *f;
	uint64_t leaf, caller;
	char path[128];
	int n;

	(void)state;
	snprintf(path, sizeof(path), "%s/s.sdt", dir);
	write_recording(path, &leaf, &caller);
	assert_int_equal(sdt_trace_reader__open(path, NULL, &r), 0);
	assert_int_equal(sdt_symbolizer__new(r, &so, &s), 0);

	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	assert_true(sdt_trace_reader__has_stacks(r));
	n = sdt_symbolizer__frames(s, ev, &f);
	assert_int_equal(n, 3);
	assert_string_equal(f[0].name, "stack_test_leaf");
	assert_int_equal(f[0].sym_off, 4);
	assert_int_equal(f[0].ip, leaf + 4);
	assert_false(f[0].inlined);
	assert_non_null(strstr(f[0].path, "test-stack"));
	assert_string_equal(f[1].name, "stack_test_caller");
	assert_int_equal(f[1].sym_off, 8);
	assert_string_equal(f[2].name, "[0x10]");
	assert_null(f[2].sym);
	assert_null(f[2].path);

	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	assert_int_equal(sdt_symbolizer__frames(s, ev, &f), 3);
	assert_string_equal(f[1].name, "stack_test_caller"); /* from the symbolizer's table */
	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	assert_int_equal(sdt_symbolizer__frames(s, ev, &f), 1);
	assert_string_equal(f[0].name, "stack_test_caller");
	assert_int_equal(f[0].sym_off, 4);
	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	assert_int_equal(sdt_symbolizer__frames(s, ev, &f), 1);
	assert_string_equal(f[0].name, "[libgone.so+0x3123]"); /* the file, not the build-id */
	assert_int_equal(f[0].file_off, 0x3123);
	assert_string_equal(f[0].build_id, bogus_bid);
	assert_int_equal(sdt_trace_reader__next(r, &ev), 0);
	sdt_symbolizer__free(s);
	sdt_trace_reader__free(r);
}

static void test_folded(void **state)
{
	struct sdt_symbolizer_opts so = {.sz = sizeof(so), .cache_dir = dir, .debug_dir = dir};
	struct sdt_folded_opts fo = {.sz = sizeof(fo), .symbolizer = &so};
	struct sdt_folded_entry e;
	struct sdt_trace_reader *r;
	struct sdt_folded *f;
	uint64_t leaf, caller;
	char path[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/f.sdt", dir);
	write_recording(path, &leaf, &caller);
	assert_int_equal(sdt_trace_reader__open(path, NULL, &r), 0);
	assert_int_equal(sdt_folded__read(r, &fo, &f), 0);
	sdt_trace_reader__free(r); /* the set owns its strings */
	assert_int_equal(sdt_folded__count(f), 3);
	assert_int_equal(sdt_folded__total(f), 5);
	/* sorted: "t:hit;[0x10];..." < "t:hit;[libgone.so+0x3123]" < "t:hit;stack_test_caller" */
	assert_int_equal(sdt_folded__entry(f, 0, &e), 0);
	assert_string_equal(e.event, "t:hit");
	assert_int_equal(e.depth, 3);
	assert_string_equal(e.frames[0], "[0x10]");
	assert_string_equal(e.frames[1], "stack_test_caller");
	assert_string_equal(e.frames[2], "stack_test_leaf");
	assert_int_equal(e.count, 3);
	assert_int_equal(sdt_folded__entry(f, 1, &e), 0);
	assert_int_equal(e.depth, 1);
	/* the file's name, not its build-id (the widest box of a flame graph) */
	assert_string_equal(e.frames[0], "[libgone.so+0x3123]");
	assert_int_equal(e.count, 1);
	assert_int_equal(sdt_folded__entry(f, 2, &e), 0);
	assert_int_equal(e.depth, 1);
	assert_string_equal(e.frames[0], "stack_test_caller");
	assert_int_equal(e.count, 1);
	assert_int_equal(sdt_folded__entry(f, 3, &e), -ERANGE);
	sdt_folded__free(f);
}

/* A recording without stacks: -ENODATA, said so. */
static void test_no_stacks(void **state)
{
	struct sdt_trace_writer *w;
	struct sdt_trace_event_desc *d;
	struct sdt_trace_reader *r;
	struct sdt_folded *f = (struct sdt_folded *)1;
	uint8_t raw[64];
	char path[128];
	int len;

	(void)state;
	snprintf(path, sizeof(path), "%s/n.sdt", dir);
	assert_int_equal(sdt_trace_writer__open(path, NULL, &w), 0);
	assert_int_equal(sdt_trace_event_desc__new(0, "t", "hit", NULL, &d), 0);
	assert_int_equal(sdt_trace_writer__event(w, d), 0);
	len = sdt_trace_event_desc__pack(d, 0x1234, NULL, 0, raw, sizeof(raw));
	assert_true(len > 0);
	struct sdt_trace_sample s = {.pid = 1, .tid = 1, .raw = raw, .raw_size = (uint32_t)len};
	assert_int_equal(sdt_trace_writer__sample(w, &s), 0);
	assert_int_equal(sdt_trace_writer__finish(w, 0), 0);
	sdt_trace_event_desc__free(d);
	assert_int_equal(sdt_trace_reader__open(path, NULL, &r), 0);
	assert_int_equal(sdt_folded__read(r, NULL, &f), -ENODATA);
	assert_null(f);
	assert_non_null(strstr(sdt_errmsg(), "-g"));
	sdt_trace_reader__free(r);
}

/*
 * An lld-linked library (p_vaddr - p_offset = 0x1000 for its text): dlopen'ed, its mapping as
 * the kernel made it, its functions named at their offsets. Skipped without ld.lld.
 */
static void test_lld_bias(void **state)
{
	struct sdt_symbolizer_opts so = {.sz = sizeof(so), .cache_dir = dir, .debug_dir = dir};
	const struct sdt_trace_event *ev;
	struct sdt_trace_reader *r;
	struct sdt_symbolizer *s;
	struct sdt_trace_writer *w;
	struct sdt_trace_event_desc *d;
	struct sdt_trace_mapping m;
	const struct sdt_frame *f;
	char path[128], lib[4096];
	void *h, *fn, *caller;

	(void)state;
	h = dlopen(PROGS_DIR "/libprog-stack-lld.so", RTLD_NOW);
	if (!h)
		skip(); /* not built: no ld.lld */
	fn = dlsym(h, "stack_lld_fn");
	caller = dlsym(h, "stack_lld_caller");
	assert_non_null(fn);
	assert_non_null(caller);
	self_mapping((uint64_t)(uintptr_t)fn, &m, lib, sizeof(lib));
	assert_non_null(strstr(lib, "libprog-stack-lld.so"));
	uint64_t ips[] = {(uint64_t)(uintptr_t)fn + 2, (uint64_t)(uintptr_t)caller + 6};

	snprintf(path, sizeof(path), "%s/l.sdt", dir);
	assert_int_equal(sdt_trace_writer__open(path, NULL, &w), 0);
	assert_int_equal(sdt_trace_event_desc__new(0, "t", "hit", NULL, &d), 0);
	assert_int_equal(sdt_trace_writer__event(w, d), 0);
	assert_int_equal(sdt_trace_writer__mapping(w, &m), 0);
	sample(w, d, 100, ips, 2);
	assert_int_equal(sdt_trace_writer__finish(w, 0), 0);
	sdt_trace_event_desc__free(d);

	assert_int_equal(sdt_trace_reader__open(path, NULL, &r), 0);
	assert_int_equal(sdt_symbolizer__new(r, &so, &s), 0);
	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	assert_int_equal(sdt_symbolizer__frames(s, ev, &f), 2);
	assert_string_equal(f[0].name, "stack_lld_fn");
	assert_int_equal(f[0].sym_off, 2);
	assert_string_equal(f[1].name, "stack_lld_caller");
	assert_int_equal(f[1].sym_off, 6);
	sdt_symbolizer__free(s);
	sdt_trace_reader__free(r);
	dlclose(h);
}

/* The build-id of @path in hex, by readelf -n (into @out). */
static void build_id_of(const char *path, char *out, size_t size)
{
	char cmd[4200];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "readelf -n '%s' | sed -n 's/.*Build ID: //p'", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(out, (int)size, p));
	out[strcspn(out, "\n")] = '\0';
	pclose(p);
	assert_true(strlen(out) >= 8);
}

/*
 * The program's file moved away (the recorded path is gone): found by build-id in the cache
 * (ROOT/.build-id/xx/rest/elf, a copy) and, for another recording, as a separate debug file
 * only (objcopy --only-keep-debug: DEBUG_DIR/.build-id/xx/rest.debug), as a stripped binary's.
 */
static void test_by_build_id(void **state)
{
	const char *where[] = {"cache", "debug"};
	char self[4096], bid[256], cmd[9000], sub[128], path[160];
	uint64_t leaf = (uint64_t)(uintptr_t)&stack_test_leaf;
	struct sdt_trace_mapping m;
	size_t k;

	(void)state;
	self_mapping(leaf, &m, self, sizeof(self));
	build_id_of(self, bid, sizeof(bid));
	for (k = 0; k < 2; k++) {
		struct sdt_symbolizer_opts so = {.sz = sizeof(so)};
		const struct sdt_trace_event *ev;
		struct sdt_trace_reader *r;
		struct sdt_symbolizer *s;
		struct sdt_trace_writer *w;
		struct sdt_trace_event_desc *d;
		const struct sdt_frame *f;
		uint64_t ips[] = {leaf + 4};

		snprintf(sub, sizeof(sub), "%s/%s", dir, where[k]);
		if (k == 0)
			snprintf(
			    cmd, sizeof(cmd),
			    "mkdir -p '%s/.build-id/%.2s/%s' && cp '%s' '%s/.build-id/%.2s/%s/elf'",
			    sub, bid, bid + 2, self, sub, bid, bid + 2);
		else
			snprintf(cmd, sizeof(cmd),
				 "mkdir -p '%s/.build-id/%.2s' && objcopy --only-keep-debug '%s' "
				 "'%s/.build-id/%.2s/%s.debug'",
				 sub, bid, self, sub, bid, bid + 2);
		assert_int_equal(system(cmd), 0);
		so.cache_dir = k == 0 ? sub : dir;
		so.debug_dir = k == 1 ? sub : dir;
		m.path = "/nonexistent/moved-away";
		m.build_id = bid;
		snprintf(path, sizeof(path), "%s/b%zu.sdt", dir, k);
		assert_int_equal(sdt_trace_writer__open(path, NULL, &w), 0);
		assert_int_equal(sdt_trace_event_desc__new(0, "t", "hit", NULL, &d), 0);
		assert_int_equal(sdt_trace_writer__event(w, d), 0);
		assert_int_equal(sdt_trace_writer__mapping(w, &m), 0);
		sample(w, d, 100, ips, 1);
		assert_int_equal(sdt_trace_writer__finish(w, 0), 0);
		sdt_trace_event_desc__free(d);
		assert_int_equal(sdt_trace_reader__open(path, NULL, &r), 0);
		assert_int_equal(sdt_symbolizer__new(r, &so, &s), 0);
		assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
		assert_int_equal(sdt_symbolizer__frames(s, ev, &f), 1);
		assert_string_equal(f[0].name, "stack_test_leaf");
		assert_int_equal(f[0].sym_off, 4);
		assert_string_equal(f[0].path, "/nonexistent/moved-away");
		sdt_symbolizer__free(s);
		sdt_trace_reader__free(r);
	}
}

/* C++ names as perf prints them; other names are left to the caller. */
static void test_demangle(void **state)
{
	char *d;

	(void)state;
	d = sdt_demangle("_ZN6Thread8call_runEv");
	assert_non_null(d);
	assert_string_equal(d, "Thread::call_run()");
	free(d);
	d = sdt_demangle("_ZL19thread_native_entryP6Thread");
	assert_non_null(d);
	assert_string_equal(d, "thread_native_entry(Thread*)");
	free(d);
	assert_null(sdt_demangle("main"));
	assert_null(sdt_demangle("_Z")); /* not a valid mangled name */
	assert_null(sdt_demangle(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_frames),	cmocka_unit_test(test_folded),
	    cmocka_unit_test(test_no_stacks),	cmocka_unit_test(test_lld_bias),
	    cmocka_unit_test(test_by_build_id),	cmocka_unit_test(test_demangle),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
