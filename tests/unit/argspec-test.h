/* SPDX-License-Identifier: MIT */
/*
 * Table-driven checks of the argument parsers (lib/scan/arch/) and the render stage (lib/scan/argspec.c),
 * shared by tests/unit/test-argspec-*.c.
 *
 * A case is one argument spec and what must come out of it: the kind, the fetcharg (or, when the
 * argument is unavailable, a substring of the reason), and optionally the registers, the symbol
 * and the offset. Symbols are "resolved" the way the scanner does it: the symbol's value is
 * SYM_VALUE, so ->sym_addr = SYM_VALUE + ->offset, and the render context's text bias is
 * TEXT_BIAS: a global at SYM_VALUE renders as @+0x3010.
 *
 * Every case is also checked for what must hold for *any* input: exactly one of ->fetch and
 * ->unavailable, a fetcharg made only of the characters fetchargs use, and every register in it
 * (and in ->reg / ->index_reg) one of the architecture's pt_regs names. The robustness pass feeds
 * every prefix of every case, and copies with one byte changed, through the same checks.
 */
#ifndef ARGSPEC_TEST_H
#define ARGSPEC_TEST_H

#include <elf.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "scan/arch/arch.h"
#include "scan/argspec.h"

#define SYM_VALUE 0x4010ULL
#define TEXT_BIAS 0x1000ULL

#define AUT_COUNT(a) (sizeof(a) / sizeof((a)[0]))

struct arg_case {
	const char *spec;
	enum sdt_arg_kind kind;
	const char *fetch;  /* the expected fetcharg; NULL: the argument must be unavailable */
	const char *why;    /* fetch == NULL: a substring of ->unavailable (NULL: any reason) */
	const char *symbol; /* the expected ->symbol; NULL: there must be none */
	const char *reg;    /* when set: the expected ->reg */
	const char *index;  /* when set: the expected ->index_reg */
	uint8_t scale;	    /* when index is set: the expected ->scale */
	bool unresolved;    /* leave the symbol unresolved (as if the file did not define it) */
	bool check_offset;  /* compare ->offset with .offset */
	int64_t offset;
};

/* An architecture under test: its table entry, ELF class and the pt_regs names it may produce. */
struct arch_under_test {
	const struct sdt_arch *arch;
	int elfclass;
	const char *const *regs; /* NULL-terminated */
};

static const char *const aut_regs_x86_64[]
    __attribute__((unused)) = {"ax", "bx", "cx",  "dx",	 "si",	"di",  "bp",  "sp",  "ip",
			       "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", NULL};
static const char *const aut_regs_i386[]
    __attribute__((unused)) = {"ax", "bx", "cx", "dx", "si", "di", "bp", "sp", "ip", NULL};
