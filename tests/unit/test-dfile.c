/* SPDX-License-Identifier: MIT */
/*
 * DTrace provider files: the parser (declarations, comments, aliases, skipped constructs, hostile
 * input) and struct sdt_types (lookup, first definition wins, files, directories, search path).
 */
#include <errno.h>
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

#include "scan/dfile.h"
#include "util/internal.h"
#include "sdtrace/sdtrace.h"

#define SHIPPED_DIR FIXTURES_DIR "/../../share/providers"

static struct sdt_types *load(const char *text, int want)
{
	struct sdt_types *t;
	int got;

	assert_int_equal(sdt_types__new(&t), 0);
	got = sdt_types__load_mem(t, text, strlen(text), "t.d");
	if (got != want)
		fail_msg("loading gave %d (%s), want %d", got, sdt_errmsg(), want);
	return t;
}

/* Load @text, which must fail with @err and a message containing @msg. */
static void load_fails(const char *text, size_t len, int err, const char *msg)
{
	struct sdt_types *t;
	int got;

	assert_int_equal(sdt_types__new(&t), 0);
	got = sdt_types__load_mem(t, text, len, "bad.d");
	if (got != err)
		fail_msg("'%.60s': %d (%s), want %d", text, got, sdt_errmsg(), err);
	if (msg && !strstr(sdt_errmsg(), msg))
		fail_msg("'%.60s': message '%s' lacks '%s'", text, sdt_errmsg(), msg);
	sdt_types__free(t);
}

/* Look up provider:name and compare its "name:type" list with @want ("a:string b:s32 -:x64"). */
static void expect(const struct sdt_types *t, const char *provider, const char *name,
		   const char *want)
{
	struct sdt_arg_type *types;
	struct sdt_buf b = {0};
	size_t n, i;

	if (sdt_types__lookup(t, provider, name, 8, &types, &n, NULL))
		fail_msg("%s:%s not found", provider, name);
	for (i = 0; i < n; i++) {
		const char *kw = sdt_type__keyword(&types[i]);

		sdt_buf_addf(&b, "%s%s:%s", i ? " " : "", types[i].name ? types[i].name : "-",
			     *kw ? kw : "auto");
	}
	if (strcmp(b.buf ? b.buf : "", want))
		fail_msg("%s:%s: '%s', want '%s'", provider, name, b.buf ? b.buf : "", want);
	sdt_buf_free(&b);
	sdt_arg_types__free(types, n);
}

