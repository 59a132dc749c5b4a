/* SPDX-License-Identifier: MIT */
/*
 * The event index: built from entries written the way perf writes them, looked up, and never
 * trusted when missing, corrupt, truncated or older than the cache.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cache/cache_internal.h"
#include "cache/index.h"
#include "tmpdir-test.h"

static char root[256];

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

/* An entry as perf writes it: ROOT/PATH/BID/probes and .build-id/xx/rest -> ../../PATH/BID */
static void perf_entry(const char *path, const char *bid, const char *probes)
{
	sh("mkdir -p '%s%s/%s' '%s/.build-id/%.2s' && printf '%%s' '%s' > '%s%s/%s/probes' && "
	   "ln -s '../..%s/%s' '%s/.build-id/%.2s/%s'",
	   root, path, bid, root, bid, probes, root, path, bid, path, bid, root, bid, bid + 2);
}

static int setup(void **state)
{
	(void)state;
	return tmpdir_make(root, sizeof(root), "index");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove(root);
}

struct vals {
	char v[8][512];
	size_t n;
};

static int collect(const char *val, size_t len, void *ctx)
{
	struct vals *vs = ctx;
	size_t i;

	if (vs->n < 8 && len < 511) {
		memcpy(vs->v[vs->n], val, len);
		for (i = 0; i < len; i++)
			if (!vs->v[vs->n][i])
				vs->v[vs->n][i] = '|';
		vs->v[vs->n][len] = '\0';
		vs->n++;
	}
	return 0;
}

static size_t find(struct sdt_cache *c, const char *key, struct vals *vs, bool *rebuilt)
{
	struct sdt_index *idx;

	memset(vs, 0, sizeof(*vs));
	assert_int_equal(sdt_index_open(c, &idx, rebuilt), 0);
	assert_int_equal(sdt_index_find(idx, key, collect, vs), 0);
	sdt_index_close(idx);
	return vs->n;
}

#define BID1 "1111111111111111111111111111111111111111"
#define BID2 "1122222222222222222222222222222222222222"
#define BID3 "3333333333333333333333333333333333333333"

static void test_lookup_and_freshness(void **state)
{
	struct sdt_cache *c;
	struct vals vs;
	bool rebuilt;

	(void)state;
	assert_int_equal(sdt_cache__open(root, NULL, &c), 0);
	/* empty cache: an index with nothing in it */
	assert_int_equal(find(c, "e:a:b", &vs, &rebuilt), 0);
	assert_true(rebuilt);
	assert_int_equal(find(c, "e:a:b", &vs, &rebuilt), 0);
	assert_false(rebuilt);

	perf_entry("/usr/bin/one", BID1,
		   "%sdt_prov:ev=ev\np:sdt_prov/ev /usr/bin/one:0x10\n"
		   "p:sdt_prov/ev /usr/bin/one:0x20\n%sdt_prov:other=other\n"
		   "p:sdt_prov/other /usr/bin/one:0x30\n");
	/* out of date, not corrupt: built when there was no .build-id at all */
	assert_int_equal(sdt_index_verify(c), -ESTALE);
	/* added behind the index's back, in the same second: still noticed */
	assert_int_equal(find(c, "e:prov:ev", &vs, &rebuilt), 1);
	assert_true(rebuilt);
	assert_string_equal(vs.v[0], BID1 "|/usr/bin/one");
	assert_int_equal(find(c, "p:prov", &vs, &rebuilt), 1);
	assert_false(rebuilt);
	assert_int_equal(find(c, "f:/usr/bin/one", &vs, &rebuilt), 1);
	assert_string_equal(vs.v[0], BID1);
	assert_int_equal(find(c, "b:" BID1, &vs, &rebuilt), 1);

	/* a second entry in the same .build-id/11/ directory */
	perf_entry("/usr/bin/two", BID2, "%sdt_prov:ev=ev\np:sdt_prov/ev /usr/bin/two:0x10\n");
	assert_int_equal(find(c, "e:prov:ev", &vs, &rebuilt), 2);
	assert_true(rebuilt);
	assert_int_equal(find(c, "p:prov", &vs, &rebuilt), 2);
	assert_int_equal(sdt_index_compare(c), 0);

	/* a removed link */
	sh("rm '%s/.build-id/11/%s'", root, BID1 + 2);
	assert_int_equal(find(c, "e:prov:ev", &vs, &rebuilt), 1);
	assert_true(rebuilt);
	assert_string_equal(vs.v[0], BID2 "|/usr/bin/two");
	sdt_cache__free(c);
}

