/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_invnorm.c -- verified bounds on ||M^{-1}||_inf (numerics/invnorm.h).
 *
 * Truth: the exact inverse of the double matrix (or of an exact perturbation
 * of it) over Q with fmpq_mat_inv; doubles convert exactly via mpq_set_d. */
#include <check.h>
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include <flint/flint.h>
#include <flint/fmpq.h>
#include <flint/fmpq_mat.h>
#include "numerics/invnorm.h"
#include "base/config.h"
#include "testutil.h"

static double rnd_sym(flint_rand_t st)
{
    return 2 * ((double)(n_randlimb(st) >> 11) * 0x1p-53) - 1;
}

static void fmpq_set_double(fmpq_t r, double x)
{
    mpq_t q;
    mpq_init(q);
    mpq_set_d(q, x); /* exact */
    fmpq_set_mpq(r, q);
    mpq_clear(q);
}

/* Column-major double matrix (plus optional exact perturbation E, may be
 * NULL) to an fmpq matrix. */
static void to_fmpq_mat(fmpq_mat_t A, size_t m, const double *M, const double *E)
{
    fmpq_t t;
    fmpq_init(t);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++) {
            fmpq_set_double(fmpq_mat_entry(A, i, j), M[i + j * m]);
            if (E) {
                fmpq_set_double(t, E[i + j * m]);
                fmpq_add(fmpq_mat_entry(A, i, j), fmpq_mat_entry(A, i, j), t);
            }
        }
    fmpq_clear(t);
}

/* norm = ||A^{-1}||_inf exactly; returns 0 if A is singular. */
static int exact_inv_norm(fmpq_t norm, const fmpq_mat_t A)
{
    slong m = fmpq_mat_nrows(A);
    fmpq_mat_t B;
    fmpq_t s, t;
    fmpq_mat_init(B, m, m);
    fmpq_init(s);
    fmpq_init(t);
    int ok = fmpq_mat_inv(B, A);
    fmpq_zero(norm);
    if (ok)
        for (slong i = 0; i < m; i++) {
            fmpq_zero(s);
            for (slong j = 0; j < m; j++) {
                fmpq_abs(t, fmpq_mat_entry(B, i, j));
                fmpq_add(s, s, t);
            }
            if (fmpq_cmp(s, norm) > 0)
                fmpq_set(norm, s);
        }
    fmpq_mat_clear(B);
    fmpq_clear(s);
    fmpq_clear(t);
    return ok;
}

/* Is the exact rational x <= the double b? */
static int fmpq_le_d(const fmpq_t x, double b)
{
    if (b == INFINITY)
        return 1;
    fmpq_t t;
    fmpq_init(t);
    fmpq_set_double(t, b);
    int r = fmpq_cmp(x, t) <= 0;
    fmpq_clear(t);
    return r;
}

/* Random well-conditioned matrices: bound >= exact and within 1 %. */
START_TEST(test_invnorm_random)
{
    uint64_t seed = test_seed();
    flint_rand_t st;
    flint_randinit(st);
    flint_randseed(st, seed * 6364136223846793005u + 1u, 3u);
    for (int iter = 0; iter < 60; iter++) {
        size_t m = 1 + n_randint(st, 24);
        double sc = ldexp(1.0, (int)n_randint(st, 81) - 40);
        double *M = malloc(m * m * sizeof(double));
        for (size_t t = 0; t < m * m; t++)
            M[t] = rnd_sym(st) * sc;
        for (size_t i = 0; i < m; i++)
            M[i + i * m] += (n_randint(st, 2) ? 1 : -1) * 0.5 * sqrt((double)m) * sc;
        fmpq_mat_t A;
        fmpq_t ex;
        fmpq_mat_init(A, (slong)m, (slong)m);
        fmpq_init(ex);
        to_fmpq_mat(A, m, M, NULL);
        ck_assert_msg(exact_inv_norm(ex, A), "seed=%llu iter=%d: test matrix singular",
                      (unsigned long long)seed, iter);
        double b = invnorm_inf_bound(m, M, 0.0);
        double e = fmpq_get_d(ex);
        ck_assert_msg(isfinite(b), "seed=%llu iter=%d m=%zu: bound not finite (exact %.6g)",
                      (unsigned long long)seed, iter, m, e);
        ck_assert_msg(fmpq_le_d(ex, b), "seed=%llu iter=%d m=%zu: exact %.17g > bound %.17g",
                      (unsigned long long)seed, iter, m, e, b);
        ck_assert_msg(b <= 1.01 * e, "seed=%llu iter=%d m=%zu: bound %.17g > 1.01 * exact %.17g",
                      (unsigned long long)seed, iter, m, b, e);
        fmpq_mat_clear(A);
        fmpq_clear(ex);
        free(M);
    }
    flint_randclear(st);
}
END_TEST

