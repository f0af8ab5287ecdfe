/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_sphere.c -- sphere point sets against high-precision MPFR / exact
 * FLINT recomputations: correct rounding of polygon and Fibonacci
 * coordinates, unit norms, packing separation (checked at 256 bits),
 * determinism and counts. */
#include <check.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <mpfr.h>
#include <flint/fmpq.h>
#include "testutil.h"
#include "constructions/pointsets/sphere.h"
#include "constructions/pointsets/sphere_code.h"
#include "numerics/rng.h"
#include "base/config.h"

/* q = x exactly (x finite). */
static void fmpq_from_d(fmpq_t q, double x)
{
    int e;
    double f = frexp(x, &e);
    fmpq_set_si(q, (slong)ldexp(f, 53), 1);
    if (e - 53 >= 0)
        fmpq_mul_2exp(q, q, (ulong)(e - 53));
    else
        fmpq_div_2exp(q, q, (ulong)(53 - e));
}

/* | |x| - 1 | <= 4 ulp(1) = 2^-50, with |x|^2 summed exactly at 256 bits
 * (products of doubles are exact in 106 bits; the inexact flag is checked). */
static void check_norms(const pointset_t *P, const char *what)
{
    mpfr_t s, t;
    mpfr_inits2(256, s, t, (mpfr_ptr)0);
    for (size_t i = 0; i < P->n; i++) {
        mpfr_set_zero(s, 1);
        int inexact = 0;
        for (size_t c = 0; c < P->d; c++) {
            inexact |= mpfr_set_d(t, P->x[i * P->d + c], MPFR_RNDN);
            inexact |= mpfr_sqr(t, t, MPFR_RNDN);
            inexact |= mpfr_add(s, s, t, MPFR_RNDN);
        }
        ck_assert_msg(!inexact, "%s point %zu: squared norm not exact at 256 bits", what, i);
        mpfr_sqrt(s, s, MPFR_RNDN);
        mpfr_sub_ui(s, s, 1, MPFR_RNDN);
        mpfr_abs(s, s, MPFR_RNDN);
        ck_assert_msg(mpfr_cmp_d(s, 0x1p-50) <= 0, "%s point %zu: | |x| - 1 | = %.3g > 4 ulp",
                      what, i, mpfr_get_d(s, MPFR_RNDN));
    }
    mpfr_clears(s, t, (mpfr_ptr)0);
}

/* x is within half an ulp (of the binade of v) of v, allowing slack for the
 * error of v itself (computed with >= 200 bits). */
static int within_half_ulp(double x, const mpfr_t v, int slack_bits)
{
    mpfr_t diff, bound;
    mpfr_inits2(400, diff, bound, (mpfr_ptr)0);
    mpfr_set_d(diff, x, MPFR_RNDN);
    mpfr_sub(diff, diff, v, MPFR_RNDN);
    mpfr_abs(diff, diff, MPFR_RNDN);
    mpfr_set_ui_2exp(bound, 1, mpfr_get_exp(v) - 54, MPFR_RNDN);     /* half ulp in v's binade */
    mpfr_t sl;
    mpfr_init2(sl, 64);
    mpfr_set_ui_2exp(sl, 1, mpfr_get_exp(v) - slack_bits, MPFR_RNDN);
    mpfr_add(bound, bound, sl, MPFR_RNDN);
    int ok = mpfr_cmp(diff, bound) <= 0;
    mpfr_clears(diff, bound, sl, (mpfr_ptr)0);
    return ok;
}