static const char *const aut_regs_aarch64[] __attribute__((unused)) = {
    "x0",  "x1",  "x2",	 "x3",	"x4",  "x5",  "x6",  "x7",  "x8",  "x9",  "x10",
    "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21",
    "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "x30", "sp",  NULL};
static const char *const aut_regs_arm[]
    __attribute__((unused)) = {"r0", "r1",  "r2", "r3", "r4", "r5", "r6", "r7", "r8",
			       "r9", "r10", "fp", "ip", "sp", "lr", "pc", NULL};
static const char *const aut_regs_ppc[] __attribute__((unused)) = {
    "gpr0",  "gpr1",  "gpr2",  "gpr3",	"gpr4",	 "gpr5",  "gpr6",  "gpr7",  "gpr8",
    "gpr9",  "gpr10", "gpr11", "gpr12", "gpr13", "gpr14", "gpr15", "gpr16", "gpr17",
    "gpr18", "gpr19", "gpr20", "gpr21", "gpr22", "gpr23", "gpr24", "gpr25", "gpr26",
    "gpr27", "gpr28", "gpr29", "gpr30", "gpr31", NULL};
static const char *const aut_regs_s390[]
    __attribute__((unused)) = {"r0", "r1",  "r2",  "r3",  "r4",	 "r5",	"r6",  "r7", "r8",
			       "r9", "r10", "r11", "r12", "r13", "r14", "r15", NULL};
static const char *const aut_regs_riscv[]
    __attribute__((unused)) = {"ra",  "sp", "gp", "tp", "t0", "t1", "t2", "t3", "t4", "t5", "t6",
			       "s0",  "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10",
			       "s11", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", NULL};

static inline bool aut_known_reg(const struct arch_under_test *t, const char *name, size_t len)
{
	const char *const *r;

	for (r = t->regs; *r; r++) {
		if (strlen(*r) == len && !strncmp(*r, name, len))
			return true;
	}
	return false;
}

/*
 * What must hold for any argument after parse + render; prints what is wrong and returns false.
 * A fetcharg may only hold [A-Za-z0-9%+-():@/\\] and every %NAME must be a pt_regs name; the
 * one array type a long double is fetched with (":x64[2]", ":x32[4]") may end it.
 */
static inline bool aut_sane(const struct arch_under_test *t, const struct sdt_arg *a,
			    const char *what)
{
	const char *p, *end = NULL;
	size_t flen = a->fetch ? strlen(a->fetch) : 0;

	if (flen > 7 && (!strcmp(a->fetch + flen - 7, ":x64[2]") ||
			 !strcmp(a->fetch + flen - 7, ":x32[4]")))
		end = a->fetch + flen - 3;
	if (!a->fetch == !a->unavailable) {
		print_error("%s: fetch '%s' and unavailable '%s': exactly one must be set\n", what,
			    a->fetch ? a->fetch : "(null)",
			    a->unavailable ? a->unavailable : "(null)");
		return false;
	}
	if (a->unavailable && !a->unavailable[0]) {
		print_error("%s: empty reason\n", what);
		return false;
	}
	if (a->reg[0] && !aut_known_reg(t, a->reg, strlen(a->reg))) {
		print_error("%s: ->reg '%s' is not a pt_regs name of %s\n", what, a->reg,
			    t->arch->name);
		return false;
	}
	if (a->index_reg[0] && !aut_known_reg(t, a->index_reg, strlen(a->index_reg))) {
		print_error("%s: ->index_reg '%s' is not a pt_regs name\n", what, a->index_reg);
		return false;
	}
	for (p = a->fetch; p && *p && p != end; p++) {
		if (strchr("%+-():@/\\", *p) || (*p >= 'a' && *p <= 'z') ||
		    (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))
			continue;
		print_error("%s: fetcharg '%s' holds byte 0x%02x\n", what, a->fetch,
			    (unsigned char)*p);
		return false;
	}
	for (p = a->fetch ? strchr(a->fetch, '%') : NULL; p; p = strchr(p + 1, '%')) {
		size_t len = strcspn(p + 1, ":)");

		if (!aut_known_reg(t, p + 1, len)) {
			print_error("%s: fetcharg '%s' names a register %s does not have\n", what,
				    a->fetch, t->arch->name);
			return false;
		}
	}
	return true;
}

/* Parse and render one spec as the scanner would; returns 0 or the error of a stage. */
static inline int aut_parse_render(const struct arch_under_test *t, const char *spec, bool resolve,
				   struct sdt_arg *a)
{
	struct sdt_render_ctx rc = {.text_bias = TEXT_BIAS, .have_text_bias = true};
	int err;

	memset(a, 0, sizeof(*a));
	err = sdt_arg_parse(t->arch, t->elfclass, spec, a);
	if (err)
		return err;
	if (resolve && (a->kind == SDT_ARG_GLOBAL || a->kind == SDT_ARG_ADDR) && a->symbol &&
	    !a->sym_resolved) {
		a->sym_resolved = true;
		a->sym_addr = SYM_VALUE + (uint64_t)a->offset;
	}
	return sdt_arg_render(t->arch, t->elfclass, a, &rc);
}

static inline bool aut_str_eq(const char *got, const char *want)
{
	if (!got || !want)
		return got == want;
	return !strcmp(got, want);
}

/* One case; prints every mismatch (so a failing table names each bad spec) and returns false. */
static inline bool aut_check(const struct arch_under_test *t, const struct arg_case *c)
{
	struct sdt_arg a;
	char what[200];
	bool ok = true;
	int err;

	snprintf(what, sizeof(what), "%s '%s'", t->arch->name, c->spec);
	err = aut_parse_render(t, c->spec, !c->unresolved, &a);
	if (err) {
		print_error("%s: parse/render returned %d\n", what, err);
		sdt_arg_release(&a);
		return false;
	}
	if (!aut_sane(t, &a, what))
		ok = false;
	if (!aut_str_eq(a.spec, c->spec)) {
		print_error("%s: ->spec is '%s'\n", what, a.spec ? a.spec : "(null)");
		ok = false;
	}
	if (a.kind != c->kind) {
		print_error("%s: kind %d, want %d (%s)\n", what, a.kind, c->kind,
			    a.unavailable ? a.unavailable : "");
		ok = false;
	}
	if (c->fetch && !aut_str_eq(a.fetch, c->fetch)) {
		print_error("%s: fetch '%s', want '%s' (%s)\n", what, a.fetch ? a.fetch : "(null)",
			    c->fetch, a.unavailable ? a.unavailable : "");
		ok = false;
	}
	if (!c->fetch) {
		if (a.fetch) {
			print_error("%s: fetch '%s', want unavailable\n", what, a.fetch);
			ok = false;
		} else if (c->why && !strstr(a.unavailable, c->why)) {
			print_error("%s: reason '%s' does not mention '%s'\n", what, a.unavailable,
				    c->why);
			ok = false;
		}
	}
	if (!aut_str_eq(a.symbol, c->symbol)) {
		print_error("%s: symbol '%s', want '%s'\n", what, a.symbol ? a.symbol : "(null)",
			    c->symbol ? c->symbol : "(null)");
		ok = false;
	}
	if (c->reg && strcmp(a.reg, c->reg)) {
		print_error("%s: reg '%s', want '%s'\n", what, a.reg, c->reg);
		ok = false;
	}
	if (c->index && (strcmp(a.index_reg, c->index) || a.scale != c->scale)) {
		print_error("%s: index '%s' scale %u, want '%s' scale %u\n", what, a.index_reg,
			    a.scale, c->index, c->scale);
		ok = false;
	}
	if (c->check_offset && a.offset != c->offset) {
		print_error("%s: offset %lld, want %lld\n", what, (long long)a.offset,
			    (long long)c->offset);
		ok = false;
	}
	sdt_arg_release(&a);
	return ok;
}

/* Run a table; the number of failing cases. */
static inline int aut_run(const struct arch_under_test *t, const struct arg_case *cases, size_t n)
{
	int failed = 0;
	size_t i;

	for (i = 0; i < n; i++)
		failed += !aut_check(t, &cases[i]);
	return failed;
}

/* Specs that no architecture accepts: each must be SDT_ARG_INVALID with a reason. */
static const char *const aut_bad_everywhere[] __attribute__((unused)) = {
    "4@",   "3@x0",  "0@5",   "32@5",	"4x@5",	  "@5",	 "-@5",	  "4@ 5", "-4@ 5",
    "4@5 ", "4@\n5", "4@5\n", "4@[",	"4@(",	  "4@)", "4@,",	  "4@%",  "4@$",
    "4@#",  "4@@",   "4@!",   "4@\x01", "4@\xff", "4@-", "4@--5", "4@5-", "4@99999999999999999999",
    "4@0x", "4@\t",  "",
};

/* Malformed specs of one architecture plus aut_bad_everywhere: all must be invalid. */
static inline int aut_run_invalid(const struct arch_under_test *t, const char *const *specs,
				  size_t n)
{
	int failed = 0;
	size_t i;

	for (i = 0; i < n + AUT_COUNT(aut_bad_everywhere); i++) {
		const char *spec = i < n ? specs[i] : aut_bad_everywhere[i - n];
		struct arg_case c = {.spec = spec, .kind = SDT_ARG_INVALID};

		failed += !aut_check(t, &c);
	}
	return failed;
}

/*
 * Hostile input: every prefix of every case, and every case with one byte replaced by each of a
 * few troublemakers, must parse without error (other than ENOMEM) and come out sane.
 */
static inline int aut_run_mutations(const struct arch_under_test *t, const struct arg_case *cases,
				    size_t n)
{
	static const char bytes[] = {' ', '\n', '\t', '%', '(', ')', '[', ']', ',', '#',    '@',
				     '-', '+',	':',  '$', '0', '9', 'x', 'z', '.', '\x7f', '\xff'};
	int failed = 0;
	size_t i, j, k;

	for (i = 0; i < n; i++) {
		size_t len = strlen(cases[i].spec);
		char buf[256];

		if (len >= sizeof(buf))
			continue;
		for (j = 0; j <= len; j++) {
			for (k = 0; k <= sizeof(bytes); k++) {
				struct sdt_arg a;
				char what[300];

				memcpy(buf, cases[i].spec, len + 1);
				if (k == sizeof(bytes))
					buf[j] = '\0'; /* a prefix */
				else if (j < len)
					buf[j] = bytes[k];
				else
					continue;
				snprintf(what, sizeof(what), "%s mutation '%s'", t->arch->name,
					 buf);
				if (aut_parse_render(t, buf, true, &a)) {
					print_error("%s: error\n", what);
					failed++;
				} else if (!aut_sane(t, &a, what)) {
					failed++;
				}
				sdt_arg_release(&a);
			}
		}
	}
	return failed;
}

/* 10 KB of pseudo-random bytes (no NUL), and of printable garbage: invalid, never a crash. */
static inline int aut_run_garbage(const struct arch_under_test *t)
{
	static const char printable[] = "%$()[],#:@+-xX09 azAZ_.;!~";
	size_t size = 10 * 1024, i, round;
	uint32_t seed = 12345;
	int failed = 0;
	char *buf = malloc(size + 3);

	if (!buf)
		return 1;
	for (round = 0; round < 8; round++) {
		struct sdt_arg a;
		char what[64];

		/* "8@" + garbage: the operand parser sees all of it */
		buf[0] = '8';
		buf[1] = '@';
		for (i = 2; i < size + 2; i++) {
			seed = seed * 1103515245u + 12345u;
			if (round & 1)
				buf[i] = printable[(seed >> 16) % (sizeof(printable) - 1)];
			else
				buf[i] = (char)(1 + (seed >> 16) % 255);
		}
		buf[size + 2] = '\0';
		snprintf(what, sizeof(what), "%s garbage round %zu", t->arch->name, round);
		if (aut_parse_render(t, buf, true, &a)) {
			print_error("%s: error\n", what);
			failed++;
		} else if (!aut_sane(t, &a, what)) {
			failed++;
		} else if (a.kind != SDT_ARG_INVALID) {
			print_error("%s: kind %d, want invalid\n", what, a.kind);
			failed++;
		}
		sdt_arg_release(&a);
	}
	free(buf);
	return failed;
}

#endif
