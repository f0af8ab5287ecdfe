/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_resid.c -- certified residual bound (numerics/resid.h).
 *
 * Truth: the exact row-l1 residual computed with exact arf arithmetic
 * (ARF_PREC_EXACT: products and sums of doubles are represented exactly).
 * Checks: exact <= bound (rigour) and bound - exact <= (2k + 2n + 10) u S +
 * 4 n (k+1) 2^-1074 with S = max_i (sum_j |a_ij| + sum_j (|U||V|^T)_ij)
 * (a scale-free ratio as in LAPACK testing: the bound is not vacuous at any
 * scale). */
#include <check.h>
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include <arf.h>
#include <flint/flint.h>
#include "numerics/resid.h"
#include "testutil.h"

static double rnd_unit(flint_rand_t st)
{
    return (double)(n_randlimb(st) >> 11) * 0x1p-53;
}

static double rnd_sym(flint_rand_t st) /* uniform in (-1, 1) */
{
    return 2 * rnd_unit(st) - 1;
}

/* exact[i] = sum_j |a_ij - (U V^T)_ij| (exact), S = max_i (sum|a| + sum |U||V|^T). */
static void exact_resid(arf_ptr exact, arf_t S, size_t m, size_t n, size_t k, const double *a,
                        const double *U, size_t ldu, const double *V, size_t ldv)
{
    arf_t r, p, x, y, s;
    arf_init(r);
    arf_init(p);
    arf_init(x);
    arf_init(y);
    arf_init(s);
    arf_zero(S);
    for (size_t i = 0; i < m; i++) {
        arf_zero(exact + i);
        arf_zero(s);
        for (size_t j = 0; j < n; j++) {
            arf_set_d(r, a[i + j * m]);
            arf_abs(p, r);
            arf_add(s, s, p, ARF_PREC_EXACT, ARF_RND_DOWN);
            for (size_t c = 0; c < k; c++) {
                arf_set_d(x, U[i + c * ldu]);
                arf_set_d(y, V[j + c * ldv]);
                arf_mul(p, x, y, ARF_PREC_EXACT, ARF_RND_DOWN);
                arf_sub(r, r, p, ARF_PREC_EXACT, ARF_RND_DOWN);
                arf_abs(p, p);
                arf_add(s, s, p, ARF_PREC_EXACT, ARF_RND_DOWN);
            }
            arf_abs(r, r);
            arf_add(exact + i, exact + i, r, ARF_PREC_EXACT, ARF_RND_DOWN);
        }
        if (arf_cmp(s, S) > 0)
            arf_set(S, s);
    }
    arf_clear(r);
    arf_clear(p);
    arf_clear(x);
    arf_clear(y);
    arf_clear(s);
}

typedef struct {
    size_t m, n, k, ldu, ldv;
    double *a, *U, *V, *rowerr;
} rcase;

static void rcase_alloc(rcase *c, size_t m, size_t n, size_t k, size_t ldu, size_t ldv)
{
    c->m = m;
    c->n = n;
    c->k = k;
    c->ldu = ldu;
    c->ldv = ldv;
    c->a = calloc(m * n + 1, sizeof(double));
    c->U = calloc(ldu * k + 1, sizeof(double));
    c->V = calloc(ldv * k + 1, sizeof(double));
    c->rowerr = calloc(m, sizeof(double));
}

static void rcase_free(rcase *c)
{
    free(c->a);
    free(c->U);
    free(c->V);
    free(c->rowerr);
}

