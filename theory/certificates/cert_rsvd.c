/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_rsvd.c -- randomized upper certificates (see cert_rsvd.h). */
#include "theory/certificates/cert_rsvd.h"

#include <cblas.h>
#include <fenv.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "numerics/clock.h"
#include "numerics/fround.h"
#include "numerics/blas_select.h"
#include "numerics/linalg.h"
#include "numerics/resid.h"
#include "numerics/rng.h"
#include "numerics/tsqr.h"

#define RSVD_LADDER 16      /* ranks per residual pass */
#define RSVD_FINE 24        /* a gap of at most this many ranks is probed rank by rank */
#define RSVD_SAMPLE 384     /* rows on which the rank to certify is guessed */
#define RSVD_GUESS 14       /* ranks certified from the guess on in the first full pass */

/* The sketch's factorisations (QR and SVD of tall l-column matrices, eigendecomposition, pivoted
 * QR) run with one BLAS thread each: LAPACK's results moved at rounding level with
 * OPENBLAS_NUM_THREADS (a certified error in the 14th digit), and the numbers must not depend on
 * the thread count.  The tall QR and SVD split their rows into two fixed halves on attnrank's two
 * threads (numerics/tsqr.h: the same bits for any thread count).  The products with A keep
 * every thread (numerics/amat.h). */
static ar_status orth1(size_t m, size_t l, double *Y)
{
    blas_single_begin();
    ar_status st = tsqr_orth(m, l, Y);
    blas_single_end();
    return st;
}

static ar_status svd1(size_t m, size_t n, const double *a, double **U, double **s, double **VT)
{
    blas_single_begin();
    ar_status st = m >= n ? tsqr_svd(m, n, a, U, s, VT) : la_svd(m, n, a, U, s, VT);
    blas_single_end();
    return st;
}

static ar_status syev1(size_t n, const double *a, double **w, double **Z)
{
    blas_single_begin();
    ar_status st = la_syev(n, a, w, Z);
    blas_single_end();
    return st;
}

void rsvd_opts_default(rsvd_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->l0 = 64;
    o->power = 2;
    o->seed = RSVD_SEED;
}

static void say(const rsvd_opts_t *o, const char *fmt, size_t a, size_t b)
{
    if (!o->progress)
        return;
    char msg[160];
    snprintf(msg, sizeof msg, fmt, a, b);
    o->progress(o->progress_ctx, msg);
}

typedef struct {
    const double *U, *V, *cv;
    size_t m, n, kmax;
    const size_t *ks;
    size_t nk;
    double *work, *bound;
    double *rowbound;     /* NULL, or m x nk per-row bounds (leading dimension m) */
} cert_ctx;

static ar_status cert_block(void *arg, const amat_block_t *blk)
{
    cert_ctx *c = arg;
    resid_block_t B = {.b = blk->b, .n = c->n, .a = blk->a, .lda = blk->lda, .rowmajor = blk->rowmajor,
                       .rowerr = blk->rowerr, .U = c->U + blk->i0, .ldu = c->m, .V = c->V, .ldv = c->n,
                       .cv = c->cv, .ks = c->ks, .nk = c->nk,
                       .rowbound = c->rowbound ? c->rowbound + blk->i0 : NULL, .ldr = c->m};
    resid_block_multi(&B, c->work, c->bound);
    return AR_OK;
}

ar_status rsvd_certify_ranks(amat_t *M, const double *U, const double *V, size_t kmax, const size_t *ks,
                             size_t nk, double *err)
{
    return rsvd_certify_rows(M, U, V, kmax, ks, nk, err, NULL);
}

ar_status rsvd_certify_rows(amat_t *M, const double *U, const double *V, size_t kmax, const size_t *ks,
                            size_t nk, double *err, double *rowbound)
{
    size_t m = M->m, n = M->n;
    size_t b = amat_block_rows(M);
    double *cv = ar_calloc(kmax ? kmax : 1, sizeof *cv, "residual column sums");
    double *work = cv ? ar_calloc(b * n, sizeof *work, "residual block") : NULL;
    if (!work) {
        free(cv);
        return AR_ENOMEM;
    }
    resid_colsums_up(n, kmax, V, n, cv);
    for (size_t t = 0; t < nk; t++)
        err[t] = 0.0;
    cert_ctx c = {.U = U, .V = V, .cv = cv, .m = m, .n = n, .kmax = kmax, .ks = ks, .nk = nk,
                  .work = work, .bound = err, .rowbound = rowbound};
    ar_status st = amat_visit(M, cert_block, &c);
    free(cv);
    free(work);
    return st;
}

/* X <- diag(f) X (n x l), f = t or 1/t. */
static void scale_rows(size_t n, size_t l, double *X, const double *t, int inverse)
{
    for (size_t c = 0; c < l; c++)
        for (size_t i = 0; i < n; i++)
            X[i + c * n] = inverse ? X[i + c * n] / t[i] : X[i + c * n] * t[i];
}

