/* SPDX-License-Identifier: GPL-3.0-or-later */
/* spearman.c -- rank correlation and its p-values (see spearman.h). */
#include "numerics/spearman.h"

#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include "numerics/rng.h"

ar_status spearman_ranks(const double *x, size_t n, double *r)
{
    size_t *idx = ar_calloc(n, sizeof *idx, "spearman sort index");
    if (!idx)
        return AR_ENOMEM;
    gsl_sort_index(idx, x, 1, n);
    /* runs of equal values share the mean of their 1-based positions a+1..b+1 */
    for (size_t a = 0; a < n;) {
        size_t b = a;
        while (b + 1 < n && x[idx[b + 1]] == x[idx[a]])
            b++;
        double avg = (double)(a + b) / 2.0 + 1.0;
        for (size_t k = a; k <= b; k++)
            r[idx[k]] = avg;
        a = b + 1;
    }
    free(idx);
    return AR_OK;
}

ar_status spearman_rho(const double *x, const double *y, size_t n, double *rho)
{
    if (n < 2) {
        ar_error_set("spearman: need n >= 2 pairs (n=%zu)", n);
        return AR_EINVAL;
    }
    double *work = ar_calloc(2 * n, sizeof *work, "spearman workspace");
    if (!work)
        return AR_ENOMEM;
    *rho = gsl_stats_spearman(x, 1, y, 1, n, work);
    free(work);
    return AR_OK;
}

double spearman_p_t(double rho, size_t n)
{
    if (isnan(rho) || n < 3)
        return 1.0;
    double a = fabs(rho);
    if (a >= 1.0)
        return 0.0;
    double df = (double)(n - 2), t = a * sqrt(df / ((1.0 - a) * (1.0 + a)));
    double p = 2.0 * gsl_cdf_tdist_Q(t, df);
    return p < 1.0 ? p : 1.0;
}

ar_status spearman_test(const double *x, const double *y, size_t n, size_t nperm, uint64_t seed,
                        spearman_t *out)
{
    if (n < 2 || nperm < 1) {
        ar_error_set("spearman: need n >= 2 pairs and at least one permutation");
        return AR_EINVAL;
    }
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]) || !isfinite(y[i])) {
            ar_error_set("spearman: non-finite value at %zu", i);
            return AR_EINVAL;
        }
    ar_status st = spearman_rho(x, y, n, &out->rho);
    if (st)
        return st;
    double r0 = out->rho;
    out->p_t = spearman_p_t(r0, n);
    out->p_perm = 1.0;
    if (isnan(r0))
        return AR_OK;
    double *rx = ar_calloc(n, sizeof *rx, "ranks"), *ry = ar_calloc(n, sizeof *ry, "ranks");
    if (!rx || !ry || (st = spearman_ranks(x, n, rx)) || (st = spearman_ranks(y, n, ry))) {
        free(rx);
        free(ry);
        return st ? st : AR_ENOMEM;
    }
    rng_t g;
    rng_init(&g, seed);
    size_t hits = 0;
    for (size_t t = 0; t < nperm; t++) {
        for (size_t i = n - 1; i > 0; i--) {
            size_t j = (size_t)(rng_u64(&g) % (uint64_t)(i + 1));
            double tmp = ry[i];
            ry[i] = ry[j];
            ry[j] = tmp;
        }
        double r = gsl_stats_correlation(rx, 1, ry, 1, n);
        hits += fabs(r) >= fabs(r0) - 1e-12;
    }
    out->p_perm = (1.0 + (double)hits) / ((double)nperm + 1.0);
    free(rx);
    free(ry);
    return AR_OK;
}
