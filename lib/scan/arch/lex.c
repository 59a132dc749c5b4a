/* SPDX-License-Identifier: MIT */
/*
 * The lexing helpers every operand parser shares: integers, symbols, register numbers, addends.
 * Apart from the table (arch.c), which calls the parsers that call these.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "util/internal.h"
#include "scan/arch/arch.h"

int sdt_parse_int(const char **pp, int64_t *val)
{
	const char *p = *pp;
	bool neg = false;
	uint64_t v = 0;
	int base = 10, digits = 0;

	if (*p == '-' || *p == '+') {
		neg = *p == '-';
		p++;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
		base = 16;
		p += 2;
	}
	for (;; p++, digits++) {
		unsigned int d;

		if (isdigit((unsigned char)*p))
			d = (unsigned int)(*p - '0');
		else if (base == 16 && isxdigit((unsigned char)*p))
			d = (unsigned int)(tolower((unsigned char)*p) - 'a' + 10);
		else
			break;
		if (v > (UINT64_MAX - d) / (unsigned int)base)
			return -EINVAL;
		v = v * (unsigned int)base + d;
	}
	if (!digits)
		return -EINVAL;
	/* A negative number must fit int64; a positive one may use all 64 bits (8@$18446...). */
	if (neg && v > (uint64_t)INT64_MAX + 1)
		return -EINVAL;
	*val = neg ? (int64_t)(0 - v) : (int64_t)v;
	*pp = p;
	return 0;
}

bool sdt_symbol_start(char c)
{
	return isalpha((unsigned char)c) || c == '_' || c == '.';
}

char *sdt_parse_symbol(const char **pp)
{
	const char *p = *pp, *start = p;
	char *s;

	if (!sdt_symbol_start(*p))
		return NULL;
	while (isalnum((unsigned char)*p) || *p == '_' || *p == '.')
		p++;
	s = sdt_strndup(start, (size_t)(p - start));
	if (s)
		*pp = p;
	return s;
}

size_t sdt_word_len(const char *p)
{
	size_t n = 0;

	while (isalnum((unsigned char)p[n]) || p[n] == '_')
		n++;
	return n;
}

int sdt_reg_number(const char *p, size_t len, const char *prefix, unsigned int max)
{
	size_t plen = strlen(prefix), i;
	unsigned int v = 0;

	if (len <= plen || len - plen > 2 || strncmp(p, prefix, plen))
		return -1;
	if (p[plen] == '0' && len - plen > 1)
		return -1;
	for (i = plen; i < len; i++) {
		if (!isdigit((unsigned char)p[i]))
			return -1;
		v = v * 10 + (unsigned int)(p[i] - '0');
	}
	return v <= max ? (int)v : -1;
}

int sdt_parse_addend(const char **pp, int64_t *val)
{
	const char *p = *pp;

	*val = 0;
	if (*p != '+' && *p != '-')
		return 0;
	/* sdt_parse_int() takes the sign itself, but "+-8" and "+ 8" are not addends. */
	if (!isdigit((unsigned char)p[1]) || sdt_parse_int(&p, val))
		return -EINVAL;
	*pp = p;
	return 0;
}

bool sdt_reg_like(const char *p, size_t len, const char *const *prefixes)
{
	for (; *prefixes; prefixes++) {
		size_t plen = strlen(*prefixes), i;

		if (len <= plen || strncmp(p, *prefixes, plen))
			continue;
		for (i = plen; i < len && isdigit((unsigned char)p[i]); i++)
			;
		if (i == len)
			return true;
	}
	return false;
}
