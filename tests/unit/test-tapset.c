/* SPDX-License-Identifier: MIT */
/*
 * SystemTap tapsets as a source of argument names: the reader (Debian's shapes, the constructs
 * it passes over, hostile text as FILE:LINE warnings) and struct sdt_types's use of them (a
 * binary matched by path, by its versioned file, after an unexpanded ${prefix}; a provider file
 * of the provider wins).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "scan/tapset.h"
#include "util/internal.h"
#include "sdtrace/sdtrace.h"

struct got {
	struct sdt_tprobe *p[16];
	size_t n;
	char warn[16][512];
	size_t nwarn;
};

static int on_probe(struct sdt_tprobe *p, void *data)
{
	struct got *g = data;

	if (g->n < 16)
		g->p[g->n++] = p;
	else
		sdt_tprobe_free(p);
	return 0;
}

static void on_warn(const char *msg, void *data)
{
	struct got *g = data;

	if (g->nwarn < 16)
		snprintf(g->warn[g->nwarn++], sizeof(g->warn[0]), "%s", msg);
}

static void parse(const char *text, size_t len, struct got *g)
{
	memset(g, 0, sizeof(*g));
	assert_int_equal(sdt_tapset_parse(text, len, "t.stp", on_probe, on_warn, g), 0);
}

static void got_free(struct got *g)
{
	for (size_t i = 0; i < g->n; i++)
		sdt_tprobe_free(g->p[i]);
}

static void test_debian_shapes(void **state)
{
	static const char text[] =
	    "/**\n * probe ruby.array.create - Allocation of new array.\n */\n"
	    "probe ruby.array.create =\n"
	    "      process(\"/usr/lib/x86_64-linux-gnu/libruby-3.1.so\").mark(\"array__create\")\n"
	    "{\n\tsize = $arg1\n\tfile = user_string($arg2)\n\tline = $arg3\n}\n"
	    "# sssd's\n"
	    "probe sdap_search_send = process(\"${prefix}/lib/sssd/libsss_ldap_common.so\")"
	    ".mark(\"sdap_get_generic_ext_send\")\n{\n    base = user_string($arg1);\n"
	    "    scope = $arg2;\n    if ($arg3 == 0) {\n        filter = \"<no filter>\";\n"
	    "    } else {\n        filter = user_string($arg3);\n    }\n"
	    "    value = user_string_n($arg4, $arg5);\n    m = $arg1->x;\n}\n";
	struct got g;

	(void)state;
	parse(text, sizeof(text) - 1, &g);
	assert_int_equal(g.nwarn, 0);
	assert_int_equal(g.n, 2);
	assert_string_equal(g.p[0]->path, "/usr/lib/x86_64-linux-gnu/libruby-3.1.so");
	assert_string_equal(g.p[0]->mark, "array__create");
	assert_int_equal(g.p[0]->line, 5);
	assert_int_equal(g.p[0]->nargs, 3);
	assert_string_equal(g.p[0]->args[0].name, "size");
	assert_false(g.p[0]->args[0].is_string);
	assert_string_equal(g.p[0]->args[1].name, "file");
	assert_true(g.p[0]->args[1].is_string);
	assert_string_equal(g.p[1]->path, "${prefix}/lib/sssd/libsss_ldap_common.so");
	assert_int_equal(g.p[1]->nargs, 4);
	assert_string_equal(g.p[1]->args[0].name, "base");
	assert_string_equal(g.p[1]->args[2].name, "filter"); /* inside the else */
	assert_true(g.p[1]->args[2].is_string);
	assert_string_equal(g.p[1]->args[3].name, "value");
	assert_null(g.p[1]->args[4].name); /* a length, not named */
	got_free(&g);
}

static void test_other_constructs(void **state)
{
	static const char text[] =
	    "global A=1, B=2\nfunction f(x) { return x * 2 }\n"
	    "probe kernel.function(\"do_sys_open\") { name = $arg1 }\n"
	    "probe process(\"/usr/bin/app\").library(\"/lib/libapp.so\").provider(\"app\")"
	    ".mark(\"tick-tock\"),\n      process(\"/usr/bin/app\").mark(\"tock\") ?\n"
	    "{\n\tn = $arg1\n\tm = $arg2 + 1\n\tt = $arg12\n\tn2 = $arg1\n}\n"
	    "probe x += process(\"/bin/x\").mark(\"y\") { v = $arg2 }\n";
	struct got g;

	(void)state;
	parse(text, sizeof(text) - 1, &g);
	assert_int_equal(g.nwarn, 0);
	assert_int_equal(g.n, 3);
	assert_string_equal(g.p[0]->path, "/lib/libapp.so");
	assert_string_equal(g.p[0]->provider, "app");
	assert_string_equal(g.p[0]->mark, "tick__tock");
	assert_int_equal(g.p[0]->nargs, 12);
	assert_string_equal(g.p[0]->args[0].name, "n");
	assert_null(g.p[0]->args[1].name); /* derived */
	assert_string_equal(g.p[0]->args[11].name, "t");
	assert_string_equal(g.p[1]->path, "/usr/bin/app");
	assert_null(g.p[1]->provider);
	assert_string_equal(g.p[2]->mark, "y");
	assert_int_equal(g.p[2]->nargs, 2);
	got_free(&g);
}

static void warns(const char *text, size_t len, const char *want)
{
	struct got g;

	parse(text, len == SIZE_MAX ? strlen(text) : len, &g);
	if (!g.nwarn || !strstr(g.warn[0], want))
		fail_msg("'%.50s': warning '%s', want '%s'", text, g.nwarn ? g.warn[0] : "(none)",
			 want);
	got_free(&g);
}

