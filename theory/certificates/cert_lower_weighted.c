/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_lower_weighted.c -- the weighted test-matrix lower certificate (issue 24; see cert_lower.h
 * lower_weighted_cap): W = Z / c with Z an approximate right inverse of A_S found by iteratively
 * reweighted least norm and c >= ||Z||_r1 certified upward, so ||W||_r1 <= 1 and Theorem 3
 * applies: rank_eps(A) >= |S| when eps ||M^{-1}||_inf < 1, M = A_S W (Varah or the verified
 * inverse norm).  proofs-notes/lower-certificates.md 3.3 (weighted test matrices, Lemma A for
 * the product's rounding). */
#include "theory/certificates/cert_lower.h"
#include "theory/certificates/cert_lower_impl.h"

#include <cblas.h>
#include <fenv.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/blas.h"
#include "base/cancel.h"
#include "base/clock.h"
#include "numerics/amat.h"
#include "numerics/fround.h"
#include "numerics/invnorm.h"
#include "numerics/resid.h"

/* ---- weighted test matrices (issue 24): W = Z / c, Z an approximate right inverse of A_S ----
 *
 * For any Z (n x s) and c >= ||Z||_r1, W = Z / c has ||W||_r1 <= 1 (Theorem 3 allows any such W).
 * Z is found by an iteratively reweighted least-norm right inverse (a guide only): with weights
 * d_j > 0, Z = D X^T (X D X^T)^{-1} (X = A_S, s x n) is the right inverse of least
 * sum_j |Z_j|^2 / d_j; the weights of the keys whose rows of Z are long are lowered,
 * d_j <- d_j mean(r) / r_j (r_j = ||Z_j||_1), which levels the row norms towards the least
 * max_j ||Z_j||_1 = min ||Z||_r1.  Then M = A_S W ~ I / c, ||M^{-1}|| ~ c. */

#define WGT_ITERS 16            /* reweighting steps per evaluated set, at most */
#define WGT_GIVEUP 1.3          /* a set whose estimate is still above 1.3 / eps after 4 steps fails */
#define WGT_GIVEUP2 1.04        /* ... or above 1.04 / eps after 8 steps */
#define WGT_PROGRESS 0.003      /* ... and one whose estimate gains less than 0.3 % in 3 steps stops */
#define WGT_ENOUGH 0.93         /* an estimate below 0.93 / eps is enough (the probe certifies it) */

typedef struct {
    size_t s, n;
    double *X;      /* s x n, the chosen rows of the image (column-major, ld s) */
    double *T;      /* s x n scratch: X D^(1/2), then G^{-1} X D */
    double *Z;      /* s x n: Z^T of the best step */
    double *Z2;     /* s x n scratch: the product */
    double *G;      /* s x s */
    double *d, *dbest, *r;   /* n: weights, the best step's weights, row norms */
} wgt_work_t;

/* The IRLS steps on the rows X (s x n) from the weights w->d: *best = the least max_j ||Z_j||_1
 * seen (+INFINITY if none), w->Z its Z^T, w->dbest its weights.  LAPACK/BLAS on one thread. */
static double wgt_irls(wgt_work_t *w, int iters, double target)
{
    size_t s = w->s, n = w->n;
    double best = INFINITY, best3 = INFINITY;
    for (int it = 0; it < iters; it++) {
        /* early stops: far above the target after a few steps, no progress in three, or enough */
        if ((it >= 4 && best > WGT_GIVEUP * target) || (it >= 8 && best > WGT_GIVEUP2 * target) ||
            best < WGT_ENOUGH * target)
            break;
        if (it % 3 == 0) {
            if (it > 0 && best > best3 * (1.0 - WGT_PROGRESS))
                break;
            best3 = best;
        }
        for (size_t j = 0; j < n; j++) {
            double q = sqrt(w->d[j]);
            for (size_t b = 0; b < s; b++)
                w->T[b + j * s] = w->X[b + j * s] * q;
        }
        cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (int)s, (int)n, 1.0, w->T, (int)s, 0.0, w->G, (int)s);
        /* G^{-1} explicitly (s^3) and one product (2 s^2 n): faster than n triangular solves */
        if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (lapack_int)s, w->G, (lapack_int)s) != 0 ||
            LAPACKE_dpotri(LAPACK_COL_MAJOR, 'L', (lapack_int)s, w->G, (lapack_int)s) != 0)
            break;
        for (size_t j = 0; j < n; j++)
            for (size_t b = 0; b < s; b++)
                w->T[b + j * s] = w->X[b + j * s] * w->d[j];
        cblas_dsymm(CblasColMajor, CblasLeft, CblasLower, (int)s, (int)n, 1.0, w->G, (int)s, w->T, (int)s, 0.0,
                    w->Z2, (int)s);
        memcpy(w->T, w->Z2, s * n * sizeof *w->T);
        double mx = 0.0, mean = 0.0;
        for (size_t j = 0; j < n; j++) {
            double rj = 0.0;
            for (size_t b = 0; b < s; b++)
                rj += fabs(w->T[b + j * s]);
            w->r[j] = rj;
            mean += rj;
            if (!(rj <= mx))
                mx = rj;
        }
        if (!(mx < INFINITY))
            break;
        if (mx < best) {
            best = mx;
            memcpy(w->Z, w->T, s * n * sizeof *w->Z);
            memcpy(w->dbest, w->d, n * sizeof *w->d);
        }
        mean /= (double)n;
        double dm = 0.0;
        for (size_t j = 0; j < n; j++) {
            if (w->r[j] > 0)
                w->d[j] *= mean / w->r[j];
            dm += w->d[j];
        }
        dm /= (double)n;
        if (!(dm > 0 && dm < INFINITY))
            break;
        for (size_t j = 0; j < n; j++)
            w->d[j] /= dm;
    }
    return best;
}

