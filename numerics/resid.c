/* resid.c -- certified ||A - U V^T||_r1 at BLAS speed.
 *
 * Error analysis (u = 2^-52, valid in every IEEE rounding mode; gamma_j =
 * j u / (1 - j u)).  The dgemm call computes C_ij = fl(a_ij - sum_c U_ic V_jc),
 * a floating-point sum of the k+1 terms a_ij, -U_i1 V_j1, ..., -U_ik V_jk, in
 * an order we do not know (blocking, threads, SIMD lanes), with or without
 * FMA.  Whatever the summation tree, each term passes through at most k+1
 * roundings (one product, at most k additions; an FMA fuses a product and an
 * addition into one rounding), and alpha = -1, beta = 1 are exact scalings.
 * Every rounding satisfies fl(z) = z (1 + delta) + eta with |delta| < 2^-52
 * in any rounding mode (2^-53 in round-to-nearest), so the bound below does
 * not depend on the mode of the OpenBLAS worker threads, which do not follow
 * the caller's fesetround.  Without underflow the standard argument (Higham,
 * ASNA 2nd ed., sec. 3.1 and 3.5) gives
 *     |C_ij - (a_ij - (U V^T)_ij)| <= gamma_{k+1} (|a_ij| + (|U||V|^T)_ij).
 * Underflow: additions of floating-point numbers are exact when the result
 * is subnormal, so underflow errors arise only in the (at most k) products /
 * FMAs, each below 2^-1074 in absolute value in any mode and later multiplied
 * by at most (1 + 2^-52)^k < 2; we add the generous (k+1) 2^-1073 per entry,
 * that is n (k+1) 2^-1073 per row.  Overflow turns C non-finite and is
 * detected.  Hence, with A the exact matrix and sum_j |A_ij - a_ij| <= rowerr_i,
 *     sum_j |A_ij - (U V^T)_ij|
 *       <= sum_j |C_ij| + gamma_{k+1} (sum_j |a_ij| + sum_c |U_ic| colsum_c(|V|))
 *          + n (k+1) 2^-1073 + rowerr_i,
 * because sum_j (|U||V|^T)_ij = sum_c |U_ic| sum_j |V_jc| exactly.  Every
 * term is nonnegative and is accumulated in FE_UPWARD in a fround body
 * (numerics/fround.h), so the computed value is an upper bound.  The dgemm
 * is still called in round-to-nearest (its result does not depend on the
 * caller's mode), but the bound does not rely on it. */
#include "numerics/resid.h"
#include "numerics/fround.h"
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
    if (k > ((size_t)1 << 52))      /* k u >= 1 */
        return INFINITY;
    double ku = (double)k * 0x1p-52; /* exact: k <= 2^52 */
    if (!(ku < 1.0))
        return INFINITY;
    double den = fround_sub_down(1.0, ku); /* <= 1 - k u */
    return den > 0 ? fround_div_up(ku, den) : INFINITY;
}

static int all_finite(const double *x, size_t rows, size_t cols, size_t ld)
{
    for (size_t j = 0; j < cols; j++)
        for (size_t i = 0; i < rows; i++)
            if (!isfinite(x[i + j * ld]))
                return 0;
    return 1;
}

typedef struct {
    size_t m, n, k;
    const double *a, *rowerr, *U, *V;
    size_t ldu, ldv;
    double *C, *rc;     /* scratch: C (m*n), rc (2m + k) */
    double g;           /* >= gamma_{k+1} */
    double bound;       /* out */
} resid_ctx;

/* Body (round-to-nearest): C = a - U V^T by one dgemm. */
static FROUND_BODY void resid_dgemm(void *arg)
{
    resid_ctx *x = arg;
    size_t m = x->m, n = x->n, k = x->k;
    if (n > 0) {
        memcpy(x->C, x->a, m * n * sizeof(double));
        if (k > 0)
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, (int)m, (int)n, (int)k, -1.0,
                        x->U, (int)x->ldu, x->V, (int)x->ldv, 1.0, x->C, (int)m);
    }
}

/* Body, in FE_UPWARD: the row sums and the bound (see the analysis above). */
static FROUND_BODY void resid_sums(void *arg)
{
    resid_ctx *x = arg;
    size_t m = x->m, n = x->n, k = x->k, ldu = x->ldu, ldv = x->ldv;
    const double *C = x->C, *a = x->a, *U = x->U, *V = x->V, *rowerr = x->rowerr;
    double g = x->g;
    double *rc = x->rc, *ra = rc + m, *cv = rc + 2 * m;
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
        double under = ((double)n * (double)(k + 1)) * 0x1p-1073;
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
    x->bound = bound;
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
    resid_ctx rx = {.m = m, .n = n, .k = k, .a = a, .rowerr = rowerr, .U = U, .ldu = ldu,
                    .V = V, .ldv = ldv, .C = C, .rc = rc};
    fround_run(FE_TONEAREST, resid_dgemm, &rx);
    rx.g = resid_gamma(k + 1);
    fround_run(FE_UPWARD, resid_sums, &rx);
    double bound = rx.bound;
    free(rc);
    if (own)
        free(C);
    return bound;
}
