/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_circulant.c -- rigorous circulant tools: cosine table and symbol
 * against direct high-precision sums, the Arb inverse norm against exact
 * rational inverses (FLINT fmpq_mat) and against the dense verified bound
 * (invnorm_inf_bound), the certified band error against a 400-bit MPFR
 * recomputation, and the two band candidates (projection, l1 LP). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <mpfr.h>
#include <arb.h>
#include <acb.h>
#include <flint/fmpq.h>
#include <flint/fmpq_mat.h>
#include "testutil.h"
#include "numerics/circulant.h"
#include "numerics/invnorm.h"

#define HP 400


/* cos(2 pi j/n) at HP bits */
static void hp_cos(mpfr_t r, long j, long n)
{
    mpfr_const_pi(r, MPFR_RNDN);
    mpfr_mul_si(r, r, 2 * j, MPFR_RNDN);
    mpfr_div_si(r, r, n, MPFR_RNDN);
    mpfr_cos(r, r, MPFR_RNDN);
}

/* does ball x meet the HP-bit value r +- 2^-(HP-20)?  (r is itself rounded) */
static int meets(const arb_t x, const mpfr_t r)
{
    arb_t y;
    arb_init(y);
    arf_set_mpfr(arb_midref(y), r);
    mag_zero(arb_radref(y));
    arb_add_error_2exp_si(y, -(HP - 20));
    int ok = arb_overlaps(x, y);
    arb_clear(y);
    return ok;
}

START_TEST(test_cos_table)
{
    mpfr_t r;
    mpfr_init2(r, HP);
    for (size_t n = 1; n <= 60; n++) {
        size_t h = circ_half_len(n);
        ck_assert_uint_eq(h, n / 2 + 1);
        arb_ptr C = _arb_vec_init((slong)h);
        circ_cos_table(C, n, 80);
        for (size_t j = 0; j < h; j++) {
            hp_cos(r, (long)j, (long)n);
            ck_assert_msg(meets(C + j, r), "cos table n=%zu j=%zu", n, j);
            ck_assert_msg(mag_cmp_2exp_si(arb_radref(C + j), -70) < 0, "cos table too wide n=%zu", n);
            ck_assert_uint_eq(circ_fold(j, n), j);
            ck_assert_uint_eq(circ_fold(n - j, n), j % n == 0 ? 0 : j);
        }
        _arb_vec_clear(C, (slong)h);
    }
    /* weights: sum over the half equals n */
    for (size_t n = 1; n <= 50; n++) {
        size_t s = 0;
        for (size_t k = 0; k < circ_half_len(n); k++)
            s += circ_half_weight(n, k);
        ck_assert_uint_eq(s, n);
    }
    mpfr_clear(r);
}
END_TEST

START_TEST(test_symbol_direct)
{
    test_rng_init(test_seed() * 7919 + 1);
    mpfr_t re, im, t, c, s;
    mpfr_inits2(HP, re, im, t, c, s, (mpfr_ptr)0);
    for (int it = 0; it < 40; it++) {
        size_t m = (size_t)test_irand(1, 45);
        arb_ptr v = _arb_vec_init((slong)m);
        double *vd = malloc(m * sizeof *vd);
        for (size_t k = 0; k < m; k++) {
            vd[k] = ldexp((double)test_irand(-1000, 1000), -(int)test_irand(0, 20));
            arb_set_d(v + k, vd[k]);
        }
        acb_ptr W = _acb_vec_init((slong)m);
        circ_symbol(W, v, m, 100);
        for (size_t f = 0; f < m; f++) {
            mpfr_set_ui(re, 0, MPFR_RNDN);
            mpfr_set_ui(im, 0, MPFR_RNDN);
            for (size_t k = 0; k < m; k++) {
                mpfr_const_pi(t, MPFR_RNDN);
                mpfr_mul_si(t, t, -2 * (long)((f * k) % m), MPFR_RNDN);
                mpfr_div_si(t, t, (long)m, MPFR_RNDN);
                mpfr_sin_cos(s, c, t, MPFR_RNDN);
                mpfr_mul_d(c, c, vd[k], MPFR_RNDN);
                mpfr_mul_d(s, s, vd[k], MPFR_RNDN);
                mpfr_add(re, re, c, MPFR_RNDN);
                mpfr_add(im, im, s, MPFR_RNDN);
            }
            ck_assert_msg(meets(acb_realref(W + f), re) && meets(acb_imagref(W + f), im),
                          "symbol seed=%llu it=%d m=%zu f=%zu", (unsigned long long)test_seed(), it,
                          m, f);
        }
        _acb_vec_clear(W, (slong)m);
        _arb_vec_clear(v, (slong)m);
        free(vd);
    }
    mpfr_clears(re, im, t, c, s, (mpfr_ptr)0);
}
END_TEST

