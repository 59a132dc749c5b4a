/* SPDX-License-Identifier: MIT */
/*
 * Symbols of a stripped file from its separate debug file, found as gdb and perf find it: by
 * build-id, DIR/.build-id/xx/rest.debug for each DIR of the debug-file directories.
 *
 * The directories are $SDTRACE_DEBUG_DIR (a ':'-separated list, like gdb's
 * `set debug-file-directory`) when set, else /usr/lib/debug. A candidate is taken only when its
 * own build-id is the file's (gdb checks the same) and it is an ELF file of the same machine and
 * class. `objcopy --only-keep-debug` keeps the symbol table with the binary's addresses, so
 * a symbol's value there is its link-time address in the binary.
 */
#ifndef SDT_DEBUGFILE_H
#define SDT_DEBUGFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scan/sdt_elf.h"

/* What the search found, for the reasons of the symbols still missing. */
struct sdt_debugfile_result {
	bool found; /* a debug file was read */
	char *path; /* the debug file read, or the first candidate tried (malloc'ed, or NULL) */
};

/*
 * Look up the @n names whose status[i] is -ENOENT in the debug file of @e (build-id @build_id,
 * hex): a found one gets status[i] = 0 and values[i]. Nothing happens without a build-id.
 * Returns 0 (whether or not a debug file was found: @res says) or -ENOMEM. Release @res with
 * sdt_debugfile_result_release().
 */
int sdt_debugfile_find_symbols(const struct sdt_elf *e, const char *build_id,
			       const char *const *names, size_t n, uint64_t *values, int *status,
			       struct sdt_debugfile_result *res);
void sdt_debugfile_result_release(struct sdt_debugfile_result *res);

#endif