/* With enorm > 0 the bound covers every M = Mmid + E, ||E||_inf <= enorm; if
 * enorm >= 1/||Mmid^{-1}|| the ball contains a singular matrix: +INFINITY. */
START_TEST(test_invnorm_perturbed)
{
    uint64_t seed = test_seed();
    flint_rand_t st;
    flint_randinit(st);
    flint_randseed(st, seed * 1442695040888963407u + 7u, 11u);
    for (int iter = 0; iter < 40; iter++) {
        size_t m = 2 + n_randint(st, 15);
        double *M = malloc(m * m * sizeof(double)), *E = malloc(m * m * sizeof(double));
        for (size_t t = 0; t < m * m; t++)
            M[t] = rnd_sym(st);
        fmpq_mat_t A;
        fmpq_t ex, ex2;
        fmpq_mat_init(A, (slong)m, (slong)m);
        fmpq_init(ex);
        fmpq_init(ex2);
        to_fmpq_mat(A, m, M, NULL);
        ck_assert(exact_inv_norm(ex, A));
        double e = fmpq_get_d(ex);
        /* enorm = f / ||Mmid^{-1}||, power-of-two entries of E with row sums <= enorm */
        double f = (double[]){0.01, 0.1, 0.4}[n_randint(st, 3)];
        double enorm = f / e;
        size_t m2 = 1;
        while (m2 < m)
            m2 *= 2;
        double ent = ldexp(1.0, (int)floor(log2(enorm / (double)m2)));
        for (size_t t = 0; t < m * m; t++)
            E[t] = n_randint(st, 2) ? ent : -ent;
        double b = invnorm_inf_bound(m, M, enorm);
        if (f <= 0.1)
            ck_assert_msg(isfinite(b), "seed=%llu iter=%d m=%zu f=%g: not certified", (unsigned long long)seed,
                          iter, m, f);
        to_fmpq_mat(A, m, M, E);
        ck_assert(exact_inv_norm(ex2, A)); /* invertible since ||E|| < 1/||M^-1|| */
        ck_assert_msg(fmpq_le_d(ex, b) && fmpq_le_d(ex2, b),
                      "seed=%llu iter=%d m=%zu enorm=%.6g: exact %.17g / %.17g > bound %.17g",
                      (unsigned long long)seed, iter, m, enorm, e, fmpq_get_d(ex2), b);
        /* a singular matrix within distance enorm: the bound must refuse */
        double big = (1.0 / e) * (1 + 0x1p-20);
        double bb = invnorm_inf_bound(m, M, big);
        ck_assert_msg(bb == INFINITY, "seed=%llu iter=%d m=%zu: enorm %.6g >= 1/||M^-1|| but bound %g",
                      (unsigned long long)seed, iter, m, big, bb);
        fmpq_mat_clear(A);
        fmpq_clear(ex);
        fmpq_clear(ex2);
        free(M);
        free(E);
    }
    flint_randclear(st);
}
END_TEST