START_TEST(test_polygon)
{
    size_t ns[] = { 1, 2, 3, 4, 5, 6, 7, 8, 12, 24, 97, 360, 1000, 0 };
    ns[13] = 50 + (size_t)(test_seed() % 1000);
    mpfr_t a, c, s;
    mpfr_inits2(200, a, c, s, (mpfr_ptr)0);
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        size_t n = ns[k];
        pointset_t P;
        ck_assert_int_eq(sphere_polygon(&P, n), AR_OK);
        ck_assert(P.n == n && P.d == 2 && P.w == NULL);
        ck_assert_msg(strstr(P.provenance, "polygon") != NULL, "provenance '%s'", P.provenance);
        for (size_t j = 0; j < n; j++) {
            double x = P.x[2 * j], y = P.x[2 * j + 1];
            if ((4 * j) % n == 0) {             /* exact quadrant points */
                size_t q = 4 * j / n;
                const double ex[4] = { 1, 0, -1, 0 }, ey[4] = { 0, 1, 0, -1 };
                ck_assert_msg(x == ex[q] && y == ey[q], "n=%zu j=%zu: (%.17g, %.17g)", n, j, x, y);
                continue;
            }
            mpfr_const_pi(a, MPFR_RNDN);
            mpfr_mul_ui(a, a, 2 * j, MPFR_RNDN);
            mpfr_div_ui(a, a, n, MPFR_RNDN);
            mpfr_cos(c, a, MPFR_RNDN);
            mpfr_sin(s, a, MPFR_RNDN);
            ck_assert_msg(within_half_ulp(x, c, 190), "n=%zu j=%zu: x=%.17g cos=%.17g", n, j, x, mpfr_get_d(c, MPFR_RNDN));
            ck_assert_msg(within_half_ulp(y, s, 190), "n=%zu j=%zu: y=%.17g sin=%.17g", n, j, y, mpfr_get_d(s, MPFR_RNDN));
        }
        check_norms(&P, "polygon");
        pointset_clear(&P);
    }
    mpfr_clears(a, c, s, (mpfr_ptr)0);
    pointset_t P;
    ck_assert_int_eq(sphere_polygon(&P, 0), AR_EINVAL);
}
END_TEST

/* z exactly the nearest double to (n-2i-1)/n (checked in fmpq against both
 * neighbours); x, y within half an ulp of a 300-bit evaluation of
 * sqrt(1 - z^2) (cos, sin)(i pi (3 - sqrt 5)). */