/* Y = S X with S = T A T^{-1} (X is overwritten by T^{-1} X). */
static ar_status sym_apply(amat_t *M, size_t l, const double *t, double *X, double *Y)
{
    scale_rows(M->n, l, X, t, 1);
    ar_status st = amat_mul(M, l, X, Y);
    if (st == AR_OK)
        scale_rows(M->n, l, Y, t, 0);
    return st;
}

/* The range found so far: Q (rows x l, orthonormal columns; rows = m for rsvd, n for rsym) and
 * P = A^T Q (rsvd, n x l) or P = S Q (rsym, n x l).  Extending it by more columns reuses every
 * product already made (issue 24: a sketch that is too small is extended, never redrawn). */
typedef struct {
    size_t rows, l;
    double *Q, *P;
} sketch_t;

static void sketch_clear(sketch_t *sk)
{
    free(sk->Q);
    free(sk->P);
    memset(sk, 0, sizeof *sk);
}

/* Y (rows x c) <- Y - Q (Q^T Y): the part of Y outside the range found so far. */
static ar_status deflate(const sketch_t *sk, size_t c, double *Y)
{
    if (sk->l == 0)
        return AR_OK;
    double *T = ar_calloc(sk->l * c, sizeof *T, "sketch projection");
    if (!T)
        return AR_ENOMEM;
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)sk->l, (int)c, (int)sk->rows, 1.0, sk->Q,
                (int)sk->rows, Y, (int)sk->rows, 0.0, T, (int)sk->l);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)sk->rows, (int)c, (int)sk->l, -1.0, sk->Q,
                (int)sk->rows, T, (int)sk->l, 1.0, Y, (int)sk->rows);
    free(T);
    return AR_OK;
}

/* Extend the range to lnew columns: c = lnew - l new Gaussian columns (seed), the power
 * iterations of HMT Algorithm 4.4 on them (rsvd: Y = (A A^T)^q A Omega; rsym: Y = S^{q+1} Omega),
 * kept orthogonal to the columns found before (deflated before each orthonormalisation, twice at
 * the end), then P's new columns.  For the first sketch (l = 0) this is exactly the range finder
 * of one sketch of lnew columns.  Cost (2q + 2) (rsvd) or (q + 2) (rsym) products with c columns. */
static ar_status sketch_extend(amat_t *M, const double *t, sketch_t *sk, size_t lnew, int q, uint64_t seed,
                               const rsvd_opts_t *o)
{
    size_t m = M->m, n = M->n, rows = t ? n : m, c = lnew - sk->l;
    double *Om = ar_calloc(n * c, sizeof *Om, "sketch Omega");
    double *Y = Om ? ar_calloc(rows * c, sizeof *Y, "sketch Y") : NULL;
    size_t lim = ar_max_alloc() / sizeof(double);     /* realloc: the allocation bound checked here */
    double *Q2 = Y && rows * lnew <= lim && n * lnew <= lim ? realloc(sk->Q, rows * lnew * sizeof *Q2) : NULL;
    if (Q2)
        sk->Q = Q2;
    double *P2 = Q2 ? realloc(sk->P, n * lnew * sizeof *P2) : NULL;
    if (P2)
        sk->P = P2;
    if (!P2) {
        free(Om);
        free(Y);
        if (Y)
            ar_error_set("rsvd: out of memory extending the sketch to %zu columns", lnew);
        return AR_ENOMEM;
    }
    sk->rows = rows;
    rng_t r;
    rng_init(&r, seed);
    for (size_t k = 0; k < n * c; k++)
        Om[k] = rng_normal(&r);
    ar_status st = t ? sym_apply(M, c, t, Om, Y) : amat_mul(M, c, Om, Y);
    for (int it = 0; it < q && st == AR_OK; it++) {
        say(o, t ? "rsym: power iteration %zu of %zu" : "rsvd: power iteration %zu of %zu", (size_t)it + 1,
            (size_t)q);
        if ((st = deflate(sk, c, Y)) || (st = orth1(rows, c, Y)))
            break;
        if (t) {
            memcpy(Om, Y, n * c * sizeof *Om);
            st = sym_apply(M, c, t, Om, Y);
        } else if ((st = amat_tmul(M, c, Y, Om)) == AR_OK && (st = orth1(n, c, Om)) == AR_OK) {
            st = amat_mul(M, c, Om, Y);
        }
    }
    if (st == AR_OK && (st = deflate(sk, c, Y)) == AR_OK && (st = orth1(rows, c, Y)) == AR_OK && sk->l > 0 &&
        (st = deflate(sk, c, Y)) == AR_OK)
        st = orth1(rows, c, Y);                          /* re-orthogonalised against the old columns */
    if (st == AR_OK) {
        memcpy(sk->Q + rows * sk->l, Y, rows * c * sizeof *Y);
        if (t) {
            memcpy(Om, Y, n * c * sizeof *Om);
            st = sym_apply(M, c, t, Om, sk->P + n * sk->l); /* P = S Q */
        } else {
            st = amat_tmul(M, c, Y, sk->P + n * sk->l);     /* P = A^T Q = B^T */
        }
    }
    if (st == AR_OK)
        sk->l = lnew;
    free(Om);
    free(Y);
    return st;
}

/* Rank-l factors U (m x l), V (n x l) of the randomized range finder from its range:
 * B^T = P = Uz diag(s) WT, A ~ Q B = (Q WT^T diag(s)) Uz^T. */
