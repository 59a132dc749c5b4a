/* SPDX-License-Identifier: MIT */
/* The library's own way to a user's path (find.c), in place of realpath(3). */
#ifndef SDT_SCAN_FIND_H
#define SDT_SCAN_FIND_H

#include <stdbool.h>

#include "sdtrace/find.h"

/*
 * @path as sdt_find_binary() finds it (@search: a bare name is searched) or as
 * sdt_canonical_path() makes it (!@search), malloc'ed; NULL with errno set and the message
 * stored, as realpath(3) returns, so that it replaces realpath(path, NULL) where a user's path
 * is read.
 */
char *sdt_user_path(const char *path, bool search);

#endif