START_TEST(test_fibonacci)
{
    size_t ns[] = { 1, 2, 5, 13, 100, 0 };
    ns[5] = 200 + (size_t)(test_seed() % 800);
    fmpq_t q, dz, dn;
    fmpq_init(q);
    fmpq_init(dz);
    fmpq_init(dn);
    mpfr_t z, rho, phi, t, v;
    mpfr_inits2(300, z, rho, phi, t, v, (mpfr_ptr)0);
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        size_t n = ns[k];
        pointset_t P;
        ck_assert_int_eq(sphere_fibonacci(&P, n), AR_OK);
        ck_assert(P.n == n && P.d == 3);
        for (size_t i = 0; i < n; i++) {
            const double *p = P.x + 3 * i;
            fmpq_set_si(q, (slong)n - 2 * (slong)i - 1, (ulong)n);
            /* |z - q| <= |z' - q| for both neighbours z' */
            double nb[2] = { nextafter(p[2], -2.0), nextafter(p[2], 2.0) };
            fmpq_from_d(dz, p[2]);
            fmpq_sub(dz, dz, q);
            fmpq_abs(dz, dz);
            for (int e = 0; e < 2; e++) {
                fmpq_from_d(dn, nb[e]);
                fmpq_sub(dn, dn, q);
                fmpq_abs(dn, dn);
                ck_assert_msg(fmpq_cmp(dz, dn) <= 0, "n=%zu i=%zu: z=%.17g not nearest to %ld/%zu",
                              n, i, p[2], (long)n - 2 * (long)i - 1, n);
            }
            /* naive 300-bit evaluation */
            mpfr_set_si(z, (long)n - 2 * (long)i - 1, MPFR_RNDN);
            mpfr_div_ui(z, z, n, MPFR_RNDN);
            mpfr_sqr(rho, z, MPFR_RNDN);
            mpfr_ui_sub(rho, 1, rho, MPFR_RNDN);
            mpfr_sqrt(rho, rho, MPFR_RNDN);
            if (i == 0) {
                ck_assert_msg(p[1] == 0.0, "n=%zu: y_0 = %.17g", n, p[1]);
                mpfr_set(v, rho, MPFR_RNDN);
                if (n == 1 || n == 5 || n == 13) {   /* 2n-1 = 1, 9, 25: rho rational */
                    long sq = n == 1 ? 1 : n == 5 ? 3 : 5;
                    fmpq_set_si(q, sq, (ulong)n);
                    fmpq_from_d(dz, p[0]);
                    ck_assert_msg(fmpq_equal(dz, q) || (fmpq_sub(dz, dz, q), fmpq_abs(dz, dz),
                                  within_half_ulp(p[0], v, 250)), "n=%zu: x_0 = %.17g", n, p[0]);
                    if (n == 1)
                        ck_assert(p[0] == 1.0 && p[2] == 0.0);
                }
                ck_assert_msg(within_half_ulp(p[0], v, 250), "n=%zu: x_0=%.17g rho=%.17g", n, p[0], mpfr_get_d(v, MPFR_RNDN));
                continue;
            }
            mpfr_sqrt_ui(t, 5, MPFR_RNDN);
            mpfr_ui_sub(t, 3, t, MPFR_RNDN);
            mpfr_mul_ui(t, t, i, MPFR_RNDN);
            mpfr_const_pi(phi, MPFR_RNDN);
            mpfr_mul(phi, phi, t, MPFR_RNDN);
            mpfr_cos(v, phi, MPFR_RNDN);
            mpfr_mul(v, v, rho, MPFR_RNDN);
            ck_assert_msg(within_half_ulp(p[0], v, 250), "n=%zu i=%zu: x=%.17g want %.17g", n, i, p[0], mpfr_get_d(v, MPFR_RNDN));
            mpfr_sin(v, phi, MPFR_RNDN);
            mpfr_mul(v, v, rho, MPFR_RNDN);
            ck_assert_msg(within_half_ulp(p[1], v, 250), "n=%zu i=%zu: y=%.17g want %.17g", n, i, p[1], mpfr_get_d(v, MPFR_RNDN));
        }
        check_norms(&P, "fibonacci");
        ck_assert_msg(strstr(P.provenance, "fibonacci") != NULL, "provenance '%s'", P.provenance);
        pointset_clear(&P);
    }
    mpfr_clears(z, rho, phi, t, v, (mpfr_ptr)0);
    fmpq_clear(q);
    fmpq_clear(dz);
    fmpq_clear(dn);
}
END_TEST

START_TEST(test_uniform)
{
    uint64_t seed = test_seed() + 17;
    for (size_t d = 1; d <= 6; d++) {
        size_t n = 20000 / d;
        pointset_t P, Q, R;
        ck_assert_int_eq(sphere_uniform(&P, n, d, seed), AR_OK);
        ck_assert_int_eq(sphere_uniform(&Q, n, d, seed), AR_OK);
        ck_assert_int_eq(sphere_uniform(&R, n, d, seed + 1), AR_OK);
        ck_assert_msg(memcmp(P.x, Q.x, n * d * sizeof(double)) == 0, "seed %llu d=%zu: not deterministic",
                      (unsigned long long)seed, d);
        ck_assert_msg(memcmp(P.x, R.x, n * d * sizeof(double)) != 0, "seeds differ but sets equal");
        ck_assert_msg(strstr(P.provenance, "seed=") != NULL, "provenance '%s'", P.provenance);
        check_norms(&P, "uniform");
        /* E x_c = 0, E x_c^2 = 1/d; Var x_c <= 1/d, Var x_c^2 <= 1/d */
        for (size_t c = 0; c < d; c++) {
            double m = 0, m2 = 0;
            for (size_t i = 0; i < n; i++) {
                m += P.x[i * d + c];
                m2 += P.x[i * d + c] * P.x[i * d + c];
            }
            m /= (double)n;
            m2 /= (double)n;
            double sig = sqrt(1.0 / (double)d / (double)n);
            ck_assert_msg(fabs(m) <= 5 * sig, "seed %llu d=%zu coord %zu: mean %.5f", (unsigned long long)seed, d, c, m);
            if (d > 1)
                ck_assert_msg(fabs(m2 - 1.0 / (double)d) <= 5 * sig, "seed %llu d=%zu coord %zu: second moment %.5f",
                              (unsigned long long)seed, d, c, m2);
        }
        pointset_clear(&P);
        pointset_clear(&Q);
        pointset_clear(&R);
    }
}
END_TEST

