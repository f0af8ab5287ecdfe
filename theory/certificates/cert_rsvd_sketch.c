/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_rsvd_sketch.c -- the randomized range finder of the upper certificates rsvd and rsym
 * (proofs-notes/upper-certificates.md section 4b; HMT Algorithm 4.4 with q power iterations):
 * a range Q of A (or of S = T A T^{-1}, section 3) extended column block by column block, and the
 * rank-l factors U, V from it (U V^T ~ A).  No rigour here: the factors are certified afterwards
 * by the residual bound ||A - U_k V_k^T||_r1 <= eps (cert_rsvd_search.c, section 1). */
#include "theory/certificates/cert_rsvd.h"
#include "theory/certificates/cert_rsvd_impl.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>
#include "base/blas.h"
#include "numerics/linalg.h"
#include "numerics/rng.h"
#include "numerics/tsqr.h"

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

/* Contract: cert_rsvd_impl.h. */
void rsvd_sketch_clear(rsvd_sketch_t *sk)
{
    free(sk->Q);
    free(sk->P);
    memset(sk, 0, sizeof *sk);
}

/* Y (rows x c) <- Y - Q (Q^T Y): the part of Y outside the range found so far. */
static ar_status deflate(const rsvd_sketch_t *sk, size_t c, double *Y)
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
 * of one sketch of lnew columns.  Cost (2q + 2) (rsvd) or (q + 2) (rsym) products with c columns.
 * Contract: cert_rsvd_impl.h. */
ar_status rsvd_sketch_extend(amat_t *M, const double *t, rsvd_sketch_t *sk, size_t lnew, int q, uint64_t seed,
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
        rsvd_say(o, t ? "rsym: power iteration %zu of %zu" : "rsvd: power iteration %zu of %zu", (size_t)it + 1,
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
 * B^T = P = Uz diag(s) WT, A ~ Q B = (Q WT^T diag(s)) Uz^T.  Contract: cert_rsvd_impl.h. */
ar_status rsvd_svd_factors(const rsvd_sketch_t *sk, size_t m, size_t n, double **Uo, double **Vo)
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
 * Z = Q W (eigenvalues descending), U = T^{-1} Z Lambda, V = T Z.  Contract: cert_rsvd_impl.h. */
ar_status rsvd_sym_factors(const rsvd_sketch_t *sk, const double *t, size_t n, double **Uo, double **Vo)
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