typedef struct {
    size_t s, n;
    const double *Z;   /* s x n: Z^T */
    double *W;         /* s x n: W^T = Z^T / c */
    double c;          /* in: >= max_j ||Z_j||_1 is computed here */
    int ok;
} wgt_scale_ctx;

/* Body, FE_UPWARD: c >= max_j sum_b |Z_bj| (upward), then (FE_TOWARDZERO) W = Z / c2 with
 * c2 >= c (so |W_bj| <= |Z_bj| / c2 and sum_b |W_bj| <= 1), then (FE_UPWARD) the row sums of
 * |W| recomputed: ok when every one is <= 1. */
static FROUND_BODY void wgt_norm_up(void *arg)
{
    wgt_scale_ctx *x = arg;
    double c = 0.0;
    for (size_t j = 0; j < x->n; j++) {
        double r = 0.0;
        for (size_t b = 0; b < x->s; b++)
            r += fabs(x->Z[b + j * x->s]);
        if (!(r <= c))
            c = r;
    }
    x->c = c * (1.0 + 0x1p-40);      /* upward: >= c */
}

static FROUND_BODY void wgt_divide(void *arg)
{
    wgt_scale_ctx *x = arg;
    for (size_t t = 0; t < x->s * x->n; t++)
        x->W[t] = x->Z[t] / x->c;
}

static FROUND_BODY void wgt_check_up(void *arg)
{
    wgt_scale_ctx *x = arg;
    x->ok = 1;
    for (size_t j = 0; j < x->n; j++) {
        double r = 0.0;
        for (size_t b = 0; b < x->s; b++)
            r += fabs(x->W[b + j * x->s]);
        if (!(r <= 1.0))
            x->ok = 0;
    }
}

typedef struct {
    const smx_t *A;
    const size_t *rows;
    size_t s;
    const double *X, *W;   /* s x n each: the rows of a, W^T */
    double *Mmid;          /* s x s */
    double enorm;
} wgt_probe_ctx;

/* Body (FE_TONEAREST): Mmid = fl(X W) by dgemm (any order, blocking, threads: Lemma A). */
static FROUND_BODY void wgt_product(void *arg)
{
    wgt_probe_ctx *c = arg;
    size_t s = c->s, n = c->A->n;
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, (int)s, (int)s, (int)n, 1.0, c->X, (int)s, c->W, (int)s,
                0.0, c->Mmid, (int)s);
}

/* Body (FE_UPWARD): enorm >= ||M - Mmid||_inf, M = A_S W.  Row a: the enclosure, sum_b |((A - a)_S
 * W)_ab| <= sum_j |A_aj - a_aj| sum_b |W_jb| <= rowerr (||W||_r1 <= 1); the dot products of n
 * terms, sum_b |fl - exact| <= gamma_{n+1} sum_j |a_aj| sum_b |W_jb| + s n 2^-1073 (Lemma A with
 * its underflow term, per entry n 2^-1073). */
