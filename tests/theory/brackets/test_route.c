/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_route.c -- the route chooser (theory/brackets/route.h) and the polygon match
 * (theory/certificates/polygon_match.h): every route's end is certified, the default is
 * never looser than the truncated SVD, stored polygons take the circulant
 * route with a rigorous eta, and the overrides do what they say. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <arb.h>
#include <flint/fmpq.h>
#include "testutil.h"
#include "numerics/config.h"
#include "constructions/pointsets/family.h"
#include "constructions/pointsets/pointset.h"
#include "constructions/pointsets/sphere.h"
#include "theory/brackets/bracket.h"
#include "theory/certificates/polygon_match.h"
#include "theory/brackets/route.h"
#include "theory/brackets/bracket_scale.h"
#include <stdlib.h>

/* Within 1% (or 1) of the truncated SVD's upper end: how the randomized certificate is judged. */
static int within_svd(size_t upper, size_t svd)
{
    size_t slack = svd / 100 > 1 ? svd / 100 : 1;
    return upper <= svd + slack;
}

/* One instance: the default route (never above the SVD below BRACKET_RSVD_MIN_N, within 1% or 1
 * above it) and the randomized certificate forced (within 1% or 1), against the truncated SVD of
 * the same matrix. */
static void check_vs_svd(const pointset_t *P, const pointset_t *Kp, double beta, double eps, const char *what)
{
    route_result_t rr;
    ck_assert_int_eq(route_bracket(P, Kp, beta, eps, NULL, &rr), AR_OK);
    bracket_opts_t so;
    bracket_opts_default(&so);
    so.use_svd = 1;
    so.use_symeig = so.use_pchol = so.use_rsvd = 0;
    bracket_t bs, br;
    ck_assert_int_eq(bracket_compute(P, Kp, beta, eps, &so, &bs), AR_OK);
    bracket_opts_default(&so);
    so.use_rsvd = 1;
    so.use_svd = so.use_symeig = so.use_pchol = 0;
    ck_assert_int_eq(bracket_compute(P, Kp, beta, eps, &so, &br), AR_OK);
    ck_assert_str_eq(ar_cert_status_name(rr.b.status), "certified");
    size_t big = P->n > Kp->n ? P->n : Kp->n;
    if (big <= BRACKET_RSVD_MIN_N)
        ck_assert_msg(rr.b.upper <= bs.upper, "%s: route upper %zu (%s/%s) > svd %zu", what, rr.b.upper,
                      ar_route_name(rr.upper_route), ar_method_name(rr.b.up.method), bs.upper);
    else
        ck_assert_msg(within_svd(rr.b.upper, bs.upper), "%s: route upper %zu (%s/%s) vs svd %zu", what,
                      rr.b.upper, ar_route_name(rr.upper_route), ar_method_name(rr.b.up.method), bs.upper);
    ck_assert_msg(within_svd(br.up_rsvd.rank, bs.upper) && br.up_rsvd.method == AR_METHOD_RSVD,
                  "%s: rsvd upper %zu (%s) vs svd %zu", what, br.up_rsvd.rank, ar_method_name(br.up_rsvd.method),
                  bs.upper);
    ck_assert_uint_le(rr.b.lower, rr.b.upper);
    /* The lower end: the blocks and nets are the same searches in both (the route's caps are
     * certified upper ends), and so is the growth over the rows of the full factors (every
     * certified one is grown over, the SVD's among them) up to BRACKET_RSVD_MIN_N points.  Above,
     * the route grows over its randomized factor's rows and the SVD-only bracket over the SVD's:
     * two heuristic searches over different candidates, so the route is compared with the SVD-only
     * bracket without growth (bracket_opts_t.no_grow), and the growth may only add. */
    bracket_t bn;
    bracket_opts_default(&so);
    so.use_svd = 1;
    so.use_symeig = so.use_pchol = so.use_rsvd = 0;
    so.no_grow = 1;
    ck_assert_int_eq(bracket_compute(P, Kp, beta, eps, &so, &bn), AR_OK);
    ck_assert_uint_le(bn.lower, bs.lower);
    size_t want = big <= BRACKET_RSVD_MIN_N ? bs.lower : bn.lower;
    ck_assert_msg(rr.b.lower >= want, "%s: route lower %zu (%s/%s) < svd-only lower %zu (%s; %zu without growth)",
                  what, rr.b.lower, ar_route_name(rr.lower_route), ar_method_name(rr.b.lo.method), bs.lower,
                  ar_method_name(bs.lo.method), bn.lower);
    /* the randomized route adds the growth over its factors' pivoted-QR rows (lower_grow_cap) */
    ck_assert_uint_ge(br.lower, bs.lower);
    ck_assert_uint_le(br.lower, bs.upper);
    printf("never-looser %s: svd %zu, rsvd %zu (sketch %zu), route %zu (%s/%s)\n", what, bs.upper, br.up_rsvd.rank,
           br.rsvd.sketch, rr.b.upper, ar_route_name(rr.upper_route), ar_method_name(rr.b.up.method));
}

