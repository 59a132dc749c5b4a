/* SPDX-License-Identifier: MIT */
/*
 * Strings longer than the kernel fetches (a :string fetch gives nothing from 4096 bytes on), and
 * text that is not ASCII. Built -O2; the strings live on the heap.
 *
 * Output, per round (see prog.h), strings in hex since they hold any byte:
 *	probe str:text arg1=HEX arg2=LENGTH     for LENGTH 8, 4095, 4096, 4097, 10000, 8
 *	probe str:utf8 arg1=HEX arg2=LENGTH     for "héllo wörld ✓ 日本語 😀", one with control
 *	                                         bytes (\x01, ESC[31m, DEL, U+009B), one with bytes
 *	                                         that are not UTF-8 (\xff, a cut 日, an overlong '/')
 * The long strings are letters, a digit every 100 bytes (so that a shifted prefix is caught).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>

#include "prog.h"

static void put(const char *name, const char *s, int len)
{
	int i;

	printf("probe str:%s arg1=", name);
	for (i = 0; i < len; i++)
		printf("%02x", (unsigned char)s[i]);
	printf(" arg2=%d\n", len);
	fflush(stdout);
}

static char *text_of(int len)
{
	char *s = malloc((size_t)len + 1);
	int i;

	if (!s)
		exit(1);
	for (i = 0; i < len; i++)
		s[i] = i % 100 == 99 ? (char)('0' + (i / 100) % 10) : (char)('a' + (i * 7) % 26);
	s[len] = '\0';
	return s;
}

int main(int argc, char **argv)
{
	static const int lens[] = {8, 4095, 4096, 4097, 10000, 8};
	static const char *const utf8[] = {
	    "h\xc3\xa9llo w\xc3\xb6rld \xe2\x9c\x93 \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e \xf0\x9f\x98\x80",
	    "ctl\x01 \x1b[31mred\x7f \xc2\x9b" "2J",
	    "bad\xff \xe6\x97 \xc0\xaf end",
	};
	long r, n = prog_rounds(argc, argv);
	size_t i;

	for (r = 0; r < n; r++) {
		for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			char *s = text_of(lens[i]);
			int len = (int)strlen(s);

			put("text", s, len);
			STAP_PROBE2(str, text, s, len);
			free(s);
		}
		for (i = 0; i < sizeof(utf8) / sizeof(utf8[0]); i++) {
			char *s = strdup(utf8[i]);
			int len = (int)strlen(s);

			if (!s)
				return 1;
			put("utf8", s, len);
			STAP_PROBE2(str, utf8, s, len);
			free(s);
		}
	}
	return 0;
}
