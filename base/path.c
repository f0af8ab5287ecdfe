/* SPDX-License-Identifier: GPL-3.0-or-later */
/* path.c -- exact-length path building and confined opens (see path.h). */
#include "base/path.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

ar_status path_join(const char *dir, const char *name, char **out)
{
    *out = NULL;
    size_t ld = strlen(dir), ln = strlen(name);
    int slash = ld > 0 && dir[ld - 1] != '/';
    size_t len = ld + (size_t)slash + ln;
    if (len >= PATH_MAX) {
        ar_error_set("path of %zu bytes is longer than the system allows (PATH_MAX %d): %.64s...", len,
                     PATH_MAX, dir);
        return AR_EINVAL;
    }
    char *p = ar_calloc(len + 1, 1, "file path");
    if (!p)
        return AR_ENOMEM;
    memcpy(p, dir, ld);
    if (slash)
        p[ld] = '/';
    memcpy(p + ld + (size_t)slash, name, ln);
    *out = p;
    return AR_OK;
}

ar_status path_dir(const char *path, char **out)
{
    *out = NULL;
    const char *slash = strrchr(path, '/');
    size_t len = slash ? (size_t)(slash - path) + 1 : 0;
    char *p = ar_calloc(len + 1, 1, "file path");
    if (!p)
        return AR_ENOMEM;
    memcpy(p, path, len);
    *out = p;
    return AR_OK;
}

/* The next component of *rest that is neither empty nor ".", NUL-terminated
 * in place (NULL when none is left); *rest moves past it. */
static char *next_component(char **rest)
{
    char *s = *rest;
    while (s) {
        char *e = strchr(s, '/');
        if (e)
            *e = '\0';
        char *c = s;
        s = e ? e + 1 : NULL;
        if (c[0] && strcmp(c, ".") != 0) {
            *rest = s;
            return c;
        }
    }
    *rest = NULL;
    return NULL;
}

/* Intermediate directories: only looked up in, never read. */
#ifdef O_PATH
#define BENEATH_DIR_FLAGS (O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#else
#define BENEATH_DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#endif

ar_status path_open_beneath(int dirfd, const char *rel, int *fd)
{
    *fd = -1;
    size_t n = strlen(rel);
    if (n == 0 || rel[0] == '/') {
        ar_error_set("the path '%s' is not a relative path", rel);
        return AR_EINVAL;
    }
    if (n >= PATH_MAX) {
        ar_error_set("path of %zu bytes is longer than the system allows (PATH_MAX %d): %.64s...", n, PATH_MAX,
                     rel);
        return AR_EINVAL;
    }
    char *buf = ar_calloc(n + 1, 1, "file path");
    if (!buf)
        return AR_ENOMEM;
    memcpy(buf, rel, n);
    char *rest = buf, *c = next_component(&rest);
    ar_status st = AR_OK;
    int cur = dirfd;
    if (!c) {
        ar_error_set("the path '%s' names no file", rel);
        st = AR_EINVAL;
    }
    while (!st && c) {
        char *next = next_component(&rest);
        if (strcmp(c, "..") == 0) {
            ar_error_set("the path '%s' has a \"..\" component", rel);
            st = AR_EINVAL;
            break;
        }
        int f = openat(cur, c, next ? BENEATH_DIR_FLAGS : (O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC));
        if (f < 0) {
            int e = errno;
            struct stat sb;
            if (fstatat(cur, c, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(sb.st_mode)) {
                if (next)
                    ar_error_set("the path '%s' goes through the symbolic link '%s' (symbolic links are refused)",
                                 rel, c);
                else
                    ar_error_set("the path '%s' is a symbolic link (symbolic links are refused)", rel);
                st = AR_EINVAL;
            } else if (e == ENOTDIR) {
                ar_error_set("the path '%s': '%s' is not a directory", rel, c);
                st = AR_EINVAL;
            } else {
                ar_error_set("the path '%s': cannot open '%s': %s", rel, c, strerror(e));
                st = AR_EIO;
            }
            break;
        }
        if (cur != dirfd)
            close(cur);
        cur = f;
        c = next;
    }
    if (st && cur != dirfd)
        close(cur);
    else if (!st)
        *fd = cur;
    free(buf);
    return st;
}
