/* SPDX-License-Identifier: GPL-3.0-or-later */
/* spearman.h -- Spearman rank correlation with two p-values: a seeded
 * permutation p-value and the asymptotic Student-t p-value.
 *
 * GSL does the statistics it has: ranks come from gsl_sort_index (ties get
 * their average rank), rho is gsl_stats_spearman (the Pearson correlation of
 * the average ranks), correlations of permuted ranks are
 * gsl_stats_correlation, and the t distribution is gsl_cdf_tdist_Q.  GSL has
 * no permutation test; it is kept here on numerics/rng.h so that a seed
 * gives the same p-value on every machine.
 *
 *   permutation  y's ranks are permuted uniformly (Fisher-Yates on
 *                rng_u64, seeded) nperm times:
 *                    p_perm = (1 + #{perm : |rho_perm| >= |rho| - 1e-12}) / (nperm + 1),
 *                a valid p-value for the null "x and y exchangeable" (never 0);
 *   asymptotic   t = |rho| sqrt((n - 2) / (1 - rho^2)) with n - 2 degrees of
 *                freedom, p_t = 2 Q_t(t) (two-sided); p_t = 0 when |rho| = 1
 *                (t infinite) and p_t = 1 when n < 3 (no degree of freedom).
 * A constant x or y gives rho = NaN and p_perm = p_t = 1. */
#ifndef ATTNRANK_NUMERICS_SPEARMAN_H
#define ATTNRANK_NUMERICS_SPEARMAN_H

#include <stddef.h>
#include <stdint.h>
#include "base/status.h"

typedef struct {
    double rho;      /* Spearman's rho (NaN when x or y is constant) */
    double p_perm;   /* two-sided permutation p-value */
    double p_t;      /* two-sided asymptotic Student-t p-value */
} spearman_t;

/* Average ranks (1-based) of x[0..n) into r.  AR_ENOMEM (message) if the
 * sort index cannot be allocated. */
ar_status spearman_ranks(const double *x, size_t n, double *r);

/* rho of n >= 2 pairs into *rho (NaN when either side is constant).
 * AR_EINVAL for n < 2, AR_ENOMEM if the workspace cannot be allocated. */
ar_status spearman_rho(const double *x, const double *y, size_t n, double *rho);

/* Two-sided asymptotic p-value of rho for n pairs (rules above). */
double spearman_p_t(double rho, size_t n);

/* rho and both p-values; n >= 2, finite entries, nperm >= 1.
 * AR_EINVAL (message) on bad input, AR_ENOMEM when out of memory. */
ar_status spearman_test(const double *x, const double *y, size_t n, size_t nperm, uint64_t seed,
                        spearman_t *out);

#endif
