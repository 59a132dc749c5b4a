/* SPDX-License-Identifier: MIT */
/*
 * Options structs of the public API (`struct sdt_<verb>_opts`, first member `size_t sz`), read
 * one way everywhere, as libbpf's OPTS_VALID does:
 *  - NULL means every default;
 *  - sz smaller than the library's struct: a caller built against an older header; the fields it
 *    does not know stay zero (their defaults);
 *  - sz larger: a caller built against a newer header; accepted when every byte the library does
 *    not know is zero, else -EINVAL (an option this library cannot honour is refused, never
 *    ignored);
 *  - sz smaller than the sz member itself is -EINVAL.
 */
#include <string.h>

#include "util/internal.h"

int sdt_opts_copy(void *dst, size_t dst_sz, const void *opts, const char *type_name)
{
	size_t sz, i;

	memset(dst, 0, dst_sz);
	if (opts) {
		memcpy(&sz, opts, sizeof(sz));
		if (sz < sizeof(size_t))
			return sdt_err(-EINVAL, "struct %s: sz %zu is smaller than sz itself", type_name,
				       sz);
		for (i = dst_sz; i < sz; i++)
			if (((const unsigned char *)opts)[i])
				return sdt_err(-EINVAL,
					       "struct %s: byte %zu is set, but this libsdtrace knows "
					       "only %zu bytes of it (built against a newer header?)",
					       type_name, i, dst_sz);
		memcpy(dst, opts, sz < dst_sz ? sz : dst_sz);
	}
	memcpy(dst, &dst_sz, sizeof(dst_sz));
	return 0;
}