static void test_basic(void **state)
{
	static const char text[] =
	    "/* A provider file. */\n"
	    "#pragma D option quiet\n"
	    "#define Oid unsigned int\n"
	    "#define LWLockMode int\n"
	    "typedef unsigned long long my_u64;\n"
	    "typedef struct { int a; } skipped_t;\n"
	    "// a line comment: provider fake { probe x(int); };\n"
	    "provider demo {\n"
	    "\tprobe function__entry(const char *filename, const char *, int lineno);\n"
	    "\tprobe function-return(const char *, const char *, int);   /* dash */\n"
	    "\tprobe noargs();\n"
	    "\tprobe voidargs(void);\n"
	    "\tprobe aliases(Oid relid, LWLockMode, my_u64 big);\n"
	    "\tprobe ptrs(void *p, struct foo *s, char **argv, int *ip, void *);\n"
	    "\tprobe arr(char buf[16], int v[]);\n"
	    "\tprobe fnptr(void (*cb)(int, char *), int after);\n"
	    "\tprobe unknown(SomeTypedef x, SomeTypedef);\n"
	    "\tprobe nums(int8_t, uint16_t, int32_t, uint64_t, size_t, ssize_t, pid_t,\n"
	    "\t\t   uintptr_t, bool, float, double, long, unsigned long long);\n"
	    "\tprobe chars(char c, signed char sc, unsigned char uc, short, unsigned short);\n"
	    "\tprobe quals(const volatile int x, char * const p, unsigned);\n"
	    "\tprobe ld(long double x, int y);\n"
	    "};\n"
	    "#pragma D attributes Evolving/Evolving/Common provider demo provider\n"
	    "translator foo_t < struct bar *b > { x = b->x; y = \"};\"; };\n"
	    "inline int DEMO_MAX = 10;\n"
	    "provider other { probe function__entry(int); };\n";
	struct sdt_types *t = load(text, 14);
	struct sdt_arg_type *types;
	const char *origin;
	size_t n;

	(void)state;
	assert_int_equal(sdt_types__count(t), 14);
	expect(t, "demo", "function__entry", "filename:string -:string lineno:s32");
	expect(t, "demo", "function__return", "-:string -:string -:s32");
	expect(t, "demo", "noargs", "");
	expect(t, "demo", "voidargs", "");
	expect(t, "demo", "aliases", "relid:u32 -:s32 big:u64");
	expect(t, "demo", "ptrs", "p:x64 s:x64 argv:x64 ip:x64 -:x64");
	expect(t, "demo", "arr", "buf:string v:x64"); /* char buf[] is a char * */
	expect(t, "demo", "fnptr", "-:x64 after:s32");
	expect(t, "demo", "unknown", "x:auto -:auto");
	expect(t, "demo", "nums",
	       "-:s8 -:u16 -:s32 -:u64 -:u64 -:s64 -:s32 -:u64 -:u8 -:float -:double -:s64 -:u64");
	expect(t, "demo", "chars", "c:char sc:s8 uc:u8 -:s16 -:u16");
	expect(t, "demo", "quals", "x:s32 p:string -:u32");
	expect(t, "demo", "ld", "x:auto y:s32");
	expect(t, "other", "function__entry", "-:s32");
	/* the origin says where the declaration is */
	assert_int_equal(sdt_types__lookup(t, "demo", "noargs", 8, &types, &n, &origin), 0);
	assert_string_equal(origin, "t.d:11");
	sdt_arg_types__free(types, n);
	/* nothing inside comments, translators, or under a different provider */
	assert_int_equal(sdt_types__lookup(t, "fake", "x", 8, &types, &n, NULL), -ENOENT);
	assert_int_equal(sdt_types__lookup(t, "demo", "function-return", 8, &types, &n, NULL),
			 -ENOENT);
	assert_int_equal(sdt_types__lookup(t, "other", "noargs", 8, &types, &n, NULL), -ENOENT);
	/* a 32-bit target */
	assert_int_equal(sdt_types__lookup(t, "demo", "nums", 4, &types, &n, NULL), 0);
	assert_int_equal(types[4].size, 4);  /* size_t */
	assert_int_equal(types[11].size, 4); /* long */
	assert_int_equal(types[3].size, 8);  /* uint64_t */
	sdt_arg_types__free(types, n);
	sdt_types__free(t);
}

static void test_first_wins(void **state)
{
	static const char a[] = "provider p { probe e(int first); probe e(char *second); };";
	static const char b[] = "provider p { probe e(long third); probe f(int); };";
	struct sdt_types *t = load(a, 1);

	(void)state;
	assert_int_equal(sdt_types__load_mem(t, b, strlen(b), "b.d"), 1);
	expect(t, "p", "e", "first:s32");
	expect(t, "p", "f", "-:s32");
	sdt_types__free(t);
}