static FROUND_BODY void wgt_enorm(void *arg)
{
    wgt_probe_ctx *c = arg;
    size_t Am = c->A->m, n = c->A->n;
    const double *a = c->A->a;
    double g = resid_gamma(n + 1), under = (double)c->s * (double)n * 0x1p-1073, enorm = 0.0;
    for (size_t t = 0; t < c->s; t++) {
        size_t i = c->rows[t];
        double rho = 0.0;
        for (size_t j = 0; j < n; j++)
            rho += fabs(a[i + j * Am]);
        double e = c->A->rowerr[i] + g * rho + under;
        if (!(e <= enorm))
            enorm = e;
    }
    c->enorm = enorm;
}

/* The rigorous probe of the rows rows[0..s) with W^T = Z^T / c (Z^T: s x n): certified ||W||_r1
 * <= 1, Mmid, enorm, then Varah or the verified inverse norm (as lower_blocks_probe).  Wt, Mmid:
 * scratch (s n and s s doubles). */
static void wgt_probe(const smx_t *A, const size_t *rows, size_t s, const double *X, const double *Z, double *Wt,
                      double *Mmid, double eps, lower_cert_t *out)
{
    lower_set_trivial(out);
    wgt_scale_ctx sc = {.s = s, .n = A->n, .Z = Z, .W = Wt};
    fround_run(FE_UPWARD, wgt_norm_up, &sc);
    if (!(sc.c > 0 && sc.c < INFINITY))
        return;
    fround_run(FE_TOWARDZERO, wgt_divide, &sc);
    fround_run(FE_UPWARD, wgt_check_up, &sc);
    if (!sc.ok)
        return;
    wgt_probe_ctx pc = {.A = A, .rows = rows, .s = s, .X = X, .W = Wt, .Mmid = Mmid};
    fround_run(FE_TONEAREST, wgt_product, &pc);
    fround_run(FE_UPWARD, wgt_enorm, &pc);
    if (!(pc.enorm < INFINITY))
        return;
    for (size_t t = 0; t < s * s; t++)
        if (!isfinite(Mmid[t]))
            return;
    double vb = invnorm_varah_bound(s, Mmid, pc.enorm);
    if (lower_certifies(eps, vb)) {
        out->rank = s;
        out->invnorm = vb;
        out->method = AR_METHOD_DIAGDOM;
        return;
    }
    double ib = s >= 2 ? invnorm_inf_bound(s, Mmid, pc.enorm) : INFINITY;
    if (lower_certifies(eps, ib)) {
        out->rank = s;
        out->invnorm = ib;
        out->method = AR_METHOD_INVNORM;
    }
}

/* Contract: cert_lower.h.  lower_weighted_ctl without a work control. */
ar_status lower_weighted_cap(const smx_t *A, const size_t *cand, size_t ncand, size_t first, double eps,
                             size_t cap, lower_cert_t *out, size_t *rows_out, double *w_out)
{
    return lower_weighted_ctl(A, cand, ncand, first, eps, cap, NULL, out, rows_out, w_out);
}

/* Contract: cert_lower.h.  The longest prefix of cand (from first + 4, galloping, then
 * bisection) certified by a weighted test matrix W = Z / c; rows and W of the best on request. */
