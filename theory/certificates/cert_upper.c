/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_upper.c -- upper certificates B = U V^T with a rigorous row-l1 error
 * (THEORY 3.5): truncated SVD, symmetrised eigen-decomposition and pivoted
 * Cholesky, each certified by resid_r1_bound. */
#include "theory/certificates/cert_upper.h"
#include "numerics/clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "numerics/blas_select.h"
#include "numerics/linalg.h"
#include "numerics/resid.h"
#include "numerics/amat.h"
#include "theory/certificates/cert_rsvd.h"

/* The certificate method of construction m (its printed name: ar_method_name). */
static ar_method_t method_of(upper_method_t m)
{
    switch (m) {
    case UPPER_SVD: return AR_METHOD_SVD;
    case UPPER_SYMEIG: return AR_METHOD_SYMEIG;
    case UPPER_PCHOL: return AR_METHOD_PCHOL;
    }
    return AR_METHOD_NONE;
}

static const char *method_name(upper_method_t m)
{
    ar_method_t a = method_of(m);
    return a == AR_METHOD_NONE ? "?" : ar_method_name(a);
}

static void set_trivial(const smx_t *A, upper_cert_t *out)
{
    out->rank = A->m < A->n ? A->m : A->n;
    out->err = 0.0;                       /* B = A itself */
    out->method = AR_METHOD_TRIVIAL;
}

/* Scaling t = exp(logt - mean(logt)) into t (n doubles).  Returns 0 if the
 * span of logt is too large (or non-finite) for the candidate to make sense. */
static int make_scaling(size_t n, const double *logt, double *t)
{
    double lo = INFINITY, hi = -INFINITY, mean = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(logt[i]))
            return 0;
        if (logt[i] < lo) lo = logt[i];
        if (logt[i] > hi) hi = logt[i];
        mean += logt[i];
    }
    if (hi - lo > 600.0)
        return 0;
    mean /= (double)n;
    for (size_t i = 0; i < n; i++)
        t[i] = exp(logt[i] - mean);
    return 1;
}

/* Symmetric candidate S_ij = sqrt(a_ij a_ji) (n x n, column-major). */
static double *make_sym(const smx_t *A)
{
    size_t n = A->n;
    double *S = ar_calloc(n * n, sizeof *S, "symmetrised attention");
    if (!S)
        return NULL;
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < n; i++)
            S[i + j * n] = sqrt(fabs(A->a[i + j * n]) * fabs(A->a[j + i * n]));
    return S;
}

/* Build the candidate factors of all ranks 1..r (r = min(m, n)) into freshly
 * allocated Uall (m x r) and Vall (n x r); *kmax = the largest rank worth
 * probing (columns past it are zero or identical in effect).
 * Returns AR_OK with *applies = 0 when the construction does not apply. */
