/* path.h -- file paths allocated to their exact length (no fixed-size
 * buffers, so that a long path is never cut and read from an ancestor
 * directory).  A path of PATH_MAX bytes or more, which the OS cannot open,
 * is refused with a one-line message that says so. */
#ifndef ATTNRANK_NUMERICS_PATH_H
#define ATTNRANK_NUMERICS_PATH_H

#include "numerics/status.h"

/* *out = dir + "/" + name (no '/' added when dir is empty or ends in '/'),
 * allocated with ar_calloc; caller frees.  AR_EINVAL if the result has
 * PATH_MAX bytes or more, AR_ENOMEM; *out is NULL on failure. */
ar_status path_join(const char *dir, const char *name, char **out);

/* *out = the directory part of `path` up to and including its last '/'
 * ("" when it has none), allocated; caller frees. */
ar_status path_dir(const char *path, char **out);

#endif
