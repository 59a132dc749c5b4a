/* SPDX-License-Identifier: MIT */
/*
 * Names and paths a user types: a bare name searched as a user expects, and paths made canonical
 * without losing a /proc/PID/root prefix (a file seen through another process's root, e.g. a
 * program in a container).
 *
 *  - sdt_find_binary("libstdc++.so.6") searches the current directory, then $PATH (executables),
 *    then the dynamic linker's cache (/etc/ld.so.cache, by soname), then the default library
 *    directories, then the library trees (/usr/lib, /opt, ...: "libjvm.so"); a name with a '/'
 *    is only made canonical.
 *  - sdt_canonical_path("/proc/42/root/usr/bin/app") keeps "/proc/42/root" and resolves the rest
 *    *inside* that root: "..", and symbolic links (absolute ones from that root), never leave it.
 *    realpath(3) would follow the magic link to "/" and name a file of this mount namespace.
 *    A path without that prefix is realpath(3)'s answer.
 *
 * Example:
 *	SDT_OPTS(sdt_find_opts, o, .exec_only = false);
 *	char *full;
 *	if (sdt_find_binary("libstdc++.so.6", &o, &full) < 0)
 *		errx(1, "%s", sdt_errmsg());
 *	printf("%s\n", full);	// /usr/lib/x86_64-linux-gnu/libstdc++.so.6
 *	free(full);
 *	if (sdt_canonical_path(path, &full) == 0)
 *		free(full);
 */
#ifndef SDTRACE_FIND_H
#define SDTRACE_FIND_H

#include <stdbool.h>
#include <stddef.h>

#include <sdtrace/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sdt_find_opts {
	size_t sz;
	/* as execvp(3) finds a command: $PATH only (no current directory, no libraries) */
	bool exec_only;
	/* the search path instead of getenv("PATH") (a command's own environment) */
	const char *path_env;
	/* the ld.so cache to read instead of /etc/ld.so.cache */
	const char *ldcache;
	/* the library trees, colon-separated, instead of /usr/lib:/usr/lib64:/usr/local/lib:/opt */
	const char *lib_trees;
};

/*
 * The file a user means by @name: its canonical path into *@out (malloc'ed). A name with a '/' is
 * made canonical (sdt_canonical_path()); a bare name is searched in the current directory,
 * $PATH (executable files), the ld.so cache (its sonames, this machine's ABI first), then
 * /lib/<multiarch>, /usr/lib/<multiarch>, /lib64, /usr/lib64, /lib, /usr/lib, then the library
 * trees, six levels down (/usr/lib/debug left out): a library a program loads from its own
 * directory, "libjvm.so" -> /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so. Of several
 * there, the one of an installation D whose D/bin/CMD is what $PATH runs as CMD; else
 * -ENOTUNIQ naming them.
 * -ENOENT with a message naming where it looked (and the cache's sonames that begin with @name,
 * "libstdc++.so" -> "libstdc++.so.6", as a suggestion: no version is picked for the caller).
 */
SDT_API int sdt_find_binary(const char *name, const struct sdt_find_opts *opts, char **out);

/*
 * @path made absolute, with "." and ".." and every symbolic link resolved, into *@out
 * (malloc'ed). "/proc/PID/root/REST" stays under "/proc/PID/root": REST is resolved inside the
 * root of process PID, whose links are read as that process would read them, and ".." stops at
 * its root. -ENOENT, -ELOOP, -ENAMETOOLONG, -ENOTDIR, ... as realpath(3).
 */
SDT_API int sdt_canonical_path(const char *path, char **out);

/* Is @path of the form "/proc/PID/root[/...]" (PID digits)? Its length without REST, else 0. */
SDT_API size_t sdt_proc_root_prefix(const char *path);

#ifdef __cplusplus
}
#endif

#endif