/* Hilbert matrices rounded to double: a finite bound must be >= the exact
 * inverse norm of the rounded matrix; certified at least up to m = 8. */
START_TEST(test_invnorm_hilbert)
{
    for (size_t m = 1; m <= 13; m++) {
        double *M = malloc(m * m * sizeof(double));
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < m; j++)
                M[i + j * m] = 1.0 / (double)(i + j + 1);
        fmpq_mat_t A;
        fmpq_t ex;
        fmpq_mat_init(A, (slong)m, (slong)m);
        fmpq_init(ex);
        to_fmpq_mat(A, m, M, NULL);
        int inv = exact_inv_norm(ex, A);
        double b = invnorm_inf_bound(m, M, 0.0);
        if (inv)
            ck_assert_msg(fmpq_le_d(ex, b), "Hilbert m=%zu: exact %.17g > bound %.17g", m,
                          fmpq_get_d(ex), b);
        else
            ck_assert_msg(b == INFINITY, "Hilbert m=%zu singular but bound %g", m, b);
        if (m <= 8)
            ck_assert_msg(isfinite(b), "Hilbert m=%zu: not certified", m);
        if (m <= 5)
            ck_assert_msg(b <= 1.01 * fmpq_get_d(ex), "Hilbert m=%zu: bound %.17g vs exact %.17g",
                          m, b, fmpq_get_d(ex));
        fmpq_mat_clear(A);
        fmpq_clear(ex);
        free(M);
    }
}
END_TEST

/* Exactly singular matrices (integer rank-deficient products), a zero row,
 * non-finite or invalid input: +INFINITY. */
START_TEST(test_invnorm_singular_and_bad)
{
    uint64_t seed = test_seed();
    flint_rand_t st;
    flint_randinit(st);
    flint_randseed(st, seed * 2862933555777941757u + 3u, 17u);
    for (int iter = 0; iter < 40; iter++) {
        size_t m = 2 + n_randint(st, 20), r = n_randint(st, m); /* rank r < m */
        double *M = calloc(m * m, sizeof(double));
        for (size_t c = 0; c < r; c++) {
            double *bcol = malloc(m * sizeof(double)), *crow = malloc(m * sizeof(double));
            for (size_t i = 0; i < m; i++) {
                bcol[i] = (double)n_randint(st, 7) - 3.0;
                crow[i] = (double)n_randint(st, 7) - 3.0;
            }
            for (size_t i = 0; i < m; i++)
                for (size_t j = 0; j < m; j++)
                    M[i + j * m] += bcol[i] * crow[j]; /* small integers: exact */
            free(bcol);
            free(crow);
        }
        fmpq_mat_t A;
        fmpq_t ex;
        fmpq_mat_init(A, (slong)m, (slong)m);
        fmpq_init(ex);
        to_fmpq_mat(A, m, M, NULL);
        ck_assert_msg(!exact_inv_norm(ex, A), "construction not singular");
        double b = invnorm_inf_bound(m, M, 0.0);
        ck_assert_msg(b == INFINITY, "seed=%llu iter=%d m=%zu rank=%zu: singular but bound %g",
                      (unsigned long long)seed, iter, m, r, b);
        ck_assert_msg(invnorm_varah_bound(m, M, 0.0) == INFINITY, "Varah on singular matrix");
        fmpq_mat_clear(A);
        fmpq_clear(ex);
        free(M);
    }
    flint_randclear(st);
    double I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    ck_assert_msg(invnorm_inf_bound(3, I3, 0.0) >= 1.0 && invnorm_inf_bound(3, I3, 0.0) <= 1.0 + 1e-12,
                  "identity: %.17g", invnorm_inf_bound(3, I3, 0.0));
    ck_assert_msg(invnorm_inf_bound(3, I3, 1.0) == INFINITY, "identity with enorm 1");
    ck_assert_msg(invnorm_inf_bound(3, I3, -1e-3) == INFINITY, "negative enorm");
    ck_assert_msg(invnorm_inf_bound(3, I3, NAN) == INFINITY, "NaN enorm");
    ck_assert_msg(invnorm_inf_bound(0, I3, 0.0) == INFINITY, "m = 0");
    I3[4] = NAN;
    ck_assert_msg(invnorm_inf_bound(3, I3, 0.0) == INFINITY, "NaN entry");
    ck_assert_msg(invnorm_varah_bound(3, I3, 0.0) == INFINITY, "Varah NaN entry");
    I3[4] = INFINITY;
    ck_assert_msg(invnorm_inf_bound(3, I3, 0.0) == INFINITY, "Inf entry");
    I3[4] = 1;
    fesetround(FE_DOWNWARD);
    double b = invnorm_inf_bound(3, I3, 0.25);
    int mode = fegetround();
    fesetround(FE_TONEAREST);
    ck_assert_msg(mode == FE_DOWNWARD, "rounding mode not restored");
    /* ||(I + E)^{-1}|| <= 1/(1 - 0.25) = 4/3 is the sharp worst case */
    ck_assert_msg(b >= 4.0 / 3.0 && b <= 4.0 / 3.0 * (1 + 1e-12), "I, enorm 1/4: %.17g", b);
}
END_TEST