/* q = d exactly (d finite) */
static void fmpq_set_double(fmpq_t q, double d)
{
    int e;
    double m = frexp(d, &e);
    fmpq_set_si(q, (slong)ldexp(m, 53), 1);
    if (e >= 53)
        fmpq_mul_2exp(q, q, (ulong)(e - 53));
    else
        fmpq_div_2exp(q, q, (ulong)(53 - e));
}

/* exact ||C^{-1}||_inf of the integer circulant with first row c, or -1 if singular */
static double exact_invnorm(const long *c, size_t m, fmpq_t out)
{
    fmpq_mat_t M, Mi;
    fmpq_mat_init(M, (slong)m, (slong)m);
    fmpq_mat_init(Mi, (slong)m, (slong)m);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++)
            fmpq_set_si(fmpq_mat_entry(M, i, j), c[(j + m - i) % m], 1);
    double r = -1;
    if (fmpq_mat_inv(Mi, M)) {
        fmpq_t s, t;
        fmpq_init(s);
        fmpq_init(t);
        fmpq_zero(out);
        for (size_t i = 0; i < m; i++) {
            fmpq_zero(s);
            for (size_t j = 0; j < m; j++) {
                fmpq_abs(t, fmpq_mat_entry(Mi, i, j));
                fmpq_add(s, s, t);
            }
            if (fmpq_cmp(s, out) > 0)
                fmpq_set(out, s);
        }
        r = fmpq_get_d(out);
        fmpq_clear(s);
        fmpq_clear(t);
    }
    fmpq_mat_clear(M);
    fmpq_mat_clear(Mi);
    return r;
}

START_TEST(test_inv_norm_exact)
{
    test_rng_init(test_seed() * 104729 + 3);
    int nsing = 0, nreg = 0;
    for (int it = 0; it < 300; it++) {
        size_t m = (size_t)test_irand(1, 9);
        long c[9];
        for (size_t k = 0; k < m; k++)
            c[k] = test_irand(-4, 4);
        if (it % 7 == 0) /* singular: equal entries with a zero sum or m even alternating */
            for (size_t k = 0; k < m; k++)
                c[k] = (m % 2 == 0) ? ((k % 2) ? -1 : 1) : 0;
        fmpq_t ex;
        fmpq_init(ex);
        double truth = exact_invnorm(c, m, ex);
        arb_ptr v = _arb_vec_init((slong)m);
        for (size_t k = 0; k < m; k++)
            arb_set_si(v + k, c[k]);
        double b = circ_inv_norm_ubound(v, m, 128);
        if (truth < 0) {
            nsing++;
            ck_assert_msg(b == INFINITY, "singular circulant certified: it=%d m=%zu b=%g", it, m, b);
        } else {
            nreg++;
            /* b >= exact (compare exactly: b is a double) */
            fmpq_t bq;
            fmpq_init(bq);
            ck_assert_msg(isfinite(b), "regular circulant not certified it=%d m=%zu", it, m);
            fmpq_set_double(bq, b);
            ck_assert_msg(fmpq_cmp(bq, ex) >= 0, "bound below truth: it=%d m=%zu b=%.17g truth=%.17g",
                          it, m, b, truth);
            ck_assert_msg(b <= truth * (1 + 1e-14), "bound vacuous: it=%d m=%zu b=%.17g truth=%.17g",
                          it, m, b, truth);
            fmpq_clear(bq);
        }
        fmpq_clear(ex);
        _arb_vec_clear(v, (slong)m);
    }
    ck_assert_int_gt(nsing, 10);
    ck_assert_int_gt(nreg, 100);
}
END_TEST