static ar_status svd_factors(const sketch_t *sk, size_t m, size_t n, double **Uo, double **Vo)
{
    size_t l = sk->l;
    *Uo = *Vo = NULL;
    double *Uz = NULL, *s = NULL, *WT = NULL;
    ar_status st = svd1(n, l, sk->P, &Uz, &s, &WT);
    if (st != AR_OK)
        return st;
    double *U = ar_calloc(m * l, sizeof *U, "sketch U");
    if (!U) {
        free(Uz); free(s); free(WT);
        return AR_ENOMEM;
    }
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, (int)m, (int)l, (int)l, 1.0, sk->Q, (int)m, WT, (int)l, 0.0,
                U, (int)m);
    for (size_t c = 0; c < l; c++)
        for (size_t i = 0; i < m; i++)
            U[i + c * m] *= s[c];
    free(s); free(WT);
    *Uo = U;
    *Vo = Uz;
    return AR_OK;
}

/* Rank-l factors of the randomized eigendecomposition of S = T A T^{-1} (self-attention,
 * upper-certificates.md section 3) from its range: C = Q^T S Q symmetrised, C = W Lambda W^T,
 * Z = Q W (eigenvalues descending), U = T^{-1} Z Lambda, V = T Z. */
static ar_status sym_factors(const sketch_t *sk, const double *t, size_t n, double **Uo, double **Vo)
{
    size_t l = sk->l;
    *Uo = *Vo = NULL;
    double *C = ar_calloc(l * l, sizeof *C, "sketch C");
    if (!C)
        return AR_ENOMEM;
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)l, (int)l, (int)n, 1.0, sk->Q, (int)n, sk->P, (int)n,
                0.0, C, (int)l);
    for (size_t a = 0; a < l; a++)
        for (size_t b = a + 1; b < l; b++)
            C[a + b * l] = C[b + a * l] = 0.5 * (C[a + b * l] + C[b + a * l]);
    double *lam = NULL, *W = NULL;
    ar_status st = syev1(l, C, &lam, &W);
    free(C);
    if (st != AR_OK)
        return st;
    double *Wd = ar_calloc(l * l, sizeof *Wd, "sketch W");
    double *X = Wd ? ar_calloc(n * l, sizeof *X, "sketch U") : NULL;
    double *Y = X ? ar_calloc(n * l, sizeof *Y, "sketch V") : NULL;
    if (!Y) {
        free(Wd); free(X); free(lam); free(W);
        return AR_ENOMEM;
    }
    /* Z = Q W with the columns in descending eigenvalue order (la_syev: ascending) */
    for (size_t c = 0; c < l; c++)
        memcpy(Wd + c * l, W + (l - 1 - c) * l, l * sizeof *Wd);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)l, (int)l, 1.0, sk->Q, (int)n, Wd, (int)l,
                0.0, Y, (int)n);                           /* Y = Z */
    for (size_t c = 0; c < l; c++) {
        double lc = lam[l - 1 - c];
        for (size_t i = 0; i < n; i++) {
            X[i + c * n] = Y[i + c * n] * lc / t[i];   /* U */
            Y[i + c * n] *= t[i];                      /* V */
        }
    }
    free(Wd); free(lam); free(W);
    *Uo = X;
    *Vo = Y;
    return AR_OK;
}

/* *hi = the least certified rank (state 2; 0: none, *best its error) and *lo = the largest
 * refuted rank (state 1) below it (0: none), over every rank probed so far with these factors. */
static void lo_hi(const unsigned char *state, const double *errk, size_t l, size_t *lo, size_t *hi, double *best)
{
    *hi = *lo = 0;
    for (size_t k = 1; k <= l && !*hi; k++)
        if (state[k] == 2) {
            *hi = k;
            *best = errk[k];
        }
    if (*hi)
        for (size_t k = *hi - 1; k >= 1 && !*lo; k--)
            if (state[k] == 1)
                *lo = k;
}

/* Certified error of each rank in ks, recorded in state[k] (1 refuted, 2 certified); rows (NULL,
 * or m x nk) receives the per-row bounds; then lo_hi over every rank probed so far. */
static ar_status probe(amat_t *M, const double *U, const double *V, size_t l, const size_t *ks, size_t nk,
                       double eps, unsigned char *state, double *errk, size_t *lo, size_t *hi, double *best,
                       rsvd_info_t *info, double *rows)
{
    double err[RSVD_FINE + RSVD_LADDER];
    ar_status st = rsvd_certify_rows(M, U, V, l, ks, nk, err, rows);
    if (st)
        return st;
    info->probes += nk;
    for (size_t t = 0; t < nk; t++) {
        state[ks[t]] = err[t] <= eps ? 2 : 1;
        errk[ks[t]] = err[t];
    }
    lo_hi(state, errk, l, lo, hi, best);
    return AR_OK;
}