/* Varah: exact comparison with delta computed over Q, and with the exact
 * inverse norm; +INFINITY exactly when delta <= 0. */
START_TEST(test_invnorm_varah)
{
    uint64_t seed = test_seed();
    flint_rand_t st;
    flint_randinit(st);
    flint_randseed(st, seed * 11400714819323198485u + 5u, 23u);
    for (int iter = 0; iter < 80; iter++) {
        size_t m = 1 + n_randint(st, 16);
        int kind = (int)n_randint(st, 3); /* 0 dominant, 1 borderline (delta = 0 exactly), 2 random */
        double *M = malloc(m * m * sizeof(double));
        for (size_t t = 0; t < m * m; t++)
            M[t] = kind == 1 ? (double)n_randint(st, 9) - 4.0 : rnd_sym(st);
        double enorm = kind == 1 || n_randint(st, 2) ? 0.0 : 0.01 * (double)n_randint(st, 10);
        for (size_t i = 0; i < m; i++) {
            double off = 0;
            for (size_t j = 0; j < m; j++)
                if (j != i)
                    off += fabs(M[i + j * m]);
            double sign = n_randint(st, 2) ? 1 : -1;
            if (kind == 0)
                M[i + i * m] = sign * (off + enorm + 0.01 + rnd_sym(st) * rnd_sym(st) + 1.0);
            else if (kind == 1)
                M[i + i * m] = sign * off; /* small integers: exact, delta_i = 0 */
        }
        /* exact delta */
        fmpq_t delta, s, t, ex;
        fmpq_init(delta);
        fmpq_init(s);
        fmpq_init(t);
        fmpq_init(ex);
        for (size_t i = 0; i < m; i++) {
            fmpq_set_double(s, fabs(M[i + i * m]));
            for (size_t j = 0; j < m; j++)
                if (j != i) {
                    fmpq_set_double(t, fabs(M[i + j * m]));
                    fmpq_sub(s, s, t);
                }
            fmpq_set_double(t, enorm);
            fmpq_sub(s, s, t);
            if (i == 0 || fmpq_cmp(s, delta) < 0)
                fmpq_set(delta, s);
        }
        double b = invnorm_varah_bound(m, M, enorm);
        if (fmpq_sgn(delta) <= 0) {
            ck_assert_msg(b == INFINITY, "seed=%llu iter=%d m=%zu kind=%d: delta <= 0 but bound %g",
                          (unsigned long long)seed, iter, m, kind, b);
        } else {
            fmpq_inv(t, delta);
            double want = fmpq_get_d(t);
            ck_assert_msg(fmpq_le_d(t, b) && b <= want * (1 + 1e-12),
                          "seed=%llu iter=%d m=%zu: Varah bound %.17g vs 1/delta %.17g",
                          (unsigned long long)seed, iter, m, b, want);
            fmpq_mat_t A;
            fmpq_mat_init(A, (slong)m, (slong)m);
            to_fmpq_mat(A, m, M, NULL);
            ck_assert(exact_inv_norm(ex, A));
            ck_assert_msg(fmpq_le_d(ex, b), "seed=%llu iter=%d m=%zu: exact %.17g > Varah %.17g",
                          (unsigned long long)seed, iter, m, fmpq_get_d(ex), b);
            double g = invnorm_inf_bound(m, M, enorm);
            ck_assert_msg(fmpq_le_d(ex, g), "seed=%llu iter=%d m=%zu: exact %.17g > bound %.17g",
                          (unsigned long long)seed, iter, m, fmpq_get_d(ex), g);
            fmpq_mat_clear(A);
        }
        if (kind == 0)
            ck_assert_msg(isfinite(b), "seed=%llu iter=%d: dominant matrix not certified",
                          (unsigned long long)seed, iter);
        fmpq_clear(delta);
        fmpq_clear(s);
        fmpq_clear(t);
        fmpq_clear(ex);
        free(M);
    }
    flint_randclear(st);
}
END_TEST

