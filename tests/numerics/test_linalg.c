/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_linalg.c -- the LAPACK/BLAS wrappers and the selected OpenBLAS kernels
 * against naive reference computations (scale-free ratios, LAPACK-test style:
 * error / (n u ||A||) must stay below a fixed threshold). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "numerics/linalg.h"
#include "base/blas.h"
#include "numerics/rng.h"

#define U53 (0x1p-53)
#define RATIO_MAX 30.0   /* LAPACK's test suites use thresholds of this order */

static double *rand_mat(rng_t *r, size_t m, size_t n)
{
    double *a = malloc(m * n * sizeof *a);
    for (size_t i = 0; i < m * n; i++)
        a[i] = 2.0 * rng_uniform(r) - 1.0;
    return a;
}

START_TEST(test_gemm_vs_naive)
{
    rng_t r;
    rng_init(&r, test_seed() + 11);
    size_t dims[][3] = { { 1, 1, 1 }, { 17, 9, 5 }, { 300, 200, 100 }, { 257, 513, 64 } };
    for (size_t t = 0; t < sizeof dims / sizeof dims[0]; t++) {
        size_t m = dims[t][0], n = dims[t][1], k = dims[t][2];
        double *A = rand_mat(&r, m, k), *B = rand_mat(&r, n, k), *C = calloc(m * n, sizeof *C);
        la_gemm_nt(m, n, k, 1.0, A, m, B, n, 0.0, C, m);
        double worst = 0;
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++) {
                long double s = 0, sa = 0;
                for (size_t c = 0; c < k; c++) {
                    s += (long double)A[i + c * m] * B[j + c * n];
                    sa += fabsl((long double)A[i + c * m] * B[j + c * n]);
                }
                double ratio = (double)(fabsl(C[i + j * m] - s) / ((k + 1) * U53 * (sa + 1e-300)));
                if (ratio > worst)
                    worst = ratio;
            }
        ck_assert_msg(worst <= 1.0, "dgemm (core %s) m=%zu n=%zu k=%zu seed=%llu: error ratio %g > 1 "
                      "(violates the a-priori bound gamma_k |A||B|)",
                      blas_corename(), m, n, k, (unsigned long long)test_seed(), worst);
        free(A); free(B); free(C);
    }
}
END_TEST

START_TEST(test_svd_reconstructs)
{
    rng_t r;
    rng_init(&r, test_seed() + 12);
    size_t shapes[][2] = { { 1, 1 }, { 5, 3 }, { 3, 5 }, { 120, 80 }, { 300, 300 } };
    for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; t++) {
        size_t m = shapes[t][0], n = shapes[t][1], p = m < n ? m : n;
        double *A = rand_mat(&r, m, n), *U, *s, *VT;
        ck_assert_int_eq(la_svd(m, n, A, &U, &s, &VT), AR_OK);
        double anorm = 0, err = 0, orth = 0;
        for (size_t i = 0; i < m * n; i++)
            anorm = fmax(anorm, fabs(A[i]));
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++) {
                double v = 0;
                for (size_t c = 0; c < p; c++)
                    v += U[i + c * m] * s[c] * VT[c + j * p];
                err = fmax(err, fabs(v - A[i + j * m]));
            }
        for (size_t a = 0; a < p; a++)
            for (size_t b = 0; b < p; b++) {
                double v = 0;
                for (size_t i = 0; i < m; i++)
                    v += U[i + a * m] * U[i + b * m];
                orth = fmax(orth, fabs(v - (a == b)));
            }
        for (size_t c = 0; c + 1 < p; c++)
            ck_assert_msg(s[c] >= s[c + 1] && s[c + 1] >= 0, "singular values not sorted");
        double ratio = err / (p * U53 * anorm * p), oratio = orth / (m * U53);
        ck_assert_msg(ratio < RATIO_MAX && oratio < RATIO_MAX,
                      "dgesdd (core %s) %zux%zu: reconstruction ratio %g, orthogonality ratio %g",
                      blas_corename(), m, n, ratio, oratio);
        free(A); free(U); free(s); free(VT);
    }
}
END_TEST

/* la_gram_factors: U_k V_k^T against dgesdd's rank-k truncation, for both orientations; the
 * difference is of order u sigma_1^2 / (sigma_k (sigma_k - sigma_{k+1})) (the Gram matrix squares the
 * spread), so matrices with a spread of singular values of at most 1e3 are compared at 1e-8 of
 * ||A||; the full-rank product reconstructs A. */
