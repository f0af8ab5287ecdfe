/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_bracket_scale.c -- the large-instance bracket (polynomial upper,
 * farthest-point-row lower) against the dense bracket on the same instances:
 * both are certified, so their intervals must overlap. */
#include <check.h>
#include <math.h>
#include <string.h>
#include "testutil.h"
#include "constructions/pointsets/sphere.h"
#include "theory/brackets/bracket.h"
#include "theory/brackets/bracket_scale.h"

static void check_overlap(const pointset_t *P, double beta, double eps, const char *what)
{
    bracket_t bd, bs;
    ck_assert_msg(bracket_compute(P, P, beta, eps, NULL, &bd) == AR_OK, "%s: %s", what, ar_error_get());
    ck_assert_msg(bracket_compute_scale(P, beta, eps, NULL, &bs) == AR_OK, "%s: %s", what, ar_error_get());
    ck_assert_msg(bd.status == AR_CERT_CERTIFIED && bs.status == AR_CERT_CERTIFIED, "%s: not certified", what);
    ck_assert_msg(1 <= bs.lower && bs.lower <= bs.upper && bs.upper <= P->n, "%s: scale bracket [%zu, %zu]", what,
                  bs.lower, bs.upper);
    ck_assert_msg(bs.lower <= bd.upper && bd.lower <= bs.upper,
                  "%s beta=%g eps=%g: dense [%zu, %zu] and scale [%zu, %zu] do not overlap", what, beta, eps, bd.lower,
                  bd.upper, bs.lower, bs.upper);
    ck_assert_msg(bs.up.err <= eps, "%s: upper error %g > eps", what, bs.up.err);
}

START_TEST(test_scale_vs_dense)
{
    pointset_t P = { 0 };
    ck_assert_int_eq(sphere_fibonacci(&P, 500), AR_OK);
    check_overlap(&P, 10, 0.1, "fibonacci 500");
    check_overlap(&P, 25, 0.2, "fibonacci 500");
    pointset_clear(&P);
    ck_assert_int_eq(sphere_uniform(&P, 400, 4, test_seed() + 3), AR_OK);
    check_overlap(&P, 6, 0.15, "uniform d=4 400");
    pointset_clear(&P);
    ck_assert_int_eq(sphere_polygon(&P, 300), AR_OK);
    check_overlap(&P, 200, 0.1, "polygon 300");
    pointset_clear(&P);
}
END_TEST

START_TEST(test_scale_weighted)
{
    pointset_t P = { 0 };
    ck_assert_int_eq(sphere_uniform(&P, 200, 3, test_seed() + 5), AR_OK);
    ck_assert_int_eq(pointset_alloc_weights(&P), AR_OK);
    for (size_t j = 0; j < P.n; j++)
        fmpz_set_ui(P.w + j, 1 + (j * 7) % 13);
    check_overlap(&P, 8, 0.1, "weighted uniform d=3 200");
    pointset_clear(&P);
}
END_TEST

START_TEST(test_scale_bad_input)
{
    pointset_t P = { 0 };
    bracket_t b;
    ck_assert_int_eq(sphere_fibonacci(&P, 50), AR_OK);
    ck_assert(bracket_scale_applies(&P));
    ck_assert_int_eq(bracket_compute_scale(&P, 5, 0.0, NULL, &b), AR_EINVAL);
    ck_assert_int_eq(bracket_compute_scale(&P, 5, 1.0, NULL, &b), AR_EINVAL);
    ck_assert_int_eq(bracket_compute_scale(&P, -1, 0.1, NULL, &b), AR_EINVAL);
    ck_assert_int_eq(bracket_compute_scale(&P, NAN, 0.1, NULL, &b), AR_EINVAL);
    P.x[0] *= 1.001;                       /* off the sphere */
    ck_assert(!bracket_scale_applies(&P));
    ck_assert_int_eq(bracket_compute_scale(&P, 5, 0.1, NULL, &b), AR_EINVAL);
    pointset_clear(&P);
}
END_TEST

Suite *suite_bracket_scale(void)
{
    Suite *s = suite_create("bracket_scale");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_scale_vs_dense);
    tcase_add_test(tc, test_scale_weighted);
    tcase_add_test(tc, test_scale_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
