/* SPDX-License-Identifier: MIT */
/* libFuzzer: a whole ELF file from memory through the SDT scanner (notes, build-id, args). */
#include <stddef.h>
#include <stdint.h>

#include "sdtrace/sdtrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sdt_file *f;
	size_t i, j;

	if (sdt_file__open_mem(data, size, NULL, &f))
		return 0;
	for (i = 0; i < sdt_file__site_count(f); i++) {
		const struct sdt_site *s = sdt_file__site(f, i);

		for (j = 0; j < sdt_site__arg_count(s); j++) {
			const struct sdt_arg *a = sdt_site__arg(s, j);

			/* exactly one of fetch / unavailable */
			if (!sdt_arg__fetch(a) == !sdt_arg__unavailable(a))
				__builtin_trap();
		}
	}
	sdt_file__free(f);
	return 0;
}
