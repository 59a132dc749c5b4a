/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer: our cache metadata file (`sdtrace.meta`, in a cache directory anyone may have
 * written) through its parser. Accepted input has a path and a build-id, unescaped to C strings.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "cache/meta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sdt_meta m;
	struct stat st;

	if (sdt_meta_parse((const char *)data, size, &m) == 0) {
		if (!m.path || !m.build_id)
			__builtin_trap();
		if (strlen(m.path) > size || strlen(m.build_id) > size)
			__builtin_trap();
		memset(&st, 0, sizeof(st));
		st.st_size = (off_t)m.size;
		st.st_mtim.tv_sec = (time_t)m.mtime_sec;
		st.st_mtim.tv_nsec = (long)m.mtime_nsec;
		st.st_ino = (ino_t)m.ino;
		st.st_dev = (dev_t)m.dev;
		(void)sdt_meta_matches(&m, &st);
		sdt_meta_release(&m);
	} else if (m.path || m.build_id) {
		/* a rejected file leaves nothing behind */
		__builtin_trap();
	}
	return 0;
}
