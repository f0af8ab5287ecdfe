/* SPDX-License-Identifier: GPL-3.0-or-later */
/* family.c -- dispatch over the named sphere families. */
#include "constructions/pointsets/family.h"

#include <math.h>
#include <string.h>
#include "constructions/pointsets/sphere.h"
#include "constructions/pointsets/sphere_code.h"

static const char *const family_names[] = { "polygon", "fibonacci", "packing", "uniform" };

ar_status sphere_family_parse(const char *name, sphere_family_t *f)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(name, family_names[i]) == 0) {
            *f = (sphere_family_t)i;
            return AR_OK;
        }
    ar_error_set("unknown family '%s' (expected polygon, fibonacci, packing or uniform)", name);
    return AR_EINVAL;
}

const char *sphere_family_name(sphere_family_t f)
{
    return (unsigned)f < 4 ? family_names[f] : "unknown";
}

ar_status sphere_generate(pointset_t *P, sphere_family_t f, size_t n, size_t d, double theta,
                          uint64_t seed)
{
    if (n == 0) {
        ar_error_set("number of points must be at least 1");
        return AR_EINVAL;
    }
    switch (f) {
    case FAMILY_POLYGON:
        if (d != 2) {
            ar_error_set("family polygon needs d 2 (got %zu)", d);
            return AR_EINVAL;
        }
        return sphere_polygon(P, n);
    case FAMILY_FIBONACCI:
        if (d != 3) {
            ar_error_set("family fibonacci needs d 3 (got %zu)", d);
            return AR_EINVAL;
        }
        return sphere_fibonacci(P, n);
    case FAMILY_PACKING:
        if (!(theta > 0 && theta <= M_PI)) {
            ar_error_set("packing separation theta must be in (0, pi], got %g", theta);
            return AR_EINVAL;
        }
        if (d < 2) {
            ar_error_set("family packing needs d >= 2 (got %zu)", d);
            return AR_EINVAL;
        }
        /* d >= 3: the recursive zonal code (issue 22: proven separation, O(n d));
         * d = 2: the regular polygon of sphere_packing */
        if (d >= 3 && theta < SPHERE_ZONAL_THETA_MIN) {
            ar_error_set("packing separation theta must be >= %g in d >= 3, got %g",
                         SPHERE_ZONAL_THETA_MIN, theta);
            return AR_EINVAL;
        }
        return d >= 3 ? sphere_zonal(P, d, theta, n) : sphere_packing(P, d, theta, n, seed, 0);
    case FAMILY_UNIFORM:
        if (d < 1) {
            ar_error_set("family uniform needs d >= 1");
            return AR_EINVAL;
        }
        return sphere_uniform(P, n, d, seed);
    }
    ar_error_set("unknown family");
    return AR_EINVAL;
}
