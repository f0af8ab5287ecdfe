/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cheb.c -- Chebyshev series: the double Clenshaw value is within its
 * rigorous error bound of the exact value (computed independently as
 * sum c_k cos(k arccos x) in Arb at 512 bits), and the bound is not vacuous;
 * the Arb Clenshaw contains the truth; derivative coefficients agree with
 * the independent formula T_k' = k U_{k-1}; the Markov bound dominates
 * sampled derivative values and is attained at x = 1 for nonnegative c. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <arb.h>
#include <arb_hypgeom.h>
#include <flint/fmpq.h>
#include "testutil.h"
#include "numerics/rng.h"
#include "numerics/cheb.h"

#define HPREC 512

/* truth = sum c_k cos(k acos x), independent of any recurrence */
static void truth_eval(arb_t y, const double *c, size_t len, double x)
{
    arb_t th, t, ck;
    arb_init(th);
    arb_init(t);
    arb_init(ck);
    arb_set_d(th, x);
    arb_acos(th, th, HPREC);
    arb_zero(y);
    for (size_t k = 0; k < len; k++) {
        arb_mul_ui(t, th, (ulong)k, HPREC);
        arb_cos(t, t, HPREC);
        arb_set_d(ck, c[k]);
        arb_addmul(y, ck, t, HPREC);
    }
    arb_clear(th);
    arb_clear(t);
    arb_clear(ck);
}

static void random_coeffs(rng_t *r, double *c, size_t len)
{
    int decay = (int)(rng_u64(r) % 2);
    for (size_t k = 0; k < len; k++) {
        double v = rng_normal(r) * ldexp(1.0, (int)(rng_u64(r) % 7) - 3);
        c[k] = decay ? v * exp(-0.05 * (double)k) : v;
    }
}

static double random_x(rng_t *r)
{
    switch (rng_u64(r) % 6) {
    case 0: return 1.0;
    case 1: return -1.0;
    case 2: return 0.0;
    case 3: return 1.0 - ldexp(rng_uniform(r), -20);
    default: return 2.0 * rng_uniform(r) - 1.0;
    }
}

START_TEST(test_clenshaw_bound)
{
    uint64_t seed = test_seed();
    rng_t r;
    rng_init(&r, seed + 11);
    arb_t y, diff;
    arb_init(y);
    arb_init(diff);
    for (int it = 0; it < 300; it++) {
        size_t len = 1 + (size_t)(rng_u64(&r) % 200);
        double *c = malloc(len * sizeof *c);
        random_coeffs(&r, c, len);
        double x = random_x(&r), err;
        double v = cheb_clenshaw(c, len, x, &err);
        truth_eval(y, c, len, x);
        arb_set_d(diff, v);
        arb_sub(diff, diff, y, HPREC);
        arb_abs(diff, diff);
        double sabs = 0;
        for (size_t k = 0; k < len; k++)
            sabs += fabs(c[k]);
        /* must hold: |v - p(x)| <= err (diff ball entirely below err) */
        ck_assert_msg(arb_le(diff, (arb_set_d(y, err), y)),
                      "seed=%llu it=%d len=%zu x=%a: |value - truth| exceeds bound %g",
                      (unsigned long long)seed, it, len, x, err);
        /* not vacuous: err <= 3 len^2 2^-52 sum|c| (+ underflow) */
        double lim = 3.0 * (double)len * (double)len * 0x1p-52 * sabs + 1e-300;
        ck_assert_msg(err <= lim, "seed=%llu it=%d len=%zu: bound %g too large (limit %g)",
                      (unsigned long long)seed, it, len, err, lim);
        free(c);
    }
    double c1[2] = {1, 1}, e;
    ck_assert(isnan(cheb_clenshaw(c1, 2, 1.5, &e)) && isinf(e));
    ck_assert(isnan(cheb_clenshaw(c1, 2, NAN, &e)) && isinf(e));
    ck_assert(cheb_clenshaw(c1, 0, 0.5, &e) == 0 && e == 0);
    arb_clear(y);
    arb_clear(diff);
}
END_TEST

/* exact rational value of a finite double */
static void q_set_d(fmpq_t q, double x)
{
    arf_t t;
    arf_init(t);
    arf_set_d(t, x);
    arf_get_fmpq(q, t);
    arf_clear(t);
}