/* Check rigour and tightness of one case; msg identifies it. */
static void check_case(const rcase *c, const char *msg, uint64_t seed, int iter)
{
    size_t m = c->m, n = c->n, k = c->k;
    arf_ptr ex = malloc(m * sizeof(arf_struct));
    for (size_t i = 0; i < m; i++)
        arf_init(ex + i);
    arf_t S, best, t, lim, bd;
    arf_init(S);
    arf_init(best);
    arf_init(t);
    arf_init(lim);
    arf_init(bd);
    exact_resid(ex, S, m, n, k, c->a, c->U, c->ldu, c->V, c->ldv);
    double *work = malloc((m * n + 1) * sizeof(double));
    double b1 = resid_r1_bound(m, n, k, c->a, c->rowerr, c->U, c->ldu, c->V, c->ldv, NULL);
    double b2 = resid_r1_bound(m, n, k, c->a, c->rowerr, c->U, c->ldu, c->V, c->ldv, work);
    ck_assert_msg(b1 == b2, "%s seed=%llu iter=%d: work=NULL gives %.17g, work given %.17g", msg,
                  (unsigned long long)seed, iter, b1, b2);
    ck_assert_msg(isfinite(b1), "%s seed=%llu iter=%d m=%zu n=%zu k=%zu: bound not finite", msg,
                  (unsigned long long)seed, iter, m, n, k);
    /* worst case over all A with sum_j |A_ij - a_ij| <= rowerr_i */
    arf_zero(best);
    for (size_t i = 0; i < m; i++) {
        arf_set_d(t, c->rowerr[i]);
        arf_add(t, t, ex + i, ARF_PREC_EXACT, ARF_RND_DOWN);
        if (arf_cmp(t, best) > 0)
            arf_set(best, t);
    }
    arf_set_d(bd, b1);
    ck_assert_msg(arf_cmp(best, bd) <= 0,
                  "%s seed=%llu iter=%d m=%zu n=%zu k=%zu: exact %.17g > bound %.17g", msg,
                  (unsigned long long)seed, iter, m, n, k, arf_get_d(best, ARF_RND_UP), b1);
    /* not vacuous: bound - exact <= (2k + 2n + 10) u (S + max rowerr) + 4 n (k+1) 2^-1074:
     * a priori 2 gamma_{k+1} S (the bound's own term plus the actual error of
     * C at worst) and at most n + 3 upward roundings of 2u each */
    arf_set_d(lim, (double)(2 * k + 2 * n + 10) * 0x1p-53 * (1 + 0x1p-20));
    arf_set_d(t, 0);
    for (size_t i = 0; i < m; i++)
        if (c->rowerr[i] > arf_get_d(t, ARF_RND_NEAR))
            arf_set_d(t, c->rowerr[i]);
    arf_add(t, t, S, ARF_PREC_EXACT, ARF_RND_DOWN);
    arf_mul(lim, lim, t, ARF_PREC_EXACT, ARF_RND_DOWN);
    arf_set_d(t, (double)(n * (k + 1)));
    arf_mul_2exp_si(t, t, -1072);
    arf_add(lim, lim, t, ARF_PREC_EXACT, ARF_RND_DOWN);
    arf_add(lim, lim, best, ARF_PREC_EXACT, ARF_RND_DOWN);
    ck_assert_msg(arf_cmp(bd, lim) <= 0,
                  "%s seed=%llu iter=%d m=%zu n=%zu k=%zu: bound %.17g too loose (exact %.17g, "
                  "scale %.3g)",
                  msg, (unsigned long long)seed, iter, m, n, k, b1, arf_get_d(best, ARF_RND_UP),
                  arf_get_d(S, ARF_RND_UP));
    free(work);
    for (size_t i = 0; i < m; i++)
        arf_clear(ex + i);
    free(ex);
    arf_clear(S);
    arf_clear(best);
    arf_clear(t);
    arf_clear(lim);
    arf_clear(bd);
}