/* Every pair of points has angle >= theta: cos(angle) <= cos(theta) decided
 * at 256 bits (the construction's margin is ~1e-12 relative, far above the
 * 256-bit error). */
static void check_separation(const pointset_t *P, double theta, const char *what)
{
    size_t n = P->n, d = P->d;
    mpfr_t ct, dot, a, b, t;
    mpfr_inits2(256, ct, dot, a, b, t, (mpfr_ptr)0);
    mpfr_set_d(ct, theta, MPFR_RNDN);
    mpfr_cos(ct, ct, MPFR_RNDN);
    mpfr_t *nrm = malloc(n * sizeof(mpfr_t));
    for (size_t i = 0; i < n; i++) {
        mpfr_init2(nrm[i], 256);
        mpfr_set_zero(nrm[i], 1);
        for (size_t c = 0; c < d; c++) {
            mpfr_set_d(t, P->x[i * d + c], MPFR_RNDN);
            mpfr_sqr(t, t, MPFR_RNDN);
            mpfr_add(nrm[i], nrm[i], t, MPFR_RNDN);
        }
        mpfr_sqrt(nrm[i], nrm[i], MPFR_RNDN);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            /* cheap filter: angle clearly >= theta when the double chord is large */
            double ch = 0;
            for (size_t c = 0; c < d; c++)
                ch += (P->x[i * d + c] - P->x[j * d + c]) * (P->x[i * d + c] - P->x[j * d + c]);
            if (sqrt(ch) > 2 * sin(theta / 2) * (1 + 1e-6) + 1e-9)
                continue;
            mpfr_set_zero(dot, 1);
            for (size_t c = 0; c < d; c++) {
                mpfr_set_d(a, P->x[i * d + c], MPFR_RNDN);
                mpfr_mul_d(a, a, P->x[j * d + c], MPFR_RNDN);
                mpfr_add(dot, dot, a, MPFR_RNDN);
            }
            mpfr_mul(b, nrm[i], nrm[j], MPFR_RNDN);
            mpfr_div(dot, dot, b, MPFR_RNDN);
            ck_assert_msg(mpfr_cmp(dot, ct) <= 0, "%s theta=%.17g: points %zu and %zu have cos angle %.17g > cos theta (1 - %.3g)",
                          what, theta, i, j, mpfr_get_d(dot, MPFR_RNDN), 1 - mpfr_get_d(ct, MPFR_RNDN));
        }
    for (size_t i = 0; i < n; i++)
        mpfr_clear(nrm[i]);
    free(nrm);
    mpfr_clears(ct, dot, a, b, t, (mpfr_ptr)0);
}

