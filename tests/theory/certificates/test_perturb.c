/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_perturb.c -- the softmax perturbation inequality (THEORY 3.3):
 * ||softmax(l+delta) - softmax(l)||_1 <= 2 tanh(osc(delta)/4), its
 * near-attainment by two-valued shifts, and the rigour of the helpers. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <mpfr.h>
#include "testutil.h"
#include "numerics/rng.h"
#include "theory/certificates/perturb.h"

/* 2 tanh(t/4) in MPFR at 200 bits, as a double (nearest) */
static double ref_bound(double osc, mpfr_rnd_t rnd)
{
    mpfr_t x;
    mpfr_init2(x, 200);
    mpfr_set_d(x, osc, MPFR_RNDN);
    mpfr_div_ui(x, x, 4, MPFR_RNDN);
    mpfr_tanh(x, x, rnd);
    mpfr_mul_ui(x, x, 2, rnd);
    double r = mpfr_get_d(x, rnd);
    mpfr_clear(x);
    return r;
}

/* the bound is an upper bound of 2 tanh(osc/4), tight to a few ulps, and <= osc/2 */
START_TEST(test_bound_rigour)
{
    rng_t r;
    rng_init(&r, test_seed() + 301);
    for (int it = 0; it < 20000; it++) {
        double osc;
        switch (it % 4) {
        case 0: osc = rng_uniform(&r) * 1e-6; break;
        case 1: osc = rng_uniform(&r); break;
        case 2: osc = 50 * rng_uniform(&r); break;
        default: osc = ldexp(rng_uniform(&r), (int)(rng_u64(&r) % 80) - 60); break;
        }
        double b = perturb_softmax_l1_bound(osc);
        mpfr_t x, y;
        mpfr_init2(x, 300); mpfr_init2(y, 300);
        mpfr_set_d(x, osc, MPFR_RNDN);
        mpfr_div_ui(x, x, 4, MPFR_RNDN);
        mpfr_tanh(x, x, MPFR_RNDD);
        mpfr_mul_ui(x, x, 2, MPFR_RNDD);           /* lower bound of the truth */
        mpfr_set_d(y, b, MPFR_RNDN);
        int ok_up = mpfr_cmp(y, x) >= 0;
        double hi = ref_bound(osc, MPFR_RNDU);
        int ok_tight = b <= nextafter(hi, INFINITY);
        /* 2 tanh(t/4) <= t/2 */
        int ok_half = b <= nextafter(osc / 2, INFINITY) || osc / 2 >= 2;
        mpfr_clear(x); mpfr_clear(y);
        ck_assert_msg(ok_up && ok_tight && ok_half,
                      "seed=%llu osc=%a bound=%a (upper %d, tight %d, <=osc/2 %d)",
                      (unsigned long long)test_seed(), osc, b, ok_up, ok_tight, ok_half);
    }
    ck_assert(perturb_softmax_l1_bound(INFINITY) == 2.0);
    ck_assert(isnan(perturb_softmax_l1_bound(-1.0)));
    ck_assert(isnan(perturb_softmax_l1_bound(NAN)));
    ck_assert(perturb_softmax_l1_bound(0.0) == 0.0);
}
END_TEST

/* perturb_row_osc is >= the exact oscillation (MPFR subtraction is exact at 2100 bits) */
START_TEST(test_row_osc)
{
    rng_t r;
    rng_init(&r, test_seed() + 302);
    for (int it = 0; it < 5000; it++) {
        size_t n = 1 + rng_u64(&r) % 8;
        double v[8];
        for (size_t j = 0; j < n; j++)
            v[j] = ldexp(rng_normal(&r), (int)(rng_u64(&r) % 40) - 20);
        double o = perturb_row_osc(v, n);
        double lo = v[0], hi = v[0];
        for (size_t j = 1; j < n; j++) {
            if (v[j] < lo) lo = v[j];
            if (v[j] > hi) hi = v[j];
        }
        mpfr_t x;
        mpfr_init2(x, 2100);
        mpfr_set_d(x, hi, MPFR_RNDN);
        mpfr_sub_d(x, x, lo, MPFR_RNDN);            /* exact */
        int ok = mpfr_cmp_d(x, o) <= 0 && o <= nextafter(mpfr_get_d(x, MPFR_RNDU), INFINITY);
        mpfr_clear(x);
        ck_assert_msg(ok, "seed=%llu it=%d n=%zu osc=%a hi=%a lo=%a", (unsigned long long)test_seed(),
                      it, n, o, hi, lo);
    }
    double w[2] = { 1.0, NAN };
    ck_assert(isnan(perturb_row_osc(w, 2)));
}
END_TEST