static void test_bad(void **state)
{
	static const struct {
		const char *text;
		const char *msg;
	} bad[] = {
	    {"provider p { probe e(int); ", "bad.d:1: provider 'p' not closed"},
	    {"provider p {\n probe e(int;\n};", "bad.d:2"},
	    {"provider p { probe e(int) };", "expected ';'"},
	    {"provider p { probe e int; };", "expected '('"},
	    {"provider p { probe (int); };", "probe name"},
	    {"provider { probe e(int); };", "provider name"},
	    {"provider 9p { };", "provider name"},
	    {"provider p { probe e(int a, int a); };", "used twice"},
	    {"provider p { probe e(int common_pid); };", "not valid"},
	    {"provider p { probe e(int, ...); };", "variable arguments"},
	    {"provider p { probe e(int x-y); };", "not a C name"},
	    {"provider p { probe e(\"str\"); };", "unexpected string"},
	    {"provider p { probe e(, int); };", "no type"},
	    {"provider p { probe e(int,); };", "no type"},
	    {"/* never closed", "unterminated comment"},
	    {"provider p { probe e(int); };\n\n}", "bad.d:3: unbalanced '}'"},
	    {"translator x { ( ] };", "does not close"},
	    {"inline int x = 5", "not ended by ';'"},
	    {"provider p { probe e(int); }; \x01", "unexpected byte 0x01"},
	    {"provider p { probe e(int \xc3\xa9); };", "unexpected byte 0xc3"},
	    {"translator t { x = \"never closed\n; };", "unterminated string"},
	    {"provider p { probe e(int a[); };", "bad.d:1"},
	    {"provider p { probe e(int\na b); };", "bad.d:1"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		load_fails(bad[i].text, strlen(bad[i].text), -EINVAL, bad[i].msg);
	/* a NUL byte in the middle */
	load_fails("provider p { probe e(int); };\0provider q {};", 44, -EINVAL, "0x00");
}

/* Names and nesting beyond the caps, and many probes. */
static void test_hostile(void **state)
{
	size_t big = 100000, i, o;
	char *s = malloc(big * 64 + 64);
	struct sdt_types *t;

	(void)state;
	assert_non_null(s);
	/* a huge probe name */
	o = (size_t)sprintf(s, "provider p { probe ");
	memset(s + o, 'a', 5000);
	o += 5000;
	o += (size_t)sprintf(s + o, "(int); };");
	load_fails(s, o, -EINVAL, "longer than 256");
	/* a name of 65..256 bytes: not a valid event name */
	o = (size_t)sprintf(s, "provider p { probe ");
	memset(s + o, 'a', 100);
	o += 100;
	o += (size_t)sprintf(s + o, "(int); };");
	load_fails(s, o, -EINVAL, "probe name");
	/* a huge parameter name, and a long provider name */
	o = (size_t)sprintf(s, "provider p { probe e(int ");
	memset(s + o, 'b', 200);
	o += 200;
	o += (size_t)sprintf(s + o, "); };");
	load_fails(s, o, -EINVAL, "not valid");
	o = (size_t)sprintf(s, "provider ");
	memset(s + o, 'p', 61);
	o += 61;
	o += (size_t)sprintf(s + o, " { probe e(); };");
	load_fails(s, o, -EINVAL, "provider name");
	/* deep nesting */
	o = (size_t)sprintf(s, "translator x ");
	for (i = 0; i < 1000; i++)
		s[o++] = '{';
	for (i = 0; i < 1000; i++)
		s[o++] = '}';
	s[o++] = ';';
	load_fails(s, o, -EINVAL, "nesting deeper than");
	o = (size_t)sprintf(s, "provider p { probe e(");
	for (i = 0; i < 1000; i++)
		s[o++] = '(';
	load_fails(s, o, -EINVAL, "nesting deeper than");
	/* unbalanced braces */
	load_fails("provider p { probe e(int); { };", 31, -EINVAL, "not closed");
	load_fails("}}}}", 4, -EINVAL, "unbalanced");
	/* too many parameters */
	o = (size_t)sprintf(s, "provider p { probe e(");
	for (i = 0; i < 40; i++)
		o += (size_t)sprintf(s + o, "%sint", i ? "," : "");
	o += (size_t)sprintf(s + o, "); };");
	load_fails(s, o, -EINVAL, "more than 32 parameters");
	/* a huge '#' line and a huge type */
	s[0] = '#';
	memset(s + 1, 'x', 10000);
	load_fails(s, 10001, -EINVAL, "longer than");
	o = (size_t)sprintf(s, "provider p { probe e(");
	for (i = 0; i < 40; i++)
		o += (size_t)sprintf(s + o, "const ");
	o += (size_t)sprintf(s + o, "int); };");
	load_fails(s, o, -EINVAL, "too long");
	/* a name with a newline or a space inside is two tokens, never one name */
	load_fails("provider p { probe fun\nction(int); };", 37, -EINVAL, "expected '('");
	load_fails("provider p { probe e(int a b); };", 33, -EINVAL, "bad.d:1");

	/* 10,000 probes (and 100,000), each found */
	o = (size_t)sprintf(s, "provider many {\n");
	for (i = 0; i < big; i++)
		o += (size_t)sprintf(s + o, "probe p%zu(const char *name, int n);\n", i);
	o += (size_t)sprintf(s + o, "};\n");
	assert_int_equal(sdt_types__new(&t), 0);
	assert_int_equal(sdt_types__load_mem(t, s, o, "many.d"), (int)big);
	for (i = 0; i < big; i += 997) {
		char name[32];

		snprintf(name, sizeof(name), "p%zu", i);
		expect(t, "many", name, "name:string n:s32");
	}
	expect(t, "many", "p9999", "name:string n:s32");
	sdt_types__free(t);
	free(s);
}

static char tmpdir[64];

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void test_files(void **state)
{
	char user[256], cfg[256], path[512];
	struct sdt_types *t;
	const char *files[1];

	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test-dfile.XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	/* a directory: *.d in name order; other names ignored */
	write_file(tmpdir, "b.d", "provider p { probe e(long from_b); probe only_b(); };");
	write_file(tmpdir, "a.d", "provider p { probe e(int from_a); };");
	write_file(tmpdir, "c.txt", "provider p { probe txt(); };");
	write_file(tmpdir, ".hidden.d", "provider p { probe hidden(); };");
	assert_int_equal(sdt_types__new(&t), 0);
	assert_int_equal(sdt_types__load_dir(t, tmpdir), 2);
	expect(t, "p", "e", "from_a:s32");
	expect(t, "p", "only_b", "");
	sdt_types__free(t);

	/* errors name the file */
	assert_int_equal(sdt_types__new(&t), 0);
	snprintf(path, sizeof(path), "%s/missing.d", tmpdir);
	assert_int_equal(sdt_types__load_file(t, path), -ENOENT);
	assert_non_null(strstr(sdt_errmsg(), "missing.d"));
	assert_int_equal(sdt_types__load_file(t, tmpdir), -EINVAL);
	write_file(tmpdir, "z.d", "provider p {\n\n probe e(int;\n};");
	snprintf(path, sizeof(path), "%s/z.d", tmpdir);
	assert_int_equal(sdt_types__load_file(t, path), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "z.d:3"));
	assert_int_equal(sdt_types__load_dir(t, tmpdir), -EINVAL);
	unlink(path);
	sdt_types__free(t);

	/* the search path: --types files, then the user's directory, then the shipped one */
	snprintf(cfg, sizeof(cfg), "%s/cfg", tmpdir);
	snprintf(user, sizeof(user), "%s/cfg/sdtrace", tmpdir);
	mkdir(cfg, 0700);
	mkdir(user, 0700);
	snprintf(user, sizeof(user), "%s/cfg/sdtrace/providers", tmpdir);
	mkdir(user, 0700);
	write_file(user, "python.d", "provider python { probe gc__start(int from_user); };");
	write_file(tmpdir, "cli.types",
		   "provider python { probe function__entry(char *f, char *g, int from_cli); };");
	snprintf(path, sizeof(path), "%s/cli.types", tmpdir);
	files[0] = path;
	setenv("XDG_CONFIG_HOME", cfg, 1);
	setenv("SDTRACE_PROVIDERS_DIR", SHIPPED_DIR, 1);
	assert_string_equal(sdt_types__shipped_dir(), SHIPPED_DIR);
	assert_int_equal(sdt_types__new(&t), 0);
	assert_int_equal(sdt_types__load_default(t, files, 1), 0);
	expect(t, "python", "function__entry", "f:string g:string from_cli:s32");
	expect(t, "python", "gc__start", "from_user:s32");
	expect(t, "python", "gc__done", "collected:s64"); /* shipped */
	sdt_types__free(t);

	/* HOME instead of XDG_CONFIG_HOME; missing directories are fine */
	unsetenv("XDG_CONFIG_HOME");
	setenv("HOME", tmpdir, 1);
	setenv("SDTRACE_PROVIDERS_DIR", "/nonexistent", 1);
	assert_int_equal(sdt_types__new(&t), 0);
	assert_int_equal(sdt_types__load_default(t, NULL, 0), 0);
	assert_int_equal(sdt_types__count(t), 0);
	/* a missing --types file is an error */
	snprintf(path, sizeof(path), "%s/nope.d", tmpdir);
	assert_int_equal(sdt_types__load_default(t, files, 1), -ENOENT);
	sdt_types__free(t);
	unsetenv("SDTRACE_PROVIDERS_DIR");

	snprintf(path, sizeof(path), "rm -rf '%s'", tmpdir);
	assert_int_equal(system(path), 0);
}

/* Every shipped file parses, and declares what the e2e test checks against the binaries. */
static void test_shipped(void **state)
{
	static const char *const files[] = {"python.d", "postgresql.d", "hotspot.d",
					    "hotspot_jni.d", "libstdcxx.d"};
	struct sdt_types *t;
	char path[512];
	size_t i;

	(void)state;
	assert_int_equal(sdt_types__new(&t), 0);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", SHIPPED_DIR, files[i]);
		if (sdt_types__load_file(t, path) <= 0)
			fail_msg("%s: %s", path, sdt_errmsg());
	}
	expect(t, "python", "function__entry", "filename:string funcname:string lineno:s32");
	expect(t, "postgresql", "query__start", "query:string");
	expect(t, "postgresql", "buffer__read__start",
	       "fork:s32 block:u32 tablespace:u32 database:u32 relation:u32 backend:s32 "
	       "extend:u8");
	expect(t, "hotspot", "gc__begin", "is_full:u8");
	expect(t, "hotspot_jni", "FindClass__entry", "env:x64 name:string");
	expect(t, "libstdcxx", "throw", "object:x64 tinfo:x64");
	sdt_types__free(t);
}

