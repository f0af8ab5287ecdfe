/* SPDX-License-Identifier: GPL-3.0-or-later */
/* claim_r.h -- claim R sweep points (proofs-notes/claim-R.md): the r/2 law
 * of a fixed head of visible dimension r.
 *
 * Construction point (kind "exponent"): at inverse temperature beta,
 *   lower end: the separated lattice (spacing c_lower / sqrt(1+beta)) in the
 *              unit r-ball, keys with Gaussian multiplicities
 *              (constructions/pointsets/head.h): the certified lower bracket;
 *   upper end: the dense lattice (spacing c_upper / sqrt(1+beta)) of the same
 *              family: its certified upper bracket (a non-trivial certificate,
 *              else upper_capped).
 * The spacings are rounded to multiples of 2^-10, so every coordinate is a
 * short dyadic.  Each end is recomputed after embedding both instances into
 * every head dimension of dhs (powers of 4: the exact Hadamard rotation with
 * a seeded signed permutation, a dyadic common key offset and dyadic
 * invisible query parts; constructions/pointsets/head.h head_embed with dyadic = 1):
 * the embedded heads have exactly the same attention matrix, and the point
 * is "certified" only if every embedding gives the same lower and the same
 * upper bracket and the numerical visible dimension of the embedded dense
 * head is r; otherwise "inconclusive" with the discrepancy in the note.
 *
 * Random point (kind "report"): m = n = n_random queries and keys uniform in
 * the unit r-ball (no multiplicities); its certified bracket at beta. */
#ifndef ATTNRANK_THEORY_CLAIM_R_H
#define ATTNRANK_THEORY_CLAIM_R_H

#include <stddef.h>
#include <stdint.h>
#include "base/status.h"
#include "theory/claims/law_point.h"
#include "theory/claims/law.h"

#define CLAIM_R_MAX_DH 4

typedef struct {
    double c_lower, c_upper;        /* lattice spacings times sqrt(1+beta) */
    size_t dhs[CLAIM_R_MAX_DH];     /* head dimensions of the invariance check (values <= r skipped) */
    size_t ndh;
    size_t n_random;                /* random rows: points per side (0: construction rows) */
    uint64_t seed;
} claim_r_opts_t;

/* One construction point (o->n_random == 0) or random point, r >= 1,
 * beta >= 0, 0 < eps < 1. */
ar_status claim_r_point(int r, double beta, double eps, const claim_r_opts_t *o, law_point_t *out);

/* law_point_fn for the laws table: L->dim = r, L->eps, L->opts = claim_r_opts_t. */
ar_status claim_r_law_point(const law_t *L, double beta, law_point_t *out);

#endif
