/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_fps.c -- farthest-point ordering against a brute-force recomputation
 * of the greedy rule on random clouds (with forced ties). */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include "testutil.h"
#include "numerics/fps.h"
#include "numerics/rng.h"

/* Same rounding as the contract: sum over coordinates in increasing order. */
static double sqd(const double *a, const double *b, size_t d)
{
    double s = 0;
    for (size_t c = 0; c < d; c++)
        s += (a[c] - b[c]) * (a[c] - b[c]);
    return s;
}

static void check_cloud(const double *x, size_t n, size_t d, size_t start, uint64_t seed)
{
    size_t *order = malloc(n * sizeof *order), *order2 = malloc(n * sizeof *order2);
    double *md = malloc(n * sizeof *md);
    char *seen = calloc(n, 1);
    ck_assert_int_eq(fps_order(x, n, d, start, order, md), AR_OK);
    ck_assert_int_eq(fps_order(x, n, d, start, order2, NULL), AR_OK);
    ck_assert_msg(order[0] == start, "seed %llu n=%zu: order[0]=%zu start=%zu",
                  (unsigned long long)seed, n, order[0], start);
    ck_assert_msg(isinf(md[0]) && md[0] > 0, "mindist[0] = %g", md[0]);
    for (size_t t = 0; t < n; t++) {
        ck_assert_msg(order[t] < n && !seen[order[t]], "seed %llu n=%zu d=%zu: order not a permutation at t=%zu",
                      (unsigned long long)seed, n, d, t);
        ck_assert_msg(order[t] == order2[t], "mindist=NULL changes the order at t=%zu", t);
        seen[order[t]] = 1;
        if (t == 0)
            continue;
        /* brute force: min distance of every unchosen point to order[0..t-1] */
        double best = -1;
        size_t arg = n;
        for (size_t j = 0; j < n; j++) {
            int chosen = 0;
            for (size_t s = 0; s < t; s++)
                chosen |= order[s] == j;
            if (chosen)
                continue;
            double m = INFINITY;
            for (size_t s = 0; s < t; s++)
                m = fmin(m, sqd(x + j * d, x + order[s] * d, d));
            if (m > best) {
                best = m;
                arg = j;
            }
        }
        ck_assert_msg(order[t] == arg, "seed %llu n=%zu d=%zu start=%zu t=%zu: chose %zu, brute force %zu (min sq dist %.17g)",
                      (unsigned long long)seed, n, d, start, t, order[t], arg, best);
        ck_assert_msg(md[t] == sqrt(best), "seed %llu t=%zu: mindist %.17g vs %.17g",
                      (unsigned long long)seed, t, md[t], sqrt(best));
        if (t >= 2)
            ck_assert_msg(md[t] <= md[t - 1], "seed %llu t=%zu: mindist increased %.17g > %.17g",
                          (unsigned long long)seed, t, md[t], md[t - 1]);
    }
    free(order);
    free(order2);
    free(md);
    free(seen);
}

START_TEST(test_fps_random)
{
    uint64_t seed = test_seed() * 31 + 5;
    rng_t r;
    rng_init(&r, seed);
    for (int rep = 0; rep < 200; rep++) {
        size_t n = 1 + (size_t)(rng_u64(&r) % 40), d = 1 + (size_t)(rng_u64(&r) % 5);
        size_t start = (size_t)(rng_u64(&r) % n);
        int grid = rep % 2;       /* integer grid coordinates: many exact ties and duplicates */
        double *x = malloc(n * d * sizeof *x);
        for (size_t i = 0; i < n * d; i++)
            x[i] = grid ? (double)(rng_u64(&r) % 3) : rng_normal(&r);
        check_cloud(x, n, d, start, seed + (uint64_t)rep);
        free(x);
    }
}
END_TEST

START_TEST(test_fps_ties)
{
    /* all points equal: order must be start, then increasing indices */
    double x[12] = { 0 };
    size_t order[6];
    double md[6];
    ck_assert_int_eq(fps_order(x, 6, 2, 3, order, md), AR_OK);
    const size_t want[6] = { 3, 0, 1, 2, 4, 5 };
    for (int t = 0; t < 6; t++) {
        ck_assert_msg(order[t] == want[t], "t=%d: %zu want %zu", t, order[t], want[t]);
        if (t)
            ck_assert(md[t] == 0.0);
    }
    /* collinear 0,1,2,3 from 0: 3 (dist 3), then 1 or 2 (both dist 1): 1 */
    double y[4] = { 0, 1, 2, 3 };
    ck_assert_int_eq(fps_order(y, 4, 1, 0, order, md), AR_OK);
    ck_assert(order[1] == 3 && order[2] == 1 && order[3] == 2);
    ck_assert(md[1] == 3 && md[2] == 1 && md[3] == 1);
}
END_TEST

START_TEST(test_fps_invalid)
{
    double x[4] = { 0, 1, 2, NAN };
    size_t order[4];
    ck_assert_int_eq(fps_order(x, 2, 1, 2, order, NULL), AR_EINVAL);
    ck_assert_int_eq(fps_order(x, 0, 1, 0, order, NULL), AR_EINVAL);
    ck_assert_int_eq(fps_order(x, 4, 1, 0, order, NULL), AR_EINVAL);
    ck_assert_int_eq(fps_order(x, 3, 1, 0, order, NULL), AR_OK);
}
END_TEST


/* Every prefix of the order is fps_prefix's result, with the same distances. */
START_TEST(test_fps_prefix)
{
    rng_t r;
    rng_init(&r, test_seed() + 5);
    size_t n = 300, d = 4;
    double *x = malloc(n * d * sizeof *x), md[300], mp[300];
    size_t order[300], pre[300];
    for (size_t i = 0; i < n * d; i++)
        x[i] = rng_normal(&r);
    ck_assert_int_eq(fps_order(x, n, d, 7, order, md), AR_OK);
    size_t lens[] = { 1, 2, 17, 256, 299, 300 };
    for (size_t t = 0; t < sizeof lens / sizeof lens[0]; t++) {
        ck_assert_int_eq(fps_prefix(x, n, d, 7, lens[t], pre, mp), AR_OK);
        for (size_t k = 0; k < lens[t]; k++)
            ck_assert_msg(pre[k] == order[k] && (k == 0 || mp[k] == md[k]),
                          "prefix of length %zu differs at %zu", lens[t], k);
    }
    ck_assert_int_eq(fps_prefix(x, n, d, 7, 0, pre, NULL), AR_EINVAL);
    ck_assert_int_eq(fps_prefix(x, n, d, 7, n + 1, pre, NULL), AR_EINVAL);
    free(x);
}
END_TEST

Suite *suite_fps(void)
{
    Suite *s = suite_create("fps");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_fps_random);
    tcase_add_test(tc, test_fps_ties);
    tcase_add_test(tc, test_fps_invalid);
    tcase_add_test(tc, test_fps_prefix);
    suite_add_tcase(s, tc);
    return s;
}