/* Body, in FE_UPWARD: the triangle-inequality bounds of the gap ranks lo < k < hi on every row
 * from the certified per-row bounds of ranks lo and hi of the same factors:
 *     ||A_i - (U_k V_k^T)_i||_1 <= rlo_i + sum_{c=lo}^{k-1} |U_ic| cv_c       (k > lo)
 *                                <= rhi_i + sum_{c=k}^{hi-1} |U_ic| cv_c       (k < hi),
 * U_k V_k^T - U_lo V_lo^T being the columns lo..k-1 of U times those of V, whose row i has
 * l1 norm at most sum_c |U_ic| sum_j |V_jc| <= sum_c |U_ic| cv_c (cv rounded up).  cheap (m x ng,
 * leading dimension m) receives the smaller bound, flag[i] = 1 when some gap rank's exceeds eps
 * (or is not finite). */
typedef struct {
    size_t m, lo, hi;
    const double *U, *cv, *rlo, *rhi;
    double eps, *cheap;
    unsigned char *flag;
} gap_ctx;

static FROUND_BODY void gap_body(void *arg)
{
    gap_ctx *g = arg;
    size_t m = g->m;
    for (size_t i = 0; i < m; i++) {
        double below = g->rlo[i];
        for (size_t k = g->lo + 1; k < g->hi; k++) {
            below += fabs(g->U[i + (k - 1) * m]) * g->cv[k - 1];
            g->cheap[i + (k - g->lo - 1) * m] = below;
        }
        double above = g->rhi[i];
        g->flag[i] = 0;
        for (size_t k = g->hi - 1; k > g->lo; k--) {
            above += fabs(g->U[i + k * m]) * g->cv[k];
            double *ck = g->cheap + i + (k - g->lo - 1) * m;
            if (above < *ck)
                *ck = above;
            if (!(*ck <= g->eps))
                g->flag[i] = 1;
        }
    }
}

/* Maximum of x over the entries not skipped (+INFINITY when one is not finite; exact). */
static double max_of(const double *x, size_t len, const unsigned char *skip)
{
    double mx = 0.0;
    for (size_t i = 0; i < len; i++)
        if (!skip || !skip[i]) {
            if (!(x[i] < INFINITY))
                return INFINITY;
            if (x[i] > mx)
                mx = x[i];
        }
    return mx;
}

/* The gap lo < k < hi (at most RSVD_FINE ranks) from the per-row bounds rlo, rhi of ranks lo and
 * hi (issue 24: a second full pass over A only for the ranks in between cost 6 s of 42 at 16000
 * points).  Each row's bound at k is the smaller triangle-inequality bound (gap_body); the rows
 * where some gap rank's exceeds eps are evaluated exactly (the same certified residual bound as
 * a full pass, on those rows of the enclosure), and their bound is the smaller of the two.  The
 * maximum over the rows is then a certified error of rank k, exactly as a full pass gives
 * (proofs-notes/upper-certificates.md, the gap lemma); a rank is refuted only when a row
 * evaluated exactly exceeds eps.  *done = 0 (nothing recorded) when more than RSVD_GAP_ROWS
 * (or m / 16) rows need the exact evaluation: the caller then makes the full pass. */
#define RSVD_GAP_ROWS 512
static ar_status gap_fill(amat_t *M, const double *U, const double *V, size_t l, size_t lo, size_t hi,
                          const double *rlo, const double *rhi, double eps, unsigned char *state, double *errk,
                          rsvd_info_t *info, int *done)
{
    size_t m = M->m, n = M->n, ng = hi - lo - 1, lim = m / 16 > RSVD_GAP_ROWS ? m / 16 : RSVD_GAP_ROWS;
    *done = 0;
    double *cv = ar_calloc(hi, sizeof *cv, "gap column sums");
    double *cheap = cv ? ar_calloc(m * ng, sizeof *cheap, "gap row bounds") : NULL;
    unsigned char *flag = cheap ? ar_calloc(m, 1, "gap rows") : NULL;
    if (!flag) {
        free(cv); free(cheap);
        return AR_ENOMEM;
    }
    resid_colsums_up(n, hi, V, n, cv);
    gap_ctx g = {.m = m, .lo = lo, .hi = hi, .U = U, .cv = cv, .rlo = rlo, .rhi = rhi, .eps = eps,
                 .cheap = cheap, .flag = flag};
    fround_run(FE_UPWARD, gap_body, &g);
    size_t cnt = 0;
    for (size_t i = 0; i < m; i++)
        cnt += flag[i];
    ar_status st = AR_OK;
    size_t *rows = NULL, ks[RSVD_FINE];
    double *Us = NULL, *rb = NULL, err[RSVD_FINE];
    if (cnt > lim)
        goto out;                                   /* the full pass is cheaper */
    for (size_t t = 0; t < ng; t++)
        ks[t] = lo + 1 + t;
    if (cnt > 0) {
        rows = ar_calloc(cnt, sizeof *rows, "gap rows");
        Us = rows ? ar_calloc(cnt * l, sizeof *Us, "gap rows of U") : NULL;
        rb = Us ? ar_calloc(cnt * ng, sizeof *rb, "gap exact row bounds") : NULL;
        if (!rb) {
            st = AR_ENOMEM;
            goto out;
        }
        for (size_t i = 0, t = 0; i < m; i++)
            if (flag[i])
                rows[t++] = i;
        for (size_t c = 0; c < l; c++)
            for (size_t t = 0; t < cnt; t++)
                Us[t + c * cnt] = U[rows[t] + c * m];
        smx_t R;
        if ((st = amat_rows(M, rows, cnt, &R)))
            goto out;
        amat_t Ms;
        amat_memory(&Ms, &R);
        st = rsvd_certify_rows(&Ms, Us, V, l, ks, ng, err, rb);
        smx_clear(&R);
        if (st)
            goto out;
    }
    for (size_t t = 0; t < ng; t++) {
        double e = max_of(cheap + t * m, m, flag);
        for (size_t r = 0; r < cnt && e < INFINITY; r++) {
            double x = rb[r + t * cnt], y = cheap[rows[r] + t * m];
            double v = y < x ? y : x;                 /* both are certified bounds of that row */
            if (!(v < INFINITY))
                e = INFINITY;
            else if (v > e)
                e = v;
        }
        state[ks[t]] = e <= eps ? 2 : 1;
        errk[ks[t]] = e;
    }
    info->probes += ng;
    info->gap_fills++;
    *done = 1;
out:
    free(cv); free(cheap); free(flag); free(rows); free(Us); free(rb);
    return st;
}

