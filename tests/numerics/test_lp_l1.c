/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_lp_l1.c -- weighted l1 fit by GLPK against brute force: the l1
 * optimum of a full-column-rank problem is attained where k residuals
 * vanish, so the minimum over all k-subsets of the interpolating solutions
 * is the exact optimum (small m, k).  Also: consistent data are fitted
 * exactly; bad input is rejected.  The IRLS stand-in (lp_l1_irls) is close
 * to the simplex's objective on smooth fits. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <lapacke.h>
#include "testutil.h"
#include "numerics/rng.h"
#include "numerics/lp_l1.h"

static double l1obj(size_t m, size_t k, const double *F, const double *f, const double *w,
                    const double *c)
{
    double s = 0;
    for (size_t i = 0; i < m; i++) {
        double r = f[i];
        for (size_t j = 0; j < k; j++)
            r -= F[i + j * m] * c[j];
        s += w[i] * fabs(r);
    }
    return s;
}

/* brute force over k-subsets (k <= 3) */
static double brute(size_t m, size_t k, const double *F, const double *f, const double *w)
{
    double best = INFINITY;
    size_t idx[3];
    size_t total = 1;
    for (size_t j = 0; j < k; j++)
        total *= m;
    for (size_t code = 0; code < total; code++) {
        size_t t = code, ok = 1;
        for (size_t j = 0; j < k; j++) {
            idx[j] = t % m;
            t /= m;
            if (j > 0 && idx[j] <= idx[j - 1])
                ok = 0;
        }
        if (!ok)
            continue;
        double A[9], b[3];
        lapack_int piv[3];
        for (size_t a = 0; a < k; a++) {
            b[a] = f[idx[a]];
            for (size_t j = 0; j < k; j++)
                A[a + j * k] = F[idx[a] + j * m];
        }
        if (LAPACKE_dgesv(LAPACK_COL_MAJOR, (lapack_int)k, 1, A, (lapack_int)k, piv, b, (lapack_int)k) != 0)
            continue;
        double o = l1obj(m, k, F, f, w, b);
        if (o < best)
            best = o;
    }
    return best;
}

START_TEST(test_vs_brute)
{
    uint64_t seed = test_seed();
    rng_t r;
    rng_init(&r, seed + 21);
    for (int it = 0; it < 200; it++) {
        size_t k = 1 + (size_t)(rng_u64(&r) % 3);
        size_t m = k + 1 + (size_t)(rng_u64(&r) % 9);
        double F[40], f[13], w[13], c[3], obj;
        for (size_t t = 0; t < m * k; t++)
            F[t] = rng_normal(&r);
        for (size_t i = 0; i < m; i++) {
            f[i] = rng_normal(&r) * 3.0;
            w[i] = 0.1 + rng_uniform(&r);
        }
        ck_assert_int_eq(lp_l1_solve(m, k, F, f, w, c, &obj), AR_OK);
        double o2 = l1obj(m, k, F, f, w, c);
        double b = brute(m, k, F, f, w);
        ck_assert_msg(fabs(obj - o2) <= 1e-12 * (1 + o2), "seed=%llu it=%d: reported objective wrong",
                      (unsigned long long)seed, it);
        ck_assert_msg(fabs(o2 - b) <= 1e-7 * (1 + b), "seed=%llu it=%d m=%zu k=%zu: lp %.12g vs brute %.12g",
                      (unsigned long long)seed, it, m, k, o2, b);
    }
}
END_TEST

START_TEST(test_exact_fit)
{
    uint64_t seed = test_seed();
    rng_t r;
    rng_init(&r, seed + 22);
    for (int it = 0; it < 20; it++) {
        size_t m = 200, k = 1 + (size_t)(rng_u64(&r) % 20);
        double *F = malloc(m * k * sizeof *F), *f = malloc(m * sizeof *f), cs[20], c[20], obj;
        for (size_t j = 0; j < k; j++)
            cs[j] = rng_normal(&r);
        for (size_t i = 0; i < m; i++) {
            double s = 2.0 * rng_uniform(&r) - 1.0;
            f[i] = 0;
            for (size_t j = 0; j < k; j++) {
                F[i + j * m] = cos((double)j * acos(s));
                f[i] += F[i + j * m] * cs[j];
            }
        }
        ck_assert_int_eq(lp_l1_solve(m, k, F, f, NULL, c, &obj), AR_OK);
        ck_assert_msg(obj <= 1e-9, "seed=%llu it=%d: consistent data not fitted (obj %g)",
                      (unsigned long long)seed, it, obj);
        for (size_t j = 0; j < k; j++)
            ck_assert_msg(fabs(c[j] - cs[j]) <= 1e-8, "seed=%llu it=%d: coefficient %zu off",
                          (unsigned long long)seed, it, j);
        free(F);
        free(f);
    }
}
END_TEST