START_TEST(test_gram_factors)
{
    rng_t r;
    rng_init(&r, test_seed() + 14);
    size_t shapes[][2] = { { 1, 1 }, { 40, 25 }, { 25, 40 }, { 120, 120 } };
    for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; t++) {
        size_t m = shapes[t][0], n = shapes[t][1], p = m < n ? m : n;
        double *A = rand_mat(&r, m, n), *U, *V, *U0, *s, *VT;
        /* singular values 1 .. 1e-3, geometric: A = U0 diag(s) VT rebuilt */
        ck_assert_int_eq(la_svd(m, n, A, &U0, &s, &VT), AR_OK);
        for (size_t c = 0; c < p; c++)
            s[c] = pow(1e-3, p > 1 ? (double)c / (double)(p - 1) : 0.0);
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++) {
                double v = 0;
                for (size_t c = 0; c < p; c++)
                    v += U0[i + c * m] * s[c] * VT[c + j * p];
                A[i + j * m] = v;
            }
        ck_assert_int_eq(la_gram_factors(m, n, A, &U, &V), AR_OK);
        size_t ks[3] = { 1, p / 2 > 0 ? p / 2 : 1, p };
        for (size_t q = 0; q < 3; q++) {
            size_t k = ks[q];
            double worst = 0;
            for (size_t i = 0; i < m; i++)
                for (size_t j = 0; j < n; j++) {
                    double g = 0, sv = 0;
                    for (size_t c = 0; c < k; c++) {
                        g += U[i + c * m] * V[j + c * n];
                        sv += U0[i + c * m] * s[c] * VT[c + j * p];
                    }
                    worst = fmax(worst, fabs(g - sv));
                }
            ck_assert_msg(worst < 1e-8, "gram factors %zux%zu rank %zu: max |U_k V_k^T - svd_k| = %g", m, n, k,
                          worst);
        }
        free(A); free(U); free(V); free(U0); free(s); free(VT);
    }
    double *U, *V;
    ck_assert_int_eq(la_gram_factors(0, 3, NULL, &U, &V), AR_EINVAL);
}
END_TEST

START_TEST(test_syev_and_pchol)
{
    rng_t r;
    rng_init(&r, test_seed() + 13);
    size_t n = 150, rk = 7;
    double *G = rand_mat(&r, n, rk), *S = calloc(n * n, sizeof *S);
    la_gemm_nt(n, n, rk, 1.0, G, n, G, n, 0.0, S, n);   /* PSD, rank 7 */
    for (size_t i = 0; i < n; i++)
        S[i + i * n] += 1e-3;                           /* now PD, numerically rank n */
    double *w, *Z;
    ck_assert_int_eq(la_syev(n, S, &w, &Z), AR_OK);
    double err = 0, snorm = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double v = 0;
            for (size_t c = 0; c < n; c++)
                v += Z[i + c * n] * w[c] * Z[j + c * n];
            err = fmax(err, fabs(v - S[i + j * n]));
            snorm = fmax(snorm, fabs(S[i + j * n]));
        }
    ck_assert_msg(err / (n * U53 * snorm * n) < RATIO_MAX, "dsyevd reconstruction ratio %g",
                  err / (n * U53 * snorm * n));
    for (size_t c = 0; c + 1 < n; c++)
        ck_assert(w[c] <= w[c + 1]);
    ck_assert_msg(fabs(w[0] - 1e-3) < 1e-9, "smallest eigenvalue %g, expected 1e-3", w[0]);
    double *L; size_t *piv, rank;
    ck_assert_int_eq(la_pchol(n, S, -1.0, &L, &piv, &rank), AR_OK);
    ck_assert_uint_eq(rank, n);
    err = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double v = 0;
            for (size_t c = 0; c < n; c++)
                v += L[i + c * n] * L[j + c * n];
            err = fmax(err, fabs(v - S[piv[i] + piv[j] * n]));
        }
    ck_assert_msg(err / (n * U53 * snorm * n) < RATIO_MAX, "dpstrf reconstruction ratio %g",
                  err / (n * U53 * snorm * n));
    /* exactly rank-deficient input: the pivoted Cholesky stops at the rank */
    double *S0 = calloc(n * n, sizeof *S0), *L0; size_t *p0, r0;
    la_gemm_nt(n, n, rk, 1.0, G, n, G, n, 0.0, S0, n);
    ck_assert_int_eq(la_pchol(n, S0, -1.0, &L0, &p0, &r0), AR_OK);
    ck_assert_msg(r0 == rk, "pivoted Cholesky rank %zu, expected %zu", r0, rk);
    free(G); free(S); free(w); free(Z); free(L); free(piv); free(S0); free(L0); free(p0);
}
END_TEST

START_TEST(test_inv)
{
    rng_t r;
    rng_init(&r, test_seed() + 14);
    size_t n = 60;
    double *A = rand_mat(&r, n, n), *X = calloc(n * n, sizeof *X);
    for (size_t i = 0; i < n; i++)
        A[i + i * n] += 4.0;
    ck_assert_int_eq(la_inv(n, A, X), AR_OK);
    double err = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double v = 0;
            for (size_t c = 0; c < n; c++)
                v += A[i + c * n] * X[c + j * n];
            err = fmax(err, fabs(v - (i == j)));
        }
    ck_assert_msg(err < 1e-12, "A * inv(A) - I = %g", err);
    memset(A, 0, n * n * sizeof *A);   /* singular */
    ck_assert_int_eq(la_inv(n, A, X), AR_ENUMERIC);
    free(A); free(X);
}
END_TEST

START_TEST(test_bad_input)
{
    double *U, *s, *VT, *w, *Z;
    ck_assert_int_eq(la_svd(0, 3, NULL, &U, &s, &VT), AR_EINVAL);
    ck_assert_int_eq(la_syev(0, NULL, &w, &Z), AR_EINVAL);
    ck_assert(strlen(blas_corename()) > 0);
}
END_TEST

Suite *suite_linalg(void)
{
    Suite *s = suite_create("linalg");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_gemm_vs_naive);
    tcase_add_test(tc, test_svd_reconstructs);
    tcase_add_test(tc, test_gram_factors);
    tcase_add_test(tc, test_syev_and_pchol);
    tcase_add_test(tc, test_inv);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
