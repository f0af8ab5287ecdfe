/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fps.c -- farthest-point (greedy max-min) ordering of a point cloud. */
#include "numerics/fps.h"

#include <math.h>
#include <stdlib.h>

/* Squared distance, summed over coordinates in increasing order. */
static double dist2(const double *a, const double *b, size_t d)
{
    double s = 0.0;
    for (size_t c = 0; c < d; c++) {
        double t = a[c] - b[c];
        s += t * t;
    }
    return s;
}

/* Greedy ordering with a running array best[j] = min squared distance from
 * point j to the points already chosen.  Comparisons use the double squared
 * distances (sum over c in increasing order of (x_ic - x_jc)^2); ties go to
 * the smallest index.  mindist[t] = sqrt(best[order[t]]) at the time of
 * choice, so mindist[1..n-1] is non-increasing. */
ar_status fps_order(const double *x, size_t n, size_t d, size_t start, size_t *order, double *mindist)
{
    return fps_prefix(x, n, d, start, n, order, mindist);
}

ar_status fps_prefix(const double *x, size_t n, size_t d, size_t start, size_t len, size_t *order, double *mindist)
{
    if (!x || !order || n == 0 || d == 0 || start >= n || len == 0 || len > n) {
        ar_error_set("fps_order: invalid arguments (n=%zu, d=%zu, start=%zu, length %zu)", n, d, start, len);
        return AR_EINVAL;
    }
    for (size_t i = 0; i < n * d; i++)
        if (!isfinite(x[i])) {
            ar_error_set("fps_order: non-finite coordinate at point %zu, column %zu", i / d, i % d);
            return AR_EINVAL;
        }
    double *best = ar_calloc(n, sizeof(double), "fps_order distances");
    unsigned char *used = ar_calloc(n, 1, "fps_order flags");
    if (!best || !used) {
        free(best);
        free(used);
        return AR_ENOMEM;
    }
    order[0] = start;
    used[start] = 1;
    if (mindist)
        mindist[0] = INFINITY;
    for (size_t j = 0; j < n; j++)
        best[j] = dist2(x + j * d, x + start * d, d);
    for (size_t t = 1; t < len; t++) {
        size_t arg = n;
        double bmax = -1.0;
        for (size_t j = 0; j < n; j++)
            if (!used[j] && best[j] > bmax) {
                bmax = best[j];
                arg = j;
            }
        order[t] = arg;
        used[arg] = 1;
        if (mindist)
            mindist[t] = sqrt(bmax);
        if (t + 1 == len)
            break;                              /* the distances are not needed any more */
        const double *xa = x + arg * d;
        for (size_t j = 0; j < n; j++)
            if (!used[j]) {
                double s = dist2(x + j * d, xa, d);
                if (s < best[j])
                    best[j] = s;
            }
    }
    free(best);
    free(used);
    return AR_OK;
}