/* Ranks strictly between lo and hi: all of them when few, else RSVD_LADDER evenly spaced. */
static size_t between(size_t lo, size_t hi, size_t *ks)
{
    size_t gap = hi - lo - 1, nk = 0;
    if (gap <= RSVD_FINE) {
        for (size_t k = lo + 1; k < hi; k++)
            ks[nk++] = k;
        return nk;
    }
    for (size_t t = 1; t <= RSVD_LADDER; t++) {
        size_t k = lo + (gap + 1) * t / (RSVD_LADDER + 1);
        if (k > lo && k < hi && (nk == 0 || k > ks[nk - 1]))
            ks[nk++] = k;
    }
    return nk;
}

/* Geometric ladder of at most RSVD_LADDER ranks in [from, top], ascending, top included. */
static size_t ladder(size_t from, size_t top, size_t *ks)
{
    size_t nk = 0;
    for (double k = (double)top; nk < RSVD_LADDER && k >= (double)from; k *= 0.87) {
        size_t kk = (size_t)k;
        if (kk >= from && (nk == 0 || kk < ks[nk - 1]))
            ks[nk++] = kk;
    }
    for (size_t a = 0, b = nk ? nk - 1 : 0; a < b; a++, b--) {
        size_t t = ks[a]; ks[a] = ks[b]; ks[b] = t;
    }
    return nk;
}

/* Least rank k <= top whose error on M is <= eps with k - 1 observed above eps (or k = 1):
 * *hi = k (0 if none, *best its error).  First probes ks0[0..nk0) when nk0 > 0 (a guess; when
 * err0 is not NULL the caller has made that pass: err0 its errors, rows0 its m x nk0 per-row
 * bounds), then ladders above the largest refuted rank and the ranks between refuted and
 * certified. */
static ar_status search(amat_t *M, const double *U, const double *V, size_t l, size_t top, double eps,
                        const size_t *ks0, size_t nk0, const double *err0, const double *rows0,
                        const rsvd_opts_t *o, size_t *hi, double *best, rsvd_info_t *info, int max_passes,
                        size_t *lo_out)
{
    unsigned char *state = ar_calloc(l + 1, 1, "rank states");
    double *errk = state ? ar_calloc(l + 1, sizeof *errk, "rank errors") : NULL;
    if (!errk) {
        free(state);
        return AR_ENOMEM;
    }
    size_t ks[RSVD_FINE + RSVD_LADDER], nk, lo = 0, m = M->m;
    /* the per-row bounds of a pass's ranks, for the gap between its refuted and certified ranks */
    double *rows = ar_calloc(m * (RSVD_FINE + RSVD_LADDER), sizeof *rows, "per-row bounds");
    *hi = 0;
    ar_status st = AR_OK;
    if (nk0 > 0) {
        memcpy(ks, ks0, nk0 * sizeof *ks);
        nk = nk0;
    } else {
        nk = ladder(1, top, ks);
    }
    for (int pass = 1;; pass++) {
        if (o)
            say(o, "upper: certifying %zu ranks from %zu", nk, ks[0]);
        if (pass == 1 && err0) {            /* the first pass was made by the caller */
            for (size_t t = 0; t < nk; t++) {
                state[ks[t]] = err0[t] <= eps ? 2 : 1;
                errk[ks[t]] = err0[t];
            }
            if (rows)
                memcpy(rows, rows0, m * nk * sizeof *rows);
            lo_hi(state, errk, l, &lo, hi, best);
        } else if ((st = probe(M, U, V, l, ks, nk, eps, state, errk, &lo, hi, best, info, rows))) {
            break;
        }
        /* the ranks in between from the rows of lo and hi (gap_fill), when both were probed in
         * this pass: the full pass over A is then made only if too many rows need it */
        size_t ilo = nk, ihi = nk;
        for (size_t t = 0; rows && t < nk; t++) {
            ilo = ks[t] == lo ? t : ilo;
            ihi = ks[t] == *hi ? t : ihi;
        }
        if (*hi > 0 && lo > 0 && *hi - lo > 1 && *hi - lo - 1 <= RSVD_FINE && ilo < nk && ihi < nk &&
            !(o && o->no_gap_fill)) {
            int done = 0;
            if ((st = gap_fill(M, U, V, l, lo, *hi, rows + ilo * m, rows + ihi * m, eps, state, errk, info,
                               &done)))
                break;
            if (done)
                lo_hi(state, errk, l, &lo, hi, best);
        }
        if (lo_out)
            *lo_out = lo;
        if (*hi > 0 && (*hi - lo <= 1 || (max_passes > 0 && pass >= max_passes)))
            break;
        if (*hi > 0) {
            nk = between(lo, *hi, ks);
            continue;
        }
        /* nothing certified yet: a ladder above the largest refuted rank */
        size_t mx = 0;
        for (size_t k = l; k >= 1 && !mx; k--)
            if (state[k] == 1)
                mx = k;
        if (mx >= top || state[top] == 1)
            break;                                  /* top refuted: nothing certified */
        nk = ladder(mx + 1, top, ks);
        if (nk == 0)
            break;
    }
    free(state);
    free(errk);
    free(rows);
    return st;
}