/* The default route's upper end is never above the truncated SVD's upper end
 * on the same matrix up to BRACKET_RSVD_MIN_N points, and within 1% (or 1)
 * of it above (where the randomized certificate replaces the SVD); the
 * randomized certificate alone is within 1% (or 1) everywhere; for self- and
 * cross-attention instances over seeds. */
START_TEST(test_never_looser_than_svd)
{
    test_rng_init(test_seed() + 11);
    for (int t = 0; t < 10; t++) {
        size_t n = t < 8 ? (size_t)test_irand(40, 220) : (size_t)test_irand(1050, 1250);
        size_t d = (size_t)test_irand(2, 4);
        double beta = 2 + 60 * test_unif(), eps = 0.05 + 0.3 * test_unif();
        int cross = t % 2;
        pointset_t P = { 0 }, K = { 0 };
        ck_assert_int_eq(sphere_uniform(&P, n, d, 100 + (uint64_t)t), AR_OK);
        if (cross) {
            ck_assert_int_eq(sphere_uniform(&K, n + 17, d, 500 + (uint64_t)t), AR_OK);
            for (size_t i = 0; i < P.n * d; i++)
                P.x[i] *= 0.5 + test_unif();        /* queries off the sphere */
        }
        char what[160];
        snprintf(what, sizeof what, "case %d (n %zu d %zu beta %g eps %g %s)", t, n, d, beta, eps,
                 cross ? "cross" : "self");
        check_vs_svd(&P, cross ? &K : &P, beta, eps, what);
        pointset_clear(&P);
        pointset_clear(&K);
    }
}
END_TEST

/* Log-normalisers spanning far beyond the double range: symeig and pchol do
 * not apply, the SVD runs by default ({0, 1, 3} in d = 1 at beta = 1000). */
START_TEST(test_svd_when_symeig_does_not_apply)
{
    pointset_t P = { 0 };
    ck_assert_int_eq(pointset_init(&P, 3, 1), AR_OK);
    P.x[0] = 0, P.x[1] = 1, P.x[2] = 3;
    route_result_t rr;
    ck_assert_int_eq(route_bracket(&P, &P, 1000, 0.3, NULL, &rr), AR_OK);
    ck_assert_uint_eq(rr.b.lower, 2);
    ck_assert_uint_eq(rr.b.upper, 2);
    ck_assert_str_eq(ar_method_name(rr.b.up.method), "svd");
    pointset_clear(&P);
}
END_TEST

/* A stored polygon takes the circulant route; its bracket overlaps the dense
 * route's bracket of the same stored points and is at least as tight. */
