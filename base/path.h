/* SPDX-License-Identifier: GPL-3.0-or-later */
/* path.h -- file paths allocated to their exact length (no fixed-size
 * buffers, so that a long path is never cut and read from an ancestor
 * directory).  A path of PATH_MAX bytes or more, which the OS cannot open,
 * is refused with a one-line message that says so.  path_open_beneath
 * opens a relative path inside a directory without ever leaving it. */
#ifndef ATTNRANK_BASE_PATH_H
#define ATTNRANK_BASE_PATH_H

#include "base/status.h"

/* *out = dir + "/" + name (no '/' added when dir is empty or ends in '/'),
 * allocated with ar_calloc; caller frees.  AR_EINVAL if the result has
 * PATH_MAX bytes or more, AR_ENOMEM; *out is NULL on failure. */
ar_status path_join(const char *dir, const char *name, char **out);

/* *out = the directory part of `path` up to and including its last '/'
 * ("" when it has none), allocated; caller frees. */
ar_status path_dir(const char *path, char **out);

/* Open the relative path rel inside the directory open as dirfd, never
 * following a symbolic link: openat(2) one component at a time, each with
 * O_NOFOLLOW, every component but the last as a directory (O_DIRECTORY);
 * empty and "." components are skipped.  So the file opened lies inside
 * dirfd's directory whatever the file system holds, with no race between
 * a check and the open.  On success *fd is the last component opened with
 * O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC (a FIFO without a writer
 * does not block; the caller checks the file's kind, e.g. infile_handoff).
 * On failure *fd = -1 and the one-line message names rel and the reason:
 * AR_EINVAL for an absolute or empty path, a ".." component, a component
 * that is a symbolic link (any, even one that points inside) or that is
 * not a directory; AR_EIO when a component cannot be opened (missing,
 * permission; the OS's reason). */
ar_status path_open_beneath(int dirfd, const char *rel, int *fd);

#endif