/* The sample rows of A: evenly spaced, max(RSVD_SAMPLE, m / 16) of them (at most m), enclosed
 * once per upper certificate and kept across its sketch rounds (issue 24: gathering 1000 rows of
 * a held 16000 x 16000 image took 0.45 s per round; the rows depend on m alone). */
typedef struct {
    size_t s;
    size_t *rows;
    smx_t R;        /* the enclosure of those rows (R.a NULL: not yet made) */
} sample_t;

static void sample_clear(sample_t *S)
{
    free(S->rows);
    if (S->R.a)
        smx_clear(&S->R);
    memset(S, 0, sizeof *S);
}

static ar_status sample_make(amat_t *M, sample_t *S)
{
    if (S->R.a)
        return AR_OK;
    size_t m = M->m, s = m / 16 > RSVD_SAMPLE ? m / 16 : RSVD_SAMPLE;
    if (s > m)
        s = m;
    if (!(S->rows = ar_calloc(s, sizeof *S->rows, "sample rows")))
        return AR_ENOMEM;
    S->s = s;
    for (size_t t = 0; t < s; t++)
        S->rows[t] = (size_t)((double)t * (double)m / (double)s);
    ar_status st = amat_rows(M, S->rows, s, &S->R);
    if (st)
        memset(&S->R, 0, sizeof S->R);
    return st;
}

/* The sample rows of A (sample_make) and the same rows of U, as an in-memory enclosure: the
 * errors on them (not a certificate: a maximum over fewer rows) guess the rank to certify.
 * *guess = the least rank certified on the sample (0: none up to top, and then *next = a larger
 * sketch size predicted from the decay of the sample errors). */
static ar_status sample_guess(amat_t *M, sample_t *S, const double *U, const double *V, size_t l, size_t top,
                              double eps, size_t *guess, size_t *next)
{
    size_t m = M->m;
    *guess = 0;
    *next = 2 * l;
    ar_status st = sample_make(M, S);
    if (st)
        return st;
    size_t s = S->s;
    const size_t *rows = S->rows;
    double *Us = ar_calloc(s * l, sizeof *Us, "sample U");
    if (!Us)
        return AR_ENOMEM;
    for (size_t c = 0; c < l; c++)
        for (size_t t = 0; t < s; t++)
            Us[t + c * s] = U[rows[t] + c * m];
    amat_t Ms;
    amat_memory(&Ms, &S->R);
    rsvd_info_t scratch;
    memset(&scratch, 0, sizeof scratch);
    size_t ks[RSVD_LADDER];
    double err[RSVD_LADDER];
    size_t nk = ladder(1, top, ks);
    double *rb = ar_calloc(s * (nk ? nk : 1), sizeof *rb, "sample row bounds");
    st = rb ? rsvd_certify_rows(&Ms, Us, V, l, ks, nk, err, rb) : AR_ENOMEM;
    if (st == AR_OK && nk > 0 && !(err[nk - 1] <= eps)) {
        /* log err ~ linear in k between the two largest rungs: extrapolate to eps */
        if (nk >= 2 && err[nk - 1] < err[nk - 2] && err[nk - 1] > 0 && isfinite(err[nk - 2])) {
            double slope = (log(err[nk - 1]) - log(err[nk - 2])) / (double)(ks[nk - 1] - ks[nk - 2]);
            double kstar = (double)ks[nk - 1] + (log(eps) - log(err[nk - 1])) / slope;
            double want = 1.15 * kstar + 24;
            /* uncapped here (next_size caps the step at 4 l): the caller also reads it as the
             * sample's prediction of the rank */
            *next = !(want < 1e15) ? (size_t)1e15 : want > 2.0 * (double)l ? (size_t)want : 2 * l;
        }
    } else if (st == AR_OK) {
        double best;
        /* two passes, the ladder's being the first: the sample's least certified rank is then
         * within 2 of its largest refuted one lo, the guess is lo + 1, and the first full pass
         * probes from lo up (every rank to guess + 5: lo is refuted there too, the full
         * maximum being larger) */
        size_t lo = 0;
        st = search(&Ms, Us, V, l, top, eps, ks, nk, err, rb, NULL, guess, &best, &scratch, 2, &lo);
        if (st == AR_OK && *guess > lo + 1)
            *guess = lo + 1;             /* the least rank not refuted on the sample */
    }
    free(rb);
    free(Us);
    return st;
}