/* Random well-scaled cases, with leading dimensions larger than needed. */
START_TEST(test_resid_random_well_scaled)
{
    uint64_t seed = test_seed();
    flint_rand_t st;
    flint_randinit(st);
    flint_randseed(st, seed * 2654435761u + 1u, 77u);
    for (int iter = 0; iter < 150; iter++) {
        size_t m = 1 + n_randint(st, 30), n = 1 + n_randint(st, 30), k = n_randint(st, 9);
        if (iter % 10 == 0)
            k = 1;
        rcase c;
        rcase_alloc(&c, m, n, k, m + n_randint(st, 3), n + n_randint(st, 3));
        for (size_t t = 0; t < c.ldu * k; t++)
            c.U[t] = rnd_sym(st);
        for (size_t t = 0; t < c.ldv * k; t++)
            c.V[t] = rnd_sym(st);
        for (size_t t = 0; t < m * n; t++)
            c.a[t] = rnd_sym(st);
        if (n_randint(st, 2))
            for (size_t i = 0; i < m; i++)
                c.rowerr[i] = n_randint(st, 2) ? 0.0 : 1e-3 * rnd_unit(st);
        check_case(&c, "well-scaled", seed, iter);
        rcase_free(&c);
    }
    flint_randclear(st);
}
END_TEST

/* Near-cancellation: a ~ U V^T (rounded product, plus a few-ulp noise). */
START_TEST(test_resid_near_cancellation)
{
    uint64_t seed = test_seed();
    flint_rand_t st;
    flint_randinit(st);
    flint_randseed(st, seed * 40503u + 9u, 31u);
    for (int iter = 0; iter < 150; iter++) {
        size_t m = 1 + n_randint(st, 25), n = 1 + n_randint(st, 25), k = 1 + n_randint(st, 12);
        rcase c;
        rcase_alloc(&c, m, n, k, m, n);
        double sc = ldexp(1.0, (int)n_randint(st, 41) - 20);
        for (size_t t = 0; t < m * k; t++)
            c.U[t] = rnd_sym(st) * sc;
        for (size_t t = 0; t < n * k; t++)
            c.V[t] = rnd_sym(st);
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++) {
                double s = 0;
                for (size_t cc = 0; cc < k; cc++)
                    s += c.U[i + cc * m] * c.V[j + cc * n];
                if (n_randint(st, 3) == 0)
                    s = nextafter(s, n_randint(st, 2) ? INFINITY : -INFINITY);
                c.a[i + j * m] = s;
            }
        check_case(&c, "near-cancellation", seed, iter);
        rcase_free(&c);
    }
    flint_randclear(st);
}
END_TEST

/* Entries spanning 1e-200 .. 1e200 (row and column scalings), and a case in
 * the subnormal range where the underflow term matters. */
START_TEST(test_resid_extreme_scales)
{
    uint64_t seed = test_seed();
    flint_rand_t st;
    flint_randinit(st);
    flint_randseed(st, seed * 97u + 13u, 5u);
    for (int iter = 0; iter < 120; iter++) {
        size_t m = 1 + n_randint(st, 12), n = 1 + n_randint(st, 12), k = 1 + n_randint(st, 5);
        rcase c;
        rcase_alloc(&c, m, n, k, m, n);
        int sub = iter % 6 == 5;
        double *rs = malloc(m * sizeof(double)), *cs = malloc(k * sizeof(double));
        for (size_t i = 0; i < m; i++)
            rs[i] = sub ? 0x1p-540 : pow(10.0, (double)n_randint(st, 201) - 100.0);
        for (size_t cc = 0; cc < k; cc++)
            cs[cc] = sub ? 0x1p-530 : pow(10.0, (double)n_randint(st, 201) - 100.0);
        /* U_ic ~ rs_i cs_c, V_jc ~ 1/cs_c: entries span about 1e-200..1e200,
         * products about rs_i (no overflow) */
        for (size_t i = 0; i < m; i++)
            for (size_t cc = 0; cc < k; cc++)
                c.U[i + cc * m] = rnd_sym(st) * rs[i] * cs[cc];
        for (size_t j = 0; j < n; j++)
            for (size_t cc = 0; cc < k; cc++)
                c.V[j + cc * n] = sub ? rnd_sym(st) * 0x1p-4 : rnd_sym(st) / cs[cc];
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++) {
                double s = 0;
                for (size_t cc = 0; cc < k; cc++)
                    s += c.U[i + cc * m] * c.V[j + cc * n];
                c.a[i + j * m] = n_randint(st, 2) ? s : s + rnd_sym(st) * rs[i] * 1e-8;
            }
        check_case(&c, sub ? "subnormal" : "scales", seed, iter);
        rcase_free(&c);
        free(rs);
        free(cs);
    }
    flint_randclear(st);
}
END_TEST

