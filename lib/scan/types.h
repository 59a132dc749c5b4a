/* SPDX-License-Identifier: MIT */
/*
 * The type model behind sdtrace/types.h: typed fetches rendered from a parsed argument.
 *
 *	type     note fetch (argspec.c)      typed fetch
 *	string   %bp:u64                     +0(%bp):string          string at the pointer
 *	string   -8(%bp):u64                 +0(-8(%bp)):string      pointer in memory
 *	string   @+0x4010:u64                +0(@+0x4010):string     pointer in a global
 *	string   \0x4010:u64 ($.LC0)         @+0x3010:string         the address is the string
 *	x32      %ax:s32                     %ax:x32                 same size, other display
 *	double   %ax:u64                     %ax:x64                 raw bits, decoded later
 *	char     %al:s8 / %ax:b8@8/64        unchanged               shown as a character
 */
#ifndef SDT_TYPES_H
#define SDT_TYPES_H

#include "scan/argspec.h"
#include "sdtrace/types.h"

/* Which argument of which probe, for messages. */
struct sdt_type_ctx {
	const char *provider;
	const char *event;
	size_t argno; /* 1-based */
	unsigned int word_size;
	uint64_t text_bias; /* vaddr - file offset of the probe's segment */
};

/*
 * Render the fetch of @a (already rendered by sdt_arg_render()) typed as @t into *out.
 * Returns 0, -EINVAL (size mismatch), -ENOTSUP (not fetchable as @t), -ENOMEM; messages name
 * ctx->provider:ctx->event and the argument.
 */
int sdt_typed_fetch(const struct sdt_arg *a, const struct sdt_arg_type *t,
		    const struct sdt_type_ctx *ctx, char **out);
/* Check @t against @a's size (see sdtrace/types.h). 0 or -EINVAL with the message. */
int sdt_type_fits(const struct sdt_arg *a, const struct sdt_arg_type *t,
		  const struct sdt_type_ctx *ctx);
/* Copy @src into @dst (name duplicated). 0 or -ENOMEM. */
int sdt_arg_type_copy(struct sdt_arg_type *dst, const struct sdt_arg_type *src);

/* Word size (4 or 8) of @f. */
unsigned int sdt_file_word_size(const struct sdt_file *f);
/* The message context of argument @i (0-based) of site @s of @f. */
void sdt_site_type_ctx(const struct sdt_file *f, const struct sdt_site *s, size_t i,
		       struct sdt_type_ctx *ctx);

#endif