static void test_corrupt_index_is_rebuilt(void **state)
{
	struct sdt_cache *c;
	struct vals vs;
	bool rebuilt;
	struct stat st;

	(void)state;
	assert_int_equal(sdt_cache__open(root, NULL, &c), 0);
	perf_entry("/opt/x", BID3, "%sdt_x:y=y\np:sdt_x/y /opt/x:0x10\n");
	assert_int_equal(find(c, "e:x:y", &vs, &rebuilt), 1);
	assert_int_equal(sdt_index_verify(c), 0);

	/* truncated to half */
	assert_int_equal(stat(strcat(strcpy((char[512]){0}, root), "/" SDT_INDEX_NAME), &st), 0);
	sh("truncate -s %lld '%s/" SDT_INDEX_NAME "'", (long long)st.st_size / 2, root);
	assert_int_not_equal(sdt_index_verify(c), 0);
	assert_int_equal(find(c, "e:x:y", &vs, &rebuilt), 1);
	assert_true(rebuilt);

	/* garbage of the right size */
	sh("head -c %lld /dev/urandom > '%s/" SDT_INDEX_NAME "'", (long long)st.st_size, root);
	assert_int_equal(find(c, "e:x:y", &vs, &rebuilt), 1);
	assert_true(rebuilt);

	/* empty, and a directory planted in its place cannot be replaced: an error, not a crash */
	sh(": > '%s/" SDT_INDEX_NAME "'", root);
	assert_int_equal(find(c, "e:x:y", &vs, &rebuilt), 1);
	assert_true(rebuilt);

	/* a valid CDB of someone else (no magic) */
	sh("rm '%s/" SDT_INDEX_NAME "' && printf '+1,1:a->b\\n\\n' | cdb -c '%s/" SDT_INDEX_NAME
	   "' 2>/dev/null || cp /dev/null '%s/" SDT_INDEX_NAME "'",
	   root, root, root);
	assert_int_equal(find(c, "e:x:y", &vs, &rebuilt), 1);
	assert_true(rebuilt);

	/* probes edited in place (no directory changes): verify trusts it, compare does not */
	sh("printf '%%%%sdt_x:z=z\\np:sdt_x/z /opt/x:0x20\\n' >> '%s/opt/x/%s/probes'", root, BID3);
	assert_int_equal(sdt_index_verify(c), 0);
	assert_int_equal(sdt_index_compare(c), -ESTALE);
	/* an incremental rebuild notices the probes file changed (perf writes it after its link) */
	assert_int_equal(sdt_index_rebuild(c), 0);
	assert_int_equal(sdt_index_compare(c), 0);
	assert_int_equal(sdt_index_rebuild_full(c), 0);
	assert_int_equal(sdt_index_compare(c), 0);
	assert_int_equal(find(c, "e:x:z", &vs, &rebuilt), 1);
	sdt_cache__free(c);
}

/* Links that do not point to ../../PATH/BID (planted, foreign) are never indexed. */
static void test_foreign_links_ignored(void **state)
{
	struct sdt_cache *c;
	struct vals vs;
	bool rebuilt;

	(void)state;
	assert_int_equal(sdt_cache__open(root, NULL, &c), 0);
	sh("mkdir -p '%s/.build-id/44' '%s/etc/x/4444444444444444444444444444444444444444' && "
	   "printf '%%%%sdt_e:v=v\\np:sdt_e/v /etc/x:0x1\\n' > "
	   "'%s/etc/x/4444444444444444444444444444444444444444/probes' && "
	   "ln -s '/etc/x/4444444444444444444444444444444444444444' "
	   "'%s/.build-id/44/44444444444444444444444444444444444444' && "
	   "ln -s '../../etc/../x/4444444444444444444444444444444444444444' "
	   "'%s/.build-id/44/55' && touch '%s/.build-id/44/README' && "
	   "ln -s nowhere '%s/.build-id/44/66666666666666666666666666666666666666'",
	   root, root, root, root, root, root, root);
	assert_int_equal(find(c, "e:e:v", &vs, &rebuilt), 0);
	sdt_cache__free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_lookup_and_freshness, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_corrupt_index_is_rebuilt, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_foreign_links_ignored, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