static void test_hostile(void **state)
{
	static const char nul[] = "probe a = process(\"/b\").mark(\"x\") {\n v = $arg1\n\0 }";
	char *many;
	struct got g;
	size_t i;

	(void)state;
	warns("probe a = process(\"/b\").mark(\"x\") { v = $arg1 }\n/* open", SIZE_MAX,
	      "t.stp:2: a comment is not closed");
	warns(nul, sizeof(nul) - 1, "t.stp:3: a NUL byte");
	warns("probe a = process(\"/b\").mark(\"x\") {\n v = $arg13 }", SIZE_MAX,
	      "t.stp:2: $arg13: an SDT probe has at most 12 arguments");
	warns("probe a = process(\"/b\").mark(\"x y\") { v = $arg1 }", SIZE_MAX,
	      "t.stp:1: mark(\"x y\"): not a name");
	warns("probe a = process(\"/\x1b[2J\").mark(\"x\") { }", SIZE_MAX, "process(\"/?[2J\")");
	warns("probe a = process(\"/b\").mark(\"x\") {{{{", SIZE_MAX, "t.stp:1: the probe's body");
	warns("s = \"open\nprobe", SIZE_MAX, "t.stp:1: a string is not closed");
	/* many problems: ten said, then one that says the rest is not read */
	many = malloc(64 * 100);
	assert_non_null(many);
	for (i = 0, many[0] = '\0'; i < 100; i++)
		strcat(many, "probe a = process(\"/b\").mark(\"x y\") { }\n");
	parse(many, strlen(many), &g);
	assert_int_equal(g.nwarn, 11);
	assert_non_null(strstr(g.warn[10], "the rest is not read"));
	got_free(&g);
	free(many);
}

/* A tapset naming libfix.so's lib:add in directory @dir as @path. */
static void write_tapset(const char *dir, const char *path)
{
	char *f = sdt_asprintf("%s/t.stp", dir);
	FILE *fp = fopen(f, "w");

	assert_non_null(fp);
	fprintf(fp, "probe fix.add = process(\"%s\").mark(\"add\") { a = $arg1; b = $arg2 }\n",
		path);
	fclose(fp);
	free(f);
}

static int resolve_with(const char *dir, const char *lib, const char *dfile, char **name0)
{
	struct sdt_arg_type *types;
	struct sdt_types *t;
	struct sdt_file *f;
	size_t n, i;
	int src = -1;

	*name0 = NULL;
	assert_int_equal(sdt_types__new(&t), 0);
	if (dfile)
		assert_true(sdt_types__load_mem(t, dfile, strlen(dfile), "lib.d") > 0);
	assert_int_equal(sdt_types__load_tapsets(t, dir), 1);
	assert_int_equal(sdt_file__open(lib, NULL, &f), 0);
	for (i = 0; i < sdt_file__site_count(f); i++) {
		const struct sdt_site *s = sdt_file__site(f, i);

		if (strcmp(sdt_site__name(s), "add"))
			continue;
		src = sdt_types__resolve(t, NULL, f, s, &types, &n);
		if (n && types[0].name)
			*name0 = strdup(types[0].name);
		sdt_arg_types__free(types, n);
	}
	sdt_file__free(f);
	sdt_types__free(t);
	return src;
}

static void test_matching(void **state)
{
	char dir[] = "/tmp/sdt-tapset-XXXXXX", *lib, *path, *name;
	FILE *in, *out;
	int c;

	(void)state;
	assert_non_null(mkdtemp(dir));
	lib = sdt_asprintf("%s/libfix.so.1.2", dir);
	in = fopen(FIXTURES_DIR "/libfix.so", "rb");
	out = fopen(lib, "wb");
	assert_true(in && out);
	while ((c = getc(in)) != EOF)
		putc(c, out);
	fclose(in);
	fclose(out);

	write_tapset(dir, lib); /* the path itself */
	assert_int_equal(resolve_with(dir, lib, NULL, &name), SDT_TYPES_TAPSET);
	assert_string_equal(name, "a");
	free(name);
	path = sdt_asprintf("%s/libfix.so", dir); /* the -dev link's name, absent */
	write_tapset(dir, path);
	assert_int_equal(resolve_with(dir, lib, NULL, &name), SDT_TYPES_TAPSET);
	free(name);
	free(path);
	path = sdt_asprintf("${prefix}%s/libfix.so.1.2", strchr(dir + 1, '/'));
	write_tapset(dir, path);
	assert_int_equal(resolve_with(dir, lib, NULL, &name), SDT_TYPES_TAPSET);
	free(name);
	free(path);
	write_tapset(dir, "/elsewhere/libfix.so");
	assert_int_equal(resolve_with(dir, lib, NULL, &name), SDT_TYPES_NONE);
	/* a provider file of the provider wins, even without this probe */
	write_tapset(dir, lib);
	assert_int_equal(resolve_with(dir, lib, "provider lib { probe sub(long x, long y); };",
				      &name),
			 SDT_TYPES_NONE);

	path = sdt_asprintf("%s/t.stp", dir);
	unlink(path);
	free(path);
	unlink(lib);
	rmdir(dir);
	free(lib);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_debian_shapes),
	    cmocka_unit_test(test_other_constructs),
	    cmocka_unit_test(test_hostile),
	    cmocka_unit_test(test_matching),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
