/* SPDX-License-Identifier: MIT */
/*
 * The strict grammar of a user probe's arguments. A user's string ends up inside a line of
 * uprobe_events and of the cache's `probes` file, so anything we do not know to be a fetcharg
 * is refused here: no space, no newline, no second `p:` line can get through.
 *
 *	arg    := NAME '=' fetch [':' type]
 *	fetch  := '%' REG | ('+'|'-') NUM '(' fetch ')' | '$stack' [DIGITS] | '$comm' | '$retval'
 *	        | '\' ['-'] NUM | '@+' NUM
 *	type   := base ['[' DIGITS ']'] | 'string' | 'ustring' | 'b' W '@' O '/' S
 *	base   := ('u'|'s'|'x') ('8'|'16'|'32'|'64')
 *	NUM    := DIGITS | '0x' HEXDIGITS
 *
 * Registers are the kernel's pt_regs names (regs_query_register_offset()) of the binary's
 * architecture: x86_64 `ax`, not `rax`.
 */
#include <elf.h>
#include <string.h>

#include "util/internal.h"
#include "cache/userprobe.h"

static const char *const regs_x86_64[] = {
    "ax", "bx", "cx", "dx", "si",  "di",  "bp",	 "sp",	"ip",  "flags", "orig_ax",
    "cs", "ss", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",	NULL,
};
static const char *const regs_i386[] = {
    "ax",    "bx",	"cx", "dx", "si", "di", "bp", "sp", "ip",
    "flags", "orig_ax", "cs", "ss", "ds", "es", "fs", "gs", NULL,
};
static const char *const regs_arm[] = {
    "r0", "r1",	 "r2", "r3", "r4", "r5", "r6", "r7", "r8",
    "r9", "r10", "fp", "ip", "sp", "lr", "pc", NULL,
};
static const char *const regs_riscv[] = {
    "zero", "ra", "sp",	 "gp",	"tp", "t0", "t1", "t2", "s0",  "s1", "a0", "a1",
    "a2",   "a3", "a4",	 "a5",	"a6", "a7", "s2", "s3", "s4",  "s5", "s6", "s7",
    "s8",   "s9", "s10", "s11", "t3", "t4", "t5", "t6", "epc", NULL,
};

static bool in_table(const char *const *t, const char *reg, size_t len)
{
	for (; *t; t++) {
		if (strlen(*t) == len && !memcmp(*t, reg, len))
			return true;
	}
	return false;
}

/* "x0".."x30" style: @prefix then 0..@max, no leading zero */
static bool numbered(const char *reg, size_t len, const char *prefix, unsigned int max)
{
	size_t pl = strlen(prefix), i;
	unsigned int v = 0;

	if (len <= pl || len > pl + 2 || memcmp(reg, prefix, pl))
		return false;
	if (reg[pl] == '0' && len > pl + 1)
		return false;
	for (i = pl; i < len; i++) {
		if (reg[i] < '0' || reg[i] > '9')
			return false;
		v = v * 10 + (unsigned int)(reg[i] - '0');
	}
	return v <= max;
}

