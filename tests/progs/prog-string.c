/* SPDX-License-Identifier: MIT */
/*
 * A `char *` argument (a pointer, "8@%rax") to a string on the stack and to a literal, and its
 * length. Built -O2.
 *
 * Output, per round (see prog.h); ROUND counts from 0:
 *	probe string:message arg1=round-ROUND arg2=LENGTH
 *	probe string:literal arg1=hello-sdt
 */
#include <stdio.h>
#include <sys/sdt.h>

#include "prog.h"

static const char *volatile v_literal = "hello-sdt";

int main(int argc, char **argv)
{
	long i, n = prog_rounds(argc, argv);
	char buf[64];

	for (i = 0; i < n; i++) {
		const char *lit = v_literal;
		int len = snprintf(buf, sizeof(buf), "round-%ld", i);

		printf("probe string:message arg1=%s arg2=%d\n", buf, len);
		fflush(stdout);
		STAP_PROBE2(string, message, buf, len);
		printf("probe string:literal arg1=%s\n", lit);
		fflush(stdout);
		STAP_PROBE1(string, literal, lit);
	}
	return 0;
}