START_TEST(test_polygon_route)
{
    const size_t ns[] = { 120, 360 };
    const double betas[] = { 50, 400 };
    for (int t = 0; t < 2; t++) {
        pointset_t P = { 0 };
        ck_assert_int_eq(sphere_polygon(&P, ns[t]), AR_OK);
        route_result_t ra, rd;
        ck_assert_int_eq(route_bracket(&P, &P, betas[t], 0.1, NULL, &ra), AR_OK);
        route_opts_t od;
        route_opts_default(&od);
        od.engine = ROUTE_DENSE;
        ck_assert_int_eq(route_bracket(&P, &P, betas[t], 0.1, &od, &rd), AR_OK);
        ck_assert_uint_eq(ra.polygon_n, ns[t]);
        ck_assert(ra.polygon_eta > 0 && ra.polygon_eta < 1e-10);
        ck_assert_msg(strstr(ra.routes, "circulant") != NULL, "routes %s", ra.routes);
        ck_assert_str_eq(rd.routes, "dense");
        ck_assert_uint_eq(rd.polygon_n, 0);
        ck_assert(ra.b.lower >= rd.b.lower && ra.b.upper <= rd.b.upper);
        ck_assert(ra.b.lower <= rd.b.upper && rd.b.lower <= ra.b.upper);
        pointset_clear(&P);
    }
}
END_TEST

/* polygon_match: delta is a rigorous bound on max |x_j - v_j| (checked in
 * Arb against the exact vertices at 256 bits), moved points are refused,
 * and unequal multiplicities are refused. */
START_TEST(test_polygon_match)
{
    pointset_t P = { 0 };
    size_t n = 97;
    ck_assert_int_eq(sphere_polygon(&P, n), AR_OK);
    double delta;
    ck_assert(polygon_match(&P, &delta));
    arb_t c, s, t, u;
    fmpq_t q;
    arb_init(c); arb_init(s); arb_init(t); arb_init(u);
    fmpq_init(q);
    for (size_t j = 0; j < n; j++) {
        fmpq_set_si(q, 2 * (slong)j, n);
        arb_sin_cos_pi_fmpq(s, c, q, 256);
        arb_set_d(t, P.x[2 * j]);
        arb_sub(c, c, t, 256);
        arb_set_d(t, P.x[2 * j + 1]);
        arb_sub(s, s, t, 256);
        arb_mul(u, c, c, 256);
        arb_addmul(u, s, s, 256);
        arb_sqrtpos(u, u, 256);
        arb_set_d(t, delta);
        ck_assert_msg(arb_le(u, t), "vertex %zu: |x - v| not below delta = %g", j, delta);
    }
    arb_clear(c); arb_clear(s); arb_clear(t); arb_clear(u);
    fmpq_clear(q);
    P.x[2 * 5] += 1e-6;                           /* moved: not the regular polygon */
    ck_assert(!polygon_match(&P, &delta));
    P.x[2 * 5] -= 1e-6;
    ck_assert(polygon_match(&P, &delta));
    ck_assert_int_eq(pointset_alloc_weights(&P), AR_OK);
    fmpz_set_ui(P.w + 3, 2);                      /* unequal multiplicities */
    ck_assert(!polygon_match(&P, &delta));
    pointset_clear(&P);
    /* eta: increasing in beta and delta, zero at delta = 0, above the first-order value */
    ck_assert(polygon_eta(100, 0) == 0);
    ck_assert(polygon_eta(100, 1e-16) >= 100 * 2e-16 * (1 - 1e-12));
    ck_assert(polygon_eta(1000, 1e-16) > polygon_eta(100, 1e-16));
    ck_assert(isnan(polygon_eta(-1, 1e-16)));
}
END_TEST

/* A packing above the dense size: diagonal dominance certifies rank = n. */
START_TEST(test_packing_route)
{
    pointset_t P = { 0 };
    ck_assert_int_eq(sphere_packing(&P, 3, 0.3, 300, 7, 2000), AR_OK);
    route_opts_t o;
    route_opts_default(&o);
    o.dense_max = 50;
    route_result_t rr;
    ck_assert_int_eq(route_bracket(&P, &P, 200, 0.1, &o, &rr), AR_OK);
    ck_assert_msg(strstr(rr.routes, "packing") != NULL, "routes %s", rr.routes);
    ck_assert_uint_eq(rr.b.lower, P.n);
    ck_assert_uint_eq(rr.b.upper, P.n);
    ck_assert_str_eq(ar_route_name(rr.lower_route), "packing");
    pointset_clear(&P);
}
END_TEST