bool sdt_uprobe_reg_valid(const char *reg, size_t len, unsigned int machine, int elfclass)
{
	switch (machine) {
	case EM_X86_64:
		return in_table(elfclass == ELFCLASS64 ? regs_x86_64 : regs_i386, reg, len);
	case EM_386:
		return in_table(regs_i386, reg, len);
	case EM_AARCH64:
		return numbered(reg, len, "x", 30) || (len == 2 && !memcmp(reg, "sp", 2)) ||
		       (len == 2 && !memcmp(reg, "pc", 2));
	case EM_ARM:
		return in_table(regs_arm, reg, len);
	case EM_PPC:
	case EM_PPC64:
		return numbered(reg, len, "gpr", 31);
	case EM_S390:
		return numbered(reg, len, "r", 15);
	case EM_RISCV:
		return in_table(regs_riscv, reg, len);
	default:
		return false;
	}
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_xdigit(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* NUM: decimal (at most 20 digits) or 0x-hex (at most 16 digits); advances *p */
static bool parse_num(const char **p)
{
	const char *s = *p;
	size_t n = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		while (is_xdigit(s[n]))
			n++;
		if (!n || n > 16)
			return false;
	} else {
		while (is_digit(s[n]))
			n++;
		if (!n || n > 20)
			return false;
	}
	*p = s + n;
	return true;
}

static bool parse_fetch(const char **p, unsigned int machine, int elfclass, bool is_return,
			int depth, const char **why)
{
	const char *s = *p;

	switch (*s) {
	case '%': {
		size_t len = 0;

		s++;
		while ((s[len] >= 'a' && s[len] <= 'z') || is_digit(s[len]) || s[len] == '_')
			len++;
		if (!len || !sdt_uprobe_reg_valid(s, len, machine, elfclass)) {
			*why = "not a register of the binary's architecture (pt_regs names: %di, "
			       "not %rdi)";
			return false;
		}
		*p = s + len;
		return true;
	}
	case '+':
	case '-':
		s++;
		if (!parse_num(&s) || *s != '(') {
			*why = "a dereference is +OFFSET(FETCH)";
			return false;
		}
		if (depth >= SDT_UPROBE_MAX_DEPTH) {
			*why = "dereferences nested too deep";
			return false;
		}
		s++;
		if (!parse_fetch(&s, machine, elfclass, is_return, depth + 1, why))
			return false;
		if (*s != ')') {
			*why = "a dereference is +OFFSET(FETCH)";
			return false;
		}
		*p = s + 1;
		return true;
	case '$':
		if (!strncmp(s, "$stack", 6)) {
			size_t n = 0;

			s += 6;
			while (is_digit(s[n]))
				n++;
			if (n > 4 || (n > 1 && s[0] == '0')) {
				*why = "$stackN takes N up to 9999";
				return false;
			}
			*p = s + n;
			return true;
		}
		if (!strncmp(s, "$comm", 5)) {
			*p = s + 5;
			return true;
		}
		if (!strncmp(s, "$retval", 7)) {
			if (!is_return) {
				*why = "$retval needs a return probe (SYMBOL%return)";
				return false;
			}
			*p = s + 7;
			return true;
		}
		*why = "unknown $variable (known: $stackN, $stack, $comm, $retval)";
		return false;
	case '\\':
		s++;
		if (*s == '-')
			s++;
		if (!parse_num(&s)) {
			*why = "an immediate is \\NUMBER";
			return false;
		}
		*p = s;
		return true;
	case '@':
		s++;
		if (*s != '+' || (s++, !parse_num(&s))) {
			*why = "a global is @+OFFSET (uprobes take no @symbol)";
			return false;
		}
		*p = s;
		return true;
	default:
		*why = "unknown fetch (%REG, +OFF(...), $stackN, $comm, $retval, \\IMM, @+OFF)";
		return false;
	}
}

/* "u8".."x64"; advances *p */
static bool parse_base_type(const char **p)
{
	const char *s = *p;

	if (*s != 'u' && *s != 's' && *s != 'x')
		return false;
	s++;
	if (s[0] == '8') {
		s += 1;
	} else if ((s[0] == '1' && s[1] == '6') || (s[0] == '3' && s[1] == '2') ||
		   (s[0] == '6' && s[1] == '4')) {
		s += 2;
	} else {
		return false;
	}
	*p = s;
	return true;
}

/* DIGITS in 1..@max, no leading zero; advances *p */
static bool parse_small(const char **p, unsigned int min, unsigned int max)
{
	const char *s = *p;
	unsigned int v = 0;
	size_t n = 0;

	while (is_digit(s[n]) && n < 4) {
		v = v * 10 + (unsigned int)(s[n] - '0');
		n++;
	}
	if (!n || is_digit(s[n]) || (n > 1 && s[0] == '0') || v < min || v > max)
		return false;
	*p = s + n;
	return true;
}

static bool parse_small_or_zero(const char **p)
{
	if (**p == '0' && !is_digit((*p)[1])) {
		(*p)++;
		return true;
	}
	return parse_small(p, 1, 63);
}

static bool parse_type(const char *s, bool *is_string)
{
	*is_string = false;
	if (!strcmp(s, "string") || !strcmp(s, "ustring")) {
		*is_string = true;
		return true;
	}
	if (s[0] == 'b') {
		/* bW@O/S: width, offset within a container of S bits */
		s++;
		if (!parse_small(&s, 1, 64) || *s++ != '@' || !parse_small_or_zero(&s) ||
		    *s++ != '/')
			return false;
		return (!strcmp(s, "8") || !strcmp(s, "16") || !strcmp(s, "32") ||
			!strcmp(s, "64"));
	}
	if (!parse_base_type(&s))
		return false;
	if (*s == '[') {
		s++;
		if (!parse_small(&s, 1, 64) || *s++ != ']')
			return false;
	}
	return !*s;
}

bool sdt_uprobe_arg_valid(const char *arg, unsigned int machine, int elfclass, bool is_return,
			  const char **why)
{
	const char *eq, *s, *fetch;
	bool is_string;
	size_t i;

	*why = "";
	if (strnlen(arg, SDT_UPROBE_ARG_MAX + 1) > SDT_UPROBE_ARG_MAX) {
		*why = "too long";
		return false;
	}
	eq = strchr(arg, '=');
	if (!eq || eq == arg) {
		*why = "an argument is NAME=FETCH[:TYPE] (the name is required)";
		return false;
	}
	if (!((arg[0] >= 'a' && arg[0] <= 'z') || (arg[0] >= 'A' && arg[0] <= 'Z') ||
	      arg[0] == '_')) {
		*why = "an argument's name is [A-Za-z_][A-Za-z0-9_]*";
		return false;
	}
	for (i = 1; arg + i < eq; i++) {
		char c = arg[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
		      is_digit(c))) {
			*why = "an argument's name is [A-Za-z_][A-Za-z0-9_]*";
			return false;
		}
	}
	if ((size_t)(eq - arg) > SDT_MAX_EVENT_NAME) {
		*why = "the argument's name is too long";
		return false;
	}
	/* the kernel's own fields and the names every record carries */
	if ((eq - arg == 10 && !memcmp(arg, "__probe_ip", 10)) ||
	    (eq - arg > 7 && !memcmp(arg, "common_", 7))) {
		*why = "the argument's name is reserved by the kernel";
		return false;
	}
	s = fetch = eq + 1;
	if (!parse_fetch(&s, machine, elfclass, is_return, 0, why))
		return false;
	if (!*s)
		return true;
	if (*s != ':') {
		*why = "unexpected characters after the fetch";
		return false;
	}
	if (!parse_type(s + 1, &is_string)) {
		*why = "unknown type (u8..u64, s8..s64, x8..x64, TYPE[N], string, ustring, bW@O/S)";
		return false;
	}
	/* a string is read from memory: the kernel takes it on a dereference or $comm */
	if (is_string && fetch[0] != '+' && fetch[0] != '-' && strncmp(fetch, "$comm", 5) &&
	    fetch[0] != '@') {
		*why = "a string type needs a dereference: +0(%REG):string";
		return false;
	}
	return true;
}

char *sdt_uprobe_group(const char *path)
{
	const char *base = strrchr(path, '/');
	struct sdt_buf b = {0};
	size_t i;

	base = base ? base + 1 : path;
	if (sdt_buf_addstr(&b, "probe_"))
		return NULL;
	for (i = 0; i < 48; i++) {
		char c = base[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || is_digit(c)))
			break;
		if (sdt_buf_add(&b, &c, 1)) {
			sdt_buf_free(&b);
			return NULL;
		}
	}
	if (!i && sdt_buf_addstr(&b, "bin")) {
		sdt_buf_free(&b);
		return NULL;
	}
	return sdt_buf_take(&b);
}