START_TEST(test_packing_separation)
{
    uint64_t seed = test_seed() + 5;
    const struct { size_t d; double theta; } cases[] = {
        { 3, 0.3 }, { 3, 0.15 }, { 4, 0.6 }, { 5, 0.8 }, { 6, 1.0 }, { 3, 2.5 }, { 4, 2.2 },
        { 4, 0.35 }, { 5, 0.5 }, { 6, 0.45 }   /* these use the hash grid (count > 3^d) */
    };
    size_t count3[2] = { 0, 0 };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        size_t d = cases[k].d;
        double th = cases[k].theta;
        pointset_t P, Q;
        ck_assert_int_eq(sphere_packing(&P, d, th, 100000, seed, 0), AR_OK);
        ck_assert_int_eq(sphere_packing(&Q, d, th, 100000, seed, 0), AR_OK);
        ck_assert_msg(P.n == Q.n && memcmp(P.x, Q.x, P.n * d * sizeof(double)) == 0,
                      "seed %llu d=%zu theta=%g: not deterministic", (unsigned long long)seed, d, th);
        ck_assert_msg(P.n >= 2, "d=%zu theta=%g: only %zu points", d, th, P.n);
        ck_assert_msg(strstr(P.provenance, "packing") && strstr(P.provenance, "seed=") && strstr(P.provenance, "theta="),
                      "provenance '%s'", P.provenance);
        char what[64];
        snprintf(what, sizeof what, "packing d=%zu seed=%llu", d, (unsigned long long)seed);
        check_norms(&P, what);
        check_separation(&P, th, what);
        if (k < 2)
            count3[k] = P.n;
        pointset_clear(&P);
        pointset_clear(&Q);
    }
    /* count ~ theta^-(d-1): halving theta in d = 3 multiplies it by ~4 */
    double ratio = (double)count3[1] / (double)count3[0];
    ck_assert_msg(ratio >= 3.0 && ratio <= 5.0, "seed %llu: d=3 counts %zu (0.3) and %zu (0.15), ratio %.3f",
                  (unsigned long long)seed, count3[0], count3[1], ratio);
}
END_TEST

/* The saturated greedy over the zonal pool: the separation (exactly, as for
 * sphere_packing), saturation (every pool point is within theta of a kept
 * point: nothing more fits), determinism for a seed, another seed another
 * order, the relative density independent of the size (d = 4: the counts at
 * theta and theta/2 differ by 2^3 within 15 %), and bad input. */
START_TEST(test_packing_pool)
{
    uint64_t seed = test_seed() + 9;
    const struct { size_t d; double theta; } cases[] = { { 3, 0.3 }, { 4, 0.5 }, { 5, 0.7 }, { 6, 0.9 }, { 4, 0.25 } };
    size_t n4[2] = { 0, 0 };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        size_t d = cases[k].d;
        double th = cases[k].theta;
        pointset_t P, Q, R, C;
        ck_assert_int_eq(sphere_packing_pool(&P, d, th, 1000000, seed, 4000000), AR_OK);
        ck_assert_int_eq(sphere_packing_pool(&Q, d, th, 1000000, seed, 4000000), AR_OK);
        ck_assert_int_eq(sphere_packing_pool(&R, d, th, 1000000, seed + 1, 4000000), AR_OK);
        ck_assert_msg(P.n == Q.n && memcmp(P.x, Q.x, P.n * d * sizeof(double)) == 0, "d=%zu: not deterministic", d);
        ck_assert_msg(R.n != P.n || memcmp(P.x, R.x, P.n * d * sizeof(double)) != 0, "d=%zu: the seed is ignored", d);
        char what[64];
        snprintf(what, sizeof what, "pool d=%zu seed=%llu", d, (unsigned long long)seed);
        check_norms(&P, what);
        check_separation(&P, th, what);
        /* saturation: no pool candidate is farther than the chord from every kept point */
        ck_assert_int_eq(sphere_zonal(&C, d, 0.5 * th, SIZE_MAX), AR_OK);
        double req = 2 * sin(th / 2) * (1 + 1e-12) + 0x1p-48;
        for (size_t i = 0; i < C.n; i++) {
            int near = 0;
            for (size_t j = 0; j < P.n && !near; j++) {
                double s2 = 0;
                for (size_t c = 0; c < d; c++)
                    s2 += (C.x[i * d + c] - P.x[j * d + c]) * (C.x[i * d + c] - P.x[j * d + c]);
                near = s2 < req * req;
            }
            ck_assert_msg(near, "d=%zu theta=%g: pool point %zu fits but was not kept", d, th, i);
        }
        if (d == 4)
            n4[th < 0.4] = P.n;
        pointset_clear(&P);
        pointset_clear(&Q);
        pointset_clear(&R);
        pointset_clear(&C);
    }
    double ratio = (double)n4[1] / (double)n4[0];
    ck_assert_msg(ratio > 8 * 0.85 && ratio < 8 * 1.15, "d=4: counts %zu (0.5) and %zu (0.25), ratio %.3f (8 expected)",
                  n4[0], n4[1], ratio);
    pointset_t P;
    ck_assert_int_eq(sphere_packing_pool(&P, 2, 0.3, 10, seed, 100), AR_EINVAL);
    ck_assert_int_eq(sphere_packing_pool(&P, 4, 0.0, 10, seed, 100), AR_EINVAL);
    ck_assert_int_eq(sphere_packing_pool(&P, 4, 0.3, 0, seed, 100), AR_EINVAL);
    ck_assert_int_eq(sphere_packing_pool(&P, 5, 0.05, 10, seed, 1000), AR_EINVAL);   /* pool above its limit */
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "limit"));
}
END_TEST

