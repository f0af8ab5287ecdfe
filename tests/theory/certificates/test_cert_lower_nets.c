/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_lower_nets.c -- the delta-net lower certificate
 * (theory/certificates/cert_lower_nets.c): full rank on well-separated packings, never above a
 * certified upper end (upper_svd) and never above a cap, the work control's budget, and bad
 * input. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "numerics/softmax.h"
#include "constructions/pointsets/pointset.h"
#include "constructions/pointsets/sphere.h"
#include "theory/certificates/cert_lower.h"
#include "theory/certificates/cert_upper.h"

/* Packings at large beta: the finest net holds every point, and its block test matrix is
 * diagonally dominant (as lower_blocks finds on the same packings), so the nets certify the
 * packing's size. */
START_TEST(test_nets_packing_full_rank)
{
    struct { size_t d; double theta, beta; size_t maxp; } cs[] = {
        { 2, 0.4, 80.0, 200 }, { 3, 0.5, 100.0, 60 },
    };
    for (size_t q = 0; q < sizeof cs / sizeof cs[0]; q++) {
        pointset_t P;
        memset(&P, 0, sizeof P);
        ck_assert_int_eq(sphere_packing(&P, cs[q].d, cs[q].theta, cs[q].maxp, test_seed() + q, 0), AR_OK);
        smx_t A;
        memset(&A, 0, sizeof A);
        ck_assert_int_eq(smx_compute(&A, P.x, P.n, P.x, P.n, P.d, NULL, cs[q].beta, 0, 1), AR_OK);
        lower_cert_t c;
        ck_assert_int_eq(lower_nets(&A, P.x, P.d, 0.5, &c), AR_OK);
        ck_assert_msg(c.rank == P.n && c.method != AR_METHOD_TRIVIAL,
                      "packing d=%zu theta=%g beta=%g n=%zu: nets rank %zu method %s", cs[q].d, cs[q].theta,
                      cs[q].beta, P.n, c.rank, ar_method_name(c.method));
        ck_assert(c.invnorm > 0 && 0.5 * c.invnorm < 1.0);
        smx_clear(&A);
        pointset_clear(&P);
    }
}
END_TEST

/* A dense Fibonacci set (300 points, beta 30, eps 0.1): the certified rank lies between 1 and
 * the certified upper end of the SVD; a cap below it bounds the answer; a budget too small for
 * any net stops the search before the first probe (cut, trivial certificate, nothing spent). */
START_TEST(test_nets_caps_and_budget)
{
    pointset_t F;
    memset(&F, 0, sizeof F);
    ck_assert_int_eq(sphere_fibonacci(&F, 300), AR_OK);
    smx_t A;
    memset(&A, 0, sizeof A);
    ck_assert_int_eq(smx_compute(&A, F.x, F.n, F.x, F.n, 3, NULL, 30.0, 0, 1), AR_OK);
    lower_cert_t c, cc;
    upper_cert_t u;
    ck_assert_int_eq(lower_nets(&A, F.x, 3, 0.1, &c), AR_OK);
    ck_assert_int_eq(upper_svd(&A, 0.1, &u), AR_OK);
    ck_assert_msg(c.rank >= 1 && c.rank <= u.rank, "nets %zu, svd upper end %zu", c.rank, u.rank);
    if (c.rank >= 2)
        ck_assert(c.method == AR_METHOD_DIAGDOM || c.method == AR_METHOD_INVNORM);
    size_t cap = c.rank > 2 ? c.rank - 1 : 2;
    ck_assert_int_eq(lower_nets_cap(&A, F.x, 3, 0.1, cap, &cc), AR_OK);
    ck_assert_msg(cc.rank <= cap, "cap %zu: rank %zu", cap, cc.rank);
    ck_assert_int_eq(lower_nets_cap(&A, F.x, 3, 0.1, (size_t)-1, &cc), AR_OK);
    ck_assert_uint_eq(cc.rank, c.rank);                 /* no cap: lower_nets itself */
    lower_ctl_t ctl;
    memset(&ctl, 0, sizeof ctl);
    ctl.budget = 1.0;
    ck_assert_int_eq(lower_nets_ctl(&A, F.x, 3, 0.1, (size_t)-1, &ctl, &cc), AR_OK);
    ck_assert_int_eq(ctl.cut, 1);
    ck_assert(ctl.spent <= ctl.budget);
    ck_assert_uint_eq(cc.rank, 1);
    ck_assert_str_eq(ar_method_name(cc.method), "trivial");
    smx_clear(&A);
    pointset_clear(&F);
}
END_TEST

START_TEST(test_nets_bad_input)
{
    double a[4] = { 0.7, 0.3, 0.3, 0.7 }, re[2] = { 0, 0 }, x[4] = { 0, 1, 1, 0 };
    smx_t A;
    memset(&A, 0, sizeof A);
    A.m = 2; A.n = 2; A.a = a; A.rowerr = re; A.prec = 53;
    lower_cert_t c;
    ck_assert_int_eq(lower_nets(&A, NULL, 2, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(lower_nets(&A, x, 0, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(lower_nets(&A, x, 2, 0.0, &c), AR_EINVAL);
    ck_assert_int_eq(lower_nets(&A, x, 2, 1.0, &c), AR_EINVAL);
    ck_assert_int_eq(lower_nets(NULL, x, 2, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(lower_nets(&A, x, 2, 0.1, &c), AR_OK);
    ck_assert(c.rank >= 1 && c.rank <= 2);
}
END_TEST

Suite *suite_cert_lower_nets(void)
{
    Suite *s = suite_create("cert_lower_nets");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_nets_packing_full_rank);
    tcase_add_test(tc, test_nets_caps_and_budget);
    tcase_add_test(tc, test_nets_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
