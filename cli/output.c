/* SPDX-License-Identifier: MIT */
/*
 * -o FILE of report and stat. The output is written to a temporary beside FILE and renamed over
 * it only once complete, so FILE is either the old one or the new one, never a part; and since a
 * rename replaces the directory entry, never what it points to, a link planted at FILE cannot
 * redirect the write. Anything but a regular file at FILE is refused up front with a message
 * naming it (a rename over a FIFO or a device would quietly remove it).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "sdtrace/sdtrace.h"

int cli_output_create(const char *path, char **tmp)
{
	bool exists;
	int fd;

	*tmp = NULL;
	if (sdt_output_check(path, &exists)) {
		cli_error("%s", sdt_errmsg());
		return -1;
	}
	if (asprintf(tmp, "%s.tmp.XXXXXX", path) < 0) {
		*tmp = NULL;
		cli_error("out of memory");
		return -1;
	}
	fd = mkostemp(*tmp, O_CLOEXEC);
	if (fd < 0) {
		cli_error("cannot create '%s': %s", *tmp, strerror(errno));
		free(*tmp);
		*tmp = NULL;
	}
	return fd;
}

int cli_output_done(int fd, char *tmp, const char *path, int ret)
{
	if (!ret && fsync(fd)) {
		cli_error("cannot write '%s': %s", path, strerror(errno));
		ret = EXIT_RUNTIME;
	}
	if (!ret && rename(tmp, path)) {
		cli_error("cannot rename '%s' to '%s': %s", tmp, path, strerror(errno));
		ret = EXIT_RUNTIME;
	}
	if (ret)
		unlink(tmp);
	free(tmp);
	return ret;
}