static ar_status build_factors(const smx_t *A, upper_method_t method, const double *logt,
                               double **Uall, double **Vall, size_t *kmax, int *applies)
{
    size_t m = A->m, n = A->n, r = m < n ? m : n;
    *Uall = *Vall = NULL;
    *kmax = 0;
    *applies = 1;
    ar_status st = AR_OK;

    if (method == UPPER_SVD && r >= UPPER_SVD_GRAM_MIN) {
        /* the same truncations from the Gram matrix's eigendecomposition: 12 r^3 flops against
         * dgesdd's 22 r^3 (issue 32: 37 s -> about 20 s at 4096 points on one core) */
        if ((st = la_gram_factors(m, n, A->a, Uall, Vall)))
            return st;
        *kmax = r;
        return AR_OK;
    }
    if (method == UPPER_SVD) {
        double *U0, *s, *VT;
        st = la_svd(m, n, A->a, &U0, &s, &VT);
        if (st != AR_OK)
            return st;
        double *U = ar_calloc(m * r, sizeof *U, "svd factor U");
        double *V = ar_calloc(n * r, sizeof *V, "svd factor V");
        if (!U || !V) {
            free(U); free(V); free(U0); free(s); free(VT);
            return AR_ENOMEM;
        }
        for (size_t c = 0; c < r; c++) {
            for (size_t i = 0; i < m; i++)
                U[i + c * m] = U0[i + c * m] * s[c];
            for (size_t j = 0; j < n; j++)
                V[j + c * n] = VT[c + j * r];
        }
        free(U0); free(s); free(VT);
        *Uall = U; *Vall = V; *kmax = r;
        return AR_OK;
    }

    if (m != n) {
        ar_error_set("upper_%s: self-attention only (square matrix), got %zu x %zu",
                     method_name(method), m, n);
        return AR_EINVAL;
    }
    if (!logt) {
        ar_error_set("upper_%s: logt is NULL", method_name(method));
        return AR_EINVAL;
    }
    double *t = ar_calloc(n, sizeof *t, "scaling t");
    if (!t)
        return AR_ENOMEM;
    if (!make_scaling(n, logt, t)) {
        free(t);
        *applies = 0;
        return AR_OK;
    }
    double *S = make_sym(A);
    double *U = ar_calloc(n * n, sizeof *U, "factor U");
    double *V = ar_calloc(n * n, sizeof *V, "factor V");
    if (!S || !U || !V) {
        free(t); free(S); free(U); free(V);
        return AR_ENOMEM;
    }
    if (method == UPPER_SYMEIG) {
        double *lam, *Z;
        st = la_syev(n, S, &lam, &Z);
        if (st == AR_OK) {
            /* column c <-> the (c+1)-th largest eigenpair (ascending order) */
            for (size_t c = 0; c < n; c++) {
                size_t e = n - 1 - c;
                for (size_t i = 0; i < n; i++) {
                    double z = Z[i + e * n];
                    U[i + c * n] = z * lam[e] / t[i];
                    V[i + c * n] = z * t[i];
                }
            }
            free(lam); free(Z);
            *kmax = n;
        }
    } else {
        double *L;
        size_t *piv, prank;
        st = la_pchol(n, S, -1.0, &L, &piv, &prank);
        if (st == AR_OK) {
            /* S[piv, piv] ~ L L^T: row a of L belongs to index piv[a] */
            for (size_t c = 0; c < prank; c++)
                for (size_t a = 0; a < n; a++) {
                    size_t i = piv[a];
                    double l = L[a + c * n];
                    U[i + c * n] = l / t[i];
                    V[i + c * n] = l * t[i];
                }
            free(L); free(piv);
            *kmax = prank < n ? prank : n;
        }
    }
    free(t); free(S);
    if (st != AR_OK) {
        free(U); free(V);
        return st;
    }
    *Uall = U; *Vall = V;
    return AR_OK;
}

static int valid_smx(const smx_t *A, const char *who)
{
    if (!A || !A->a || !A->rowerr || A->m == 0 || A->n == 0) {
        ar_error_set("%s: empty or missing matrix", who);
        return 0;
    }
    return 1;
}

/* build_factors on one BLAS thread at every size: the factors, and so the certified numbers,
 * then depend neither on OPENBLAS_NUM_THREADS (LAPACK's and OpenBLAS's results move at rounding
 * level with it) nor on another bracket running in the same process (blas_single_begin).
 * Measured cost: a full SVD path of 1500 points, 2.7-4.8 s with two BLAS threads and 3.3-4.1 s
 * with one on the shared 2-core machine (noise larger than the difference). */
static ar_status build_factors_det(const smx_t *A, upper_method_t method, const double *logt, double **Ua,
                                   double **Va, size_t *kmax, int *applies)
{
    blas_single_begin();
    ar_status st = build_factors(A, method, logt, Ua, Va, kmax, applies);
    blas_single_end();
    return st;
}