/* Overrides: --engine scale needs a structured route; dense runs only dense. */
START_TEST(test_overrides)
{
    pointset_t Q = { 0 }, K = { 0 };
    ck_assert_int_eq(sphere_uniform(&Q, 30, 3, 1), AR_OK);
    ck_assert_int_eq(sphere_uniform(&K, 40, 3, 2), AR_OK);
    route_opts_t o;
    route_opts_default(&o);
    o.engine = ROUTE_SCALE;
    route_result_t rr;
    ck_assert_int_eq(route_bracket(&Q, &K, 10, 0.1, &o, &rr), AR_EINVAL);
    for (size_t i = 0; i < Q.n * 3; i++)
        Q.x[i] *= 1.9;                            /* off the sphere, not a polygon, not inside [-1.5, 1.5]^d
                                                     for every point (no ball route) */
    ck_assert_int_eq(pointset_alloc_weights(&Q), AR_OK);
    fmpz_set_ui(Q.w + 1, 3);                      /* and not a unit-weight packing */
    ck_assert_int_eq(route_bracket(&Q, &Q, 10, 0.1, &o, &rr), AR_EINVAL);
    for (size_t i = 0; i < Q.n * 3; i++)
        Q.x[i] *= 0.4;                            /* inside the ball: the ball route applies */
    ck_assert_int_eq(route_bracket(&Q, &Q, 10, 0.1, &o, &rr), AR_OK);
    ck_assert_msg(strstr(rr.routes, "ball") != NULL && strstr(rr.routes, "dense") == NULL, "routes %s", rr.routes);
    ck_assert(rr.ball_run);
    o.engine = ROUTE_DENSE;
    ck_assert_int_eq(route_bracket(&K, &K, 10, 0.1, &o, &rr), AR_OK);
    ck_assert_str_eq(rr.routes, "dense");
    ck_assert_int_eq(route_bracket(&K, &K, 10, 0.0, &o, &rr), AR_EINVAL);
    ck_assert_int_eq(route_bracket(&K, &K, -1, 0.1, &o, &rr), AR_EINVAL);
    pointset_clear(&Q);
    pointset_clear(&K);
}
END_TEST

/* The size limits of the routes come from the configuration in effect
 * (numerics/config.h; the environment is read at the boundary only, and a
 * bad value is refused there: tests/api/test_api_config.c). */
START_TEST(test_size_limits_from_env)
{
    size_t v;
    ar_config_t cfg;
    ar_config_default(&cfg);
    cfg.ball_dense_max = 0;
    cfg.scale_max_n = 12345;
    ar_config_install(&cfg);
    ck_assert(bracket_ball_dense_max(&v) == AR_OK && v == 0);
    ck_assert(bracket_scale_max_n(&v) == AR_OK && v == 12345);
    ar_config_install(NULL);
    ck_assert(bracket_ball_dense_max(&v) == AR_OK && v == 3000);
    ck_assert(bracket_scale_max_n(&v) == AR_OK && v == 200000);
    /* a ball instance bracketed whatever the environment says below the boundary */
    pointset_t P;
    ck_assert_int_eq(pointset_init(&P, 3, 2), AR_OK);
    double x[6] = { 0.1, 0.2, -0.3, 0.4, 0.5, -0.6 };
    memcpy(P.x, x, sizeof x);
    route_result_t rr;
    setenv("ATTNRANK_BALL_DENSE_MAX", "lots", 1);
    ck_assert_int_eq(route_bracket(&P, &P, 2.0, 0.1, NULL, &rr), AR_OK);
    unsetenv("ATTNRANK_BALL_DENSE_MAX");
    pointset_clear(&P);
}
END_TEST

Suite *suite_route(void)
{
    Suite *s = suite_create("route");
    TEST_TCASE(tc, "route");
    tcase_add_test(tc, test_never_looser_than_svd);
    tcase_add_test(tc, test_size_limits_from_env);
    tcase_add_test(tc, test_svd_when_symeig_does_not_apply);
    tcase_add_test(tc, test_polygon_route);
    tcase_add_test(tc, test_polygon_match);
    tcase_add_test(tc, test_packing_route);
    tcase_add_test(tc, test_overrides);
    suite_add_tcase(s, tc);
    return s;
}
