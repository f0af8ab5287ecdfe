/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_fround.c -- directed rounding the compiler cannot move: every scalar
 * operation rounded up / down is checked against the exact rational result
 * (FLINT fmpq) on operands where the rounding directions differ (random
 * mantissas, mixed signs, subnormal and overflowing results): _up >= exact
 * >= _down, both are the exact value when it is a double, and otherwise they
 * are adjacent doubles (correct directed rounding, not just a bound); the
 * caller's rounding mode never changes a result and is restored; the
 * downward scaled squared distance is a lower bound of the exact value, also
 * where round-to-nearest overshoots, just below 1e300 (where the former
 * softmax shortcut was not a lower bound) and beyond the double range. */
#include <check.h>
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <arb.h>
#include <flint/fmpq.h>
#include "testutil.h"
#include "numerics/fround.h"

static void q_set_d(fmpq_t q, double x)
{
    arf_t t;
    arf_init(t);
    arf_set_d(t, x);
    arf_get_fmpq(q, t);
    arf_clear(t);
}

static double random_operand(rng_t *r)
{
    double m = 1.0 + rng_uniform(r);           /* full random mantissa */
    int e;
    switch (rng_u64(r) % 5) {
    case 0: e = -1074 + (int)(rng_u64(r) % 60); break;   /* subnormal / tiny */
    case 1: e = 960 + (int)(rng_u64(r) % 63); break;     /* huge */
    default: e = (int)(rng_u64(r) % 41) - 20; break;
    }
    double v = ldexp(m, e);
    return (rng_u64(r) % 2) ? -v : v;
}

typedef double (*op2)(double, double);

/* checks one (up, down) pair against the exact rational a op b */
static void check_pair(int op, double a, double b, double up, double dn, int it)
{
    fmpq_t qa, qb, ex, qu, qd;
    fmpq_init(qa); fmpq_init(qb); fmpq_init(ex); fmpq_init(qu); fmpq_init(qd);
    q_set_d(qa, a);
    q_set_d(qb, b);
    switch (op) {
    case 0: fmpq_add(ex, qa, qb); break;
    case 1: fmpq_sub(ex, qa, qb); break;
    case 2: fmpq_mul(ex, qa, qb); break;
    default: fmpq_div(ex, qa, qb); break;
    }
    /* overflow: up = +inf above the range, down = -inf below it */
    if (isinf(up))
        ck_assert_msg(up > 0 && dn == DBL_MAX, "it=%d op=%d a=%a b=%a: up %a down %a", it, op, a, b, up, dn);
    else if (isinf(dn))
        ck_assert_msg(dn < 0 && up == -DBL_MAX, "it=%d op=%d a=%a b=%a: up %a down %a", it, op, a, b, up, dn);
    else {
        q_set_d(qu, up);
        q_set_d(qd, dn);
        ck_assert_msg(fmpq_cmp(qu, ex) >= 0, "it=%d op=%d a=%a b=%a: up %a below exact", it, op, a, b, up);
        ck_assert_msg(fmpq_cmp(qd, ex) <= 0, "it=%d op=%d a=%a b=%a: down %a above exact", it, op, a, b, dn);
        if (fmpq_equal(qu, ex) || fmpq_equal(qd, ex))
            ck_assert_msg(up == dn, "it=%d op=%d: exact result but up %a != down %a", it, op, up, dn);
        else
            ck_assert_msg(nextafter(dn, INFINITY) == up,
                          "it=%d op=%d a=%a b=%a: up %a, down %a not adjacent", it, op, a, b, up, dn);
    }
    fmpq_clear(qa); fmpq_clear(qb); fmpq_clear(ex); fmpq_clear(qu); fmpq_clear(qd);
}