/* Deep underflow: every product U_ic V_jc is below the smallest subnormal, so
 * dgemm flushes them (rounding to 0 or 2^-1074) and only the underflow term
 * of the bound covers the exact residual. */
START_TEST(test_resid_deep_underflow)
{
    uint64_t seed = test_seed();
    flint_rand_t st;
    flint_randinit(st);
    flint_randseed(st, seed * 173u + 29u, 41u);
    for (int iter = 0; iter < 60; iter++) {
        size_t m = 1 + n_randint(st, 10), n = 1 + n_randint(st, 10), k = 1 + n_randint(st, 6);
        rcase c;
        rcase_alloc(&c, m, n, k, m, n);
        for (size_t t = 0; t < m * k; t++)
            c.U[t] = rnd_sym(st) * 0x1p-537;
        for (size_t t = 0; t < n * k; t++)
            c.V[t] = rnd_sym(st) * 0x1p-538;
        for (size_t t = 0; t < m * n; t++)
            c.a[t] = n_randint(st, 2) ? 0.0 : (double)n_randint(st, 3) * 0x1p-1074;
        check_case(&c, "deep underflow", seed, iter);
        rcase_free(&c);
    }
    flint_randclear(st);
}
END_TEST

/* k = 0: the bound is sum |a| + rowerr, exactly (up to the upward sum). */
START_TEST(test_resid_rank_zero)
{
    double a[6] = {1, -2, 0.5, 0.25, -3, 0};
    double re[2] = {0.125, 0};
    double b = resid_r1_bound(2, 3, 0, a, re, NULL, 2, NULL, 3, NULL);
    /* rows: |1|+|0.5|+|-3| + 0.125 = 4.625, |-2|+|0.25|+0 = 2.25 */
    ck_assert_msg(b == 4.625, "k=0 bound %.17g, expected 4.625", b);
}
END_TEST

/* Non-finite input, overflow, bad arguments give +INFINITY; the caller's
 * rounding mode is preserved and does not break the bound. */
START_TEST(test_resid_nonfinite_and_modes)
{
    size_t m = 3, n = 4, k = 2;
    double a[12], U[6], V[8], re[3] = {0, 0, 0};
    for (int t = 0; t < 12; t++)
        a[t] = 0.1 * t - 0.5;
    for (int t = 0; t < 6; t++)
        U[t] = 0.3 * t - 0.7;
    for (int t = 0; t < 8; t++)
        V[t] = 0.2 * t - 0.4;
    double ok = resid_r1_bound(m, n, k, a, re, U, m, V, n, NULL);
    ck_assert_msg(isfinite(ok), "finite case gave %g", ok);
    struct {
        const char *what;
        double *arr;
        int idx;
        double val;
    } bad[] = {
        {"NaN in a", a, 5, NAN},     {"Inf in a", a, 0, INFINITY}, {"Inf in U", U, 3, -INFINITY},
        {"NaN in V", V, 7, NAN},     {"NaN rowerr", re, 1, NAN},   {"negative rowerr", re, 2, -1},
        {"U overflow", U, 0, 1e300},
    };
    for (size_t c = 0; c < sizeof bad / sizeof bad[0]; c++) {
        double save = bad[c].arr[bad[c].idx];
        bad[c].arr[bad[c].idx] = bad[c].val;
        if (bad[c].arr == U && bad[c].val == 1e300)
            V[0] = 1e300; /* product overflows to inf inside dgemm */
        double b = resid_r1_bound(m, n, k, a, re, U, m, V, n, NULL);
        ck_assert_msg(b == INFINITY, "%s: bound %g, expected +inf", bad[c].what, b);
        bad[c].arr[bad[c].idx] = save;
        V[0] = -0.4;
    }
    ck_assert_msg(resid_r1_bound(m, n, k, a, re, U, m - 1, V, n, NULL) == INFINITY, "ldu < m");
    ck_assert_msg(resid_r1_bound(m, n, k, NULL, re, U, m, V, n, NULL) == INFINITY, "a NULL");

    int modes[] = {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO, FE_TONEAREST};
    for (int t = 0; t < 4; t++) {
        fesetround(modes[t]);
        double b = resid_r1_bound(m, n, k, a, re, U, m, V, n, NULL);
        double g = resid_gamma(10);
        int now = fegetround();
        fesetround(FE_TONEAREST);
        ck_assert_msg(now == modes[t], "rounding mode %d not restored (now %d)", modes[t], now);
        ck_assert_msg(b == ok, "caller rounding mode %d changed the bound: %.17g vs %.17g",
                      modes[t], b, ok);
        ck_assert_msg(g == resid_gamma(10), "caller rounding mode %d changed gamma", modes[t]);
    }
}
END_TEST

