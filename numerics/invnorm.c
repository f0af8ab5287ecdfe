/* invnorm.c -- verified upper bounds on ||M^{-1}||_inf.
 *
 * invnorm_inf_bound: let R ~ Mmid^{-1} (LAPACK dgetrf + dgetri) and
 * Gc = fl(I - R Mmid) computed by one dgemm in round-to-nearest.  As in
 * resid.c, each entry is a floating-point sum of m+1 terms (delta_ij and the
 * m products -R_il M_lj), so
 *     |Gc_ij - (I - R Mmid)_ij| <= gamma_{m+1} (delta_ij + (|R||Mmid|)_ij) + (m+1) 2^-1074.
 * The row sums of |R||Mmid| are computed exactly as sum_l |R_il| rowsum_l(|Mmid|)
 * with upward rounding (cheaper and tighter than inflating a second dgemm).
 * With M = Mmid + E, ||E||_inf <= enorm:
 *     ||I - R M||_inf <= max_i [ sum_j |Gc_ij| + gamma_{m+1} (1 + sum_j (|R||Mmid|)_ij)
 *                                + m (m+1) 2^-1074 ] + ||R||_inf enorm  =: alpha,
 * all accumulated upward.  If alpha < 1 then R M is invertible (Neumann
 * series), hence the square M is, M^{-1} = (R M)^{-1} R and
 *     ||M^{-1}||_inf <= ||R||_inf / (1 - alpha)
 * (denominator rounded down, quotient rounded up). */
#include "numerics/invnorm.h"
#include "numerics/resid.h"
#include "numerics/status.h"

#include <cblas.h>
#include <fenv.h>
#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int finite_vec(const double *x, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

double invnorm_inf_bound(size_t m, const double *Mmid, double enorm)
{
    if (m == 0 || !Mmid || m > INT_MAX || !isfinite(enorm) || enorm < 0)
        return INFINITY;
    if (m > ((size_t)-1) / m || !finite_vec(Mmid, m * m))
        return INFINITY;

    double *R = ar_calloc(m * m, sizeof(double), "inverse-norm R");
    double *G = R ? ar_calloc(m * m, sizeof(double), "inverse-norm G") : NULL;
    double *sums = G ? ar_calloc(4 * m, sizeof(double), "inverse-norm sums") : NULL;
    lapack_int *ipiv = sums ? ar_calloc(m, sizeof(lapack_int), "inverse-norm pivots") : NULL;
    double result = INFINITY;
    int mode = fegetround();
    if (!ipiv)
        goto done;

    fesetround(FE_TONEAREST);
    memcpy(R, Mmid, m * m * sizeof(double));
    if (LAPACKE_dgetrf(LAPACK_COL_MAJOR, (lapack_int)m, (lapack_int)m, R, (lapack_int)m, ipiv) != 0)
        goto done;
    if (LAPACKE_dgetri(LAPACK_COL_MAJOR, (lapack_int)m, R, (lapack_int)m, ipiv) != 0)
        goto done;
    if (!finite_vec(R, m * m))
        goto done;
    for (size_t i = 0; i < m; i++)
        G[i + i * m] = 1.0;
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)m, (int)m, -1.0, R,
                (int)m, Mmid, (int)m, 1.0, G, (int)m);
    double g = resid_gamma(m + 1);

    fesetround(FE_UPWARD);
    double *rM = sums, *rRM = sums + m, *rG = sums + 2 * m, *rR = sums + 3 * m;
    for (size_t j = 0; j < m; j++)
        for (size_t i = 0; i < m; i++) {
            rM[i] += fabs(Mmid[i + j * m]);
            rG[i] += fabs(G[i + j * m]);
            rR[i] += fabs(R[i + j * m]);
        }
    for (size_t l = 0; l < m; l++)
        for (size_t i = 0; i < m; i++)
            rRM[i] += fabs(R[i + l * m]) * rM[l];
    volatile double mm = (double)m * (double)(m + 1);
    double under = mm * 0x1p-1074;
    double alpha0 = 0, rnorm = 0;
    for (size_t i = 0; i < m; i++) {
        double t = rG[i] + g * (1.0 + rRM[i]) + under;
        if (!(t <= alpha0))
            alpha0 = isnan(t) ? INFINITY : t;
        if (!(rR[i] <= rnorm))
            rnorm = isnan(rR[i]) ? INFINITY : rR[i];
    }
    double alpha = alpha0 + rnorm * enorm;
    if (!(alpha < 1.0) || !isfinite(rnorm))
        goto done;
    fesetround(FE_DOWNWARD);
    volatile double den = 1.0 - alpha;
    fesetround(FE_UPWARD);
    if (den > 0)
        result = rnorm / den;

done:
    fesetround(mode);
    free(ipiv);
    free(sums);
    free(G);
    free(R);
    return result;
}

/* Varah: for a strictly row-diagonally-dominant M, ||M^{-1}||_inf <= 1 / min_i
 * (|M_ii| - sum_{j != i} |M_ij|).  With M = Mmid + E, each row's margin is at
 * least |Mmid_ii| - sum_{j != i} |Mmid_ij| - enorm; the off-diagonal sums are
 * accumulated upward, the margins downward, the reciprocal upward. */
double invnorm_varah_bound(size_t m, const double *Mmid, double enorm)
{
    if (m == 0 || !Mmid || !isfinite(enorm) || enorm < 0)
        return INFINITY;
    if (m > ((size_t)-1) / m || !finite_vec(Mmid, m * m))
        return INFINITY;
    double *off = ar_calloc(m, sizeof(double), "Varah sums");
    if (!off)
        return INFINITY;
    int mode = fegetround();
    fesetround(FE_UPWARD);
    for (size_t j = 0; j < m; j++)
        for (size_t i = 0; i < m; i++)
            if (i != j)
                off[i] += fabs(Mmid[i + j * m]);
    fesetround(FE_DOWNWARD);
    double delta = INFINITY;
    for (size_t i = 0; i < m; i++) {
        double t = fabs(Mmid[i + i * m]) - off[i] - enorm;
        if (!(t >= delta))
            delta = t;
    }
    double result = INFINITY;
    if (delta > 0 && isfinite(delta)) {
        fesetround(FE_UPWARD);
        volatile double one = 1.0;
        result = one / delta;
    }
    fesetround(mode);
    free(off);
    return result;
}
