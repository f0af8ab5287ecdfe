/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_packing.c -- claim S lower bounds from cap packings at scale (issue #3
 * part 3), eps = 0.1.
 *   1. For d = 2..5 and beta = 10 .. 1e4: the largest certified greedy packing
 *      (pack_lower_search, diagonal dominance in O(m * neighbours)); one TSV
 *      row per (d, beta); per d the least-squares slope of log m against
 *      log(1+beta) (all beta >= 10, and beta >= 100), to compare with
 *      (d-1)/2.  A d stops when its time budget is spent.
 *   2. The block inverse-norm certificate (dense A, O(m^3), m <= 3000)
 *      against diagonal dominance: the ratio of certified packing sizes.
 * Usage: bench_packing [budget_seconds_per_d [max_points]]  (defaults 40, 60000)
 * Output: TSV on stdout, '#' lines are comments. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "numerics/version.h"
#include "theory/certificates/cert_packing.h"

#define EPS 0.1
#define SEED 1

static const double BETAS[] = { 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000 };
#define NB (sizeof BETAS / sizeof BETAS[0])

/* least-squares slope of y against x over the k points with x >= xmin */
static double slope(const double *x, const double *y, size_t k, double xmin, size_t *used)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    size_t n = 0;
    for (size_t i = 0; i < k; i++) {
        if (x[i] < xmin)
            continue;
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
        n++;
    }
    *used = n;
    if (n < 2)
        return NAN;
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

int main(int argc, char **argv)
{
    double budget = argc > 1 ? atof(argv[1]) : 40.0;
    size_t max_points = argc > 2 ? (size_t)strtoull(argv[2], NULL, 10) : 60000;
    printf("# %s\n", version_line());
    printf("# eps=%g seed=%d budget_per_d=%gs max_points=%zu\n", EPS, SEED, budget, max_points);
    printf("d\tbeta\ttheta\tm\tcertified\tmax_R\tseconds\tmax_tail\tnear_pairs\tlaw\tm_over_law\n");
    size_t mdiag[6][NB] = { { 0 } };
    double fits[6][2];
    size_t fitn[6][2];
    for (size_t d = 2; d <= 5; d++) {
        double spent = 0.0, last = 0.0;
        double lx[NB], ly[NB];
        size_t k = 0;
        for (size_t b = 0; b < NB; b++) {
            double beta = BETAS[b];
            if (spent + 3.0 * last > budget) {
                printf("# d=%zu: stopped before beta=%g (time budget)\n", d, beta);
                break;
            }
            pack_cert_t c;
            if (pack_lower_search(d, beta, EPS, SEED, max_points, &c) != AR_OK) {
                printf("# d=%zu beta=%g: error: %s\n", d, beta, ar_error_get());
                break;
            }
            double law = pow(1.0 + beta, 0.5 * (double)(d - 1));
            printf("%zu\t%g\t%.6g\t%zu\t%zu\t%.6g\t%.3f\t%.3g\t%zu\t%.6g\t%.4f\n", d, beta,
                   c.theta, c.m, c.certified, c.max_R, c.seconds, c.max_tail, c.near_pairs, law,
                   (double)c.m / law);
            fflush(stdout);
            mdiag[d][b] = c.certified;
            spent += c.seconds;
            last = c.seconds;
            if (c.m >= max_points) {
                printf("# d=%zu: max_points reached at beta=%g (m is capped)\n", d, beta);
                break;
            }
            lx[k] = log1p(beta);
            ly[k] = log((double)c.certified);
            k++;
        }
        fits[d][0] = slope(lx, ly, k, log1p(10.0), &fitn[d][0]);
        fits[d][1] = slope(lx, ly, k, log1p(100.0), &fitn[d][1]);
    }
    printf("\n# fitted slope of log m vs log(1+beta), predicted (d-1)/2\n");
    printf("d\tpredicted\tslope_beta_ge_10\tpoints\tslope_beta_ge_100\tpoints\n");
    for (size_t d = 2; d <= 5; d++)
        printf("%zu\t%.1f\t%.4f\t%zu\t%.4f\t%zu\n", d, 0.5 * (double)(d - 1), fits[d][0],
               fitn[d][0], fits[d][1], fitn[d][1]);

    printf("\n# inverse-norm (lower_blocks_rows on dense A, m <= 3000) vs diagonal dominance\n");
    printf("d\tbeta\tm_diagdom\tm_invnorm\tratio\ttheta_invnorm\tmethod\tseconds_invnorm\n");
    for (size_t d = 2; d <= 4; d++) {
        for (size_t b = 0; b < NB; b++) {
            double beta = BETAS[b];
            if (mdiag[d][b] == 0 || mdiag[d][b] > 1500)
                continue;
            pack_cert_t c;
            if (pack_lower_search_with(d, beta, EPS, SEED, 3000, PACK_INVNORM, &c) != AR_OK) {
                printf("# d=%zu beta=%g: error: %s\n", d, beta, ar_error_get());
                continue;
            }
            printf("%zu\t%g\t%zu\t%zu\t%.3f%s\t%.6g\t%s\t%.2f\n", d, beta, mdiag[d][b],
                   c.certified, (double)c.certified / (double)mdiag[d][b],
                   c.certified >= 3000 ? "+" : "", c.theta, ar_method_name(c.method), c.seconds);
            fflush(stdout);
        }
    }
    return 0;
}
