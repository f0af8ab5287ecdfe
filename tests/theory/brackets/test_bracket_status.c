/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_bracket_status.c -- the one status rule: a bracket is certified when
 * at least one end is a non-trivial certificate or the bracket is tight, and
 * inconclusive when it is the trivial [1, min(m, n)]; and the routes follow it.  Regression (issue 14 item 12): above the dense size,
 * when nothing certifies, the ball route labelled the trivial bracket
 * [1, n] "certified".  Reproduced fast on a few hundred points by switching
 * the ball route's dense certificates off (ATTNRANK_BALL_DENSE_MAX=0) and the
 * route chooser's dense route too (ROUTE_SCALE). */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "numerics/config.h"
#include "theory/brackets/bracket_ball.h"
#include "theory/brackets/bracket_status.h"
#include "theory/brackets/route.h"

START_TEST(rule)
{
    const ar_cert_status_t C = AR_CERT_CERTIFIED, I = AR_CERT_INCONCLUSIVE;
    const ar_method_t T = AR_METHOD_TRIVIAL;
    ck_assert_int_eq(bracket_status_decide(3, AR_METHOD_INVNORM, 9, AR_METHOD_SVD), C);
    ck_assert_int_eq(bracket_status_decide(1, T, 400, T), I);
    ck_assert_int_eq(bracket_status_decide(1, T, 5, AR_METHOD_SVD), C);            /* the upper end is proven */
    ck_assert_int_eq(bracket_status_decide(7, AR_METHOD_BALL_CLUSTER, 400, T), C); /* the lower end is */
    ck_assert_int_eq(bracket_status_decide(203, AR_METHOD_DIAGDOM, 203, T), C);    /* tight: rank = n */
    ck_assert_int_eq(bracket_status_decide(1, T, 1, AR_METHOD_SVD), C);            /* tight: rank 1 */
    ck_assert_int_eq(bracket_status_decide(1, T, 1, T), C);                        /* one key: rank 1 */
    ck_assert_int_eq(bracket_status_decide(2, AR_METHOD_NONE, 5, AR_METHOD_NONE), I);   /* no certificate ran */
    ck_assert(ar_method_is_trivial(T) && ar_method_is_trivial(AR_METHOD_NONE));
    ck_assert(!ar_method_is_trivial(AR_METHOD_BALL_DIAGDOM) && !ar_method_is_trivial(AR_METHOD_TENSOR_CHEB));
}
END_TEST

/* 300 points uniform in [-1.5, 1.5], d = 1, beta 0.05: outside [-1, 1] (no
 * tensor certificate), no cluster certificate, dense certificates off. */
static void make_line(pointset_t *P)
{
    ck_assert_int_eq(pointset_init(P, 300, 1), AR_OK);
    test_rng_init(test_seed() + 12);
    for (size_t i = 0; i < 300; i++)
        P->x[i] = 3.0 * test_unif() - 1.5;
}

START_TEST(ball_route_trivial_is_inconclusive)
{
    pointset_t P;
    make_line(&P);
    ar_config_t cfg;
    ar_config_default(&cfg);
    cfg.ball_dense_max = 0;
    ar_config_install(&cfg);
    bracket_t b;
    ball_bracket_info_t info;
    ck_assert_int_eq(bracket_compute_ball_ex(&P, 0.05, 0.1, NULL, &b, &info), AR_OK);
    ck_assert(!info.dense_run);
    ck_assert_msg(b.lower == 1 && b.upper == 300, "[%zu, %zu]", b.lower, b.upper);
    ck_assert_str_eq(ar_method_name(b.lo.method), "trivial");
    ck_assert_str_eq(ar_method_name(b.up.method), "trivial");
    ck_assert_str_eq(ar_cert_status_name(b.status), "inconclusive");
    /* through the route chooser, structured routes only (no dense route to rescue it) */
    route_opts_t ro;
    route_opts_default(&ro);
    ro.engine = ROUTE_SCALE;
    route_result_t rr;
    ck_assert_int_eq(route_bracket(&P, &P, 0.05, 0.1, &ro, &rr), AR_OK);
    ck_assert(rr.ball_run);
    ck_assert_msg(rr.b.lower == 1 && rr.b.upper == 300, "[%zu, %zu]", rr.b.lower, rr.b.upper);
    ck_assert_str_eq(ar_cert_status_name(rr.b.status), "inconclusive");
    /* with the dense certificates back, the same instance is certified (tight at rank 1) */
    ar_config_install(NULL);
    ck_assert_int_eq(bracket_compute_ball_ex(&P, 0.05, 0.1, NULL, &b, &info), AR_OK);
    ck_assert(info.dense_run);
    ck_assert_int_eq(b.status, bracket_status_decide(b.lower, b.lo.method, b.upper, b.up.method));
    ck_assert_msg(b.status == AR_CERT_CERTIFIED, "[%zu, %zu] %s/%s", b.lower, b.upper, ar_method_name(b.lo.method),
                  ar_method_name(b.up.method));
    pointset_clear(&P);
}
END_TEST

/* Every route's status is the rule applied to its own ends. */
START_TEST(routes_follow_the_rule)
{
    pointset_t P;
    make_line(&P);
    const double betas[] = { 0.05, 3.0, 40.0 };
    for (size_t k = 0; k < 3; k++) {
        route_result_t rr;
        ck_assert_int_eq(route_bracket(&P, &P, betas[k], 0.1, NULL, &rr), AR_OK);
        ck_assert_int_eq(rr.b.status, bracket_status_decide(rr.b.lower, rr.b.lo.method, rr.b.upper, rr.b.up.method));
        bracket_t b;
        ck_assert_int_eq(bracket_compute(&P, &P, betas[k], 0.1, NULL, &b), AR_OK);
        ck_assert_int_eq(b.status, bracket_status_decide(b.lower, b.lo.method, b.upper, b.up.method));
    }
    pointset_clear(&P);
}
END_TEST

Suite *suite_bracket_status(void)
{
    Suite *s = suite_create("bracket_status");
    TEST_TCASE(tc, "bracket_status");
    tcase_add_test(tc, rule);
    tcase_add_test(tc, ball_route_trivial_is_inconclusive);
    tcase_add_test(tc, routes_follow_the_rule);
    suite_add_tcase(s, tc);
    return s;
}