ar_status upper_certify(const smx_t *A, upper_method_t method, const double *logt, double eps,
                        upper_cert_t *out, double **U, double **V)
{
    double t0 = clock_now();
    if (U) *U = NULL;
    if (V) *V = NULL;
    memset(out, 0, sizeof *out);
    if (!valid_smx(A, "upper_certify"))
        return AR_EINVAL;
    if (!(eps > 0.0 && eps < 1.0)) {
        ar_error_set("upper_%s: eps must satisfy 0 < eps < 1 (got %g)", method_name(method), eps);
        return AR_EINVAL;
    }
    if ((int)method < 0 || (int)method > 2) {
        ar_error_set("upper_certify: unknown method %d", (int)method);
        return AR_EINVAL;
    }
    size_t m = A->m, n = A->n, r = m < n ? m : n;
    if (method != UPPER_SVD && m != n) {
        ar_error_set("upper_%s: self-attention only (square matrix), got %zu x %zu",
                     method_name(method), m, n);
        return AR_EINVAL;
    }
    set_trivial(A, out);
    if (r <= 1) {                       /* nothing below the trivial rank */
        out->seconds = clock_now() - t0;
        return AR_OK;
    }
    double *Ua, *Va;
    size_t kmax;
    int applies;
    ar_status st = build_factors_det(A, method, logt, &Ua, &Va, &kmax, &applies);
    if (st != AR_OK)
        return st;
    if (!applies) {
        out->seconds = clock_now() - t0;
        return AR_OK;
    }
    if (kmax > r - 1)
        kmax = r - 1;
    /* the search of the randomized certificates on these factors (cert_rsvd.h): the ranks guessed
     * on sample rows, then multi-rank passes (issue 32: galloping and bisection made 2 log2 r
     * passes, 22 at 2048 points, 5 s of a 2048-point self-attention bracket) */
    amat_t M;
    amat_memory(&M, A);
    size_t hi = 0;
    double best = INFINITY;
    st = kmax >= 1 ? rsvd_search_factors(&M, Ua, Va, kmax, kmax, eps, NULL, &hi, &best, NULL) : AR_OK;
    if (st != AR_OK) {
        free(Ua); free(Va);
        return st;
    }
    if (hi > 0) {
        out->rank = hi;
        out->err = best;
        out->method = method_of(method);
        if (U && V) {
            double *Uc = ar_calloc(m * hi, sizeof *Uc, "certified U");
            double *Vc = ar_calloc(n * hi, sizeof *Vc, "certified V");
            if (!Uc || !Vc) {
                free(Uc); free(Vc); free(Ua); free(Va);
                return AR_ENOMEM;
            }
            memcpy(Uc, Ua, m * hi * sizeof *Uc);
            memcpy(Vc, Va, n * hi * sizeof *Vc);
            *U = Uc; *V = Vc;
        }
    }
    free(Ua); free(Va);
    out->seconds = clock_now() - t0;
    return AR_OK;
}

ar_status upper_candidate(const smx_t *A, upper_method_t method, const double *logt, size_t k,
                          double **U, double **V, double *err)
{
    *U = *V = NULL;
    *err = INFINITY;
    if (!valid_smx(A, "upper_candidate"))
        return AR_EINVAL;
    size_t m = A->m, n = A->n, r = m < n ? m : n;
    if (k < 1 || k > r || (int)method < 0 || (int)method > 2) {
        ar_error_set("upper_candidate: rank %zu out of [1, %zu] or bad method", k, r);
        return AR_EINVAL;
    }
    double *Ua, *Va;
    size_t kmax;
    int applies;
    ar_status st = build_factors_det(A, method, logt, &Ua, &Va, &kmax, &applies);
    if (st != AR_OK)
        return st;
    if (!applies) {
        ar_error_set("upper_candidate: log t spans more than 600 (or is not finite)");
        return AR_EINVAL;
    }
    double *work = ar_calloc(m * n, sizeof *work, "residual workspace");
    double *Uc = ar_calloc(m * k, sizeof *Uc, "candidate U");
    double *Vc = ar_calloc(n * k, sizeof *Vc, "candidate V");
    if (!work || !Uc || !Vc) {
        free(work); free(Uc); free(Vc); free(Ua); free(Va);
        return AR_ENOMEM;
    }
    memcpy(Uc, Ua, m * k * sizeof *Uc);
    memcpy(Vc, Va, n * k * sizeof *Vc);
    *err = resid_r1_bound(m, n, k, A->a, A->rowerr, Uc, m, Vc, n, work);
    free(work); free(Ua); free(Va);
    *U = Uc; *V = Vc;
    return AR_OK;
}

ar_status upper_svd(const smx_t *A, double eps, upper_cert_t *out)
{
    return upper_certify(A, UPPER_SVD, NULL, eps, out, NULL, NULL);
}

ar_status upper_symeig(const smx_t *A, const double *logt, double eps, upper_cert_t *out)
{
    return upper_certify(A, UPPER_SYMEIG, logt, eps, out, NULL, NULL);
}

ar_status upper_pchol(const smx_t *A, const double *logt, double eps, upper_cert_t *out)
{
    return upper_certify(A, UPPER_PCHOL, logt, eps, out, NULL, NULL);
}