ar_status lower_weighted_ctl(const smx_t *A, const size_t *cand, size_t ncand, size_t first, double eps,
                             size_t cap, lower_ctl_t *ctl, lower_cert_t *out, size_t *rows_out, double *w_out)
{
    double t0 = clock_now(), tick = t0;
    memset(out, 0, sizeof *out);
    if (!lower_check_common(A, eps, "lower_weighted"))
        return AR_EINVAL;
    if (ncand == 0 || !cand || first > ncand) {
        ar_error_set("lower_weighted: no candidate rows (or first > ncand)");
        return AR_EINVAL;
    }
    ar_status rst = lower_rows_distinct(cand, ncand, A->m, "lower_weighted", "candidates");
    if (rst)
        return rst;
    lower_set_trivial(out);
    /* probes longer than cap fail without being computed (as lower_blocks_cap): the search takes
     * the uncapped path when cap is a certified upper end */
    size_t n = A->n, top = ncand < n ? ncand : n;
    if (first < 2)
        first = 1;
    if (top <= first || cap <= first) {
        out->seconds = clock_now() - t0;
        return AR_OK;
    }
    wgt_work_t w = {.n = n};
    w.X = ar_calloc(top * n, sizeof *w.X, "weighted rows");
    w.T = w.X ? ar_calloc(top * n, sizeof *w.T, "weighted scratch") : NULL;
    w.Z = w.T ? ar_calloc(top * n, sizeof *w.Z, "weighted right inverse") : NULL;
    w.Z2 = w.Z ? ar_calloc(top * n, sizeof *w.Z2, "weighted product") : NULL;
    double *Wt = w.Z2 ? ar_calloc(top * n, sizeof *Wt, "weighted test matrix") : NULL;
    w.G = Wt ? ar_calloc(top * top, sizeof *w.G, "weighted Gram") : NULL;
    double *Mmid = w.G ? ar_calloc(top * top, sizeof *Mmid, "weighted M") : NULL;
    w.d = Mmid ? ar_calloc(n, sizeof *w.d, "weights") : NULL;
    w.dbest = w.d ? ar_calloc(n, sizeof *w.dbest, "best weights") : NULL;
    w.r = w.dbest ? ar_calloc(n, sizeof *w.r, "row norms") : NULL;
    double *dok = w.r ? ar_calloc(n, sizeof *dok, "certified weights") : NULL;
    if (!dok) {
        free(w.X); free(w.T); free(w.Z); free(w.Z2); free(Wt); free(w.G); free(Mmid); free(w.d); free(w.dbest); free(w.r);
        return AR_ENOMEM;
    }
    for (size_t j = 0; j < n; j++)
        dok[j] = 1.0;
    blas_single_begin();
    /* one prefix length: IRLS from the last certified weights, then the rigorous probe */
    size_t best = 0, lo = first, hi = 0;
    lower_cert_t bestc;
    lower_set_trivial(&bestc);
    for (int phase = 0, step = 4;;) {
        size_t len;
        if (phase == 0) {
            len = first + (size_t)step;
            if (len > top)
                len = top;
        } else {
            if (hi - lo <= 1)
                break;
            len = lo + (hi - lo) / 2;
        }
        /* worst case of one prefix: WGT_ITERS reweighting steps and the check */
        double sl = (double)len, cost = (double)WGT_ITERS * (3.0 * sl * sl * (double)n + sl * sl * sl) +
                                       2.0 * sl * sl * (double)n + 4.0 * sl * sl * sl;
        if (len <= cap && lower_over_budget(ctl, cost)) {
            ctl->cut = 1;
            break;
        }
        if (len <= cap)
            lower_spend(ctl, cost);
        lower_tick(ctl, &tick, "lower: weighted test matrix of %zu rows", len);
        if (cancel_check()) {
            blas_single_end();
            free(w.X); free(w.T); free(w.Z); free(w.Z2); free(Wt); free(w.G); free(Mmid); free(w.d); free(w.dbest);
            free(w.r); free(dok);
            return AR_ECANCELED;
        }
        lower_cert_t pr;
        lower_set_trivial(&pr);
        w.s = len;
        if (len <= cap)
            amat_gather(A, cand, len, w.X, len, 0);
        memcpy(w.d, dok, n * sizeof *w.d);
        double est = len <= cap ? wgt_irls(&w, WGT_ITERS, 1.0 / eps) : INFINITY;
        if (est < INFINITY && eps * est < 1.0 - 1e-6)
            wgt_probe(A, cand, len, w.X, w.Z, Wt, Mmid, eps, &pr);
        int cert = pr.rank == len && pr.method != AR_METHOD_TRIVIAL;
        if (cert) {
            best = len;
            bestc = pr;
            lo = len;
            memcpy(dok, w.dbest, n * sizeof *dok);
            if (rows_out)
                memcpy(rows_out, cand, len * sizeof *rows_out);
            if (w_out)
                memcpy(w_out, Wt, len * n * sizeof *w_out);
        } else {
            hi = len;
        }
        if (phase == 0) {
            if (!cert || len == top) {
                phase = 1;
                if (cert)
                    break;
            } else {
                step *= 2;
            }
        }
    }
    blas_single_end();
    if (best > 0)
        *out = bestc;
    free(w.X); free(w.T); free(w.Z); free(w.Z2); free(Wt); free(w.G); free(Mmid); free(w.d); free(w.dbest); free(w.r); free(dok);
    out->seconds = clock_now() - t0;
    return AR_OK;
}