START_TEST(test_bad_input)
{
    double F[4] = {1, 1, 1, 2}, f[2] = {1, 2}, w[2] = {1, 1}, c[2], obj;
    ck_assert_int_eq(lp_l1_solve(2, 3, F, f, w, c, &obj), AR_EINVAL);
    ck_assert_int_eq(lp_l1_solve(2, 0, F, f, w, c, &obj), AR_EINVAL);
    w[1] = 0;
    ck_assert_int_eq(lp_l1_solve(2, 1, F, f, w, c, &obj), AR_EINVAL);
    w[1] = 1;
    f[0] = NAN;
    ck_assert_int_eq(lp_l1_solve(2, 1, F, f, w, c, &obj), AR_EINVAL);
    f[0] = 1;
    F[1] = INFINITY;
    ck_assert_int_eq(lp_l1_solve(2, 1, F, f, w, c, &obj), AR_EINVAL);
}
END_TEST

/* lp_l1_irls: its reported objective is that of the returned c; on the fits
 * the sphere certificate makes (f = exp(a (cos theta - 1)), weight
 * sin^2 theta, Chebyshev columns, a degree with l1 error near 10%) it is
 * within 0.5% of the simplex's objective (either way: the simplex optimum is
 * a floating-point one); consistent data are fitted; bad input is rejected.
 * (On random peaked data with other weights IRLS was seen 6% BELOW the
 * simplex: lp_l1_solve's optimum is only a candidate.) */
START_TEST(test_irls)
{
    struct { double a; size_t k; } cs[] = { {20.0, 13}, {50.0, 20}, {100.0, 30} };
    for (size_t it = 0; it < sizeof cs / sizeof cs[0]; it++) {
        size_t m = 2048, k = cs[it].k;
        double *F = malloc(m * k * sizeof *F), *f = malloc(m * sizeof *f), *w = malloc(m * sizeof *w);
        double c[32], c2[32], oi, ol;
        for (size_t i = 0; i < m; i++) {
            double th = M_PI * ((double)i + 0.5) / (double)m;
            f[i] = exp(cs[it].a * (cos(th) - 1.0));
            w[i] = sin(th) * sin(th) * M_PI / (double)m;
            for (size_t j = 0; j < k; j++)
                F[i + j * m] = cos((double)j * th);
        }
        ck_assert_int_eq(lp_l1_solve(m, k, F, f, w, c, &ol), AR_OK);
        ck_assert_int_eq(lp_l1_irls(m, k, F, f, w, 30, c2, &oi), AR_OK);
        double o2 = l1obj(m, k, F, f, w, c2);
        ck_assert_msg(fabs(oi - o2) <= 1e-12 * (1 + o2), "case %zu: reported objective %.17g, of c %.17g", it, oi,
                      o2);
        ck_assert_msg(fabs(oi - ol) <= 5e-3 * ol, "case %zu (a=%g k=%zu): IRLS %.12g, LP %.12g", it, cs[it].a, k,
                      oi, ol);
        /* consistent data: f = F c */
        for (size_t i = 0; i < m; i++) {
            f[i] = 0;
            for (size_t j = 0; j < k; j++)
                f[i] += F[i + j * m] * (double)(j + 1);
        }
        ck_assert_int_eq(lp_l1_irls(m, k, F, f, NULL, 5, c2, &oi), AR_OK);
        ck_assert_msg(oi <= 1e-9, "case %zu: consistent data not fitted (obj %g)", it, oi);
        free(F);
        free(f);
        free(w);
    }
    double F[4] = {1, 1, 1, 2}, f[2] = {1, 2}, w[2] = {1, 1}, c[2], obj;
    ck_assert_int_eq(lp_l1_irls(2, 1, F, f, w, 0, c, &obj), AR_EINVAL);
    ck_assert_int_eq(lp_l1_irls(2, 3, F, f, w, 5, c, &obj), AR_EINVAL);
    w[1] = -1;
    ck_assert_int_eq(lp_l1_irls(2, 1, F, f, w, 5, c, &obj), AR_EINVAL);
    w[1] = 1;
    f[1] = INFINITY;
    ck_assert_int_eq(lp_l1_irls(2, 1, F, f, w, 5, c, &obj), AR_EINVAL);
    f[1] = 2;
    F[0] = NAN;
    ck_assert_int_eq(lp_l1_irls(2, 1, F, f, w, 5, c, &obj), AR_EINVAL);
}
END_TEST

Suite *suite_lp_l1(void)
{
    Suite *s = suite_create("lp_l1");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_vs_brute);
    tcase_add_test(tc, test_exact_fit);
    tcase_add_test(tc, test_irls);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
