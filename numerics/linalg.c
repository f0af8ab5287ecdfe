/* SPDX-License-Identifier: GPL-3.0-or-later */
/* linalg.c -- checked wrappers over LAPACKE/CBLAS (column-major). */
#include "numerics/linalg.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <cblas.h>
#include <lapacke.h>
#include "base/blas.h"

ar_status la_svd(size_t m, size_t n, const double *a, double **U, double **s, double **VT)
{
    size_t r = m < n ? m : n;
    *U = *s = *VT = NULL;
    if (m == 0 || n == 0) {
        ar_error_set("la_svd: empty matrix");
        return AR_EINVAL;
    }
    double *w = ar_calloc(m * n, sizeof *w, "la_svd workspace");
    double *u = ar_calloc(m * r, sizeof *u, "la_svd U");
    double *sv = ar_calloc(r, sizeof *sv, "la_svd s");
    double *vt = ar_calloc(r * n, sizeof *vt, "la_svd VT");
    if (!w || !u || !sv || !vt) {
        free(w); free(u); free(sv); free(vt);
        return AR_ENOMEM;
    }
    memcpy(w, a, m * n * sizeof *w);
    lapack_int info = LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'S', (lapack_int)m, (lapack_int)n, w,
                                     (lapack_int)m, sv, u, (lapack_int)m, vt, (lapack_int)r);
    free(w);
    if (info != 0) {
        free(u); free(sv); free(vt);
        ar_error_set("la_svd: LAPACKE_dgesdd failed (info = %d)", (int)info);
        return AR_ENUMERIC;
    }
    *U = u; *s = sv; *VT = vt;
    return AR_OK;
}

ar_status la_svals(size_t m, size_t n, const double *a, double **s)
{
    size_t r = m < n ? m : n;
    *s = NULL;
    if (m == 0 || n == 0) {
        ar_error_set("la_svals: empty matrix");
        return AR_EINVAL;
    }
    double *w = ar_calloc(m * n, sizeof *w, "la_svals workspace");
    double *sv = ar_calloc(r, sizeof *sv, "la_svals s");
    if (!w || !sv) {
        free(w); free(sv);
        return AR_ENOMEM;
    }
    memcpy(w, a, m * n * sizeof *w);
    lapack_int info = LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'N', (lapack_int)m, (lapack_int)n, w, (lapack_int)m, sv,
                                     NULL, 1, NULL, 1);
    free(w);
    if (info != 0) {
        free(sv);
        ar_error_set("la_svals: LAPACKE_dgesdd failed (info = %d)", (int)info);
        return AR_ENUMERIC;
    }
    *s = sv;
    return AR_OK;
}

ar_status la_syev(size_t n, const double *a, double **w, double **Z)
{
    *w = *Z = NULL;
    if (n == 0) {
        ar_error_set("la_syev: empty matrix");
        return AR_EINVAL;
    }
    double *z = ar_calloc(n * n, sizeof *z, "la_syev Z");
    double *ev = ar_calloc(n, sizeof *ev, "la_syev w");
    if (!z || !ev) {
        free(z); free(ev);
        return AR_ENOMEM;
    }
    memcpy(z, a, n * n * sizeof *z);
    lapack_int info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'L', (lapack_int)n, z, (lapack_int)n, ev);
    if (info != 0) {
        free(z); free(ev);
        ar_error_set("la_syev: LAPACKE_dsyevd failed (info = %d)", (int)info);
        return AR_ENUMERIC;
    }
    *w = ev; *Z = z;
    return AR_OK;
}

ar_status la_gram_factors(size_t m, size_t n, const double *a, double **U, double **V)
{
    *U = *V = NULL;
    if (m == 0 || n == 0 || m > INT_MAX || n > INT_MAX) {
        ar_error_set("la_gram_factors: empty or too large matrix");
        return AR_EINVAL;
    }
    int wide = m <= n;
    size_t r = wide ? m : n, o = wide ? n : m;
    double *G = ar_calloc(r * r, sizeof *G, "Gram matrix");
    double *E = G ? ar_calloc(r * r, sizeof *E, "Gram eigenvectors") : NULL;
    double *W = E ? ar_calloc(o * r, sizeof *W, "Gram product") : NULL;
    if (!W) {
        free(G); free(E);
        return AR_ENOMEM;
    }
    /* G = a a^T (m x m) or a^T a (n x n), lower triangle */
    cblas_dsyrk(CblasColMajor, CblasLower, wide ? CblasNoTrans : CblasTrans, (int)r, (int)o, 1.0, a, (int)m, 0.0, G,
                (int)r);
    double *w, *Z;
    ar_status st = la_syev(r, G, &w, &Z);
    free(G);
    if (st) {
        free(E); free(W);
        return st;
    }
    /* descending order: column c <- eigenvector r - 1 - c */
    for (size_t c = 0; c < r; c++)
        memcpy(E + c * r, Z + (r - 1 - c) * r, r * sizeof *E);
    free(w);
    free(Z);
    if (wide)   /* V = a^T E (n x m) */
        cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)n, (int)m, (int)m, 1.0, a, (int)m, E, (int)m, 0.0,
                    W, (int)n);
    else        /* U = a E (m x n) */
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)n, 1.0, a, (int)m, E, (int)n, 0.0,
                    W, (int)m);
    *U = wide ? E : W;
    *V = wide ? W : E;
    return AR_OK;
}

