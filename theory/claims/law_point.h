/* SPDX-License-Identifier: GPL-3.0-or-later */
/* law_point.h -- one certified sweep point of a law row (any claim).
 *
 * The evidence at one value of the law's variable: a certified lower end
 * (worst case over sets of lower_points points, or the instance), a
 * certified upper end of an instance, optionally a continuum upper end,
 * each naming its certificate.  Every claim's point function fills one. */
#ifndef ATTNRANK_THEORY_LAW_POINT_H
#define ATTNRANK_THEORY_LAW_POINT_H

#include <stddef.h>
#include "theory/certificates/cert_status.h"

typedef struct {
    int d;                      /* d (claims S, B) or r (claim R) */
    double beta, eps;
    size_t n;                   /* distinct-point instance size used for `upper` (0: none) */
    double log10_n;             /* log10 of the total point count with multiplicities (0: not computed) */
    size_t lower;               /* certified lower bound */
    size_t lower_points;        /* size of the instance that certifies `lower` */
    char lower_method[48];
    int lower_on_instance;      /* 1: `lower` certifies the same instance as `upper` (n points);
                                   0: another set of lower_points points (a packing, shells, ...) */
    size_t upper;               /* certified upper bound of the instance (0: none) */
    int upper_capped;           /* 1: the upper end is the trivial rank <= n (instance too small) */
    double upper_err;
    char upper_method[48];
    size_t continuum;           /* certified continuum upper bound (0: not computed) */
    char continuum_method[48];
    ar_cert_status_t status;    /* certified or inconclusive */
    double seconds;
    char note[320];             /* one line shown under the point (e.g. a size condition), "" if none */
} law_point_t;

#endif