/* random l, delta (n <= 8): exact l1 change <= bound(osc(delta)) */
START_TEST(test_random_below_bound)
{
    rng_t r;
    rng_init(&r, test_seed() + 303);
    for (int it = 0; it < 20000; it++) {
        size_t n = 1 + rng_u64(&r) % 8;
        double l[8], d[8];
        double sl = 0.1 + 20 * rng_uniform(&r), sd = ldexp(1.0, (int)(rng_u64(&r) % 12) - 6);
        for (size_t j = 0; j < n; j++) {
            l[j] = sl * rng_normal(&r);
            d[j] = sd * rng_normal(&r);
            if (it % 3 == 0)                      /* two-valued shifts */
                d[j] = (rng_u64(&r) & 1) ? sd : 0.0;
        }
        double osc = perturb_row_osc(d, n);
        double ex = perturb_softmax_l1_exact(l, d, n);
        double b = perturb_softmax_l1_bound(osc);
        ck_assert_msg(ex <= b, "seed=%llu it=%d n=%zu: l1 change %.17g > bound %.17g (osc %g, l0 %g d0 %g)",
                      (unsigned long long)test_seed(), it, n, ex, b, osc, l[0], d[0]);
    }
}
END_TEST

/* two-valued delta in {0, t} on uniform l with the optimal split fraction
 * p = 1/(1+e^{t/2}) approaches the bound (n = 1000: within 1%) */
START_TEST(test_twovalued_attains)
{
    const size_t n = 1000;
    double *l = calloc(n, sizeof *l), *d = calloc(n, sizeof *d);
    const double ts[] = { 0.05, 0.5, 1.0, 3.0, 8.0, 12.0 };
    for (size_t q = 0; q < sizeof ts / sizeof ts[0]; q++) {
        double t = ts[q];
        size_t k = (size_t)lround((double)n / (1.0 + exp(t / 2)));
        if (k == 0) k = 1;
        for (size_t j = 0; j < n; j++)
            d[j] = j < k ? t : 0.0;
        double ex = perturb_softmax_l1_exact(l, d, n);
        double b = perturb_softmax_l1_bound(t);
        ck_assert_msg(ex <= b && ex >= 0.99 * b, "t=%g k=%zu: l1 change %.17g vs bound %.17g", t, k, ex, b);
        /* a non-optimal split stays clearly below (the bound is about the optimum) */
        for (size_t j = 0; j < n; j++)
            d[j] = j < n / 2 + n / 4 ? t : 0.0;
        ex = perturb_softmax_l1_exact(l, d, n);
        ck_assert_msg(ex <= b, "t=%g split 3/4: %.17g > %.17g", t, ex, b);
    }
    free(l); free(d);
}
END_TEST

/* coordinate ascent over l and delta at fixed osc: never exceeds the bound,
 * and gets close to it (the bound is sharp) */
START_TEST(test_ascent_never_exceeds)
{
    rng_t r;
    rng_init(&r, test_seed() + 304);
    for (int trial = 0; trial < 24; trial++) {
        size_t n = 2 + (size_t)trial % 5;
        double osc = 0.2 + 6 * rng_uniform(&r);
        double l[8], d[8];
        for (size_t j = 0; j < n; j++) {
            l[j] = rng_normal(&r);
            d[j] = osc * rng_uniform(&r);
        }
        d[0] = 0.0;
        d[1] = osc;                               /* fixes osc exactly */
        double b = perturb_softmax_l1_bound(osc);
        double cur = perturb_softmax_l1_exact(l, d, n);
        for (int it = 0; it < 600; it++) {
            size_t j = rng_u64(&r) % n;
            double step = 0.5 * exp(-3.0 * it / 600.0) * rng_normal(&r);
            int which = (int)(rng_u64(&r) & 1);
            double *v = which ? &d[j] : &l[j];
            if (which && j < 2)
                continue;
            double old = *v;
            *v += step;
            if (which) {                          /* keep delta within [0, osc] */
                if (*v < 0) *v = 0;
                if (*v > osc) *v = osc;
            }
            double e = perturb_softmax_l1_exact(l, d, n);
            ck_assert_msg(e <= b, "seed=%llu trial=%d n=%zu osc=%g: ascent reached %.17g > bound %.17g",
                          (unsigned long long)test_seed(), trial, n, osc, e, b);
            if (e >= cur)
                cur = e;
            else
                *v = old;
        }
        ck_assert_msg(cur >= 0.95 * b, "seed=%llu trial=%d n=%zu osc=%g: ascent only reached %.6g of bound %.6g",
                      (unsigned long long)test_seed(), trial, n, osc, cur, b);
    }
}
END_TEST

Suite *suite_perturb(void)
{
    Suite *s = suite_create("perturb");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_bound_rigour);
    tcase_add_test(tc, test_row_osc);
    tcase_add_test(tc, test_random_below_bound);
    tcase_add_test(tc, test_twovalued_attains);
    tcase_add_test(tc, test_ascent_never_exceeds);
    suite_add_tcase(s, tc);
    return s;
}