START_TEST(test_inv_norm_dense)
{
    test_rng_init(test_seed() * 15485863 + 5);
    for (int it = 0; it < 40; it++) {
        size_t m = (size_t)test_irand(2, 60);
        double *c = malloc(m * sizeof *c);
        double *M = malloc(m * m * sizeof *M);
        arb_ptr v = _arb_vec_init((slong)m);
        double diag = 0.3 + test_unif();
        for (size_t k = 0; k < m; k++) {
            c[k] = (k == 0) ? diag : (test_unif() - 0.5) * 2.0 / (double)m;
            arb_set_d(v + k, c[k]);
        }
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < m; j++)
                M[i + j * m] = c[(j + m - i) % m]; /* column-major */
        double bd = invnorm_inf_bound(m, M, 0.0);
        double bc = circ_inv_norm_ubound(v, m, 128);
        ck_assert_msg(isfinite(bd) && isfinite(bc), "it=%d m=%zu dense=%g circ=%g", it, m, bd, bc);
        ck_assert_msg(fabs(bc / bd - 1) < 1e-9, "disagree it=%d m=%zu dense=%.17g circ=%.17g", it, m,
                      bd, bc);
        free(c);
        free(M);
        _arb_vec_clear(v, (slong)m);
    }
}
END_TEST

/* sum_{k=0}^{n-1} |a_k - b_k| at HP bits, a given by its half array of doubles */
static double hp_band_err(const double *ahalf, size_t n, const double *c, size_t K, int rnd_down)
{
    mpfr_t b, t, s;
    mpfr_inits2(HP, b, t, s, (mpfr_ptr)0);
    mpfr_set_ui(s, 0, MPFR_RNDN);
    for (size_t k = 0; k < n; k++) {
        mpfr_set_d(b, c[0], MPFR_RNDN);
        for (size_t f = 1; f <= K; f++) {
            hp_cos(t, (long)((f * k) % n), (long)n);
            mpfr_mul_d(t, t, 2.0 * c[f], MPFR_RNDN);
            mpfr_add(b, b, t, MPFR_RNDN);
        }
        size_t kk = k <= n - k ? k : n - k;
        mpfr_d_sub(t, ahalf[kk], b, MPFR_RNDN);
        mpfr_abs(t, t, MPFR_RNDN);
        mpfr_add(s, s, t, MPFR_RNDN);
    }
    double r = mpfr_get_d(s, rnd_down ? MPFR_RNDD : MPFR_RNDU);
    mpfr_clears(b, t, s, (mpfr_ptr)0);
    return r;
}

START_TEST(test_band_ubound)
{
    test_rng_init(test_seed() * 2147483647ULL + 11);
    for (int it = 0; it < 120; it++) {
        size_t n = (size_t)test_irand(1, 70), h = circ_half_len(n);
        size_t K = (size_t)test_irand(0, (long)n); /* also aliasing K >= n/2 */
        double *ad = malloc(h * sizeof *ad), *c = malloc((K + 1) * sizeof *c);
        for (size_t k = 0; k < h; k++)
            ad[k] = (it % 3 == 0) ? ldexp(test_unif(), -1060) : test_unif() / (double)n; /* subnormals too */
        for (size_t f = 0; f <= K; f++)
            c[f] = (it % 3 == 0) ? ldexp(test_unif() - 0.5, -1050) : (test_unif() - 0.5) / (double)n;
        arb_ptr A = _arb_vec_init((slong)h), C = _arb_vec_init((slong)h);
        for (size_t k = 0; k < h; k++)
            arb_set_d(A + k, ad[k]);
        circ_cos_table(C, n, 100);
        double bound = circ_band_l1_ubound(A, n, c, K, C);
        double truth = hp_band_err(ad, n, c, K, 1);
        ck_assert_msg(bound >= truth, "bound below truth: seed=%llu it=%d n=%zu K=%zu b=%.17g t=%.17g",
                      (unsigned long long)test_seed(), it, n, K, bound, truth);
        ck_assert_msg(bound <= truth * (1 + 1e-12) + 1e-300, "vacuous: it=%d n=%zu K=%zu b=%.17g t=%.17g",
                      it, n, K, bound, truth);
        /* balls with radius r: the bound must dominate every admissible a' = a +- r */
        double r = 1e-6 / (double)n;
        for (size_t k = 0; k < h; k++)
            mag_set_d(arb_radref(A + k), r);
        double bw = circ_band_l1_ubound(A, n, c, K, C);
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            double *ap = malloc(h * sizeof *ap);
            for (size_t k = 0; k < h; k++)
                ap[k] = ad[k] + sgn * ((k % 2) ? r : -r) * 0.999;
            double tp = hp_band_err(ap, n, c, K, 1);
            ck_assert_msg(bw >= tp, "ball bound below a member: it=%d n=%zu", it, n);
            free(ap);
        }
        /* a non-finite coefficient gives +inf */
        c[K] = NAN;
        ck_assert(circ_band_l1_ubound(A, n, c, K, C) == INFINITY);
        _arb_vec_clear(A, (slong)h);
        _arb_vec_clear(C, (slong)h);
        free(ad);
        free(c);
    }
}
END_TEST

