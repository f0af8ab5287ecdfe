/* path.c -- exact-length path building (see path.h). */
#include "numerics/path.h"

#include <limits.h>
#include <string.h>

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
