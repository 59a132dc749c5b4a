/* SPDX-License-Identifier: MIT */
/*
 * lockfile.c against what may be planted where it opens or writes: sdt_output_check() on each kind
 * of directory entry, sdt_lock_take() on a link, a FIFO and a device node.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/internal.h"
#include "util/lockfile.h"
#include "tmpdir-test.h"

static char path[128], target[128];

TMPDIR_FIXTURE("lockfile")

static const char *at(const char *name)
{
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

/* symlink(@dir/@to, @dir/@name) */
static void link_to(const char *to, const char *name)
{
	snprintf(target, sizeof(target), "%s/%s", dir, to);
	assert_int_equal(symlink(target, at(name)), 0);
}

/* Refused with @err, the message naming the path and @kind. */
static void refused(const char *name, int err, const char *kind)
{
	bool exists = true;

	assert_int_equal(sdt_output_check(at(name), &exists), err);
	assert_false(exists);
	assert_non_null(strstr(sdt_errmsg(), path));
	assert_non_null(strstr(sdt_errmsg(), kind));
}

static void test_output_check(void **state)
{
	bool exists = true;
	int fd;

	(void)state;
	assert_int_equal(sdt_output_check(at("missing"), &exists), 0);
	assert_false(exists);
	fd = open(at("file"), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(sdt_output_check(at("file"), &exists), 0);
	assert_true(exists);

	link_to("file", "link");
	refused("link", -EEXIST, "a symbolic link");
	link_to("nowhere", "dangling");
	refused("dangling", -EEXIST, "a symbolic link");
	assert_int_equal(mkfifo(at("fifo"), 0600), 0);
	refused("fifo", -EEXIST, "a FIFO");
	assert_int_equal(mkdir(at("dir"), 0700), 0);
	refused("dir", -EISDIR, "a directory");
	if (mknod(at("null"), S_IFCHR | 0600, makedev(1, 3)) == 0)
		refused("null", -EEXIST, "a character device");
	/* a missing parent: the error, not a refusal */
	assert_int_equal(sdt_output_check(at("file/x"), &exists), -ENOTDIR);
	assert_non_null(strstr(sdt_errmsg(), path));
}

static void test_lock_planted(void **state)
{
	int dfd, fd;

	(void)state;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	fd = sdt_lock_take(dfd, "lock");
	assert_true(fd >= 0);
	sdt_lock_release(fd);

	link_to("elsewhere", "lock-link");
	assert_int_equal(sdt_lock_take(dfd, "lock-link"), -ELOOP);
	assert_int_equal(access(at("elsewhere"), F_OK), -1);
	assert_int_equal(mkfifo(at("lock-fifo"), 0600), 0);
	assert_int_equal(sdt_lock_take(dfd, "lock-fifo"), -EINVAL);
	if (mknod(at("lock-null"), S_IFCHR | 0600, makedev(1, 3)) == 0)
		assert_int_equal(sdt_lock_take(dfd, "lock-null"), -EINVAL);
	close(dfd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_output_check, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_lock_planted, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