/* provider:name's notes as "key=text|key=text". */
static void expect_notes(const struct sdt_types *t, const char *provider, const char *name,
			 const char *want)
{
	struct sdt_buf b = {0};
	const char *key, *text;
	size_t i;

	for (i = 0; !sdt_types__note(t, provider, name, i, &key, &text); i++)
		sdt_buf_addf(&b, "%s%s=%s", i ? "|" : "", key, text);
	if (strcmp(b.buf ? b.buf : "", want))
		fail_msg("%s:%s notes: '%s', want '%s'", provider, name, b.buf ? b.buf : "", want);
	sdt_buf_free(&b);
}

/* `@sdtrace KEY: TEXT` comment lines: whose they are, how they continue, what ends them. */
static void test_notes(void **state)
{
	static const char text[] =
	    "/* The file's own comment: @sdtrace in the middle of a line is no note. */\n"
	    "typedef int nothing_t; /* before the typedef: */\n"
	    "/*\n"
	    " * Every probe's:\n"
	    " * @sdtrace fires: only on Tuesdays\n"
	    " */\n"
	    "provider p {\n"
	    "\t/* @sdtrace needs: -XX:+Flag (or -XX:+Other) */\n"
	    "\tprobe a(int x);\n"
	    "\tprobe b(int);\n"
	    "\t/*\n"
	    "\t * Ordinary words first.\n"
	    "\t * @sdtrace needs: a switch whose text runs\n"
	    "\t *   over two lines\n"
	    "\t *\n"
	    "\t * and words after a blank line that are not the note's.\n"
	    "\t * @sdtrace pair:\tc__end\n"
	    "\t */\n"
	    "\tprobe c(int /* @sdtrace inside: the declaration */);\n"
	    "\t// @sdtrace needs: a // comment\n"
	    "\tprobe d();\n"
	    "\t/* @sdtrace needs: before '}', no probe's */\n"
	    "};\n"
	    "/* @sdtrace needs: before a skipped declaration */\n"
	    "inline int N = 5;\n"
	    "provider q { probe e(); };\n";
	struct sdt_types *t = load(text, 5);

	(void)state;
	expect_notes(t, "p", "a", "fires=only on Tuesdays|needs=-XX:+Flag (or -XX:+Other)");
	expect_notes(t, "p", "b", "fires=only on Tuesdays");
	expect_notes(t, "p", "c",
		     "fires=only on Tuesdays|needs=a switch whose text runs over two lines|"
		     "pair=c__end|inside=the declaration");
	expect_notes(t, "p", "d", "fires=only on Tuesdays|needs=a // comment");
	expect_notes(t, "q", "e", "");
	expect(t, "p", "c", "-:s32");
	assert_string_equal(sdt_types__note_text(t, "p", "a", "needs"),
			    "-XX:+Flag (or -XX:+Other)");
	assert_null(sdt_types__note_text(t, "p", "b", "needs"));
	assert_null(sdt_types__note_text(t, "p", "nope", "needs"));
	assert_int_equal(sdt_types__note(t, "p", "a", 2, NULL, NULL), -ENOENT);
	assert_non_null(strstr(sdt_types__origin(t, "p", "a"), "t.d:9"));
	assert_null(sdt_types__origin(t, "p", "nope"));
	sdt_types__free(t);

	/* the first definition wins, notes and all */
	t = load("provider p { /* @sdtrace needs: one */ probe e(); };", 1);
	assert_int_equal(sdt_types__load_mem(
			     t, "provider p { /* @sdtrace needs: two */ probe e(); };", 52, "b.d"),
			 0);
	expect_notes(t, "p", "e", "needs=one");
	sdt_types__free(t);

	/* a category of the provider's, then one of the probe's own (top takes the last) */
	t = load("/* @sdtrace category: method */\n"
		 "provider p { probe e(); /* @sdtrace category: obj_new2 */ probe f(); };",
		 2);
	assert_string_equal(sdt_types__note_text(t, "p", "e", "category"), "method");
	expect_notes(t, "p", "f", "category=method|category=obj_new2");
	sdt_types__free(t);
	t = load("provider p { /* @sdtrace category: abcdefghijklmnop */ probe e(); };", 1);
	assert_string_equal(sdt_types__note_text(t, "p", "e", "category"), "abcdefghijklmnop");
	sdt_types__free(t);
}

