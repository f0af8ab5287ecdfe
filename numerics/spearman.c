/* spearman.c -- rank correlation and permutation test (see spearman.h). */
#include "numerics/spearman.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "numerics/rng.h"

static const double *sort_key;

static int cmp_idx(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (sort_key[i] < sort_key[j]) return -1;
    if (sort_key[i] > sort_key[j]) return 1;
    return i < j ? -1 : (i > j);
}

void spearman_ranks(const double *x, size_t n, double *r)
{
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    if (!idx) {   /* tiny n in practice; fall back to O(n^2) counting */
        for (size_t i = 0; i < n; i++) {
            double lt = 0, eq = 0;
            for (size_t j = 0; j < n; j++) {
                lt += x[j] < x[i];
                eq += x[j] == x[i];
            }
            r[i] = lt + (eq + 1) / 2;
        }
        return;
    }
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    sort_key = x;
    qsort(idx, n, sizeof *idx, cmp_idx);
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
}

static double pearson(const double *a, const double *b, size_t n)
{
    double ma = 0, mb = 0;
    for (size_t i = 0; i < n; i++) {
        ma += a[i];
        mb += b[i];
    }
    ma /= (double)n;
    mb /= (double)n;
    double sab = 0, saa = 0, sbb = 0;
    for (size_t i = 0; i < n; i++) {
        sab += (a[i] - ma) * (b[i] - mb);
        saa += (a[i] - ma) * (a[i] - ma);
        sbb += (b[i] - mb) * (b[i] - mb);
    }
    if (saa == 0 || sbb == 0)
        return NAN;
    return sab / sqrt(saa * sbb);
}

double spearman_rho(const double *x, const double *y, size_t n)
{
    if (n < 2)
        return NAN;
    double *rx = malloc(n * sizeof *rx), *ry = malloc(n * sizeof *ry);
    double rho = NAN;
    if (rx && ry) {
        spearman_ranks(x, n, rx);
        spearman_ranks(y, n, ry);
        rho = pearson(rx, ry, n);
    }
    free(rx);
    free(ry);
    return rho;
}

ar_status spearman_test(const double *x, const double *y, size_t n, size_t nperm, uint64_t seed,
                        double *rho, double *p)
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
    double *rx = ar_calloc(n, sizeof *rx, "ranks"), *ry = ar_calloc(n, sizeof *ry, "ranks");
    if (!rx || !ry) {
        free(rx);
        free(ry);
        return AR_ENOMEM;
    }
    spearman_ranks(x, n, rx);
    spearman_ranks(y, n, ry);
    double r0 = pearson(rx, ry, n);
    *rho = r0;
    if (isnan(r0)) {
        *p = 1.0;
        free(rx);
        free(ry);
        return AR_OK;
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
        double r = pearson(rx, ry, n);
        hits += fabs(r) >= fabs(r0) - 1e-12;
    }
    *p = (1.0 + (double)hits) / ((double)nperm + 1.0);
    free(rx);
    free(ry);
    return AR_OK;
}
