/* SPDX-License-Identifier: MIT */
/*
 * Text that came from elsewhere (a traced program's strings, a symbol name, a path or a
 * directory name any local user chose) shown to a person. Valid UTF-8 is kept as it is
 * ("héllo ✓ 日本語" reads as such); what a terminal would act on, or cannot show, is escaped,
 * so that every byte can be told and none moves the cursor, sets a title or clears the screen:
 *
 *	bytes                            shown as
 *	\n \t \r                         \n \t \r
 *	other C0 controls, DEL           \x01 .. \x1f, \x7f
 *	C1 controls (U+0080-U+009F)      \xc2\x80 .. \xc2\x9f (their UTF-8 bytes)
 *	not UTF-8 (a stray byte; a cut,  \xHH for each byte of it (\xff, \xe6\x97 of a cut 日)
 *	overlong or surrogate sequence)
 *	"  \  with SDT_ESC_QUOTED        \"  \\
 *	;     with SDT_ESC_FOLDED        \x3b (a folded stack's frame separator)
 *
 * The result holds no byte below 0x20, no DEL and no C1 control, and is valid UTF-8: a name can
 * never split a line (a folded line "...;fake_frame 999999" cannot be forged).
 *
 * Example: a path of @n bytes another user chose, quoted on stderr, then into a buffer
 *	char buf[64];
 *	fputs("file \"", stderr);
 *	sdt_fput_escaped(stderr, path, n, SDT_ESC_QUOTED);
 *	fputs("\"\n", stderr);
 *	if (sdt_escape(buf, sizeof(buf), path, n, 0) >= sizeof(buf))
 *		warnx("cut: %s...", buf);
 */
#ifndef SDTRACE_TEXT_H
#define SDTRACE_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include <sdtrace/common.h>

#ifdef __cplusplus
extern "C" {
#endif

enum sdt_esc_flags {
	SDT_ESC_QUOTED = 1 << 0, /* also " and \ (text shown between double quotes) */
	SDT_ESC_FOLDED = 1 << 1, /* also ; (a frame of a folded stack) */
};

/*
 * The length of the valid UTF-8 sequence at @s (1 to 4, 1 for ASCII), looking at no more than
 * @avail bytes; 0 when @s starts no valid sequence (a stray continuation byte, a cut, overlong
 * or surrogate form, beyond U+10FFFF) or @avail is 0.
 */
SDT_API size_t sdt_utf8_len(const char *s, size_t avail);

/*
 * @s (@len bytes; NULs in it are escaped too) escaped as above into @dst, as snprintf: at most
 * @size bytes with the terminating NUL (never an escape cut in two). Returns the length of the
 * whole escaped text (without the NUL): a result >= @size means @dst was too small.
 */
SDT_API size_t sdt_escape(char *dst, size_t size, const char *s, size_t len, unsigned int flags);

/* @s (@len bytes) escaped as above, written to @fp. Returns 0, or EOF on a write error. */
SDT_API int sdt_fput_escaped(FILE *fp, const char *s, size_t len, unsigned int flags);

#ifdef __cplusplus
}
#endif

#endif
