/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_tsqr.c -- the tree tall QR and SVD against reference computations (scale-free
 * ratios, LAPACK-test style: error / (m u ||A||) below a fixed threshold), their fallbacks, and
 * determinism (the same bits on every call and for every thread count). */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "numerics/linalg.h"
#include "numerics/tsqr.h"
#include "numerics/rng.h"

#define U53 (0x1p-53)
#define RATIO_MAX 30.0

/* m x l with singular values spread over `decades` decades (A = G1 diag(10^-x) G2, Gaussian
 * factors), so that the QR and SVD see a graded matrix like a sketch of A. */
static double *graded(rng_t *r, size_t m, size_t l, double decades)
{
    double *a = calloc(m * l, sizeof *a), *g = malloc(l * l * sizeof *g);
    for (size_t i = 0; i < l * l; i++)
        g[i] = rng_normal(r);
    for (size_t c = 0; c < l; c++) {
        double sc = pow(10.0, -decades * (double)c / (double)(l > 1 ? l - 1 : 1));
        for (size_t i = 0; i < m; i++) {
            double x = rng_normal(r) * sc;
            for (size_t k = 0; k < l; k++)
                a[i + k * m] += x * g[c + k * l];
        }
    }
    free(g);
    return a;
}

static double max_abs(const double *a, size_t len)
{
    double mx = 0;
    for (size_t i = 0; i < len; i++)
        mx = fmax(mx, fabs(a[i]));
    return mx;
}

/* ||Q^T Q - I||_max / (m u) */
static double orth_ratio(const double *Q, size_t m, size_t l)
{
    double worst = 0;
    for (size_t a = 0; a < l; a++)
        for (size_t b = 0; b < l; b++) {
            long double s = 0;
            for (size_t i = 0; i < m; i++)
                s += (long double)Q[i + a * m] * Q[i + b * m];
            worst = fmax(worst, (double)fabsl(s - (a == b)));
        }
    return worst / ((double)m * U53);
}

/* ||Y - Q Q^T Y||_max / (m u ||Y||_max): Q spans Y's columns */
static double span_ratio(const double *Y, const double *Q, size_t m, size_t l)
{
    double worst = 0, ny = max_abs(Y, m * l);
    long double *c = malloc(l * sizeof *c);
    for (size_t k = 0; k < l; k++) {
        for (size_t a = 0; a < l; a++) {
            c[a] = 0;
            for (size_t i = 0; i < m; i++)
                c[a] += (long double)Q[i + a * m] * Y[i + k * m];
        }
        for (size_t i = 0; i < m; i++) {
            long double s = Y[i + k * m];
            for (size_t a = 0; a < l; a++)
                s -= (long double)Q[i + a * m] * c[a];
            worst = fmax(worst, (double)fabsl(s));
        }
    }
    free(c);
    return worst / ((double)m * U53 * ny);
}

START_TEST(test_tsqr_orth)
{
    rng_t r;
    rng_init(&r, test_seed() + 41);
    size_t shapes[][2] = { { 2000, 60 }, { 1501, 97 }, { 4096, 16 }, { 300, 200 }, { 40, 5 } };
    for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; t++) {
        size_t m = shapes[t][0], l = shapes[t][1];
        double *Y = graded(&r, m, l, 6.0), *Q = malloc(m * l * sizeof *Q), *Q2 = malloc(m * l * sizeof *Q2);
        memcpy(Q, Y, m * l * sizeof *Q);
        memcpy(Q2, Y, m * l * sizeof *Q2);
        ck_assert_int_eq(tsqr_orth(m, l, Q), AR_OK);
        ck_assert_int_eq(tsqr_orth(m, l, Q2), AR_OK);
        ck_assert_msg(memcmp(Q, Q2, m * l * sizeof *Q) == 0, "tsqr_orth m=%zu l=%zu: two calls differ", m, l);
        double ro = orth_ratio(Q, m, l), rs = span_ratio(Y, Q, m, l);
        ck_assert_msg(ro <= RATIO_MAX && rs <= RATIO_MAX,
                      "tsqr_orth m=%zu l=%zu (split %d) seed=%llu: orthogonality ratio %g, span ratio %g",
                      m, l, tsqr_splits(m, l), (unsigned long long)test_seed(), ro, rs);
        free(Y); free(Q); free(Q2);
    }
    ck_assert(tsqr_splits(2000, 60) && tsqr_splits(1501, 97) && tsqr_splits(4096, 16));
    ck_assert(!tsqr_splits(300, 200) && !tsqr_splits(40, 5));   /* la_orth there */
}
END_TEST

