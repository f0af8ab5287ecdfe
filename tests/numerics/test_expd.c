/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_expd.c -- the tabulated exponential (numerics/expd.h): its relative
 * error against Arb stays below EXPD_RELERR = 2^-48 on the whole domain, in
 * every rounding mode, and is in fact near one ulp (the bound is an a-priori
 * worst case, proofs-notes/fast-enclosure.md). */
#include <check.h>
#include <fenv.h>
#include <math.h>
#include <arb.h>
#include "testutil.h"
#include "numerics/expd.h"
#include "numerics/fround.h"

/* Relative error |y - exp(x)| / exp(x), as an upper bound from a 200-bit ball. */
static double relerr(double x, double y)
{
    arb_t e, t;
    arb_init(e);
    arb_init(t);
    arb_set_d(e, x);
    arb_exp(e, e, 200);
    arb_set_d(t, y);
    arb_sub(t, t, e, 200);
    arb_div(t, t, e, 200);
    arb_abs(t, t);
    mag_t m;
    mag_init(m);
    arb_get_mag(m, t);
    double r = mag_get_d(m);
    mag_clear(m);
    arb_clear(e);
    arb_clear(t);
    return r;
}

typedef struct {
    const double *x;
    double *y;
    size_t len;
} vec_ctx;

static FROUND_BODY void run_vec(void *arg)
{
    vec_ctx *c = arg;
    expd_vec(c->y, c->x, c->len);
}

/* Random points over the domain, the domain ends, the table nodes and
 * their neighbours; each in the four rounding modes. */
START_TEST(test_expd_bound_all_modes)
{
    enum { N = 20000 };
    static double x[N], y[N];
    test_rng_init(test_seed() + 5);
    size_t len = 0;
    x[len++] = EXPD_MIN;
    x[len++] = EXPD_MAX;
    x[len++] = 0.0;
    x[len++] = -0.0;
    x[len++] = 0x1p-1074;
    x[len++] = -0x1p-1074;
    for (int j = -300; j <= 300; j++) {     /* near multiples of ln2/128: the reduction's switch points */
        double v = j * 0.005415212348111709;
        x[len++] = v;
        x[len++] = nextafter(v, 1e9);
        x[len++] = nextafter(v, -1e9);
    }
    while (len < N) {
        double u = test_unif();
        x[len] = len % 3 ? EXPD_MIN + (EXPD_MAX - EXPD_MIN) * u : -20.0 * u;
        len++;
    }
    const int modes[4] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO };
    for (int mo = 0; mo < 4; mo++) {
        vec_ctx c = { x, y, len };
        fround_run(modes[mo], run_vec, &c);
        double worst = 0.0;
        for (size_t t = 0; t < len; t++) {
            ck_assert_msg(isnormal(y[t]) && y[t] > 0, "mode %d x=%a: y=%a not a positive normal", mo, x[t], y[t]);
            double r = relerr(x[t], y[t]);
            ck_assert_msg(r <= EXPD_RELERR, "mode %d x=%a: relative error %.3g > 2^-48", mo, x[t], r);
            worst = fmax(worst, r);
        }
        /* the a-priori bound is loose; the actual error is a few units of 2^-53 */
        ck_assert_msg(worst <= 0x1p-50, "mode %d: worst relative error %.3g", mo, worst);
    }
}
END_TEST

/* expd_vec0 gives 0 below the domain and the same values as expd inside. */
START_TEST(test_expd_vec0)
{
    double x[5] = { -1000.0, -707.5, EXPD_MIN, -1.5, 3.25 }, y[5];
    expd_vec0(y, x, 5);
    ck_assert(y[0] == 0.0 && y[1] == 0.0);
    ck_assert(y[2] == expd(EXPD_MIN) && y[3] == expd(-1.5) && y[4] == expd(3.25));
    ck_assert(relerr(3.25, y[4]) <= EXPD_RELERR);
}
END_TEST

Suite *suite_expd(void)
{
    Suite *s = suite_create("expd");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_expd_bound_all_modes);
    tcase_add_test(tc, test_expd_vec0);
    suite_add_tcase(s, tc);
    return s;
}
