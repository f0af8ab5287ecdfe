/* SPDX-License-Identifier: GPL-3.0-or-later */
/* family.h -- named sphere families, for the CLI and the sweeps. */
#ifndef ATTNRANK_CONSTRUCTIONS_FAMILY_H
#define ATTNRANK_CONSTRUCTIONS_FAMILY_H

#include <stddef.h>
#include <stdint.h>
#include "constructions/pointsets/pointset.h"

typedef enum { FAMILY_POLYGON, FAMILY_FIBONACCI, FAMILY_PACKING, FAMILY_UNIFORM } sphere_family_t;

/* Parse "polygon", "fibonacci", "packing" or "uniform"; AR_EINVAL otherwise. */
ar_status sphere_family_parse(const char *name, sphere_family_t *f);

/* Name of a family. */
const char *sphere_family_name(sphere_family_t f);

/* Generate a member of family f on S^{d-1}: polygon needs d = 2, fibonacci
 * d = 3; packing uses angular separation theta (> 0) with at most n points
 * (d >= 3: the zonal code sphere_zonal; d = 2: the polygon of sphere_packing);
 * uniform uses the seed.  AR_EINVAL (with a message) on a family/dimension
 * mismatch or bad sizes. */
ar_status sphere_generate(pointset_t *P, sphere_family_t f, size_t n, size_t d, double theta,
                          uint64_t seed);

#endif
