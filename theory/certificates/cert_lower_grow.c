/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_lower_grow.c -- the greedy growth lower certificate (see cert_lower.h lower_grow_cap):
 * candidate rows join a set while LAPACK's estimate of eps ||M^{-1}||_inf for its block test
 * matrix stays below 1 (a guide only); the grown set is then certified by the block test matrix
 * (cert_lower_blocks.c, THEORY 3.4b: eps ||M^{-1}||_inf < 1).  proofs-notes/lower-certificates.md
 * 3.3 (lower_grow_cap, which factors) and 3.6 (the work control). */
#include "theory/certificates/cert_lower.h"
#include "theory/certificates/cert_lower_impl.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "base/blas.h"
#include "base/cancel.h"
#include "base/clock.h"
#include "numerics/amat.h"

/* Estimate of ||M^{-1}||_inf for an s x s block test matrix T (leading dimension ld), packed
 * into R and LU-factored by LAPACK: LAPACK's condition estimate (dgecon, a lower estimate of
 * ||M^{-1}||_inf) first, and when that is below the threshold `thr` the inverse (dgetri) and its
 * largest row l1 norm.  So a set is refused on the cheap estimate only when the inverse's norm
 * would refuse it too (up to rounding), and accepted only on the inverse's norm.  Not a
 * certificate (the chosen set is certified by lower_blocks_probe afterwards); +INFINITY if singular. */
static double grow_estimate(const double *T, size_t ld, size_t s, double *R, lapack_int *ipiv, double thr)
{
    double anorm = 0.0;
    for (size_t c = 0; c < s; c++)
        memcpy(R + c * s, T + c * ld, s * sizeof *R);
    for (size_t a = 0; a < s; a++) {
        double r = 0.0;
        for (size_t b = 0; b < s; b++)
            r += fabs(R[a + b * s]);
        anorm = r > anorm ? r : anorm;
    }
    if (LAPACKE_dgetrf(LAPACK_COL_MAJOR, (lapack_int)s, (lapack_int)s, R, (lapack_int)s, ipiv) != 0)
        return INFINITY;
    double rcond = 0.0;
    if (s >= 8 && LAPACKE_dgecon(LAPACK_COL_MAJOR, 'I', (lapack_int)s, R, (lapack_int)s, anorm, &rcond) == 0) {
        if (!(rcond > 0))
            return INFINITY;
        double lower = 1.0 / (rcond * anorm);
        if (!(lower < thr))
            return lower;                    /* refused: the inverse's norm is at least this */
    }
    if (LAPACKE_dgetri(LAPACK_COL_MAJOR, (lapack_int)s, R, (lapack_int)s, ipiv) != 0)
        return INFINITY;
    double worst = 0.0;
    for (size_t a = 0; a < s; a++) {
        double r = 0.0;
        for (size_t b = 0; b < s; b++)
            r += fabs(R[a + b * s]);
        if (!(r <= worst))
            worst = isnan(r) ? INFINITY : r;
    }
    return worst;
}

/* Contract: cert_lower.h.  lower_grow_ctl without a work control. */
ar_status lower_grow_cap(const smx_t *A, const size_t *cand, size_t ncand, double eps, size_t cap,
                         lower_cert_t *out, size_t *rows_out)
{
    return lower_grow_ctl(A, cand, ncand, eps, cap, NULL, out, rows_out);
}

/* Contract: cert_lower.h.  Greedy growth over cand (in order): a row joins when the estimated
 * eps ||M^{-1}|| of the grown set stays below 1 - 1e-6; the set is then certified rigorously. */
