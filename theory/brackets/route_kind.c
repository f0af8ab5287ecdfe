/* SPDX-License-Identifier: GPL-3.0-or-later */
/* route_kind.c -- the routes' one name table (see route_kind.h). */
#include "theory/brackets/route_kind.h"

#include <string.h>

static const char *const names[AR_ROUTE_COUNT] = {
    [AR_ROUTE_CIRCULANT] = "circulant",
    [AR_ROUTE_BALL] = "ball",
    [AR_ROUTE_PACKING] = "packing",
    [AR_ROUTE_POLYNOMIAL] = "polynomial",
    [AR_ROUTE_SCALE] = "scale",
    [AR_ROUTE_DENSE] = "dense",
    [AR_ROUTE_TRIVIAL] = "trivial",
};

const char *ar_route_name(ar_route_t r)
{
    return (unsigned)r < AR_ROUTE_COUNT ? names[r] : "unknown";
}

ar_status ar_route_parse(const char *s, ar_route_t *out)
{
    for (int r = 0; s && r < AR_ROUTE_COUNT; r++)
        if (strcmp(s, names[r]) == 0) {
            *out = (ar_route_t)r;
            return AR_OK;
        }
    ar_error_set("unknown route '%s'", s ? s : "(null)");
    return AR_EINVAL;
}