/* resid_gamma(k) equals k u / (1 - k u) rounded up, u = 2^-52 (the unit
 * roundoff bound valid in every rounding mode; MPFR, exact inputs). */
START_TEST(test_resid_gamma_exact)
{
    size_t ks[] = {1, 2, 3, 7, 10, 1000, 123457, ((size_t)1 << 20) + 1, ((size_t)1 << 40) - 3,
                   ((size_t)1 << 52), ((size_t)1 << 53) - 1, ((size_t)1 << 53),
                   ((size_t)1 << 60)};
    mpfr_t num, den, q;
    mpfr_inits2(256, num, den, (mpfr_ptr)0);
    mpfr_init2(q, 53);
    ck_assert_msg(resid_gamma(0) == 0.0, "gamma_0 = %g", resid_gamma(0));
    for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
        size_t k = ks[t];
        double g = resid_gamma(k);
        mpfr_set_ui(num, (unsigned long)k, MPFR_RNDN); /* exact */
        mpfr_mul_2si(num, num, -52, MPFR_RNDN);
        mpfr_ui_sub(den, 1, num, MPFR_RNDN); /* exact at 256 bits */
        if (mpfr_sgn(den) <= 0) {
            ck_assert_msg(g == INFINITY, "k=%zu: k u >= 1 but gamma = %g", k, g);
            continue;
        }
        mpfr_div(q, num, den, MPFR_RNDU);
        double want = mpfr_get_d(q, MPFR_RNDU);
        ck_assert_msg(g == want, "k=%zu: gamma %.17g, expected %.17g", k, g, want);
    }
    mpfr_clears(num, den, q, (mpfr_ptr)0);
}
END_TEST

/* resid_block_multi: several ranks in one chained pass, column-major in one block and row-major
 * in two blocks: every bound covers the exact residual of its rank (plus rowerr), is within the
 * same tightness limit as resid_r1_bound, and the one-rank case equals resid_r1_bound. */
