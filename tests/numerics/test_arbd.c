/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_arbd.c -- outward-rounded doubles from Arb balls: right for either
 * sign (the old per-file helpers rounded "up" away from zero, which is
 * below the ball for negative values), for tiny and non-finite balls. */
#include <check.h>
#include <math.h>
#include "testutil.h"
#include "numerics/arbd.h"

START_TEST(arbd_signs)
{
    arb_t x, y;
    arb_init(x);
    arb_init(y);
    /* -1/3 is not a double: ub must be >= it, lb <= it, for both signs */
    for (int sgn = -1; sgn <= 1; sgn += 2) {
        arb_set_si(x, sgn);
        arb_div_ui(x, x, 3, 200);
        double u = arbd_ub(x), l = arbd_lb(x), a = arbd_abs_ub(x);
        arb_set_d(y, u);
        ck_assert(arb_le(x, y));
        arb_set_d(y, l);
        ck_assert(arb_ge(x, y));
        ck_assert(l < u && nextafter(l, INFINITY) == u);   /* tight: adjacent doubles */
        ck_assert(a >= fabs(u) && a >= fabs(l));
        double m, r;
        arbd_mid_rad(x, &m, &r);
        ck_assert(r > 0 && r < 1e-16 && fabs(m - sgn / 3.0) <= 1e-16);
    }
    /* below the smallest double */
    arb_one(x);
    arb_mul_2exp_si(x, x, -2000);
    ck_assert(arbd_ub(x) > 0 && arbd_lb(x) == 0.0);
    arb_neg(x, x);
    ck_assert(arbd_ub(x) == 0.0 && arbd_lb(x) < 0);
    /* non-finite */
    arb_indeterminate(x);
    ck_assert(arbd_ub(x) == INFINITY && arbd_lb(x) == -INFINITY && arbd_abs_ub(x) == INFINITY);
    double m, r;
    arbd_mid_rad(x, &m, &r);
    ck_assert(r == INFINITY);
    arb_clear(x);
    arb_clear(y);
}
END_TEST

Suite *suite_arbd(void)
{
    Suite *s = suite_create("arbd");
    TEST_TCASE(tc, "arbd");
    tcase_add_test(tc, arbd_signs);
    suite_add_tcase(s, tc);
    return s;
}
