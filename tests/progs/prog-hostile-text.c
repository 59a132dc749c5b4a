/* SPDX-License-Identifier: MIT */
/*
 * Query texts an attacker chooses (issue 34): a hq:query__start / hq:query__done pair per text,
 * the text its argument, from a thread named with an escape sequence. The texts hold what a
 * terminal acts on (ESC, a C1 CSI, a newline that would forge a folded line), bytes that are not
 * UTF-8, and cells a spreadsheet would evaluate. Built -O2.
 *
 * Output, per round, for each text I (0-based) of TEXTS (escaped here, not on the wire):
 *	probe hq:query__start arg1=<text I>
 *	probe hq:query__done arg1=<text I>
 */
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/sdt.h>

#include "prog.h"

static const char *texts[] = {
    "SELECT 1\x1b]0;owned\x07", /* ESC: an OSC sets the terminal's title */
    "SELECT 2\xc2\x9b"
    "2J",			     /* C1 CSI: clears the screen on some terminals */
    "SELECT 3\xff\xfe",		     /* not UTF-8 */
    "SELECT 4\xe6\x97",		     /* a cut character */
    "SELECT 5;fake_frame 999999\nx", /* a line of its own */
    "=HYPERLINK(\"http://127.0.0.1/\",\"x\")",
    "@SUM(1+1)",
    "+1+2",
    "-2+3",
    "SELECT 6 héllo",
};

int main(int argc, char **argv)
{
	long i, n = prog_rounds(argc, argv);
	size_t k;

	prctl(PR_SET_NAME, "hq\x1b[2J\xc2\x9b", 0, 0, 0);
	for (i = 0; i < n; i++) {
		for (k = 0; k < sizeof(texts) / sizeof(texts[0]); k++) {
			const char *t = texts[k];

			__asm__ volatile("" : "+r"(t));

			printf("probe hq:query__start arg1=%zu\n", k);
			fflush(stdout);
			STAP_PROBE1(hq, query__start, t);
			printf("probe hq:query__done arg1=%zu\n", k);
			fflush(stdout);
			STAP_PROBE1(hq, query__done, t);
		}
	}
	return 0;
}