/* Negative ball ends that no double represents (subnormal range, 41-bit
 * mantissas): the conversions to double must round toward -inf for lower
 * ends and +inf for upper ends (ARF_RND_FLOOR / CEIL; RND_DOWN / UP round
 * toward / away from zero, which moves a negative lower end up).  (1) a_k
 * negative, b = 0: the bound must dominate sum_k |a_k| exactly.  (2) a
 * crafted cosine table with a negative entry v: n = 4, c = (0, 1), a =
 * (2, 0, -2), so the exact sum is 2 * 2|v| (k = 1 and k = 3). */
START_TEST(test_band_ubound_negative)
{
    arf_t t, want;
    arf_init(t);
    arf_init(want);
    for (size_t n = 1; n <= 9; n++) {
        size_t h = circ_half_len(n);
        arb_ptr A = _arb_vec_init((slong)h), C = _arb_vec_init((slong)h);
        circ_cos_table(C, n, 100);
        arf_zero(want);
        for (size_t k = 0; k < h; k++) {
            /* a_k = -(2^40 + 1 + k) 2^-1100, exact ball of radius 0 */
            arf_set_si_2exp_si(arb_midref(A + k), -(((slong)1 << 40) + 1 + (slong)k), -1100);
            mag_zero(arb_radref(A + k));
            arf_mul_ui(t, arb_midref(A + k), circ_half_weight(n, k), ARF_PREC_EXACT, ARF_RND_DOWN);
            arf_sub(want, want, t, ARF_PREC_EXACT, ARF_RND_DOWN); /* += w_k |a_k|, exact */
        }
        double c0 = 0.0;
        double bound = circ_band_l1_ubound(A, n, &c0, 0, C);
        arf_set_d(t, bound);
        ck_assert_msg(arf_cmp(t, want) >= 0, "n=%zu: bound %a below the exact sum %.17g", n, bound,
                      arf_get_d(want, ARF_RND_NEAR));
        _arb_vec_clear(A, (slong)h);
        _arb_vec_clear(C, (slong)h);
    }
    {
        size_t n = 4, h = circ_half_len(n);
        arb_ptr A = _arb_vec_init((slong)h), C = _arb_vec_init((slong)h);
        arb_set_d(A + 0, 2.0);
        arb_zero(A + 1);
        arb_set_d(A + 2, -2.0);
        arb_one(C + 0);
        arf_set_si_2exp_si(arb_midref(C + 1), -(((slong)1 << 40) + 1), -1100);
        mag_zero(arb_radref(C + 1));
        arb_set_si(C + 2, -1);
        double c[2] = {0.0, 1.0};
        double bound = circ_band_l1_ubound(A, n, c, 1, C);
        arf_mul_si(want, arb_midref(C + 1), -4, ARF_PREC_EXACT, ARF_RND_DOWN); /* 4|v| */
        arf_set_d(t, bound);
        ck_assert_msg(arf_cmp(t, want) >= 0, "crafted cosine: bound %a below the exact sum %.17g",
                      bound, arf_get_d(want, ARF_RND_NEAR));
        _arb_vec_clear(A, (slong)h);
        _arb_vec_clear(C, (slong)h);
    }
    arf_clear(t);
    arf_clear(want);
}
END_TEST

