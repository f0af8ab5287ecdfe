/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_rsvd_sketch.c -- the randomized range finder of the upper certificates
 * (theory/certificates/cert_rsvd_sketch.c): the range's columns are orthonormal, an extension
 * keeps the old columns bit for bit, P = A^T Q, a seed gives the same bits, the SVD factors give
 * U V^T = Q Q^T A, and at full size the symmetric factors of S = T A T^{-1} reproduce A. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "numerics/amat.h"
#include "numerics/softmax.h"
#include "numerics/softmax_dbl.h"
#include "theory/certificates/cert_rsvd.h"
#include "theory/certificates/cert_rsvd_impl.h"
#include "rsvdutil.h"

/* max |Q^T Q - I| over the l x l entries (Q rows x l, column-major). */
static double orth_defect(const double *Q, size_t rows, size_t l)
{
    double worst = 0.0;
    for (size_t a = 0; a < l; a++)
        for (size_t b = 0; b < l; b++) {
            double s = 0.0;
            for (size_t i = 0; i < rows; i++)
                s += Q[i + a * rows] * Q[i + b * rows];
            worst = fmax(worst, fabs(s - (a == b ? 1.0 : 0.0)));
        }
    return worst;
}

START_TEST(test_sketch_extend_svd_factors)
{
    test_rng_init(test_seed() + 41);
    size_t m = 90, n = 70, d = 3;
    double *q = malloc(m * d * sizeof *q), *k = malloc(n * d * sizeof *k);
    points(q, m * d);
    points(k, n * d);
    smx_t A;
    ck_assert_int_eq(smx_compute_dbl(&A, q, m, k, n, d, NULL, 6.0, 0), AR_OK);
    amat_t M;
    amat_memory(&M, &A);
    rsvd_opts_t o;
    rsvd_opts_default(&o);
    rsvd_sketch_t sk, sk2;
    memset(&sk, 0, sizeof sk);
    memset(&sk2, 0, sizeof sk2);
    ck_assert_int_eq(rsvd_sketch_extend(&M, NULL, &sk, 12, 1, 7, &o), AR_OK);
    ck_assert_uint_eq(sk.l, 12);
    ck_assert_uint_eq(sk.rows, m);
    ck_assert(orth_defect(sk.Q, m, 12) <= 1e-12);
    double *Q0 = malloc(m * 12 * sizeof *Q0);
    memcpy(Q0, sk.Q, m * 12 * sizeof *Q0);
    ck_assert_int_eq(rsvd_sketch_extend(&M, NULL, &sk, 30, 1, 8, &o), AR_OK);
    ck_assert_uint_eq(sk.l, 30);
    ck_assert(memcmp(sk.Q, Q0, m * 12 * sizeof *Q0) == 0);         /* the old columns are kept */
    ck_assert_msg(orth_defect(sk.Q, m, 30) <= 1e-12, "defect %g", orth_defect(sk.Q, m, 30));
    /* P = A^T Q */
    for (size_t c = 0; c < 30; c++)
        for (size_t j = 0; j < n; j++) {
            double s = 0.0;
            for (size_t i = 0; i < m; i++)
                s += A.a[i + j * m] * sk.Q[i + c * m];
            ck_assert_msg(fabs(s - sk.P[j + c * n]) <= 1e-12, "P[%zu,%zu] %.17g vs %.17g", j, c, sk.P[j + c * n], s);
        }
    /* the same seed: the same bits */
    ck_assert_int_eq(rsvd_sketch_extend(&M, NULL, &sk2, 12, 1, 7, &o), AR_OK);
    ck_assert(memcmp(sk2.Q, Q0, m * 12 * sizeof *Q0) == 0);
    /* U V^T = Q B = Q P^T */
    double *U, *V;
    ck_assert_int_eq(rsvd_svd_factors(&sk, m, n, &U, &V), AR_OK);
    double worst = 0.0;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            double uv = 0.0, qp = 0.0;
            for (size_t c = 0; c < 30; c++) {
                uv += U[i + c * m] * V[j + c * n];
                qp += sk.Q[i + c * m] * sk.P[j + c * n];
            }
            worst = fmax(worst, fabs(uv - qp));
        }
    ck_assert_msg(worst <= 1e-12, "U V^T - Q P^T: %g", worst);
    rsvd_sketch_clear(&sk);
    ck_assert(sk.Q == NULL && sk.P == NULL && sk.l == 0);
    rsvd_sketch_clear(&sk2);
    free(U); free(V); free(Q0); free(q); free(k);
    smx_clear(&A);
}
END_TEST

START_TEST(test_sketch_sym_factors_full)
{
    test_rng_init(test_seed() + 42);
    size_t n = 40, d = 2;
    double *x = malloc(n * d * sizeof *x);
    points(x, n * d);
    smx_t A;
    ck_assert_int_eq(smx_compute_dbl(&A, x, n, x, n, d, NULL, 4.0, 0), AR_OK);
    double *t = malloc(n * sizeof *t), mean = 0.0;
    for (size_t i = 0; i < n; i++)
        mean += 0.5 * A.lognorm[i] / (double)n;
    for (size_t i = 0; i < n; i++)
        t[i] = exp(0.5 * A.lognorm[i] - mean);      /* S = T A T^{-1} symmetric */
    amat_t M;
    amat_memory(&M, &A);
    rsvd_opts_t o;
    rsvd_opts_default(&o);
    rsvd_sketch_t sk;
    memset(&sk, 0, sizeof sk);
    ck_assert_int_eq(rsvd_sketch_extend(&M, t, &sk, n, 1, 5, &o), AR_OK);
    ck_assert_uint_eq(sk.rows, n);
    ck_assert(orth_defect(sk.Q, n, n) <= 1e-12);
    double *U, *V;
    ck_assert_int_eq(rsvd_sym_factors(&sk, t, n, &U, &V), AR_OK);
    double worst = 0.0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double uv = 0.0;
            for (size_t c = 0; c < n; c++)
                uv += U[i + c * n] * V[j + c * n];
            worst = fmax(worst, fabs(uv - A.a[i + j * n]));
        }
    ck_assert_msg(worst <= 1e-9, "full-size rsym factors: max |U V^T - A| = %g", worst);
    rsvd_sketch_clear(&sk);
    free(U); free(V); free(t); free(x);
    smx_clear(&A);
}
END_TEST

Suite *suite_cert_rsvd_sketch(void)
{
    Suite *s = suite_create("cert_rsvd_sketch");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_sketch_extend_svd_factors);
    tcase_add_test(tc, test_sketch_sym_factors_full);
    suite_add_tcase(s, tc);
    return s;
}