START_TEST(test_scalar_ops_exact)
{
    static const op2 ups[4] = {fround_add_up, fround_sub_up, fround_mul_up, fround_div_up};
    static const op2 dns[4] = {fround_add_down, fround_sub_down, fround_mul_down, fround_div_down};
    static const int modes[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
    rng_t r;
    rng_init(&r, test_seed() + 31);
    int differ = 0;
    for (int it = 0; it < 4000; it++) {
        int op = it % 4;
        double a = random_operand(&r), b = random_operand(&r);
        if (op == 3 && b == 0)
            continue;
        if (op <= 1 && it % 8 < 4)
            b = ldexp(a, -(int)(rng_u64(&r) % 60)) * 0.7;    /* overlapping magnitudes */
        double up = ups[op](a, b), dn = dns[op](a, b);
        check_pair(op, a, b, up, dn, it);
        if (up != dn)
            differ++;
        /* the caller's mode changes nothing and is restored */
        int m = modes[it % 4];
        fesetround(m);
        double up2 = ups[op](a, b), dn2 = dns[op](a, b);
        int now = fegetround();
        fesetround(FE_TONEAREST);
        ck_assert_msg(now == m, "mode %d not restored (now %d)", m, now);
        ck_assert_msg((up2 == up || (isnan(up2) && isnan(up))) && (dn2 == dn || (isnan(dn2) && isnan(dn))),
                      "it=%d: caller mode %d changed a result", it, m);
    }
    ck_assert_msg(differ > 2000, "only %d inexact cases", differ);
    ck_assert(isnan(fround_add_up(NAN, 1.0)) && isnan(fround_div_down(0.0, 0.0)));
}
END_TEST

typedef struct {
    int seen;
} mode_probe;

static FROUND_BODY void probe_body(void *arg)
{
    mode_probe *p = arg;
    p->seen = fegetround();
}

static FROUND_BODY void nested_body(void *arg)
{
    mode_probe *p = arg;
    mode_probe inner;
    fround_run(FE_DOWNWARD, probe_body, &inner);
    p->seen = (inner.seen == FE_DOWNWARD && fegetround() == FE_UPWARD) ? 1 : 0;
}

START_TEST(test_run_modes)
{
    static const int modes[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
    for (int c = 0; c < 4; c++)
        for (int t = 0; t < 4; t++) {
            mode_probe p;
            fesetround(modes[c]);
            fround_run(modes[t], probe_body, &p);
            int now = fegetround();
            fesetround(FE_TONEAREST);
            ck_assert_int_eq(p.seen, modes[t]);
            ck_assert_int_eq(now, modes[c]);
        }
    mode_probe p;
    fround_run(FE_UPWARD, nested_body, &p);
    ck_assert_int_eq(p.seen, 1);
    ck_assert_int_eq(fegetround(), FE_TONEAREST);
}
END_TEST

/* exact (scale/2) |x - y|^2 */
static void exact_half_sqdist(fmpq_t ex, const double *x, const double *y, size_t d, double scale)
{
    fmpq_t t, u;
    fmpq_init(t); fmpq_init(u);
    fmpq_zero(ex);
    for (size_t c = 0; c < d; c++) {
        q_set_d(t, x[c]);
        q_set_d(u, y[c]);
        fmpq_sub(t, t, u);
        fmpq_mul(t, t, t);
        fmpq_add(ex, ex, t);
    }
    q_set_d(t, scale);
    fmpq_mul(ex, ex, t);
    fmpq_div_2exp(ex, ex, 1);
    fmpq_clear(t); fmpq_clear(u);
}

START_TEST(test_half_sqdist_down)
{
    rng_t r;
    rng_init(&r, test_seed() + 37);
    fmpq_t ex, q;
    fmpq_init(ex); fmpq_init(q);
    int rn_over = 0, tight = 0;
    for (int it = 0; it < 600; it++) {
        size_t d = 1 + (size_t)(rng_u64(&r) % 6), cnt = 1 + (size_t)(rng_u64(&r) % 4);
        double x[6], Y[4 * 6], out[4];
        int sc = (int)(rng_u64(&r) % 4);
        for (size_t c = 0; c < d; c++)
            x[c] = 2.0 * rng_uniform(&r) - 1.0;
        for (size_t j = 0; j < cnt * d; j++)
            Y[j] = 2.0 * rng_uniform(&r) - 1.0;
        if (sc == 1)      /* squares beyond the double range */
            for (size_t j = 0; j < cnt * d; j++)
                Y[j] = ldexp(Y[j], 520);
        if (sc == 2) {    /* differences and squares in the subnormal range */
            for (size_t c = 0; c < d; c++)
                x[c] = 0.0;
            for (size_t j = 0; j < cnt * d; j++)
                Y[j] = ldexp(Y[j], -(int)(rng_u64(&r) % 560) - 500);
        }
        double beta = sc == 3 ? ldexp(1.0 + rng_uniform(&r), 990) : 1.0 + 100.0 * rng_uniform(&r);
        fround_half_sqdist_down(x, Y, d, cnt, beta, out);
        for (size_t j = 0; j < cnt; j++) {
            exact_half_sqdist(ex, x, Y + j * d, d, beta);
            ck_assert_msg(isfinite(out[j]) && out[j] >= 0, "it=%d: out %a", it, out[j]);
            q_set_d(q, out[j]);
            ck_assert_msg(fmpq_cmp(q, ex) <= 0, "seed=%llu it=%d j=%zu d=%zu: %a above the exact value",
                          (unsigned long long)test_seed(), it, j, d, out[j]);
            /* not vacuous: within 2^-45 relative below the exact value when
             * it lies in the normal double range */
            fmpq_t lo;
            fmpq_init(lo);
            fmpq_set_si(lo, 1, 1);
            fmpq_div_2exp(lo, lo, 45);
            fmpq_sub(lo, ex, (fmpq_mul(lo, lo, ex), lo));
            if (sc == 0 || sc == 3) {
                if (out[j] < DBL_MAX)
                    ck_assert_msg(fmpq_cmp(q, lo) >= 0, "it=%d: %a far below the exact value", it, out[j]);
                tight++;
            }
            fmpq_clear(lo);
            /* round-to-nearest evaluation of the same expression: how often
             * it is above the exact value (a bound it would not be) */
            if (sc == 0) {
                double s = 0;
                for (size_t c = 0; c < d; c++) {
                    double t = x[c] - Y[j * d + c];
                    s += t * t;
                }
                q_set_d(q, 0.5 * beta * s);
                if (fmpq_cmp(q, ex) > 0)
                    rn_over++;
            }
        }
    }
    ck_assert_msg(rn_over > 50 && tight > 200, "rn_over %d tight %d", rn_over, tight);
    /* d = 32, x = 0, beta = 1: the exact u = |y|^2/2 lies just below 1e300
     * (relative gap 4.5e-17) while its round-to-nearest evaluation is above
     * 1e300, where the former softmax shortcut (sym_u_lower) answered 1e300,
     * not a lower bound.  The downward bound stays below. */
    static const double yb[32] = {
        0x1.38d352e5096b4p+496, 0x1.38d352e5096b0p+496, 0x1.38d352e5096b3p+496, 0x1.38d352e5096abp+496,
        0x1.38d352e5096adp+496, 0x1.38d352e5096b4p+496, 0x1.38d352e5096abp+496, 0x1.38d352e5096aep+496,
        0x1.38d352e5096aap+496, 0x1.38d352e5096abp+496, 0x1.38d352e5096b4p+496, 0x1.38d352e5096b4p+496,
        0x1.38d352e5096b0p+496, 0x1.38d352e5096abp+496, 0x1.38d352e5096adp+496, 0x1.38d352e5096acp+496,
        0x1.38d352e5096b1p+496, 0x1.38d352e5096b1p+496, 0x1.38d352e5096aep+496, 0x1.38d352e5096afp+496,
        0x1.38d352e5096abp+496, 0x1.38d352e5096afp+496, 0x1.38d352e5096b4p+496, 0x1.38d352e5096b1p+496,
        0x1.38d352e5096abp+496, 0x1.38d352e5096afp+496, 0x1.38d352e5096b1p+496, 0x1.38d352e5096adp+496,
        0x1.38d352e5096b4p+496, 0x1.38d352e5096aep+496, 0x1.38d352e5096b1p+496, 0x1.38d352e5096aep+496};
    double xb[32] = {0}, o;
    exact_half_sqdist(ex, xb, yb, 32, 1.0);
    q_set_d(q, 1e300);
    ck_assert(fmpq_cmp(ex, q) < 0);                   /* exact u < 1e300 */
    double srn = 0;
    for (int c = 0; c < 32; c++)
        srn += yb[c] * yb[c];
    ck_assert(0.5 * srn > 1e300);                     /* nearest evaluation > 1e300 */
    fround_half_sqdist_down(xb, yb, 32, 1, 1.0, &o);
    q_set_d(q, o);
    ck_assert(fmpq_cmp(q, ex) <= 0 && o > 0.999e300);
    double x0 = 0.0, y0;
    /* beyond the range: finite, a lower bound (DBL_MAX, halved at the end) */
    y0 = 1e200;
    fround_half_sqdist_down(&x0, &y0, 1, 1, 1e100, &o);
    ck_assert(o == 0.5 * DBL_MAX);
    /* NaN coordinate or bad scale: NaN */
    y0 = NAN;
    fround_half_sqdist_down(&x0, &y0, 1, 1, 1.0, &o);
    ck_assert(isnan(o));
    y0 = 1.0;
    fround_half_sqdist_down(&x0, &y0, 1, 1, -1.0, &o);
    ck_assert(isnan(o));
    fmpq_clear(ex); fmpq_clear(q);
}
END_TEST

Suite *suite_fround(void)
{
    Suite *s = suite_create("fround");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_scalar_ops_exact);
    tcase_add_test(tc, test_run_modes);
    tcase_add_test(tc, test_half_sqdist_down);
    suite_add_tcase(s, tc);
    return s;
}