/* The pooled greedy's batched test (sphere.c): the kept points are those of
 * the one-at-a-time greedy over the same seeded order (a reference written
 * here, brute force), for every thread count; 27000 candidates, two batches. */
START_TEST(test_packing_pool_threads)
{
    uint64_t seed = test_seed() + 21;
    size_t d = 3;
    double th = 0.043;
    pointset_t C;
    ck_assert_int_eq(sphere_zonal(&C, d, 0.5 * th, SIZE_MAX), AR_OK);
    ck_assert_msg(C.n > 20000, "%zu candidates", C.n);
    size_t *order = malloc(C.n * sizeof *order);
    double *kept = malloc(C.n * d * sizeof(double));
    ck_assert(order && kept);
    rng_t r;
    rng_init(&r, seed);
    for (size_t i = 0; i < C.n; i++)
        order[i] = i;
    for (size_t i = C.n; i > 1; i--) {
        size_t j = (size_t)(rng_u64(&r) % i), t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    double req = 2.0 * sin(0.5 * th) * (1.0 + 1e-12) + 0x1p-48, req2 = req * req;
    size_t nk = 0;
    for (size_t i = 0; i < C.n; i++) {
        const double *x = C.x + order[i] * d;
        int ok = 1;
        for (size_t j = 0; j < nk && ok; j++) {
            double s2 = 0.0;
            for (size_t c = 0; c < d; c++)
                s2 += (x[c] - kept[j * d + c]) * (x[c] - kept[j * d + c]);
            ok = !(s2 < req2);
        }
        if (ok)
            memcpy(kept + nk++ * d, x, d * sizeof(double));
    }
    for (size_t c = 0; c < TEST_NTHREAD_COUNTS; c++) {
        ar_config_t cfg;
        const ar_config_t *prev = test_threads_install(&cfg, TEST_THREAD_COUNTS[c]);
        pointset_t P;
        ck_assert_int_eq(sphere_packing_pool(&P, d, th, SIZE_MAX, seed, 4000000), AR_OK);
        ar_config_install(prev);
        ck_assert_msg(P.n == nk && memcmp(P.x, kept, nk * d * sizeof(double)) == 0,
                      "%d threads: %zu points kept, the serial greedy keeps %zu (or other points)",
                      TEST_THREAD_COUNTS[c], P.n, nk);
        pointset_clear(&P);
    }
    free(order);
    free(kept);
    pointset_clear(&C);
}
END_TEST

START_TEST(test_packing_misc)
{
    uint64_t seed = test_seed() + 11;
    pointset_t P, Q;
    /* cap */
    ck_assert_int_eq(sphere_packing(&P, 4, 0.2, 10, seed, 0), AR_OK);
    ck_assert_int_eq(P.n, 10);
    check_separation(&P, 0.2, "capped");
    pointset_clear(&P);
    /* another seed gives another set */
    ck_assert_int_eq(sphere_packing(&P, 3, 0.5, 1000, seed, 0), AR_OK);
    ck_assert_int_eq(sphere_packing(&Q, 3, 0.5, 1000, seed + 1, 0), AR_OK);
    ck_assert(P.n != Q.n || memcmp(P.x, Q.x, P.n * 3 * sizeof(double)) != 0);
    pointset_clear(&P);
    pointset_clear(&Q);
    /* small patience stops earlier (never more points than with the default) */
    ck_assert_int_eq(sphere_packing(&P, 3, 0.3, 100000, seed, 5), AR_OK);
    ck_assert_int_eq(sphere_packing(&Q, 3, 0.3, 100000, seed, 0), AR_OK);
    ck_assert_msg(P.n < Q.n, "patience 5: %zu points, default: %zu", P.n, Q.n);
    ck_assert_msg(memcmp(P.x, Q.x, P.n * 3 * sizeof(double)) == 0, "patience changes the prefix");
    pointset_clear(&P);
    pointset_clear(&Q);
    /* invalid arguments */
    ck_assert_int_eq(sphere_packing(&P, 1, 0.5, 10, seed, 0), AR_EINVAL);
    ck_assert_int_eq(sphere_packing(&P, 3, 0.0, 10, seed, 0), AR_EINVAL);
    ck_assert_int_eq(sphere_packing(&P, 3, 3.2, 10, seed, 0), AR_EINVAL);
    ck_assert_int_eq(sphere_packing(&P, 3, NAN, 10, seed, 0), AR_EINVAL);
    ck_assert_int_eq(sphere_packing(&P, 3, 0.5, 0, seed, 0), AR_EINVAL);
    /* the default separation: 3 / sqrt(1 + beta), capped at pi */
    ck_assert(fabs(sphere_packing_theta(8) - 1.0) < 1e-15);
    ck_assert(sphere_packing_theta(0) == 3.0 && sphere_packing_theta(-0.5) == M_PI);
}
END_TEST

/* d = 2: the regular polygon with floor(2 pi/theta) points (theta random,
 * floor computed at 256 bits here), separated by >= theta. */
START_TEST(test_packing_circle)
{
    uint64_t seed = test_seed() + 3;
    rng_t r;
    rng_init(&r, seed);
    mpfr_t a;
    mpfr_init2(a, 256);
    for (int rep = 0; rep < 40; rep++) {
        double th = rep == 0 ? M_PI : rep == 1 ? M_PI / 2 : 0.005 + 3.0 * rng_uniform(&r);
        mpfr_const_pi(a, MPFR_RNDN);
        mpfr_mul_ui(a, a, 2, MPFR_RNDN);
        mpfr_div_d(a, a, th, MPFR_RNDN);
        mpfr_floor(a, a);
        size_t want = (size_t)mpfr_get_ui(a, MPFR_RNDN);
        if (rep == 0)
            want = 2;   /* 2 pi / fl(pi) is just above 2 */
        if (rep == 1)
            want = 4;
        pointset_t P;
        ck_assert_int_eq(sphere_packing(&P, 2, th, 100000, seed, 0), AR_OK);
        ck_assert_msg(P.n == want, "theta=%.17g: %zu points, floor(2pi/theta)=%zu", th, P.n, want);
        check_separation(&P, th, "circle");
        pointset_clear(&P);
        ck_assert_int_eq(sphere_packing(&P, 2, th, 3, seed, 0), AR_OK);
        ck_assert_int_eq(P.n, want < 3 ? want : 3);
        pointset_clear(&P);
    }
    mpfr_clear(a);
}
END_TEST

Suite *suite_sphere(void)
{
    Suite *s = suite_create("sphere");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_polygon);
    tcase_add_test(tc, test_fibonacci);
    tcase_add_test(tc, test_uniform);
    tcase_add_test(tc, test_packing_pool);
    tcase_add_test(tc, test_packing_pool_threads);
    tcase_add_test(tc, test_packing_separation);
    tcase_add_test(tc, test_packing_misc);
    tcase_add_test(tc, test_packing_circle);
    suite_add_tcase(s, tc);
    return s;
}