START_TEST(test_resid_block_multi)
{
    flint_rand_t st;
    flint_randinit(st);
    uint64_t seed = test_seed();
    flint_randseed(st, seed + 77, seed + 78);
    for (int iter = 0; iter < 40; iter++) {
        size_t m = 1 + n_randint(st, 25), n = 1 + n_randint(st, 25), kmax = 1 + n_randint(st, 10);
        double *a = malloc(m * n * sizeof *a), *ar = malloc(m * n * sizeof *ar);
        double *U = malloc(m * kmax * sizeof *U), *V = malloc(n * kmax * sizeof *V);
        double *rowerr = malloc(m * sizeof *rowerr), *cv = malloc(kmax * sizeof *cv);
        for (size_t t = 0; t < m * n; t++)
            a[t] = rnd_unit(st);
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++)
                ar[i * n + j] = a[i + j * m];
        for (size_t t = 0; t < m * kmax; t++)
            U[t] = rnd_sym(st);
        for (size_t t = 0; t < n * kmax; t++)
            V[t] = rnd_sym(st) * 0.1;
        for (size_t i = 0; i < m; i++)
            rowerr[i] = rnd_unit(st) * 1e-12;
        size_t ks[12], nk = 0;
        for (size_t k = 0; k <= kmax; k++)
            if (k == kmax || n_randint(st, 2))
                ks[nk++] = k;
        resid_colsums_up(n, kmax, V, n, cv);
        double bc[12], br[12];
        for (size_t t = 0; t < nk; t++)
            bc[t] = br[t] = 0.0;
        resid_block_t B = {.b = m, .n = n, .a = a, .lda = m, .rowmajor = 0, .rowerr = rowerr, .U = U, .ldu = m,
                           .V = V, .ldv = n, .cv = cv, .ks = ks, .nk = nk};
        resid_block_multi(&B, NULL, bc);
        size_t h = m / 2;
        for (int half = 0; half < 2; half++) {
            size_t i0 = half ? h : 0, cnt = half ? m - h : h;
            if (cnt == 0)
                continue;
            resid_block_t R = {.b = cnt, .n = n, .a = ar + i0 * n, .lda = n, .rowmajor = 1, .rowerr = rowerr + i0,
                               .U = U + i0, .ldu = m, .V = V, .ldv = n, .cv = cv, .ks = ks, .nk = nk};
            resid_block_multi(&R, NULL, br);
        }
        arf_ptr ex = malloc(m * sizeof(arf_struct));
        for (size_t i = 0; i < m; i++)
            arf_init(ex + i);
        arf_t S, t1;
        arf_init(S);
        arf_init(t1);
        for (size_t t = 0; t < nk; t++) {
            size_t k = ks[t];
            exact_resid(ex, S, m, n, k, a, U, m, V, n);
            double worst = 0, lim = 0;
            for (size_t i = 0; i < m; i++) {
                arf_set_d(t1, rowerr[i]);
                arf_add(t1, t1, ex + i, ARF_PREC_EXACT, ARF_RND_DOWN);
                worst = fmax(worst, arf_get_d(t1, ARF_RND_UP));
            }
            lim = worst + (double)(2 * k + 2 * n + 10) * 0x1p-53 * 1.001 * (arf_get_d(S, ARF_RND_UP) + 1e-12) +
                  (double)(4 * n * (k + 1)) * 0x1p-1074;
            ck_assert_msg(worst <= bc[t] && worst <= br[t], "iter %d k %zu: exact %.17g > bounds %.17g / %.17g", iter,
                          k, worst, bc[t], br[t]);
            ck_assert_msg(bc[t] <= lim && br[t] <= lim, "iter %d k %zu: bounds %.17g / %.17g above %.17g", iter, k,
                          bc[t], br[t], lim);
            if (t == nk - 1) {
                double one = resid_r1_bound(m, n, k, a, rowerr, U, m, V, n, NULL);
                ck_assert_msg(fabs(one - bc[t]) <= 1e-13 * (1 + one), "iter %d: single-rank %.17g vs chained %.17g",
                              iter, one, bc[t]);
            }
        }
        for (size_t i = 0; i < m; i++)
            arf_clear(ex + i);
        free(ex);
        arf_clear(S);
        arf_clear(t1);
        free(a); free(ar); free(U); free(V); free(rowerr); free(cv);
    }
    flint_randclear(st);
}
END_TEST


/* A block split into three parts (the second starting at an odd row, so that the fused kernel's
 * vectors are unaligned and its last row block is partial): the chained bounds of runs of narrow
 * segments cover the residual (long double, relative error ~1e-19) and agree with the
 * single-rank bound of each rank (one dgemm, no fusion) to rounding; the bounds and every row's
 * bound are the same bits for every thread count (issue 35). */