/* The error bound is accumulated upward: on series whose magnitude sum is
 * known exactly (len 1 at any x: acc = 2|c0|; len 2 at x = 0: acc = 2|c0| +
 * 2|c1|), err >= acc 0x1.0000000001p-52 + len 2^-1074 exactly (fmpq).  In
 * round-to-nearest the last product or sum falls below the exact value in
 * about half of the cases, so this fails when the final terms escape the
 * upward mode (GCC moving them across fesetround). */
START_TEST(test_clenshaw_error_upward)
{
    rng_t r;
    rng_init(&r, test_seed() + 14);
    fmpq_t ex, t, rel;
    fmpq_init(ex);
    fmpq_init(t);
    fmpq_init(rel);
    q_set_d(rel, 0x1.0000000001p-52);
    int rn_below = 0;
    for (int it = 0; it < 400; it++) {
        size_t len = 1 + (size_t)(it % 2);
        double c[2] = {rng_normal(&r) * ldexp(1.0, (int)(rng_u64(&r) % 9) - 4),
                       rng_normal(&r) * ldexp(1.0, (int)(rng_u64(&r) % 9) - 4)};
        double x = len == 1 ? 2.0 * rng_uniform(&r) - 1.0 : 0.0, err;
        double v = cheb_clenshaw(c, len, x, &err);
        ck_assert(v == c[0]);                      /* exact in both shapes */
        fmpq_zero(ex);
        for (size_t k = 0; k < len; k++) {
            q_set_d(t, fabs(c[k]));
            fmpq_add(ex, ex, t);
            fmpq_add(ex, ex, t);
        }
        fmpq_mul(ex, ex, rel);
        fmpq_set_si(t, (slong)len, 1);
        fmpq_div_2exp(t, t, 1074);
        fmpq_add(ex, ex, t);
        q_set_d(t, err);
        ck_assert_msg(fmpq_cmp(t, ex) >= 0,
                      "seed=%llu it=%d len=%zu c0=%a c1=%a: err %a below its exact value",
                      (unsigned long long)test_seed(), it, len, c[0], c[1], err);
        /* the same expression in round-to-nearest: how often it is below */
        double acc = 2.0 * fabs(c[0]) + (len == 2 ? 2.0 * fabs(c[1]) : 0.0);
        q_set_d(t, acc * 0x1.0000000001p-52 + (double)len * 0x1p-1074);
        if (fmpq_cmp(t, ex) < 0)
            rn_below++;
    }
    ck_assert_msg(rn_below > 50, "only %d of 400 cases discriminate rounding modes", rn_below);
    fmpq_clear(ex);
    fmpq_clear(t);
    fmpq_clear(rel);
}
END_TEST

START_TEST(test_eval_arb)
{
    uint64_t seed = test_seed();
    rng_t r;
    rng_init(&r, seed + 12);
    arb_t x, y, t;
    arb_init(x);
    arb_init(y);
    arb_init(t);
    for (int it = 0; it < 100; it++) {
        size_t len = 1 + (size_t)(rng_u64(&r) % 120);
        double *c = malloc(len * sizeof *c);
        random_coeffs(&r, c, len);
        double xd = random_x(&r);
        arb_set_d(x, xd);
        cheb_eval_arb(y, c, len, x, 300);
        truth_eval(t, c, len, xd);
        ck_assert_msg(arb_overlaps(y, t), "seed=%llu it=%d len=%zu x=%a: Arb Clenshaw misses truth",
                      (unsigned long long)seed, it, len, xd);
        ck_assert_msg(mag_cmp_2exp_si(arb_radref(y), -100) < 0, "seed=%llu it=%d: radius too wide",
                      (unsigned long long)seed, it);
        free(c);
    }
    arb_clear(x);
    arb_clear(y);
    arb_clear(t);
}
END_TEST

