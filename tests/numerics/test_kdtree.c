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
#include "base/config.h"

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
/* m points of the unit sphere in R^d from the test generator (malloc'd). */
static double *random_unit_points(size_t m, size_t d)
{
    double *x = malloc(m * d * sizeof(double));
    ck_assert_ptr_nonnull(x);
    for (size_t i = 0; i < m; i++) {
        double n = 0;
        for (size_t c = 0; c < d; c++) {
            x[i * d + c] = 2.0 * test_unif() - 1.0;
            n += x[i * d + c] * x[i * d + c];
        }
        for (size_t c = 0; c < d; c++)
            x[i * d + c] /= sqrt(n);
    }
    return x;
}

START_TEST(test_pairs_two_jobs)
{
    test_rng_init(test_seed() * 11 + 5);
    size_t m = 6000, d = 3;
    double *x = random_unit_points(m, d);
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

/* The pair search's fixed partition (kdtree.c): on 2..8 parts, the same
 * sums, counts and pairs for 1..64 threads; the sums agree with each row's
 * pairs summed here one by one (visit); the pair count matches brute force;
 * and the number of parts depends on m alone. */
typedef struct { const kdtree_t *t; double half; double *ref; } refsum_t;

static int add_ref(size_t p, size_t q, void *ctx)
{
    refsum_t *R = ctx;
    size_t d = R->t->d;
    double D = 0;
    for (size_t c = 0; c < d; c++) {
        double u = R->t->x[p * d + c] - R->t->x[q * d + c];
        D += u * u;
    }
    double e = exp(-D * R->half);
    R->ref[p] += e;
    R->ref[q] += e;
    return 0;
}

START_TEST(test_pairs_parts)
{
    ck_assert_uint_eq(kdtree_pair_parts(4095), 1);
    ck_assert_uint_eq(kdtree_pair_parts(4096), 2);
    ck_assert_uint_eq(kdtree_pair_parts(((size_t)1 << 21) - 1), 2);
    ck_assert_uint_eq(kdtree_pair_parts((size_t)1 << 21), 8);
    test_rng_init(test_seed() * 13 + 1);
    size_t m = 9000, d = 4;
    double *x = random_unit_points(m, d);
    kdtree_t t;
    ck_assert_int_eq(kdtree_build(&t, x, m, d), AR_OK);
    double s = 400.0, T = 6.0;
    double *S0 = calloc(m, 8), *S = calloc(m, 8), *ref = calloc(m, 8);
    uint32_t *c0 = calloc(m, 4), *c = calloc(m, 4);
    ck_assert(S0 && S && ref && c0 && c);
    refsum_t R = { &t, 0.5 * s, ref };
    kdtree_pairs_visit(&t, s, T, add_ref, &R);
    for (size_t np = 2; np <= 8; np += 3) {
        kdtree_gauss_t g0, g;
        for (size_t k = 0; k < TEST_NTHREAD_COUNTS; k++) {
            ar_config_t cfg;
            const ar_config_t *prev = test_threads_install(&cfg, TEST_THREAD_COUNTS[k]);
            ck_assert_int_eq(kdtree_gauss_pairs_parts(&t, s, T, INFINITY, NULL, k ? S : S0, k ? c : c0, np,
                                                      k ? &g : &g0), AR_OK);
            ar_config_install(prev);
            if (k)
                ck_assert_msg(memcmp(S, S0, m * 8) == 0 && memcmp(c, c0, m * 4) == 0 && g.pairs == g0.pairs &&
                              g.min_L == g0.min_L, "%zu parts: %d threads differ from one", np,
                              TEST_THREAD_COUNTS[k]);
        }
        uint64_t bf = 0, cs = 0;
        for (size_t p = 0; p < m; p++) {
            cs += c0[p];
            for (size_t q = p + 1; q < m; q++) {
                double D = 0;
                for (size_t e = 0; e < d; e++) {
                    double u = t.x[p * d + e] - t.x[q * d + e];
                    D += u * u;
                }
                bf += 0.5 * s * D < T;
            }
        }
        ck_assert_msg(g0.pairs == bf && cs == 2 * bf, "%zu parts: %llu pairs (counts %llu), brute force %llu", np,
                      (unsigned long long)g0.pairs, (unsigned long long)cs, (unsigned long long)bf);
        ck_assert_msg(bf > m, "%llu pairs", (unsigned long long)bf);
        for (size_t p = 0; p < m; p++)
            ck_assert_msg(S0[p] >= ref[p] * (1 - 1e-12) && S0[p] <= ref[p] * (1 + 1e-9) + 1e-300,
                          "%zu parts, row %zu: sum %.17g, pairs one by one %.17g", np, p, S0[p], ref[p]);
    }
    kdtree_gauss_t g;
    ck_assert_int_eq(kdtree_gauss_pairs_parts(&t, s, T, INFINITY, NULL, S, c, 9, &g), AR_EINVAL);
    ck_assert_int_eq(kdtree_gauss_pairs_parts(&t, s, T, INFINITY, NULL, S, c, 0, &g), AR_EINVAL);
    free(S0);
    free(S);
    free(ref);
    free(c0);
    free(c);
    kdtree_free(&t);
    free(x);
}
END_TEST

/* kdtree_gauss_rows: each row's count is the pair search's (the same pairs), its sum bounds the
 * row's pairs one by one from above and agrees with the pair search's to rounding, min_L is the
 * pair search's; the bits are the same for every thread count; a row out of range is refused. */
START_TEST(test_rows_single)
{
    test_rng_init(test_seed() * 17 + 5);
    size_t m = 6000, d = 5;
    double *x = random_unit_points(m, d);
    kdtree_t t;
    ck_assert_int_eq(kdtree_build(&t, x, m, d), AR_OK);
    double s = 300.0, T = 7.0;
    double *S = calloc(m, 8), *ref = calloc(m, 8), *R0 = calloc(m, 8), *R1 = calloc(m, 8);
    uint32_t *c = calloc(m, 4), *k0 = calloc(m, 4), *k1 = calloc(m, 4);
    size_t *rows = calloc(m, sizeof(size_t));
    ck_assert(S && ref && R0 && R1 && c && k0 && k1 && rows);
    refsum_t R = { &t, 0.5 * s, ref };
    kdtree_pairs_visit(&t, s, T, add_ref, &R);
    kdtree_gauss_t g;
    ck_assert_int_eq(kdtree_gauss_pairs(&t, s, T, INFINITY, NULL, S, c, &g), AR_OK);
    /* every row, in reverse order (the order of the rows must not matter) */
    for (size_t k = 0; k < m; k++)
        rows[k] = m - 1 - k;
    double mn0 = 0, mn1 = 0;
    for (size_t k = 0; k < TEST_NTHREAD_COUNTS; k++) {
        ar_config_t cfg;
        const ar_config_t *prev = test_threads_install(&cfg, TEST_THREAD_COUNTS[k]);
        ck_assert_int_eq(kdtree_gauss_rows(&t, s, T, rows, m, k ? R1 : R0, k ? k1 : k0, k ? &mn1 : &mn0), AR_OK);
        ar_config_install(prev);
        if (k)
            ck_assert_msg(memcmp(R0, R1, m * 8) == 0 && memcmp(k0, k1, m * 4) == 0 && mn0 == mn1,
                          "rows: %d threads differ from one", TEST_THREAD_COUNTS[k]);
    }
    ck_assert_msg(mn0 == g.min_L, "rows min_L %.17g, pairs %.17g", mn0, g.min_L);
    for (size_t k = 0; k < m; k++) {
        size_t p = rows[k];
        ck_assert_msg(k0[k] == c[p], "row %zu: %u pairs, the pair search %u", p, k0[k], c[p]);
        ck_assert_msg(R0[k] >= ref[p] * (1 - 1e-12) && fabs(R0[k] - S[p]) <= 1e-12 * S[p] + 1e-300,
                      "row %zu: %.17g, one by one %.17g, pair search %.17g", p, R0[k], ref[p], S[p]);
    }
    rows[3] = m;
    ck_assert_int_eq(kdtree_gauss_rows(&t, s, T, rows, 4, R0, k0, &mn0), AR_EINVAL);
    ck_assert_int_eq(kdtree_gauss_rows(&t, s, NAN, rows, 3, R0, k0, &mn0), AR_EINVAL);
    ck_assert_int_eq(kdtree_gauss_rows(&t, s, T, rows, 0, NULL, NULL, &mn0), AR_OK);
    ck_assert(isinf(mn0));
    free(S);
    free(ref);
    free(R0);
    free(R1);
    free(c);
    free(k0);
    free(k1);
    free(rows);
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
    tcase_add_test(tc, test_pairs_parts);
    tcase_add_test(tc, test_rows_single);
    tcase_add_test(tc, test_kdtree_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