int rsvd_pivots_worth(size_t m, size_t n, size_t k)
{
    return 2 * k <= (m < n ? m : n) || (double)m * (double)k * (double)k <= RSVD_PIVOTS_FREE;
}

/* The guess's ranks: every rank up to guess + 5, then spread (scaled above 200); into ks0. */
static size_t guess_ranks(size_t guess, size_t top, size_t *ks0)
{
    static const size_t off[RSVD_GUESS] = { 0, 1, 2, 3, 4, 5, 6, 8, 10, 13, 17, 22, 28, 36 };
    size_t nk0 = 0;
    for (size_t j = 0; j < RSVD_GUESS; j++) {
        size_t k = guess - 1 + (off[j] <= 6 ? off[j] : off[j] * (guess > 200 ? guess / 100 : 1));
        if (k >= 1 && k <= top && (nk0 == 0 || k > ks0[nk0 - 1]))
            ks0[nk0++] = k;
    }
    return nk0;
}

ar_status rsvd_search_factors(amat_t *M, const double *U, const double *V, size_t l, size_t top, double eps,
                              const rsvd_opts_t *o, size_t *rank, double *err, rsvd_info_t *info)
{
    rsvd_info_t inf0;
    memset(&inf0, 0, sizeof inf0);
    if (!info)
        info = &inf0;
    *rank = 0;
    *err = INFINITY;
    if (!M || !U || !V || l == 0 || top == 0 || top > l || !(eps > 0.0 && eps < 1.0)) {
        ar_error_set("rsvd_search_factors: bad arguments");
        return AR_EINVAL;
    }
    size_t passes0 = M->passes;
    sample_t smp;
    memset(&smp, 0, sizeof smp);
    size_t guess = 0, next = 0, hi = 0;
    double best = INFINITY;
    ar_status st = sample_guess(M, &smp, U, V, l, top, eps, &guess, &next);
    /* nothing certified on the sample rows: nothing can be on all rows (a maximum over more rows) */
    if (st == AR_OK && guess > 0) {
        size_t ks0[RSVD_GUESS];
        size_t nk0 = guess_ranks(guess, top, ks0);
        st = search(M, U, V, l, top, eps, ks0, nk0, NULL, NULL, o, &hi, &best, info, 0, NULL);
    }
    sample_clear(&smp);
    if (st == AR_OK && hi > 0) {
        *rank = hi;
        *err = best;
    }
    info->passes += M->passes - passes0;
    return st;
}

/* Size of the next sketch from the sample's prediction `next` (the sample's extrapolated rank,
 * issue 24: extended, so a modest step costs no redrawn work) and the current size l. */
static size_t next_size(size_t l, size_t next, size_t lmax)
{
    size_t lo = l + (l / 8 > 16 ? l / 8 : 16);
    size_t want = next > lo ? next : lo;
    if (want > 4 * l)
        want = 4 * l;
    return want < lmax ? want : lmax;
}