START_TEST(test_deriv)
{
    uint64_t seed = test_seed();
    rng_t r;
    rng_init(&r, seed + 13);
    arb_t x, y, t, u, ck, kk;
    arb_init(x);
    arb_init(y);
    arb_init(t);
    arb_init(u);
    arb_init(ck);
    arb_init(kk);
    for (int it = 0; it < 60; it++) {
        size_t len = 2 + (size_t)(rng_u64(&r) % 80);
        double *c = malloc(len * sizeof *c);
        random_coeffs(&r, c, len);
        arb_ptr ca = _arb_vec_init((slong)len), da = _arb_vec_init((slong)len);
        for (size_t k = 0; k < len; k++)
            arb_set_d(ca + k, c[k]);
        cheb_deriv_arb(da, ca, len, 300);
        double xd = 2.0 * rng_uniform(&r) - 1.0;
        arb_set_d(x, xd);
        cheb_eval_arb_coeffs(y, da, len - 1, x, 300);
        /* independent: sum_k c_k k U_{k-1}(x) */
        arb_zero(t);
        for (size_t k = 1; k < len; k++) {
            arb_set_ui(kk, (ulong)k - 1);
            arb_hypgeom_chebyshev_u(u, kk, x, 300);
            arb_mul_ui(u, u, (ulong)k, 300);
            arb_set_d(ck, c[k]);
            arb_addmul(t, ck, u, 300);
        }
        ck_assert_msg(arb_overlaps(y, t), "seed=%llu it=%d len=%zu x=%a: derivative series wrong",
                      (unsigned long long)seed, it, len, xd);
        /* Markov bound for j = 0..3 dominates samples; attained at 1 when c >= 0 */
        for (unsigned j = 0; j <= 3; j++) {
            arb_t M;
            arb_init(M);
            cheb_deriv_sup_bound(M, c, len, j, 200);
            arb_ptr cur = _arb_vec_init((slong)len), nxt = _arb_vec_init((slong)len);
            for (size_t k = 0; k < len; k++)
                arb_set_d(cur + k, fabs(c[k]));   /* nonnegative version */
            size_t lj = len;
            for (unsigned q = 0; q < j && lj > 1; q++, lj--) {
                cheb_deriv_arb(nxt, cur, lj, 300);
                _arb_vec_swap(cur, nxt, (slong)lj - 1);
            }
            arb_one(x);
            if (lj + j == len && j < len)
                cheb_eval_arb_coeffs(y, cur, lj, x, 300);
            else
                arb_zero(y);
            ck_assert_msg(arb_overlaps(y, M), "seed=%llu it=%d j=%u: Markov bound not attained at 1",
                          (unsigned long long)seed, it, j);
            _arb_vec_clear(cur, (slong)len);
            _arb_vec_clear(nxt, (slong)len);
            arb_clear(M);
        }
        free(c);
        _arb_vec_clear(ca, (slong)len);
        _arb_vec_clear(da, (slong)len);
    }
    arb_clear(x);
    arb_clear(y);
    arb_clear(t);
    arb_clear(u);
    arb_clear(ck);
    arb_clear(kk);
}
END_TEST

START_TEST(test_markov_dominates)
{
    uint64_t seed = test_seed();
    rng_t r;
    rng_init(&r, seed + 14);
    arb_t M, x, y;
    arb_init(M);
    arb_init(x);
    arb_init(y);
    for (int it = 0; it < 20; it++) {
        size_t len = 2 + (size_t)(rng_u64(&r) % 40);
        double *c = malloc(len * sizeof *c);
        random_coeffs(&r, c, len);
        arb_ptr ca = _arb_vec_init((slong)len), da = _arb_vec_init((slong)len);
        for (size_t k = 0; k < len; k++)
            arb_set_d(ca + k, c[k]);
        cheb_deriv_arb(da, ca, len, 300);
        cheb_deriv_sup_bound(M, c, len, 1, 200);
        for (int s = 0; s <= 400; s++) {
            arb_set_d(x, -1.0 + s / 200.0);
            cheb_eval_arb_coeffs(y, da, len - 1, x, 300);
            arb_abs(y, y);
            ck_assert_msg(!arb_gt(y, M), "seed=%llu it=%d: |p'| exceeds Markov bound",
                          (unsigned long long)seed, it);
        }
        free(c);
        _arb_vec_clear(ca, (slong)len);
        _arb_vec_clear(da, (slong)len);
    }
    arb_clear(M);
    arb_clear(x);
    arb_clear(y);
}
END_TEST

Suite *suite_cheb(void)
{
    Suite *s = suite_create("cheb");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_clenshaw_bound);
    tcase_add_test(tc, test_clenshaw_error_upward);
    tcase_add_test(tc, test_eval_arb);
    tcase_add_test(tc, test_deriv);
    tcase_add_test(tc, test_markov_dominates);
    suite_add_tcase(s, tc);
    return s;
}