START_TEST(test_resid_block_multi_threads)
{
    rng_t r;
    rng_init(&r, test_seed() + 91);
    size_t m = 771, n = 400, kmax = 52;
    double *a = malloc(m * n * sizeof *a), *U = malloc(m * kmax * sizeof *U), *V = malloc(n * kmax * sizeof *V);
    double *cv = malloc(kmax * sizeof *cv);
    for (size_t t = 0; t < m * n; t++)
        a[t] = rng_uniform(&r);
    for (size_t t = 0; t < m * kmax; t++)
        U[t] = rng_normal(&r);
    for (size_t t = 0; t < n * kmax; t++)
        V[t] = rng_normal(&r) * 0.05;
    /* segments of 1..16 columns are fused (34 - 20 = 14 too), the last (18) is one dgemm; each
     * part's rows (257 each) end in a partial register block */
    size_t ks[] = { 5, 6, 7, 9, 12, 13, 20, 34, 52 }, nk = sizeof ks / sizeof ks[0];
    double bound[9] = { 0 };
    resid_colsums_up(n, kmax, V, n, cv);
    resid_block_t B = {.b = m, .n = n, .a = a, .lda = m, .rowmajor = 0, .rowerr = NULL, .U = U, .ldu = m,
                       .V = V, .ldv = n, .cv = cv, .ks = ks, .nk = nk};
    double *rb = malloc(nk * m * sizeof *rb), *rb1 = malloc(nk * m * sizeof *rb1);
    B.rowbound = rb1;
    B.ldr = m;
    for (size_t c = 0; c < TEST_NTHREAD_COUNTS; c++) {
        ar_config_t cfg;
        const ar_config_t *prev = test_threads_install(&cfg, TEST_THREAD_COUNTS[c]);
        double bc[9] = { 0 };
        B.rowbound = c ? rb : rb1;
        resid_block_multi(&B, NULL, c ? bc : bound);
        ar_config_install(prev);
        ck_assert_msg(c == 0 || (memcmp(bc, bound, sizeof bc) == 0 && memcmp(rb, rb1, nk * m * sizeof *rb) == 0),
                      "%d threads: the bounds differ from one thread's", TEST_THREAD_COUNTS[c]);
    }
    free(rb); free(rb1);
    for (size_t t = 0; t < nk; t++) {
        size_t k = ks[t];
        long double worst = 0;
        for (size_t i = 0; i < m; i++) {
            long double row = 0;
            for (size_t j = 0; j < n; j++) {
                long double x = a[i + j * m];
                for (size_t c = 0; c < k; c++)
                    x -= (long double)U[i + c * m] * V[j + c * n];
                row += fabsl(x);
            }
            if (row > worst)
                worst = row;
        }
        double one = resid_r1_bound(m, n, k, a, NULL, U, m, V, n, NULL);
        ck_assert_msg((long double)bound[t] >= worst * (1 + 1e-15L) && bound[t] <= (double)worst * (1 + 1e-11),
                      "rank %zu: chained bound %.17g against the residual %.17Lg", k, bound[t], worst);
        ck_assert_msg(fabs(one - bound[t]) <= 1e-12 * one, "rank %zu: chained %.17g, single-rank %.17g", k,
                      bound[t], one);
    }
    free(a); free(U); free(V); free(cv);
}
END_TEST

Suite *suite_resid(void)
{
    Suite *s = suite_create("resid");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_resid_random_well_scaled);
    tcase_add_test(tc, test_resid_near_cancellation);
    tcase_add_test(tc, test_resid_extreme_scales);
    tcase_add_test(tc, test_resid_deep_underflow);
    tcase_add_test(tc, test_resid_rank_zero);
    tcase_add_test(tc, test_resid_nonfinite_and_modes);
    tcase_add_test(tc, test_resid_gamma_exact);
    tcase_add_test(tc, test_resid_block_multi);
    tcase_add_test(tc, test_resid_block_multi_threads);
    suite_add_tcase(s, tc);
    return s;
}
