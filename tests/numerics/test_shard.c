/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_shard.c -- shard selection and assignment (numerics/shard.h):
 * strict K/N, every point owned by exactly one shard, the LPT rule's
 * determinism and balance (no shard's load exceeds the mean by more than
 * the largest cost), ties in list and shard order. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "numerics/shard.h"

START_TEST(shard_parse_strict)
{
    shard_sel_t s;
    ck_assert_int_eq(shard_parse("shard", "0/1", &s), AR_OK);
    ck_assert(s.k == 0 && s.n == 1);
    ck_assert_int_eq(shard_parse("shard", "99999/100000", &s), AR_OK);
    ck_assert(s.k == 99999 && s.n == 100000);
    const char *bad[] = { "1/1", "2/1", "0/0", "-1/2", "1/-2", " 1/2", "1/2 ", "1/ 2", "1//2", "1/2/3", "a/2", "1/b",
                          "", "/", "1/", "/2", "0x1/2", "+1/2", "1.0/2", "0/100001", "18446744073709551616/2", "12" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(shard_parse("shard", bad[i], &s) == AR_EINVAL, "'%s' accepted", bad[i]);
        ck_assert_msg(strstr(ar_error_get(), "--shard") != NULL, "%s", ar_error_get());
    }
    ck_assert_int_eq(shard_parse("shard", NULL, &s), AR_EINVAL);
}
END_TEST

START_TEST(shard_assign_rule)
{
    test_rng_init(test_seed() + 17);
    for (int trial = 0; trial < 200; trial++) {
        size_t n = (size_t)test_irand(0, 60), k = (size_t)test_irand(1, 9);
        double c[60], load[9] = { 0 }, top = 0, sum = 0;
        size_t o[60], o2[60];
        for (size_t i = 0; i < n; i++) {
            c[i] = trial % 3 == 0 ? (double)test_irand(0, 3) : 100 * test_unif() * test_unif();
            top = c[i] > top ? c[i] : top;
            sum += c[i];
        }
        ck_assert_int_eq(shard_assign(c, n, k, o), AR_OK);
        ck_assert_int_eq(shard_assign(c, n, k, o2), AR_OK);
        ck_assert(n == 0 || memcmp(o, o2, n * sizeof *o) == 0);
        for (size_t i = 0; i < n; i++) {
            ck_assert_uint_lt(o[i], k);
            load[o[i]] += c[i];
        }
        for (size_t s = 0; s < k; s++)
            ck_assert_msg(load[s] <= sum / (double)k + top + 1e-9, "seed %llu trial %d: shard %zu load %g, mean %g, top %g",
                          (unsigned long long)test_seed(), trial, s, load[s], sum / (double)k, top);
    }
    /* equal costs: round robin in list order */
    double e[5] = { 1, 1, 1, 1, 1 };
    size_t o[5];
    ck_assert_int_eq(shard_assign(e, 5, 2, o), AR_OK);
    ck_assert(o[0] == 0 && o[1] == 1 && o[2] == 0 && o[3] == 1 && o[4] == 0);
    /* the costliest first: 9 alone, the rest on the other shard */
    double f[4] = { 3, 9, 3, 3 };
    ck_assert_int_eq(shard_assign(f, 4, 2, o), AR_OK);
    ck_assert(o[1] == 0 && o[0] == 1 && o[2] == 1 && o[3] == 1);
    double g[2] = { 1, -1 }, h[2] = { 1, 1.0 / 0.0 };
    ck_assert_int_eq(shard_assign(g, 2, 2, o), AR_EINVAL);
    ck_assert_int_eq(shard_assign(h, 2, 2, o), AR_EINVAL);
    ck_assert_int_eq(shard_assign(e, 5, 0, o), AR_EINVAL);
}
END_TEST

Suite *suite_shard(void)
{
    Suite *s = suite_create("shard");
    TEST_TCASE(tc, "shard");
    tcase_add_test(tc, shard_parse_strict);
    tcase_add_test(tc, shard_assign_rule);
    suite_add_tcase(s, tc);
    return s;
}