/* Malformed notes are FILE:LINE errors; the caps hold. */
static void test_notes_bad(void **state)
{
	static const struct {
		const char *text;
		int err;
		const char *msg;
	} bad[] = {
	    {"provider p {\n/* @sdtrace */ probe e(); };", -EINVAL,
	     "bad.d:2: expected '@sdtrace KEY"},
	    {"provider p { /* @sdtrace needs */ probe e(); };", -EINVAL, "KEY: TEXT"},
	    {"provider p { /* @sdtrace Needs: x */ probe e(); };", -EINVAL, "KEY: TEXT"},
	    {"provider p { /* @sdtrace 1needs: x */ probe e(); };", -EINVAL, "KEY: TEXT"},
	    {"provider p { /* @sdtrace needs: */ probe e(); };", -EINVAL, "'needs' has no text"},
	    {"provider p { /*\n * @sdtrace needs:\n *\n */ probe e(); };", -EINVAL,
	     "bad.d:2: note 'needs' has no text"},
	    {"provider p { /* @sdtrace needs: a\x1b[2Jb */ probe e(); };", -EINVAL,
	     "control byte 0x1b"},
	    {"provider p { /* @sdtrace abcdefghijklmnopqrstuvwxyzabcdefg: x */ probe e(); };",
	     -EINVAL, "KEY: TEXT"},
	    /* a category is one word: a column of top --per-process, a JSON key */
	    {"provider p {\n/* @sdtrace category: two words */ probe e(); };", -EINVAL,
	     "bad.d:2: note 'category' takes one word"},
	    {"provider p { /* @sdtrace category: Method */ probe e(); };", -EINVAL,
	     "'category' takes one word"},
	    {"provider p { /* @sdtrace category: gc-start */ probe e(); };", -EINVAL,
	     "'category' takes one word"},
	    {"provider p { /* @sdtrace category: abcdefghijklmnopq */ probe e(); };", -EINVAL,
	     "'category' takes one word"},
	};
	struct sdt_buf b = {0};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		load_fails(bad[i].text, strlen(bad[i].text), bad[i].err, bad[i].msg);
	/* a key of exactly 32 bytes is fine */
	sdt_types__free(load(
	    "provider p { /* @sdtrace abcdefghijklmnopqrstuvwxyzabcdef: x */ probe e(); };", 1));
	/* 17 notes for one probe (the provider's count) */
	sdt_buf_addstr(&b, "/*\n");
	for (i = 0; i < 9; i++)
		sdt_buf_addf(&b, " * @sdtrace k%zu: v\n", i);
	sdt_buf_addstr(&b, " */\nprovider p {\n/*\n");
	for (i = 0; i < 8; i++)
		sdt_buf_addf(&b, " * @sdtrace j%zu: v\n", i);
	sdt_buf_addstr(&b, " */\nprobe e(); };\n");
	load_fails(b.buf, b.len, -E2BIG, "more than 16 notes");
	sdt_buf_free(&b);
	/* a note longer than 1024 bytes, over many lines */
	sdt_buf_addstr(&b, "provider p { /* @sdtrace needs: x\n");
	for (i = 0; i < 200; i++)
		sdt_buf_addstr(&b, " * abcdefgh\n");
	sdt_buf_addstr(&b, " */ probe e(); };\n");
	load_fails(b.buf, b.len, -EINVAL, "longer than 1024 bytes");
	sdt_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_basic), cmocka_unit_test(test_first_wins),
	    cmocka_unit_test(test_bad),	  cmocka_unit_test(test_hostile),
	    cmocka_unit_test(test_files), cmocka_unit_test(test_shipped),
	    cmocka_unit_test(test_notes), cmocka_unit_test(test_notes_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