/* half array of the band function of c (double evaluation: a test input only) */
static void band_half(double *ahalf, size_t n, const double *c, size_t K)
{
    for (size_t k = 0; k < circ_half_len(n); k++) {
        double b = c[0];
        for (size_t f = 1; f <= K; f++)
            b += 2.0 * c[f] * cos(2.0 * M_PI * (double)((f * k) % n) / (double)n);
        ahalf[k] = b;
    }
}

START_TEST(test_band_candidates)
{
    test_rng_init(test_seed() * 999983 + 17);
    for (int it = 0; it < 40; it++) {
        size_t n = (size_t)test_irand(5, 120), h = circ_half_len(n);
        size_t K0 = (size_t)test_irand(0, (long)(n - 1) / 2 - 1 >= 0 ? (long)(n - 1) / 2 - 1 : 0);
        size_t K = K0 + (size_t)test_irand(0, 2);
        if (2 * K + 1 >= n)
            K = K0;
        double *c0 = calloc(K + 1, sizeof *c0), *c = calloc(K + 1, sizeof *c);
        double *ad = malloc(h * sizeof *ad);
        for (size_t f = 0; f <= K0; f++)
            c0[f] = test_unif() - 0.5;
        band_half(ad, n, c0, K0);
        /* projection of a band function returns its coefficients (2K+1 <= n) */
        circ_band_project(c, ad, n, K);
        for (size_t f = 0; f <= K; f++)
            ck_assert_msg(fabs(c[f] - c0[f]) < 1e-12, "projection it=%d n=%zu K=%zu f=%zu: %g vs %g",
                          it, n, K, f, c[f], c0[f]);
        /* the l1 fit of a band function is (numerically) exact */
        double lpv = -1;
        ck_assert_int_eq(circ_band_l1_fit(c, &lpv, ad, n, K, 1), AR_OK);
        ck_assert_msg(fabs(lpv) < 1e-9, "lp value on a band function it=%d n=%zu: %g", it, n, lpv);
        for (size_t f = 0; f <= K; f++)
            ck_assert_msg(fabs(c[f] - c0[f]) < 1e-9, "lp coefficients it=%d n=%zu f=%zu", it, n, f);
        free(c0);
        free(c);
        free(ad);
    }
}
END_TEST

/* the l1 fit is no worse than the projection and cannot be improved by
 * random perturbations (convexity: a local check of optimality) */
START_TEST(test_l1_fit_optimal)
{
    test_rng_init(test_seed() * 7777777 + 19);
    for (int it = 0; it < 25; it++) {
        size_t n = (size_t)test_irand(3, 90), h = circ_half_len(n);
        size_t K = (size_t)test_irand(0, (long)(n - 3) / 2 > 0 ? (long)(n - 3) / 2 : 0);
        double *ad = malloc(h * sizeof *ad), *cp = malloc((K + 1) * sizeof *cp);
        double *cl = malloc((K + 1) * sizeof *cl), *cq = malloc((K + 1) * sizeof *cq);
        double beta = 1 + 40 * test_unif();
        for (size_t k = 0; k < h; k++)
            ad[k] = exp(beta * (cos(2 * M_PI * (double)k / (double)n) - 1)) + 0.01 * test_unif();
        arb_ptr A = _arb_vec_init((slong)h), C = _arb_vec_init((slong)h);
        for (size_t k = 0; k < h; k++)
            arb_set_d(A + k, ad[k]);
        circ_cos_table(C, n, 100);
        circ_band_project(cp, ad, n, K);
        double lpv;
        ck_assert_int_eq(circ_band_l1_fit(cl, &lpv, ad, n, K, 1), AR_OK);
        double ep = circ_band_l1_ubound(A, n, cp, K, C);
        double el = circ_band_l1_ubound(A, n, cl, K, C);
        double tl = hp_band_err(ad, n, cl, K, 0);
        ck_assert_msg(el <= ep * (1 + 1e-9) + 1e-15, "lp worse than projection it=%d n=%zu K=%zu %g %g",
                      it, n, K, el, ep);
        ck_assert_msg(fabs(lpv - tl) <= 1e-9 * (1 + tl), "lp value %g vs its error %g", lpv, tl);
        for (int r = 0; r < 20; r++) {
            double scale = ldexp(1.0, -(int)test_irand(3, 20));
            for (size_t f = 0; f <= K; f++)
                cq[f] = cl[f] + scale * (test_unif() - 0.5);
            double tq = hp_band_err(ad, n, cq, K, 0);
            ck_assert_msg(tq >= tl * (1 - 1e-9) - 1e-12, "perturbation improves the lp fit: it=%d n=%zu "
                          "K=%zu %.17g < %.17g", it, n, K, tq, tl);
        }
        _arb_vec_clear(A, (slong)h);
        _arb_vec_clear(C, (slong)h);
        free(ad);
        free(cp);
        free(cl);
        free(cq);
    }
}
END_TEST

