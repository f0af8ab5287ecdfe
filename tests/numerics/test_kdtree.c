/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_kdtree.c -- the k-d tree's pair enumeration against brute force:
 * completeness (every pair with exact (s/2)|x-y|^2 < T is found, nothing
 * at or above a margin), the rigorous sums, one and two jobs, determinism,
 * bad input (proofs-notes/packing-lower-bounds.md, section 6). */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "numerics/kdtree.h"

typedef struct { size_t m; unsigned char *seen; } seen_t;

static int mark(size_t p, size_t q, void *ctx)
{
    seen_t *S = ctx;
    S->seen[p * S->m + q] = 1;
    return 0;
}

START_TEST(test_pairs_complete)
{
    test_rng_init(test_seed() * 7 + 3);
    for (int trial = 0; trial < 8; trial++) {
        size_t d = 1 + (size_t)(trial % 7), m = 50 + (size_t)test_irand(0, 700);
        double *x = malloc(m * d * sizeof(double));
        for (size_t i = 0; i < m * d; i++)
            x[i] = 2.0 * test_unif() - 1.0;
        if (trial == 3)
            memcpy(x + d, x, d * sizeof(double));       /* a duplicate point */
        double s = 10.0 + 100.0 * test_unif(), T = 0.1 + 3.0 * test_unif();
        kdtree_t t;
        ck_assert_int_eq(kdtree_build(&t, x, m, d), AR_OK);
        /* the tree is a permutation of the points */
        for (size_t p = 0; p < m; p++)
            ck_assert(memcmp(t.x + p * d, x + t.perm[p] * d, d * sizeof(double)) == 0);
        seen_t S = { m, calloc(m * m, 1) };
        kdtree_pairs_visit(&t, s, T, mark, &S);
        double *Sum = calloc(m, sizeof(double));
        uint32_t *cnt = calloc(m, sizeof(uint32_t));
        kdtree_gauss_t g;
        ck_assert_int_eq(kdtree_gauss_pairs(&t, s, T, INFINITY, NULL, Sum, cnt, &g), AR_OK);
        uint64_t found = 0;
        for (size_t p = 0; p < m; p++) {
            double ref = 0.0;
            uint32_t rc = 0;
            for (size_t q = 0; q < m; q++) {
                if (q == p)
                    continue;
                double D = 0.0;
                for (size_t c = 0; c < d; c++) {
                    double u = t.x[p * d + c] - t.x[q * d + c];
                    D += u * u;
                }
                double L = 0.5 * s * D;
                int got = p < q ? S.seen[p * m + q] : S.seen[q * m + p];
                if (L * (1 + 1e-12) < T)
                    ck_assert_msg(got, "trial %d: pair (%zu, %zu) at L = %.17g < T = %g missed", trial, p, q, L, T);
                if (L * (1 - 1e-12) >= T)
                    ck_assert_msg(!got, "trial %d: pair (%zu, %zu) at L = %.17g >= T = %g found", trial, p, q, L, T);
                if (got) {
                    ref += exp(-L);
                    rc++;
                    found += p < q;
                }
            }
            ck_assert_int_eq(cnt[p], rc);
            ck_assert_msg(Sum[p] >= ref * (1 - 1e-13) && Sum[p] <= ref * (1 + 1e-12) + 1e-300,
                          "trial %d row %zu: sum %.17g vs %.17g", trial, p, Sum[p], ref);
        }
        ck_assert_int_eq(g.pairs, found);
        if (trial == 3)
            ck_assert(g.min_L == 0.0);
        free(S.seen);
        free(Sum);
        free(cnt);
        kdtree_free(&t);
        free(x);
    }
}
END_TEST

/* m >= 4096: two jobs; the same pairs as one traversal, sums within rounding, twice the same bits. */
START_TEST(test_pairs_two_jobs)
{
    test_rng_init(test_seed() * 11 + 5);
    size_t m = 6000, d = 3;
    double *x = malloc(m * d * sizeof(double));
    for (size_t i = 0; i < m; i++) {
        double n = 0;
        for (size_t c = 0; c < d; c++) {
            x[i * d + c] = 2.0 * test_unif() - 1.0;
            n += x[i * d + c] * x[i * d + c];
        }
        for (size_t c = 0; c < d; c++)
            x[i * d + c] /= sqrt(n);
    }
    kdtree_t t;
    ck_assert_int_eq(kdtree_build(&t, x, m, d), AR_OK);
    double *S1 = calloc(m, 8), *S2 = calloc(m, 8);
    uint32_t *c1 = calloc(m, 4), *c2 = calloc(m, 4);
    kdtree_gauss_t g1, g2;
    ck_assert_int_eq(kdtree_gauss_pairs(&t, 500.0, 4.0, INFINITY, NULL, S1, c1, &g1), AR_OK);
    ck_assert_int_eq(kdtree_gauss_pairs(&t, 500.0, 4.0, INFINITY, NULL, S2, c2, &g2), AR_OK);
    ck_assert(memcmp(S1, S2, m * 8) == 0 && memcmp(c1, c2, m * 4) == 0 && g1.pairs == g2.pairs);
    uint64_t bf = 0;
    for (size_t p = 0; p < m; p++)
        for (size_t q = p + 1; q < m; q++) {
            double D = 0;
            for (size_t c = 0; c < d; c++) {
                double u = t.x[p * d + c] - t.x[q * d + c];
                D += u * u;
            }
            bf += 250.0 * D < 4.0;
        }
    ck_assert_msg(g1.pairs == bf, "two jobs found %llu pairs, brute force %llu", (unsigned long long)g1.pairs,
                  (unsigned long long)bf);
    /* early stop */
    ck_assert_int_eq(kdtree_gauss_pairs(&t, 500.0, 4.0, 1e-3, NULL, S2, c2, &g2), AR_OK);
    ck_assert(g2.stopped == 1);
    free(S1);
    free(S2);
    free(c1);
    free(c2);
    kdtree_free(&t);
    free(x);
}
END_TEST

START_TEST(test_kdtree_bad_input)
{
    kdtree_t t;
    double x[4] = { 0, 1, NAN, 2 };
    ck_assert_int_eq(kdtree_build(&t, x, 0, 2), AR_EINVAL);
    ck_assert_int_eq(kdtree_build(&t, x, 2, 0), AR_EINVAL);
    ck_assert_int_eq(kdtree_build(&t, x, 1, 17), AR_EINVAL);
    ck_assert_int_eq(kdtree_build(&t, x, 2, 2), AR_EINVAL);     /* NaN */
    ck_assert_int_eq(kdtree_build(&t, x, 1, 2), AR_OK);
    double S[1];
    uint32_t c[1];
    kdtree_gauss_t g;
    ck_assert_int_eq(kdtree_gauss_pairs(&t, -1.0, 1.0, INFINITY, NULL, S, c, &g), AR_EINVAL);
    ck_assert_int_eq(kdtree_gauss_pairs(&t, 1.0, NAN, INFINITY, NULL, S, c, &g), AR_EINVAL);
    ck_assert_int_eq(kdtree_gauss_pairs(&t, 1.0, 1.0, INFINITY, NULL, S, c, &g), AR_OK);
    ck_assert(g.pairs == 0 && S[0] == 0 && c[0] == 0 && isinf(kdtree_nn_sqdist(&t, 0)));
    kdtree_free(&t);
}
END_TEST

Suite *suite_kdtree(void)
{
    Suite *s = suite_create("kdtree");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_pairs_complete);
    tcase_add_test(tc, test_pairs_two_jobs);
    tcase_add_test(tc, test_kdtree_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