START_TEST(test_tsqr_svd)
{
    rng_t r;
    rng_init(&r, test_seed() + 42);
    size_t shapes[][2] = { { 2000, 60 }, { 1501, 97 }, { 300, 200 } };
    for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; t++) {
        size_t m = shapes[t][0], l = shapes[t][1];
        double *A = graded(&r, m, l, 8.0), *U, *s, *VT, *U0, *s0, *VT0;
        ck_assert_int_eq(tsqr_svd(m, l, A, &U, &s, &VT), AR_OK);
        ck_assert_int_eq(la_svd(m, l, A, &U0, &s0, &VT0), AR_OK);
        double na = max_abs(A, m * l), worst = 0;
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < l; j++) {
                long double x = A[i + j * m];
                for (size_t c = 0; c < l; c++)
                    x -= (long double)U[i + c * m] * s[c] * VT[c + j * l];
                worst = fmax(worst, (double)fabsl(x));
            }
        double rr = worst / ((double)m * U53 * na), rsv = 0;
        for (size_t c = 0; c < l; c++) {
            ck_assert(c == 0 || s[c] <= s[c - 1]);
            rsv = fmax(rsv, fabs(s[c] - s0[c]) / ((double)m * U53 * s0[0]));   /* Weyl: |ds| <= ||dA||_2 */
        }
        ck_assert_msg(rr <= RATIO_MAX && rsv <= RATIO_MAX && orth_ratio(U, m, l) <= RATIO_MAX,
                      "tsqr_svd m=%zu l=%zu seed=%llu: reconstruction ratio %g, singular values ratio %g",
                      m, l, (unsigned long long)test_seed(), rr, rsv);
        free(A); free(U); free(s); free(VT); free(U0); free(s0); free(VT0);
    }
}
END_TEST

/* Issue 35: the tree is a function of the shape alone, so tsqr_orth and tsqr_svd give the same
 * bits for every thread count (memcmp against one thread), at shapes with 2, 4, 8 and 32 leaves
 * (m not a multiple of the leaf count) and one without a split. */
START_TEST(test_tsqr_thread_counts)
{
    rng_t r;
    rng_init(&r, test_seed() + 43);
    size_t shapes[][3] = { { 1501, 97, 2 }, { 2000, 60, 4 }, { 5003, 40, 8 }, { 4096, 16, 32 }, { 300, 200, 1 } };
    for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; t++) {
        size_t m = shapes[t][0], l = shapes[t][1];
        ck_assert_uint_eq(tsqr_parts(m, l), shapes[t][2]);
        double *Y = graded(&r, m, l, 6.0), *Q1 = malloc(m * l * sizeof *Q1), *Q = malloc(m * l * sizeof *Q);
        double *U1 = NULL, *s1 = NULL, *V1 = NULL;
        for (size_t c = 0; c < TEST_NTHREAD_COUNTS; c++) {
            ar_config_t cfg;
            const ar_config_t *prev = test_threads_install(&cfg, TEST_THREAD_COUNTS[c]);
            double *Qc = c == 0 ? Q1 : Q, *U, *s, *VT;
            memcpy(Qc, Y, m * l * sizeof *Qc);
            ck_assert_int_eq(tsqr_orth(m, l, Qc), AR_OK);
            ck_assert_int_eq(tsqr_svd(m, l, Y, &U, &s, &VT), AR_OK);
            ar_config_install(prev);
            if (c == 0) {
                U1 = U; s1 = s; V1 = VT;
                continue;
            }
            ck_assert_msg(memcmp(Q, Q1, m * l * sizeof *Q) == 0 && memcmp(U, U1, m * l * sizeof *U) == 0 &&
                          memcmp(s, s1, l * sizeof *s) == 0 && memcmp(VT, V1, l * l * sizeof *VT) == 0,
                          "m=%zu l=%zu: %d threads differ from one", m, l, TEST_THREAD_COUNTS[c]);
            free(U); free(s); free(VT);
        }
        free(U1); free(s1); free(V1); free(Y); free(Q1); free(Q);
    }
}
END_TEST

Suite *suite_tsqr(void)
{
    Suite *s = suite_create("tsqr");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_tsqr_orth);
    tcase_add_test(tc, test_tsqr_svd);
    tcase_add_test(tc, test_tsqr_thread_counts);
    suite_add_tcase(s, tc);
    return s;
}