/* upper_rsvd (t NULL) and upper_rsym (t the scaling of S = T A T^{-1}). */
static ar_status upper_random(amat_t *M, const double *t, double eps, const rsvd_opts_t *o, upper_cert_t *out,
                              rsvd_info_t *info)
{
    double t0 = clock_now();
    rsvd_opts_t def;
    rsvd_info_t inf0;
    if (!o) {
        rsvd_opts_default(&def);
        o = &def;
    }
    if (!info)
        info = &inf0;
    memset(info, 0, sizeof *info);
    memset(out, 0, sizeof *out);
    if (o->row_order)
        *o->row_order_len = 0;
    if (!M || M->m == 0 || M->n == 0 || (!M->A && !M->S)) {
        ar_error_set("upper_rsvd: empty or missing matrix");
        return AR_EINVAL;
    }
    if (!(eps > 0.0 && eps < 1.0)) {
        ar_error_set("upper_rsvd: eps must satisfy 0 < eps < 1 (got %g)", eps);
        return AR_EINVAL;
    }
    size_t m = M->m, n = M->n, r = m < n ? m : n;
    size_t passes0 = M->passes;
    out->rank = r;
    snprintf(out->method, sizeof out->method, "trivial");
    info->seed = o->seed;
    info->power = o->power;
    size_t l = o->l0 ? o->l0 : 64, lmax = r;
    if (o->cap && o->cap + 16 < lmax)
        lmax = o->cap + 16;
    if (o->max_sketch && o->max_sketch < lmax)
        lmax = o->max_sketch;
    if (o->cap == 1)
        r = 1;                                   /* nothing below rank 1 to seek */
    if (l > lmax)
        l = lmax;
    ar_status st = AR_OK;
    sketch_t sk;
    memset(&sk, 0, sizeof sk);
    sample_t smp;
    memset(&smp, 0, sizeof smp);
    /* one BLAS thread throughout: the products with A run on attnrank's own fixed threads
     * (amat.h, resid.h), the small products and factorisations on this one, so that the factors
     * and every certified number do not depend on OPENBLAS_NUM_THREADS */
    blas_single_begin();
    while (r > 1) {
        info->rounds++;
        info->sketch = l;
        say(o, t ? "rsym: sketch of %zu columns (round %zu)" : "rsvd: sketch of %zu columns (round %zu)", l,
            (size_t)info->rounds);
        double *U, *V;
        uint64_t seed = o->seed + (uint64_t)info->rounds - 1;
        if ((st = sketch_extend(M, t, &sk, l, o->power, seed, o)))
            break;
        if ((st = t ? sym_factors(&sk, t, n, &U, &V) : svd_factors(&sk, m, n, &U, &V)))
            break;
        size_t top = l < r ? l : r - 1, guess = 0, hi = 0, next = 2 * l;
        if (o->cap > 1 && top > o->cap - 1)
            top = o->cap - 1;                    /* ranks >= cap add nothing to the caller */
        double best = INFINITY;
        /* no rank certified on the sample rows: the whole matrix cannot do better (its bound is a
         * maximum over more rows), so the sketch is extended without a full residual pass.
         * Otherwise the first full pass probes the guess and ranks spread above it (the sample
         * maximum underestimates the full one), later passes the ranks in between. */
        if ((st = sample_guess(M, &smp, U, V, l, top, eps, &guess, &next)) == AR_OK && guess > 0) {
            size_t ks0[RSVD_GUESS];
            size_t nk0 = guess_ranks(guess, top, ks0);
            st = search(M, U, V, l, top, eps, ks0, nk0, NULL, NULL, o, &hi, &best, info, 0, NULL);
            if (st == AR_OK && hi == 0)
                next = l + l / 4;               /* the sample promised more than A gave */
        }
        /* the pivoted QR of a factor of more than half the full rank costs O(m k^2) with little
         * to choose (the lower end then starts from nearly every row): left to the caller */
        if (st == AR_OK && hi > 0 && o->row_order && rsvd_pivots_worth(m, n, hi))
            *o->row_order_len = la_row_pivots(m, hi, U, o->row_order);
        free(U);
        free(V);
        if (st)
            break;
        if (hi > 0) {
            out->rank = hi;
            out->err = best;
            snprintf(out->method, sizeof out->method, t ? "rsym" : "rsvd");
            break;
        }
        if (l >= lmax) {
            info->exhausted = o->max_sketch && lmax == o->max_sketch && lmax < r;
            break;
        }
        /* the sample's errors extrapolate to a rank beyond twice the largest sketch allowed: the
         * caller factors A fully instead, without the largest sketch's passes first (issue 32:
         * 1.8 s of a 2048-point cross-attention bracket whose rank is 1348) */
        if (guess == 0 && o->max_sketch && lmax == o->max_sketch && lmax < r && next > 2 * lmax) {
            say(o, t ? "rsym: the sample rows predict a rank near %zu, beyond sketches of %zu columns"
                     : "rsvd: the sample rows predict a rank near %zu, beyond sketches of %zu columns", next, lmax);
            info->exhausted = 1;
            break;
        }
        l = next_size(l, next, lmax);
    }
    sketch_clear(&sk);
    sample_clear(&smp);
    blas_single_end();
    info->passes = M->passes - passes0;
    out->seconds = clock_now() - t0;
    return st;
}

ar_status upper_rsvd(amat_t *M, double eps, const rsvd_opts_t *o, upper_cert_t *out, rsvd_info_t *info)
{
    return upper_random(M, NULL, eps, o, out, info);
}

ar_status upper_rsym(amat_t *M, const double *logt, double eps, const rsvd_opts_t *o, upper_cert_t *out,
                     rsvd_info_t *info)
{
    if (!M || M->m != M->n || !logt) {
        memset(out, 0, sizeof *out);
        ar_error_set("upper_rsym: self-attention only (square matrix and log t)");
        return AR_EINVAL;
    }
    size_t n = M->n;
    double *t = ar_calloc(n, sizeof *t, "scaling t");
    if (!t)
        return AR_ENOMEM;
    double lo = INFINITY, hi = -INFINITY, mean = 0.0;
    for (size_t i = 0; i < n; i++) {
        lo = fmin(lo, logt[i]);
        hi = fmax(hi, logt[i]);
        mean += logt[i];
    }
    ar_status st = AR_OK;
    if (!(hi - lo <= 600.0)) {                 /* as upper_symeig: the candidate makes no sense */
        memset(out, 0, sizeof *out);
        if (info)
            memset(info, 0, sizeof *info);
        out->rank = n;
        snprintf(out->method, sizeof out->method, "trivial");
    } else {
        mean /= (double)n;
        for (size_t i = 0; i < n; i++)
            t[i] = exp(logt[i] - mean);
        st = upper_random(M, t, eps, o, out, info);
    }
    free(t);
    return st;
}
