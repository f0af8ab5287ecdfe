/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_packing_search.c -- the search over the packing angle
 * (theory/certificates/cert_packing_search.c): determinism, the certified packing's R against
 * the truth, the generators. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include <flint/fmpz.h>
#include "testutil.h"
#include "numerics/rng.h"
#include "numerics/softmax.h"
#include "constructions/pointsets/pointset.h"
#include "constructions/pointsets/sphere.h"
#include "constructions/pointsets/sphere_code.h"
#include "theory/certificates/cert_lower.h"
#include "theory/certificates/cert_packing.h"
#include "packutil.h"

START_TEST(test_search_deterministic)
{
    uint64_t seed = test_seed() + 5;
    pack_cert_t a, b;
    ck_assert_int_eq(pack_lower_search(3, 30.0, 0.1, seed, 5000, &a), AR_OK);   /* the pooled greedy here */
    ck_assert_int_eq(pack_lower_search(3, 30.0, 0.1, seed, 5000, &b), AR_OK);
    ck_assert_msg(a.m == b.m && a.theta == b.theta && a.max_R == b.max_R,
                  "seed=%llu: runs differ (m %zu/%zu theta %.17g/%.17g)",
                  (unsigned long long)seed, a.m, b.m, a.theta, b.theta);
    ck_assert(a.certified == a.m && a.m > 1);
    /* re-create the certified packing and check it independently */
    pointset_t P = { 0 };
    ck_assert_int_eq(sphere_packing_pool(&P, 3, a.theta, 5000, seed, PACK_POOL_MAX), AR_OK);
    ck_assert_int_eq(P.n, a.m);
    double truth = true_max_R(&P, 30.0);
    ck_assert_msg(truth < tau_of(0.1) && truth <= a.max_R, "true R %.17g, max_R %.17g", truth,
                  a.max_R);
    pointset_clear(&P);
    /* the zonal code's search, re-created and checked the same way */
    ck_assert_int_eq(pack_lower_search_gen(3, 30.0, 0.1, seed, 5000, PACK_DIAGDOM, PACK_GEN_ZONAL, &b), AR_OK);
    ck_assert(b.certified == b.m && b.m > 1);
    ck_assert_int_eq(sphere_zonal(&P, 3, b.theta, 5000), AR_OK);
    ck_assert_int_eq(P.n, b.m);
    truth = true_max_R(&P, 30.0);
    ck_assert_msg(truth < tau_of(0.1) && truth <= b.max_R, "zonal: true R %.17g, max_R %.17g", truth, b.max_R);
    pointset_clear(&P);
    /* d = 2: the regular polygon; the count is floor-limited by max_points */
    pack_cert_t c;
    ck_assert_int_eq(pack_lower_search(2, 100.0, 0.1, seed, 30, &c), AR_OK);
    ck_assert_int_eq(c.m, 30);
    ck_assert_int_eq(c.certified, 30);
}
END_TEST

Suite *suite_cert_packing_search(void)
{
    Suite *s = suite_create("cert_packing_search");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_search_deterministic);
    suite_add_tcase(s, tc);
    return s;
}
