/* SPDX-License-Identifier: GPL-3.0-or-later */
/* uncertified.c -- uncertified rank measures of an attention matrix (see
 * uncertified.h). */
#include "theory/heads/uncertified.h"

#include <math.h>
#include <stdlib.h>
#include "numerics/linalg.h"

ar_status uncertified_measures(const double *Q, size_t m, const double *K, size_t n, size_t d, double beta,
                               double eps, uncertified_t *u)
{
    double *A = ar_calloc(m * n, sizeof *A, "attention matrix");   /* column-major for LAPACK */
    if (!A)
        return AR_ENOMEM;
    for (size_t i = 0; i < m; i++) {
        double mx = -INFINITY, s = 0;
        for (size_t j = 0; j < n; j++) {
            double z = 0;
            for (size_t c = 0; c < d; c++)
                z += Q[i * d + c] * K[j * d + c];
            A[j * m + i] = beta * z;
            mx = fmax(mx, A[j * m + i]);
        }
        for (size_t j = 0; j < n; j++)
            s += (A[j * m + i] = exp(A[j * m + i] - mx));
        for (size_t j = 0; j < n; j++)
            A[j * m + i] /= s;
    }
    double *sv;
    ar_status st = la_svals(m, n, A, &sv);
    free(A);
    if (st)
        return st;
    size_t r = m < n ? m : n;
    double s1 = sv[0], tol = (double)(m > n ? m : n) * 0x1p-52 * s1, f2 = 0, sum = 0;
    u->numrank_default = u->numrank_eps = 0;
    for (size_t k = 0; k < r; k++) {
        u->numrank_default += sv[k] > tol;
        u->numrank_eps += sv[k] > eps * s1;
        f2 += sv[k] * sv[k];
        sum += sv[k];
    }
    double h = 0;
    for (size_t k = 0; k < r; k++)
        if (sv[k] > 0) {
            double p = sv[k] / sum;
            h -= p * log(p);
        }
    u->stable = s1 > 0 ? f2 / (s1 * s1) : 0;
    u->effective = exp(h);
    free(sv);
    return AR_OK;
}
