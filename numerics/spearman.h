/* spearman.h -- Spearman rank correlation with a seeded permutation p-value.
 *
 * rho = Pearson correlation of the ranks (ties get their average rank).
 * The two-sided permutation p-value permutes y uniformly (Fisher-Yates on
 * numerics/rng.h, seeded) nperm times:
 *     p = (1 + #{perm : |rho_perm| >= |rho| - 1e-12}) / (nperm + 1),
 * which is a valid p-value for the null "x and y exchangeable" (never 0).
 * A constant x or y gives rho = NaN and p = 1. */
#ifndef ATTNRANK_NUMERICS_SPEARMAN_H
#define ATTNRANK_NUMERICS_SPEARMAN_H

#include <stddef.h>
#include <stdint.h>
#include "numerics/status.h"

/* Average ranks (1-based) of x[0..n) into r. */
void spearman_ranks(const double *x, size_t n, double *r);

/* rho of n >= 2 finite pairs (NaN when either side is constant). */
double spearman_rho(const double *x, const double *y, size_t n);

/* rho and the permutation p-value; n >= 2, finite entries, nperm >= 1.
 * AR_EINVAL (message) on bad input. */
ar_status spearman_test(const double *x, const double *y, size_t n, size_t nperm, uint64_t seed,
                        double *rho, double *p);

#endif