START_TEST(test_lp_warm)
{
    test_rng_init(test_seed() * 31337 + 23);
    for (int it = 0; it < 15; it++) {
        size_t n = (size_t)test_irand(40, 400), h = circ_half_len(n), stride = (size_t)test_irand(1, 3);
        double *ad = malloc(h * sizeof *ad);
        double beta = 5 + 200 * test_unif();
        for (size_t k = 0; k < h; k++)
            ad[k] = exp(beta * (cos(2 * M_PI * (double)k / (double)n) - 1));
        size_t K1 = (size_t)test_irand(0, 8), K2 = K1 + (size_t)test_irand(1, 8);
        double *c = malloc((K2 + 1) * sizeof *c), *cc = malloc((K2 + 1) * sizeof *cc);
        circ_lp_t *lp, *cp;
        double v1, v2, vc, v3;
        ck_assert_int_eq(circ_lp_init(&lp, ad, n, stride), AR_OK);
        ck_assert_uint_eq(circ_lp_band(lp), SIZE_MAX);
        ck_assert_int_eq(circ_lp_solve(lp, K1, c, &v1), AR_OK);
        ck_assert_int_eq(circ_lp_copy(&cp, lp), AR_OK);
        ck_assert_int_eq(circ_lp_solve(lp, K2, c, &v2), AR_OK);
        ck_assert_int_eq(circ_lp_solve(cp, K2, c, &v3), AR_OK);
        ck_assert_int_eq(circ_band_l1_fit(cc, &vc, ad, n, K2, stride), AR_OK);
        ck_assert_msg(fabs(v2 - vc) <= 1e-9 * (1 + vc) && fabs(v3 - vc) <= 1e-9 * (1 + vc),
                      "warm %g / copy %g vs cold %g (n=%zu K=%zu->%zu)", v2, v3, vc, n, K1, K2);
        ck_assert_msg(v2 <= v1 * (1 + 1e-9) + 1e-15, "larger band, larger error: %g > %g", v2, v1);
        ck_assert_uint_eq(circ_lp_band(lp), K2);
        ck_assert_int_eq(circ_lp_solve(lp, K1, c, &v1), AR_EINVAL); /* cannot shrink */
        circ_lp_free(lp);
        circ_lp_free(cp);
        free(ad);
        free(c);
        free(cc);
    }
}
END_TEST

START_TEST(test_bad_input)
{
    double a[3] = { 1, 0, 0 }, c[2];
    ck_assert_int_eq(circ_band_l1_fit(c, NULL, a, 0, 1, 1), AR_EINVAL);
    ck_assert_int_eq(circ_band_l1_fit(c, NULL, a, 4, 1, 0), AR_EINVAL);
    arb_ptr v = _arb_vec_init(3);
    arb_set_d(v, 1.0);
    arb_indeterminate(v + 1);
    ck_assert(circ_inv_norm_ubound(v, 3, 64) == INFINITY);
    ck_assert(circ_inv_norm_ubound(v, 0, 64) == INFINITY);
    _arb_vec_clear(v, 3);
}
END_TEST

Suite *suite_circulant(void)
{
    Suite *s = suite_create("circulant");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_cos_table);
    tcase_add_test(tc, test_symbol_direct);
    tcase_add_test(tc, test_inv_norm_exact);
    tcase_add_test(tc, test_inv_norm_dense);
    tcase_add_test(tc, test_band_ubound);
    tcase_add_test(tc, test_band_ubound_negative);
    tcase_add_test(tc, test_band_candidates);
    tcase_add_test(tc, test_l1_fit_optimal);
    tcase_add_test(tc, test_lp_warm);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
