/* SPDX-License-Identifier: GPL-3.0-or-later */
/* claim_s.h -- one point of a claim-S sweep: certified evidence about the
 * spherical eps-rank at dimension d, inverse temperature beta, error eps.
 *
 * Three numbers, each with its certificate:
 *   lower      a lower bound on the WORST CASE over point sets on S^{d-1}:
 *              the certified eps-rank of a concrete instance (a cap packing,
 *              or the dense instance itself); any instance's eps-rank is a
 *              lower bound on the worst case over sets of its size;
 *   upper      the certified upper bound of the dense near-uniform instance
 *              of size n (bounds THAT instance only, not the worst case);
 *   continuum  the certified upper bound for the uniform-measure operator
 *              (n -> infinity), when computed (0 otherwise).
 * The construction used for each end depends on d and on what fits the
 * machine; the method strings name it. */
#ifndef ATTNRANK_THEORY_CLAIM_S_H
#define ATTNRANK_THEORY_CLAIM_S_H

#include <stddef.h>
#include <stdint.h>
#include "base/status.h"
#include "theory/claims/law_point.h"
#include "theory/claims/law.h"

typedef enum {
    CLAIM_S_DENSE = 0,    /* O(n^3) dense bracket of one instance (n <= a few thousand) */
    CLAIM_S_SCALE = 1     /* structured certificates: circulant (d = 2); cap packings for the
                             lower end and the polynomial certificate for the upper end (d >= 3) */
} claim_s_engine_t;

typedef struct {
    claim_s_engine_t engine; /* default CLAIM_S_SCALE */
    const char *family;   /* instance family; NULL = polygon (d=2), fibonacci (d=3), uniform */
    size_t n;             /* instance size; 0 = auto (n_factor * law, clamped to [n_min, n_max]) */
    double n_factor;      /* auto size factor (default 20 dense, 40 scale) */
    size_t n_min, n_max;  /* auto size limits (dense: 16..2000; scale: 2000..20000; d = 2 scale: 20160 fixed) */
    int packing;          /* 1: also certify cap packings for the lower end (default 1) */
    int instance;         /* 1: certify the upper end on a finite instance (default 1) */
    int continuum;        /* 1: compute the continuum upper bound (default 0; d >= 3, scale engine) */
    size_t packing_max;   /* largest packing tried (default 60000) */
    int packing_zonal;    /* 1: the lower end from the zonal code at every beta (PACK_GEN_ZONAL),
                             one construction across a window; 0 (default): PACK_GEN_AUTO */
    uint64_t seed;        /* for random families and packings (default 1) */
} claim_s_opts_t;

void claim_s_opts_default(claim_s_opts_t *o);

/* A claim-S sweep point is the generic law point (theory/claims/law_point.h). */
typedef law_point_t claim_s_point_t;

/* The law's value (1+beta)^{(d-1)/2}. */
double claim_s_law(int d, double beta);

/* Compute one sweep point.  d >= 2, beta >= 0 finite, 0 < eps < 1; o may be NULL (defaults). */
ar_status claim_s_point(int d, double beta, double eps, const claim_s_opts_t *o, claim_s_point_t *out);

/* The claim-S point of a laws-table row (law_point_fn): the row's engine,
 * family, size rule and packing/continuum switches turned into
 * claim_s_opts_t; saturation rows pass the size in out->n on entry. */
ar_status claim_s_law_point(const law_t *L, double beta, law_point_t *out);

#endif