ar_status lower_grow_ctl(const smx_t *A, const size_t *cand, size_t ncand, double eps, size_t cap,
                         lower_ctl_t *ctl, lower_cert_t *out, size_t *rows_out)
{
    double t0 = clock_now(), tick = t0;
    memset(out, 0, sizeof *out);
    if (!lower_check_common(A, eps, "lower_grow"))
        return AR_EINVAL;
    if (ncand == 0 || !cand) {
        ar_error_set("lower_grow: no candidate rows");
        return AR_EINVAL;
    }
    ar_status rst = lower_rows_distinct(cand, ncand, A->m, "lower_grow", "candidates");
    if (rst)
        return rst;
    lower_set_trivial(out);
    size_t n = A->n, top = ncand < n ? ncand : n;
    if (cap < top)
        top = cap;                               /* sets above a certified upper end cannot certify */
    double *X = ar_calloc(ncand * n, sizeof *X, "candidate rows");
    size_t *S = X ? ar_calloc(ncand, sizeof *S, "grown rows") : NULL;
    size_t *rows = S ? ar_calloc(ncand, sizeof *rows, "grown row indices") : NULL;
    size_t *blk = rows ? ar_calloc(n, sizeof *blk, "column blocks") : NULL;
    size_t *tblk = blk ? ar_calloc(n, sizeof *tblk, "trial column blocks") : NULL;
    double *bv = tblk ? ar_calloc(n, sizeof *bv, "column maxima") : NULL;
    double *M = bv ? ar_calloc(top * top + 1, sizeof *M, "test matrix") : NULL;
    double *R = M ? ar_calloc(top * top + 1, sizeof *R, "test matrix inverse") : NULL;
    double *T = R ? ar_calloc(top * top + 1, sizeof *T, "trial test matrix") : NULL;
    lapack_int *ipiv = T ? ar_calloc(top + 1, sizeof *ipiv, "pivots") : NULL;
    if (!ipiv) {
        free(X); free(S); free(rows); free(blk); free(tblk); free(bv); free(M); free(R); free(T);
        return AR_ENOMEM;
    }
    amat_gather(A, cand, ncand, X, n, 1);
    blas_single_begin();             /* LAPACK's estimates on one BLAS thread (deterministic) */
    /* greedy: a candidate joins when the block test matrix of the grown set keeps
     * eps * ||M^{-1}|| below 1 - 1e-6 (estimated; the margin keeps the rigorous bound below 1).
     * M (leading dimension top) is the accepted set's block matrix, updated rather than summed
     * anew: a trial row's block sums, and the columns it takes over moved from their old blocks
     * to its block in every old row (O(n + moved s) per candidate instead of O(s n)); the
     * rounding differences from fresh sums are far below the margin */
    size_t s = 0, L = top;
    double thr = (1.0 - 1e-6) / eps;
    for (size_t t = 0; t < ncand && s < top; t++) {
        /* the estimate of a set of s + 1 rows: an LU (2/3 (s+1)^3), and the inverse when the
         * condition estimate passes (4/3 (s+1)^3 more); the budget is checked for both */
        double s1 = (double)(s + 1), cost = 2.0 * s1 * s1 * s1 + 2.0 * (double)n;
        if (s > 0 && lower_over_budget(ctl, cost)) {
            ctl->cut = 1;
            break;
        }
        lower_spend(ctl, cost);
        lower_tick(ctl, &tick, "lower: growth, candidate %zu of %zu, %zu rows kept", t, ncand, s);
        if (cancel_check()) {
            blas_single_end();
            free(X); free(S); free(rows); free(blk); free(tblk); free(bv); free(M); free(R); free(T); free(ipiv);
            return AR_ECANCELED;
        }
        const double *x = X + t * n;
        for (size_t c = 0; c < s; c++) {
            memcpy(T + c * L, M + c * L, s * sizeof *T);
            T[s + c * L] = 0.0;
        }
        for (size_t a = 0; a <= s; a++)
            T[a + s * L] = 0.0;
        for (size_t j = 0; j < n; j++) {
            size_t bj = (s == 0 || x[j] > bv[j]) ? s : blk[j];
            tblk[j] = bj;
            T[s + bj * L] += x[j];
            if (bj == s && s > 0) {
                size_t b0 = blk[j];
                for (size_t a = 0; a < s; a++) {
                    double v = X[S[a] * n + j];
                    T[a + b0 * L] -= v;
                    T[a + s * L] += v;
                }
            }
        }
        S[s] = t;
        double est = s == 0 ? 1.0 : grow_estimate(T, L, s + 1, R, ipiv, thr);
        if (s == 0 || (est < INFINITY && eps * est < 1.0 - 1e-6)) {
            for (size_t j = 0; j < n; j++)
                if (tblk[j] == s) {
                    blk[j] = s;
                    bv[j] = x[j];
                }
            s++;
            for (size_t c = 0; c < s; c++)
                memcpy(M + c * L, T + c * L, s * sizeof *M);
        }
    }
    blas_single_end();
    /* the certificate: the grown set through lower_blocks_probe (rigorous), dropping the last rows
     * if rounding ever put it above the threshold */
    for (size_t tries = 0; s >= 2 && tries < 8; tries++, s--) {
        for (size_t a = 0; a < s; a++)
            rows[a] = cand[S[a]];
        lower_cert_t probe;
        lower_blocks_probe(A, rows, s, eps, blk, M, &probe);
        if (probe.rank == s && probe.method != AR_METHOD_TRIVIAL) {
            *out = probe;
            if (rows_out)
                memcpy(rows_out, rows, s * sizeof *rows);
            break;
        }
    }
    free(X); free(S); free(rows); free(blk); free(tblk); free(bv); free(M); free(R); free(T); free(ipiv);
    out->seconds = clock_now() - t0;
    return AR_OK;
}
