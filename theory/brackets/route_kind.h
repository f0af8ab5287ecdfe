/* SPDX-License-Identifier: GPL-3.0-or-later */
/* route_kind.h -- the routes of the route chooser (theory/brackets/route.h):
 * one enum, one name table.
 *
 * The first AR_ROUTE_TRIVIAL values are the routes in the order the chooser
 * considers them (route_id_t, route.h, indexes its plan by them); then
 * AR_ROUTE_TRIVIAL, the "route" of an end no route improved (the trivial
 * bracket).  The printed names ("circulant", "ball", "packing",
 * "polynomial", "scale", "dense", "trivial") are produced only where a route
 * is printed or serialised (the bracket JSON, the public API's char arrays),
 * and read back only by ar_route_parse. */
#ifndef ATTNRANK_THEORY_ROUTE_KIND_H
#define ATTNRANK_THEORY_ROUTE_KIND_H

#include "numerics/status.h"

typedef enum {
    AR_ROUTE_CIRCULANT = 0,
    AR_ROUTE_BALL,
    AR_ROUTE_PACKING,
    AR_ROUTE_POLYNOMIAL,
    AR_ROUTE_SCALE,
    AR_ROUTE_DENSE,
    AR_ROUTE_TRIVIAL,       /* no route improved this end */
    AR_ROUTE_COUNT
} ar_route_t;

/* The printed name of r (a static string); "unknown" outside the enum. */
const char *ar_route_name(ar_route_t r);

/* The route whose printed name is s (exact).  AR_OK and *out set, or
 * AR_EINVAL (message set, *out untouched) for NULL or an unknown name. */
ar_status ar_route_parse(const char *s, ar_route_t *out);

#endif
