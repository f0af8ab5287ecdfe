/* resid.c -- certified ||A - U V^T||_r1 at BLAS speed.
 *
 * Error analysis (u = 2^-53, round-to-nearest; gamma_j = j u / (1 - j u)).
 * The dgemm call computes C_ij = fl(a_ij - sum_c U_ic V_jc), a floating-point
 * sum of the k+1 terms a_ij, -U_i1 V_j1, ..., -U_ik V_jk, in an order we do
 * not know (blocking, threads, SIMD lanes), with or without FMA.  Whatever
 * the summation tree, each term passes through at most k+1 roundings (one
 * product, at most k additions; an FMA fuses a product and an addition into
 * one rounding), and alpha = -1, beta = 1 are exact scalings.  Without
 * underflow the standard argument (Higham, ASNA 2nd ed., sec. 3.1 and 3.5)
 * gives
 *     |C_ij - (a_ij - (U V^T)_ij)| <= gamma_{k+1} (|a_ij| + (|U||V|^T)_ij).
 * Underflow: additions of floating-point numbers are exact when the result
 * is subnormal, so underflow errors arise only in the (at most k) products /
 * FMAs, each at most 2^-1075 in absolute value and later multiplied by at
 * most (1 + u)^k < 2; we add the generous (k+1) 2^-1074 per entry, that is
 * n (k+1) 2^-1074 per row.  Overflow turns C non-finite and is detected.
 * Hence, with A the exact matrix and sum_j |A_ij - a_ij| <= rowerr_i,
 *     sum_j |A_ij - (U V^T)_ij|
 *       <= sum_j |C_ij| + gamma_{k+1} (sum_j |a_ij| + sum_c |U_ic| colsum_c(|V|))
 *          + n (k+1) 2^-1074 + rowerr_i,
 * because sum_j (|U||V|^T)_ij = sum_c |U_ic| sum_j |V_jc| exactly.  Every
 * term is nonnegative and is accumulated with FE_UPWARD in our own loops
 * (compiled with -frounding-math), so the computed value is an upper bound.
 * The dgemm itself runs in round-to-nearest (OpenBLAS worker threads ignore
 * the caller's rounding mode, so the a-priori bound is the right tool). */
#include "numerics/resid.h"
#include "numerics/status.h"

#include <cblas.h>
#include <fenv.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double resid_gamma(size_t k)
{
    if (k == 0)
        return 0.0;
    int mode = fegetround();
    double r;
    fesetround(FE_UPWARD);
    volatile double kd = (double)k;  /* exact for k <= 2^53, else rounded up */
    double ku = kd * 0x1p-53;        /* >= k u */
    if (!(ku < 1.0)) {
        r = INFINITY;
    } else {
        fesetround(FE_DOWNWARD);
        volatile double den = 1.0 - ku; /* <= 1 - k u */
        fesetround(FE_UPWARD);
        r = den > 0 ? ku / den : INFINITY;
    }
    fesetround(mode);
    return r;
}

static int all_finite(const double *x, size_t rows, size_t cols, size_t ld)
{
    for (size_t j = 0; j < cols; j++)
        for (size_t i = 0; i < rows; i++)
            if (!isfinite(x[i + j * ld]))
                return 0;
    return 1;
}

double resid_r1_bound(size_t m, size_t n, size_t k, const double *a, const double *rowerr,
                      const double *U, size_t ldu, const double *V, size_t ldv, double *work)
{
    if (m == 0)
        return 0.0;
    if (!a || m > INT_MAX || n > INT_MAX || k > INT_MAX)
        return INFINITY;
    if (k > 0 && (!U || !V || ldu < m || ldv < (n ? n : 1) || ldu > INT_MAX || ldv > INT_MAX))
        return INFINITY;
    if (!all_finite(a, m, n, m))
        return INFINITY;
    if (rowerr)
        for (size_t i = 0; i < m; i++)
            if (!isfinite(rowerr[i]) || rowerr[i] < 0)
                return INFINITY;
    if (k > 0 && (!all_finite(U, m, k, ldu) || !all_finite(V, n, k, ldv)))
        return INFINITY;

    double *C = work;
    int own = 0;
    if (!C && n > 0) {
        C = ar_calloc(m * n, sizeof(double), "residual scratch");
        if (!C)
            return INFINITY;
        own = 1;
    }
    double *rc = ar_calloc(2 * m + k, sizeof(double), "residual row sums");
    if (!rc) {
        if (own)
            free(C);
        return INFINITY;
    }
    double *ra = rc + m, *cv = rc + 2 * m;

    int mode = fegetround();
    fesetround(FE_TONEAREST);
    if (n > 0) {
        memcpy(C, a, m * n * sizeof(double));
        if (k > 0)
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, (int)m, (int)n, (int)k, -1.0, U,
                        (int)ldu, V, (int)ldv, 1.0, C, (int)m);
    }
    double g = resid_gamma(k + 1);

    fesetround(FE_UPWARD);
    /* rc_i >= sum_j |C_ij|, ra_i >= sum_j |a_ij| */
    for (size_t j = 0; j < n; j++) {
        const double *cj = C + j * m, *aj = a + j * m;
        for (size_t i = 0; i < m; i++) {
            rc[i] += fabs(cj[i]);
            ra[i] += fabs(aj[i]);
        }
    }
    double bound = 0;
    if (k > 0) {
        /* cv_c >= sum_j |V_jc|; then ra_i += sum_c |U_ic| cv_c */
        for (size_t c = 0; c < k; c++) {
            double s = 0;
            for (size_t j = 0; j < n; j++)
                s += fabs(V[j + c * ldv]);
            cv[c] = s;
        }
        for (size_t c = 0; c < k; c++)
            for (size_t i = 0; i < m; i++)
                ra[i] += fabs(U[i + c * ldu]) * cv[c];
        volatile double nk = (double)n * (double)(k + 1);
        double under = nk * 0x1p-1074;
        for (size_t i = 0; i < m; i++) {
            double b = rc[i] + g * ra[i] + under + (rowerr ? rowerr[i] : 0.0);
            if (!(b <= INFINITY) || isinf(b)) { /* NaN or overflow */
                bound = INFINITY;
                break;
            }
            if (b > bound)
                bound = b;
        }
    } else {
        /* U V^T = 0: C = a exactly */
        for (size_t i = 0; i < m; i++) {
            double b = rc[i] + (rowerr ? rowerr[i] : 0.0);
            if (!(b <= INFINITY) || isinf(b)) {
                bound = INFINITY;
                break;
            }
            if (b > bound)
                bound = b;
        }
    }
    fesetround(mode);
    free(rc);
    if (own)
        free(C);
    return bound;
}
