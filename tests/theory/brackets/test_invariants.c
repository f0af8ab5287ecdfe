/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_invariants.c -- every bracket the route chooser reports satisfies the inequalities it
 * states (issue 32 item 6: at eps = 1 - 2^-53 a ball-cluster end printed "||M^-1||_inf <= 1,
 * eps * bound = 1 < 1"), over the fuzz corpus's .npy files (tests/fuzz/corpus/npy) and a set of
 * instances that reach every route (sphere polygon and Fibonacci sets, weighted ball shells, a
 * line, a packing, a masked head), at eps from 2^-20 to 1 - 2^-53 and beta from 0 to 50:
 *   1 <= lower <= upper <= min(m, n);
 *   a non-trivial lower end with a bound: eps * bound < 1, in double rounded to nearest and upward;
 *   a non-trivial upper end: its certified error <= eps;
 *   the status is bracket_status_decide's; the route plan names a decision for every route and
 *   every route that gave an end ran. */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "constructions/formats/npy.h"
#include "constructions/pointsets/ball.h"
#include "constructions/pointsets/family.h"
#include "constructions/pointsets/pointset.h"
#include "constructions/pointsets/sphere.h"
#include "numerics/fround.h"
#include "theory/brackets/bracket_status.h"
#include "theory/brackets/route.h"

static const double EPSS[] = { 0x1p-20, 0.1, 0.5, 1.0 - 0x1p-53 };
static const double BETAS[] = { 0.0, 1.0, 50.0 };

/* The invariants of one result (what = a label for the messages). */
static void check_result(const route_result_t *rr, size_t m, size_t n, double eps, const char *what)
{
    const bracket_t *b = &rr->b;
    size_t r = m < n ? m : n;
    ck_assert_msg(b->lower >= 1 && b->lower <= b->upper && b->upper <= r, "%s: [%zu, %zu] of %zu x %zu", what,
                  b->lower, b->upper, m, n);
    if (!ar_method_is_trivial(b->lo.method) && !isnan(b->lo.invnorm)) {
        ck_assert_msg(b->lo.invnorm >= 1.0 || b->lower == 1, "%s: bound %.17g below 1", what, b->lo.invnorm);
        ck_assert_msg(eps * b->lo.invnorm < 1.0 && fround_mul_up(eps, b->lo.invnorm) < 1.0,
                      "%s: lower %zu (%s) with eps * bound = %.17g", what, b->lower, ar_method_name(b->lo.method),
                      eps * b->lo.invnorm);
    }
    if (!ar_method_is_trivial(b->up.method))
        ck_assert_msg(b->up.err <= eps && b->up.err >= 0, "%s: upper %zu (%s) with err %.17g > eps %.17g", what,
                      b->upper, ar_method_name(b->up.method), b->up.err, eps);
    ck_assert_int_eq(b->status, bracket_status_decide(b->lower, b->lo.method, b->upper, b->up.method));
    for (int id = 0; id < ROUTE_ID_COUNT; id++) {
        const route_plan_t *p = &rr->plan[id];
        ck_assert((unsigned)p->decision <= ROUTE_CUT_SHORT);
        if (rr->lower_route == (ar_route_t)id ||
            rr->upper_route == (ar_route_t)id)
            ck_assert_msg(p->decision == ROUTE_RAN || p->decision == ROUTE_CUT_SHORT,
                          "%s: an end from route %s, which did not run (%s)", what, route_id_name((route_id_t)id),
                          route_decision_name(p->decision));
    }
}

/* Every (beta, eps) of the grid on Q, K (K == Q: self-attention), bias or NULL. */
static void sweep(const pointset_t *Q, const pointset_t *K, const double *bias, const char *name)
{
    for (size_t a = 0; a < sizeof BETAS / sizeof BETAS[0]; a++)
        for (size_t e = 0; e < sizeof EPSS / sizeof EPSS[0]; e++) {
            route_opts_t ro;
            route_opts_default(&ro);
            ro.bracket.bias = bias;
            route_result_t rr;
            char what[160];
            snprintf(what, sizeof what, "%s beta %g eps %.17g", name, BETAS[a], EPSS[e]);
            ar_status st = route_bracket(Q, K, BETAS[a], EPSS[e], &ro, &rr);
            if (st == AR_EINVAL)
                continue;                          /* refused (one line): nothing reported */
            ck_assert_msg(st == AR_OK, "%s: status %d (%s)", what, (int)st, ar_error_get());
            check_result(&rr, Q->n, K->n, EPSS[e], what);
        }
}

/* The fuzz corpus's arrays, as self-attention points and, where the shapes allow, as queries
 * against the first file's keys. */
START_TEST(test_invariants_fuzz_corpus)
{
    const char *dir = "tests/fuzz/corpus/npy";
    DIR *dp = opendir(dir);
    ck_assert_msg(dp != NULL, "no %s (run from the repository root)", dir);
    struct dirent *de;
    size_t files = 0;
    while ((de = readdir(dp))) {
        if (de->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        double *x = NULL;
        size_t r, c;
        if (npy_read(path, &x, &r, &c) != AR_OK)
            continue;
        pointset_t P;
        ck_assert_int_eq(pointset_init(&P, r, c), AR_OK);
        memcpy(P.x, x, r * c * sizeof *x);
        free(x);
        sweep(&P, &P, NULL, de->d_name);
        files++;
        pointset_clear(&P);
    }
    closedir(dp);
    ck_assert_uint_ge(files, 3);
}
END_TEST

/* Instances that reach the structured routes, the ball route with multiplicities, and a mask. */
START_TEST(test_invariants_every_route)
{
    pointset_t P;
    ck_assert_int_eq(sphere_polygon(&P, 24), AR_OK);
    sweep(&P, &P, NULL, "polygon 24");
    pointset_clear(&P);
    ck_assert_int_eq(sphere_fibonacci(&P, 60), AR_OK);
    sweep(&P, &P, NULL, "fibonacci 60");
    pointset_clear(&P);
    ball_spec_t s;
    ball_spec_default(&s, BALL_SHELLS, 2, 30.0);
    s.rho0 = 0.0;                                 /* the full disk: several shells, off the circle */
    ck_assert_int_eq(ball_generate(&P, &s), AR_OK);
    for (size_t e = 0; e < sizeof EPSS / sizeof EPSS[0]; e++) {   /* the ball route at its own beta */
        route_result_t rr;
        char what[96];
        snprintf(what, sizeof what, "shells d=2 beta 30 eps %.17g", EPSS[e]);
        ck_assert_int_eq(route_bracket(&P, &P, 30.0, EPSS[e], NULL, &rr), AR_OK);
        ck_assert(rr.ball_run);
        check_result(&rr, P.n, P.n, EPSS[e], what);
    }
    pointset_clear(&P);
    /* the edge: weighted points 0.1 apart at beta 1e4, eps = 1 - 2^-53: the cluster
     * certificate holds in Arb with R ~ 1e-22, and its bound (1 + R) / (1 - R) rounded up to 1 + 2^-52
     * no longer shows eps * bound < 1 */
    ck_assert_int_eq(pointset_init(&P, 5, 1), AR_OK);
    ck_assert_int_eq(pointset_alloc_weights(&P), AR_OK);
    for (size_t i = 0; i < 5; i++) {
        P.x[i] = 0.1 * ((double)i - 2.0);
        fmpz_set_ui(P.w + i, 2);
    }
    for (size_t e = 0; e < sizeof EPSS / sizeof EPSS[0]; e++) {
        route_result_t rr;
        char what[96];
        snprintf(what, sizeof what, "weighted 5 points beta 1e4 eps %.17g", EPSS[e]);
        ck_assert_int_eq(route_bracket(&P, &P, 1e4, EPSS[e], NULL, &rr), AR_OK);
        ck_assert(rr.ball_run);
        check_result(&rr, 5, 5, EPSS[e], what);
    }
    pointset_clear(&P);
    /* a line in [-1.5, 1.5] and a masked cross head */
    test_rng_init(test_seed() * 3 + 7);
    ck_assert_int_eq(pointset_init(&P, 40, 1), AR_OK);
    for (size_t i = 0; i < 40; i++)
        P.x[i] = 3.0 * test_unif() - 1.5;
    sweep(&P, &P, NULL, "line 40");
    pointset_t K;
    ck_assert_int_eq(pointset_init(&K, 30, 1), AR_OK);
    for (size_t j = 0; j < 30; j++)
        K.x[j] = 2.0 * test_unif() - 1.0;
    double *bias = malloc(40 * 30 * sizeof *bias);
    for (size_t i = 0; i < 40; i++)
        for (size_t j = 0; j < 30; j++)
            bias[i * 30 + j] = j > i % 30 ? -INFINITY : (j % 3 ? 0.0 : -2.5);
    sweep(&P, &K, bias, "masked line 40 x 30");
    free(bias);
    pointset_clear(&K);
    pointset_clear(&P);
}
END_TEST

Suite *suite_invariants(void)
{
    Suite *s = suite_create("invariants");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_invariants_fuzz_corpus);
    tcase_add_test(tc, test_invariants_every_route);
    suite_add_tcase(s, tc);
    return s;
}
