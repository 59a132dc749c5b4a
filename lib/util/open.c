/* SPDX-License-Identifier: MIT */
/*
 * Opening a file someone else may have named (a recording's mapping path, a cache or debug
 * directory's entry) for reading: O_NONBLOCK, so that a FIFO planted there cannot block the
 * open, then fstat: anything but a regular file (a FIFO, a device, a socket, a directory) is
 * closed at once, never read. As perf, which refuses non-regular files the same way.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/internal.h"

int sdt_open_regular(const char *path)
{
	struct stat st;
	int fd, err;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return sdt_err(-errno, "cannot open '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) < 0) {
		err = sdt_err(-errno, "cannot stat '%s': %s", path, strerror(errno));
		close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return sdt_err(-ENOEXEC, "'%s': not a regular file", path);
	}
	return fd;
}
