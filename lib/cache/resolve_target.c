/* SPDX-License-Identifier: MIT */
/*
 * sdt_cache__resolve_target(): what a target runs (the files of its processes, or of its
 * command: sdt_proc__exec_files(), sdt_command__files()) and how to name it in messages, then
 * the resolution of resolve.c against those files. See include/sdtrace/cache.h.
 */
#include <stdio.h>

#include "cache/resolve.h"

/* "process 42 (python3.11)", "processes 42, 43", "'tick' (its executable and 4 more files)" */
static char *describe(const struct sdt_resolve_target *t, size_t nfiles)
{
	struct sdt_buf b = {0};
	char comm[64] = "", path[64];
	size_t i;
	FILE *fp;

	if (t->argv)
		return sdt_asprintf("'%s' (its executable and the %zu file%s it loads before it "
				    "starts)",
				    t->argv[0], nfiles ? nfiles - 1 : 0, nfiles == 2 ? "" : "s");
	if (t->npids == 1) {
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)t->pids[0]);
		fp = fopen(path, "re");
		if (fp) {
			if (fgets(comm, sizeof(comm), fp))
				comm[strcspn(comm, "\n")] = '\0';
			fclose(fp);
		}
		return comm[0] ? sdt_asprintf("process %d (%s)", (int)t->pids[0], comm)
			       : sdt_asprintf("process %d", (int)t->pids[0]);
	}
	sdt_buf_addstr(&b, "processes ");
	for (i = 0; i < t->npids; i++)
		sdt_buf_addf(&b, "%s%d", i ? ", " : "", (int)t->pids[i]);
	return sdt_buf_take(&b);
}

/* The files @t runs (every pid's, then the command's), appended to *files. */
static int target_files(const struct sdt_resolve_target *t, struct sdt_proc_file **files,
			size_t *n)
{
	struct sdt_proc_file *one, *all;
	size_t none, i;
	int err;

	*files = NULL;
	*n = 0;
	for (i = 0; i <= t->npids; i++) {
		if (i < t->npids)
			err = sdt_proc__exec_files(t->pids[i], &one, &none);
		else if (t->argv)
			err = sdt_command__files(t->argv, t->envp, &one, &none);
		else
			break;
		if (err)
			return err;
		all = sdt_reallocarray(*files, *n + none ? *n + none : 1, sizeof(*all));
		if (!all) {
			sdt_proc_files__free(one, none);
			return sdt_err(-ENOMEM, "out of memory");
		}
		if (none) /* one is NULL then */
			memcpy(all + *n, one, none * sizeof(*one));
		free(one);
		*files = all;
		*n += none;
	}
	return 0;
}

int sdt_cache__resolve_target(struct sdt_cache *c, struct sdt_spec *const *specs, size_t nspecs,
			      const struct sdt_resolve_target *target,
			      const struct sdt_resolve_opts *opts, struct sdt_targets **out)
{
	struct sdt_resolve_target tg;
	struct sdt_resolve_opts o;
	struct target_files tf = {0};
	struct sdt_proc_file *files = NULL;
	struct sdt_target *t = NULL;
	size_t n = 0, nfiles = 0;
	int err;

	*out = NULL;
	err = SDT_OPTS_COPY(&o, opts, sdt_resolve_opts);
	if (!err)
		err = SDT_OPTS_COPY(&tg, target, sdt_resolve_target);
	if (err)
		return err;
	if (!!tg.argv + !!tg.npids != 1 || (tg.npids && !tg.pids))
		return sdt_err(-EINVAL, "resolve by the target: give a command or processes");
	err = target_files(&tg, &files, &nfiles);
	if (!err) {
		tf.f = files;
		tf.n = nfiles;
		tf.desc = describe(&tg, nfiles);
		err = sdt_resolve_specs(c, specs, nspecs, &o, &tf, &t, &n);
	}
	sdt_proc_files__free(files, nfiles);
	sdt_buf_free(&tf.with);
	free(tf.desc);
	return err ? err : sdt_targets_wrap(t, n, out);
}