/* Sizes on both sides of the blocked path (m >= 1024, issue 35): M = P (D + u v^T), D diagonal in
 * +-[2, 4), u, v in [-1, 1] (dyadic, so every entry is exact), P a random row permutation (partial
 * pivoting must undo it).  Its inverse is known exactly (Sherman-Morrison, then the columns
 * permuted, which keeps the row sums): ||M^{-1}||_inf = max_i |1/D_i - a_i b_i / sig| +
 * |a_i| / |sig| (sum_j |b_j| - |b_i|), a = D^{-1} u, b = D^{-1} v, sig = 1 + v^T D^{-1} u, in Q.
 * The bound must hold, be within 1 %, and be the same bits for every thread count; the same with
 * the caller's inverse R0 (the double rounding of the exact one). */
START_TEST(test_invnorm_blocked)
{
    uint64_t seed = test_seed();
    flint_rand_t st;
    flint_randinit(st);
    flint_randseed(st, seed * 6364136223846793005u + 7u, 5u);
    size_t ms[] = { 1023, 1024, 1100 };
    for (size_t it = 0; it < 3; it++) {
        size_t m = ms[it];
        double *D = malloc(m * sizeof(double)), *u = malloc(m * sizeof(double)), *v = malloc(m * sizeof(double));
        double *M = malloc(m * m * sizeof(double)), *R0 = malloc(m * m * sizeof(double));
        size_t *perm = malloc(m * sizeof(size_t));
        fmpq_t sig, t, q, B1, row, ex, ai, bi;
        fmpq_init(sig); fmpq_init(t); fmpq_init(q); fmpq_init(B1); fmpq_init(row); fmpq_init(ex);
        fmpq_init(ai); fmpq_init(bi);
        for (;;) {
            fmpq_one(sig);
            for (size_t i = 0; i < m; i++) {
                D[i] = (n_randint(st, 2) ? 1.0 : -1.0) * (2.0 + (double)n_randint(st, 16) / 8.0);
                u[i] = ((double)n_randint(st, 129) - 64.0) / 64.0;
                v[i] = ((double)n_randint(st, 129) - 64.0) / 64.0;
                fmpq_set_double(t, u[i] * v[i]);   /* exact: 13 bits */
                fmpq_set_double(q, D[i]);
                fmpq_div(t, t, q);
                fmpq_add(sig, sig, t);
            }
            fmpq_set_double(t, 0.25);
            fmpq_abs(q, sig);
            if (fmpq_cmp(q, t) >= 0)
                break;
        }
        for (size_t i = 0; i < m; i++)
            perm[i] = i;
        for (size_t i = m - 1; i > 0; i--) {
            size_t j = n_randint(st, i + 1), x = perm[i];
            perm[i] = perm[j];
            perm[j] = x;
        }
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < m; j++)
                M[perm[i] + j * m] = (i == j ? D[i] : 0.0) + u[i] * v[j];
        /* exact norm; B1 = sum_j |b_j| */
        fmpq_zero(B1);
        for (size_t j = 0; j < m; j++) {
            fmpq_set_double(t, fabs(v[j]));
            fmpq_set_double(q, fabs(D[j]));
            fmpq_div(t, t, q);
            fmpq_add(B1, B1, t);
        }
        fmpq_zero(ex);
        double sg = fmpq_get_d(sig);
        for (size_t i = 0; i < m; i++) {
            fmpq_set_double(q, D[i]);
            fmpq_set_double(ai, u[i]);
            fmpq_div(ai, ai, q);
            fmpq_set_double(bi, v[i]);
            fmpq_div(bi, bi, q);
            fmpq_mul(t, ai, bi);
            fmpq_div(t, t, sig);
            fmpq_inv(q, q);
            fmpq_sub(row, q, t);
            fmpq_abs(row, row);                       /* |1/D_i - a_i b_i / sig| */
            fmpq_abs(q, bi);
            fmpq_sub(t, B1, q);
            fmpq_abs(q, ai);
            fmpq_mul(t, t, q);
            fmpq_abs(q, sig);
            fmpq_div(t, t, q);
            fmpq_add(row, row, t);
            if (fmpq_cmp(row, ex) > 0)
                fmpq_set(ex, row);
            /* R0 row i: (D + u v^T)^{-1} row i, its columns permuted by perm */
            for (size_t j = 0; j < m; j++)
                R0[i + perm[j] * m] = (i == j ? 1.0 / D[i] : 0.0) - (u[i] / D[i]) * (v[j] / D[j]) / sg;
        }
        double e = fmpq_get_d(ex);
        for (int guess = 0; guess < 2; guess++) {
            double b1 = 0;
            for (size_t k = 0; k < TEST_NTHREAD_COUNTS; k++) {
                ar_config_t cfg;
                const ar_config_t *prev = test_threads_install(&cfg, TEST_THREAD_COUNTS[k]);
                double b = invnorm_inf_bound_guess(m, M, 0.0, guess ? R0 : NULL);
                ar_config_install(prev);
                if (k == 0) {
                    b1 = b;
                    ck_assert_msg(fmpq_le_d(ex, b), "m=%zu guess=%d: exact %.17g > bound %.17g", m, guess, e, b);
                    ck_assert_msg(b <= 1.01 * e, "m=%zu guess=%d: bound %.17g > 1.01 * exact %.17g", m, guess, b, e);
                }
                ck_assert_msg(memcmp(&b, &b1, sizeof b) == 0, "m=%zu guess=%d: %d threads %a, one thread %a", m,
                              guess, TEST_THREAD_COUNTS[k], b, b1);
            }
        }
        fmpq_clear(sig); fmpq_clear(t); fmpq_clear(q); fmpq_clear(B1); fmpq_clear(row); fmpq_clear(ex);
        fmpq_clear(ai); fmpq_clear(bi);
        free(D); free(u); free(v); free(M); free(R0); free(perm);
    }
    flint_randclear(st);
}
END_TEST

Suite *suite_invnorm(void)
{
    Suite *s = suite_create("invnorm");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_invnorm_random);
    tcase_add_test(tc, test_invnorm_perturbed);
    tcase_add_test(tc, test_invnorm_hilbert);
    tcase_add_test(tc, test_invnorm_singular_and_bad);
    tcase_add_test(tc, test_invnorm_varah);
    tcase_add_test(tc, test_invnorm_blocked);
    suite_add_tcase(s, tc);
    return s;
}
