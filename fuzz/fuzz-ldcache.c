/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer: /etc/ld.so.cache (which sdtrace reads to find a library by its soname) through its
 * parser. An accepted cache has every string inside the input; each entry is read back and
 * looked up.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "scan/ldcache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sdt_ldcache *c;
	size_t i;

	if (sdt_ldcache__from_mem(data, size, &c)) {
		if (c)
			__builtin_trap();
		return 0;
	}
	for (i = 0; i < sdt_ldcache__count(c); i++) {
		const struct sdt_ldcache_entry *e = sdt_ldcache__entry(c, i);

		if (!e || strlen(e->soname) >= size || strlen(e->path) >= size)
			__builtin_trap();
		if (!sdt_ldcache__lookup(c, e->soname, SDT_LDCACHE_ANY))
			__builtin_trap();
	}
	sdt_ldcache__free(c);
	return 0;
}
