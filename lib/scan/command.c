/* SPDX-License-Identifier: MIT */
/*
 * The files a command will run before its first instruction (sdt_command__files(), see
 * include/sdtrace/proc.h): argv[0] as execvp() finds it, through a "#!" line to its interpreter,
 * and that executable's DT_NEEDED closure (needed.c).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scan/needed.h"
#include "util/internal.h"
#include "sdtrace/proc.h"

/* How many "#!" interpreters in a row are followed (the kernel allows 4 levels). */
#define MAX_SCRIPT_DEPTH 4

/* The value of @name in @envp (NULL: our environment), or NULL. */
static const char *env_get(char *const *envp, const char *name)
{
	size_t nl = strlen(name);

	if (!envp)
		return getenv(name);
	for (; *envp; envp++) {
		if (!strncmp(*envp, name, nl) && (*envp)[nl] == '=')
			return *envp + nl + 1;
	}
	return NULL;
}

static bool executable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

/* @name as execvp() finds it: with a '/' as it is, else the first executable in $PATH. */
static char *exec_path(const char *name, char *const *envp)
{
	const char *path = env_get(envp, "PATH");
	char buf[PATH_MAX];

	if (strchr(name, '/'))
		return executable(name) ? realpath(name, NULL) : NULL;
	if (!path)
		path = "/bin:/usr/bin"; /* glibc's default when PATH is unset */
	while (*path) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);

		if (snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, n ? path : ".", name) <
			(int)sizeof(buf) &&
		    executable(buf))
			return realpath(buf, NULL);
		path += n + (colon ? 1 : 0);
	}
	return NULL;
}

/*
 * The interpreter of the script @path ("#!/bin/sh", "#!/usr/bin/env python3": env's argument
 * through $PATH), or NULL when @path does not start with "#!".
 */
static char *script_interpreter(const char *path, char *const *envp)
{
	char line[256], *p, *arg, *interp;
	FILE *fp = fopen(path, "re");
	size_t len;

	if (!fp)
		return NULL;
	len = fread(line, 1, sizeof(line) - 1, fp);
	fclose(fp);
	line[len] = '\0';
	if (len < 3 || line[0] != '#' || line[1] != '!')
		return NULL;
	p = line + 2;
	p[strcspn(p, "\n")] = '\0';
	p += strspn(p, " \t");
	arg = p + strcspn(p, " \t");
	if (*arg)
		*arg++ = '\0';
	arg += strspn(arg, " \t");
	arg[strcspn(arg, " \t")] = '\0';
	interp = exec_path(p, envp);
	if (interp && *arg && !strcmp(strrchr(interp, '/') + 1, "env") && arg[0] != '-') {
		free(interp);
		return exec_path(arg, envp);
	}
	return interp;
}

int sdt_command__files(char *const *argv, char *const *envp, struct sdt_proc_file **out,
		       size_t *n)
{
	struct sdt_needed_opts no = {.ld_library_path = env_get(envp, "LD_LIBRARY_PATH")};
	struct sdt_needed_file *nf = NULL;
	struct sdt_proc_file *files;
	char *exe, *next;
	size_t nn, i;
	int depth, err;

	*out = NULL;
	*n = 0;
	if (!argv || !argv[0])
		return sdt_err(-EINVAL, "no command");
	exe = exec_path(argv[0], envp);
	if (!exe)
		return sdt_err(-ENOENT, "'%s': %s", argv[0],
			       strchr(argv[0], '/') ? "no such executable"
						    : "command not found in $PATH");
	for (depth = 0; depth < MAX_SCRIPT_DEPTH && (next = script_interpreter(exe, envp));
	     depth++) {
		free(exe);
		exe = next;
	}
	err = sdt_needed_closure(exe, &no, &nf, &nn);
	free(exe);
	if (err)
		return err;
	files = calloc(nn ? nn : 1, sizeof(*files));
	if (!files) {
		sdt_needed_files_free(nf, nn);
		return sdt_err(-ENOMEM, "out of memory");
	}
	for (i = 0; i < nn; i++) {
		files[i].path = nf[i].path;
		files[i].open_path = nf[i].open_path;
		nf[i].path = nf[i].open_path = NULL;
	}
	sdt_needed_files_free(nf, nn);
	*out = files;
	*n = nn;
	return 0;
}