ar_status la_pchol(size_t n, const double *a, double tol, double **L, size_t **piv, size_t *rank)
{
    *L = NULL; *piv = NULL; *rank = 0;
    if (n == 0) {
        ar_error_set("la_pchol: empty matrix");
        return AR_EINVAL;
    }
    double *l = ar_calloc(n * n, sizeof *l, "la_pchol L");
    lapack_int *ip = ar_calloc(n, sizeof *ip, "la_pchol piv");
    size_t *p = ar_calloc(n, sizeof *p, "la_pchol piv");
    if (!l || !ip || !p) {
        free(l); free(ip); free(p);
        return AR_ENOMEM;
    }
    memcpy(l, a, n * n * sizeof *l);
    lapack_int r = 0;
    lapack_int info = LAPACKE_dpstrf(LAPACK_COL_MAJOR, 'L', (lapack_int)n, l, (lapack_int)n, ip, &r, tol);
    if (info < 0) {
        free(l); free(ip); free(p);
        ar_error_set("la_pchol: LAPACKE_dpstrf failed (info = %d)", (int)info);
        return AR_ENUMERIC;
    }
    /* info > 0: rank-deficient (stopped at tolerance): the first r columns are valid */
    for (size_t j = 0; j < n; j++) {
        for (size_t i = 0; i < j && i < n; i++)
            l[i + j * n] = 0.0;                    /* clear the upper triangle */
        if (j >= (size_t)r)
            for (size_t i = j; i < n; i++)
                l[i + j * n] = 0.0;                /* columns past the rank are not part of L */
    }
    for (size_t i = 0; i < n; i++)
        p[i] = (size_t)(ip[i] - 1);
    free(ip);
    *L = l; *piv = p; *rank = (size_t)r;
    return AR_OK;
}

ar_status la_inv(size_t n, const double *a, double *ainv)
{
    if (n == 0) {
        ar_error_set("la_inv: empty matrix");
        return AR_EINVAL;
    }
    lapack_int *ip = ar_calloc(n, sizeof *ip, "la_inv pivots");
    if (!ip)
        return AR_ENOMEM;
    memcpy(ainv, a, n * n * sizeof *ainv);
    lapack_int info = LAPACKE_dgetrf(LAPACK_COL_MAJOR, (lapack_int)n, (lapack_int)n, ainv, (lapack_int)n, ip);
    if (info == 0)
        info = LAPACKE_dgetri(LAPACK_COL_MAJOR, (lapack_int)n, ainv, (lapack_int)n, ip);
    free(ip);
    if (info != 0) {
        ar_error_set("la_inv: matrix is singular in floating point (info = %d)", (int)info);
        return AR_ENUMERIC;
    }
    return AR_OK;
}

void la_gemm_nt(size_t m, size_t n, size_t k, double alpha, const double *A, size_t lda,
                const double *B, size_t ldb, double beta, double *C, size_t ldc)
{
    if (m == 0 || n == 0)
        return;
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, (int)m, (int)n, (int)k, alpha, A, (int)lda,
                B, (int)ldb, beta, C, (int)ldc);
}

ar_status la_orth(size_t m, size_t l, double *Y)
{
    if (m == 0 || l == 0 || l > m) {
        ar_error_set("la_orth: need 0 < l <= m (got m = %zu, l = %zu)", m, l);
        return AR_EINVAL;
    }
    double *tau = ar_calloc(l, sizeof *tau, "la_orth tau");
    if (!tau)
        return AR_ENOMEM;
    lapack_int info = LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (lapack_int)m, (lapack_int)l, Y, (lapack_int)m, tau);
    if (info == 0)
        info = LAPACKE_dorgqr(LAPACK_COL_MAJOR, (lapack_int)m, (lapack_int)l, (lapack_int)l, Y, (lapack_int)m, tau);
    free(tau);
    if (info != 0) {
        ar_error_set("la_orth: LAPACKE QR failed (info = %d)", (int)info);
        return AR_ENUMERIC;
    }
    return AR_OK;
}

size_t la_row_pivots(size_t m, size_t k, const double *U, size_t *order)
{
    if (k == 0 || m == 0 || !U || !order)
        return 0;
    double *T = ar_calloc(k * m, sizeof *T, "pivoted QR of the factor rows");
    lapack_int *jp = T ? ar_calloc(m, sizeof *jp, "pivoted QR pivots") : NULL;
    double *tau = jp ? ar_calloc(k < m ? k : m, sizeof *tau, "pivoted QR tau") : NULL;
    size_t cnt = 0;
    if (tau) {
        for (size_t i = 0; i < m; i++)
            for (size_t c = 0; c < k; c++)
                T[c + i * k] = U[i + c * m];
        blas_single_begin();
        lapack_int info = LAPACKE_dgeqp3(LAPACK_COL_MAJOR, (lapack_int)k, (lapack_int)m, T, (lapack_int)k, jp, tau);
        blas_single_end();
        if (info == 0) {
            cnt = k < m ? k : m;
            for (size_t i = 0; i < cnt; i++)
                order[i] = (size_t)jp[i] - 1;
        }
    }
    free(T);
    free(jp);
    free(tau);
    return cnt;
}
