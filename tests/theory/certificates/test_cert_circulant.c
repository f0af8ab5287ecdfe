/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_circulant.c -- the n-gon (circulant) bracket: enclosure of the
 * first row against 400-bit MPFR, the block test matrix against an explicit
 * dense A_S W, the lower certificate's inverse norm against the dense
 * verified bound, upper certificates recomputed independently at high
 * precision from the returned coefficients, consistency with the dense
 * bracket (bracket_compute on sphere_polygon), lower <= upper on random
 * inputs, the exact 2-point case, input validation, and the figure
 * (20160-gon, beta = 1e4, eps = 0.1: bracket inside [440, 460]). */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <mpfr.h>
#include <arb.h>
#include "testutil.h"
#include "numerics/circulant.h"
#include "numerics/invnorm.h"
#include "constructions/pointsets/sphere.h"
#include "theory/brackets/bracket.h"
#include "theory/certificates/cert_circulant.h"

#define HP 400


/* the exact first row a_k = exp(beta cos(2 pi k/n)) / Z, k = 0..n-1, at HP bits */
static mpfr_t *hp_row(size_t n, double beta)
{
    mpfr_t *a = malloc(n * sizeof *a);
    mpfr_t Z;
    mpfr_init2(Z, HP);
    mpfr_set_ui(Z, 0, MPFR_RNDN);
    for (size_t k = 0; k < n; k++) {
        mpfr_init2(a[k], HP);
        mpfr_const_pi(a[k], MPFR_RNDN);
        mpfr_mul_ui(a[k], a[k], 2 * k, MPFR_RNDN);
        mpfr_div_ui(a[k], a[k], n, MPFR_RNDN);
        mpfr_cos(a[k], a[k], MPFR_RNDN);
        mpfr_mul_d(a[k], a[k], beta, MPFR_RNDN);
        mpfr_exp(a[k], a[k], MPFR_RNDN);
        mpfr_add(Z, Z, a[k], MPFR_RNDN);
    }
    for (size_t k = 0; k < n; k++)
        mpfr_div(a[k], a[k], Z, MPFR_RNDN);
    mpfr_clear(Z);
    return a;
}

static void hp_free(mpfr_t *a, size_t n)
{
    for (size_t k = 0; k < n; k++)
        mpfr_clear(a[k]);
    free(a);
}

/* sum_k |a_k - b_k| at HP bits, rounded down, b from the band coefficients */
static double hp_upper_err(const mpfr_t *a, size_t n, const double *c, size_t K)
{
    mpfr_t b, t, s;
    mpfr_inits2(HP, b, t, s, (mpfr_ptr)0);
    mpfr_set_ui(s, 0, MPFR_RNDN);
    for (size_t k = 0; k < n; k++) {
        mpfr_set_d(b, c[0], MPFR_RNDN);
        for (size_t f = 1; f <= K; f++) {
            mpfr_const_pi(t, MPFR_RNDN);
            mpfr_mul_ui(t, t, 2 * ((f * k) % n), MPFR_RNDN);
            mpfr_div_ui(t, t, n, MPFR_RNDN);
            mpfr_cos(t, t, MPFR_RNDN);
            mpfr_mul_d(t, t, 2.0 * c[f], MPFR_RNDN);
            mpfr_add(b, b, t, MPFR_RNDN);
        }
        mpfr_sub(t, a[k], b, MPFR_RNDN);
        mpfr_abs(t, t, MPFR_RNDN);
        mpfr_add(s, s, t, MPFR_RNDN);
    }
    double r = mpfr_get_d(s, MPFR_RNDD);
    mpfr_clears(b, t, s, (mpfr_ptr)0);
    return r;
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

START_TEST(test_enclosure)
{
    test_rng_init(test_seed() * 6151 + 1);
    for (int it = 0; it < 30; it++) {
        size_t n = (size_t)test_irand(1, 90);
        double beta = (it % 5 == 0) ? 0.0 : ldexp(test_unif(), (int)test_irand(-3, 12));
        circ_instance_t I;
        ck_assert_int_eq(circ_instance_init(&I, n, beta, 0), AR_OK);
        mpfr_t *a = hp_row(n, beta);
        for (size_t k = 0; k < n; k++) {
            size_t kk = circ_fold(k, n);
            ck_assert_msg(meets(I.a + kk, a[k]), "a_%zu not enclosed n=%zu beta=%g", k, n,
                          beta);
        }
        ck_assert_msg(I.arad < 1e-20, "enclosure too wide n=%zu beta=%g: %g", n, beta, I.arad);
        hp_free(a, n);
        circ_instance_clear(&I);
    }
}
END_TEST

/* W (n x m) of the block test matrix built from circular distances */
static double w_entry(size_t j, size_t b, size_t n, size_t m)
{
    size_t p = n / m, centre = b * p;
    size_t d = (j + n - centre) % n;
    if (n - d < d)
        d = n - d; /* circular distance, 2d compared with p */
    if (2 * d < p)
        return 1.0;
    if (2 * d == p)
        return (p == n) ? 1.0 : 0.5; /* m = 1, p even: the antipode is one column, counted twice */
    return 0.0;
}

START_TEST(test_block_matrix)
{
    test_rng_init(test_seed() * 3571 + 2);
    for (int it = 0; it < 25; it++) {
        size_t n = (size_t)test_irand(1, 60);
        double beta = ldexp(test_unif(), (int)test_irand(-2, 7));
        circ_instance_t I;
        ck_assert_int_eq(circ_instance_init(&I, n, beta, 0), AR_OK);
        mpfr_t *a = hp_row(n, beta);
        mpfr_t s, t;
        mpfr_inits2(HP, s, t, (mpfr_ptr)0);
        for (size_t m = 1; m <= n; m++) {
            if (n % m)
                continue;
            size_t p = n / m;
            /* ||W||_r1 = 1 (each column j is shared out with total weight 1) */
            for (size_t j = 0; j < n; j++) {
                double r = 0;
                for (size_t b = 0; b < m; b++)
                    r += w_entry(j, b, n, m);
                ck_assert_msg(r == 1.0, "row %zu of W sums to %g (n=%zu m=%zu)", j, r, n, m);
            }
            arb_ptr mu = _arb_vec_init((slong)m);
            ck_assert_int_eq(circ_block_row(&I, m, mu), AR_OK);
            for (size_t aa = 0; aa < m; aa++)
                for (size_t b = 0; b < m; b++) {
                    /* M_ab = sum_j A_{s_a, j} W_jb, A_ij = a_{(j - i) mod n} */
                    mpfr_set_ui(s, 0, MPFR_RNDN);
                    for (size_t j = 0; j < n; j++) {
                        double w = w_entry(j, b, n, m);
                        if (w == 0)
                            continue;
                        mpfr_mul_d(t, a[(j + n - aa * p) % n], w, MPFR_RNDN);
                        mpfr_add(s, s, t, MPFR_RNDN);
                    }
                    ck_assert_msg(meets(mu + (b + m - aa) % m, s),
                                  "M not circulant with row mu: n=%zu m=%zu a=%zu b=%zu", n, m, aa, b);
                    /* symmetric: mu_c = mu_{m-c} */
                    ck_assert(arb_overlaps(mu + b, mu + (m - b) % m));
                }
            /* the inverse norm agrees with the dense verified bound on M */
            if (m >= 2 && m <= 40) {
                double *M = malloc(m * m * sizeof *M);
                for (size_t i = 0; i < m; i++)
                    for (size_t j = 0; j < m; j++)
                        M[i + j * m] = arf_get_d(arb_midref(mu + (j + m - i) % m), ARF_RND_NEAR);
                double bd = invnorm_inf_bound(m, M, 1e-15);
                double bc = circ_lower_invnorm(&I, m);
                if (isfinite(bd) && bd < 1e6)
                    ck_assert_msg(isfinite(bc) && fabs(bc / bd - 1) < 1e-6,
                                  "inverse norms n=%zu m=%zu beta=%g: dense %.17g circ %.17g", n, m,
                                  beta, bd, bc);
                free(M);
            }
            _arb_vec_clear(mu, (slong)m);
        }
        mpfr_clears(s, t, (mpfr_ptr)0);
        hp_free(a, n);
        circ_instance_clear(&I);
    }
}
END_TEST

START_TEST(test_upper_recomputed)
{
    test_rng_init(test_seed() * 7001 + 3);
    for (int it = 0; it < 24; it++) {
        size_t n = (size_t)test_irand(2, 200);
        double beta = ldexp(1.0 + test_unif(), (int)test_irand(0, 9));
        double eps = 0.02 + 0.5 * test_unif();
        circ_instance_t I;
        ck_assert_int_eq(circ_instance_init(&I, n, beta, 0), AR_OK);
        mpfr_t *a = hp_row(n, beta);
        for (int meth = 0; meth < 2; meth++) {
            circ_upper_t up;
            double *c = NULL;
            ck_assert_int_eq(circ_upper_search(&I, (circ_upper_method_t)meth, eps, SIZE_MAX, SIZE_MAX,
                                               &up, &c),
                             AR_OK);
            if (up.K == SIZE_MAX) {
                ck_assert_uint_eq(up.rank, n);
                ck_assert_ptr_null(c);
                continue;
            }
            ck_assert_uint_eq(up.rank, 2 * up.K + 1);
            ck_assert_uint_lt(up.rank, n);
            double truth = hp_upper_err(a, n, c, up.K);
            ck_assert_msg(truth <= up.err && up.err <= eps,
                          "upper %s n=%zu beta=%g eps=%g K=%zu: exact %.17g cert %.17g", ar_method_name(up.method), n,
                          beta, eps, up.K, truth, up.err);
            ck_assert_msg(up.err <= truth + 1e-12, "certified error vacuous: %g vs %g", up.err, truth);
            free(c);
        }
        hp_free(a, n);
        circ_instance_clear(&I);
    }
}
END_TEST

START_TEST(test_vs_dense_bracket)
{
    test_rng_init(test_seed() * 4409 + 4);
    for (int it = 0; it < 10; it++) {
        size_t n = (size_t)test_irand(2, 120);
        double beta = ldexp(1.0 + test_unif(), (int)test_irand(0, 8));
        double eps = 0.03 + 0.4 * test_unif();
        circ_bracket_t cb;
        ck_assert_int_eq(circ_bracket(n, beta, eps, 0, &cb), AR_OK);
        pointset_t P = { 0 };
        ck_assert_int_eq(sphere_polygon(&P, n), AR_OK);
        bracket_t db;
        ck_assert_int_eq(bracket_compute(&P, &P, beta, eps, NULL, &db), AR_OK);
        ck_assert_msg(cb.lower <= db.upper && db.lower <= cb.upper,
                      "brackets disjoint: n=%zu beta=%.17g eps=%.17g circ [%zu,%zu] dense [%zu,%zu]", n,
                      beta, eps, cb.lower, cb.upper, db.lower, db.upper);
        ck_assert_str_eq(ar_cert_status_name(cb.status), "certified");
        pointset_clear(&P);
    }
}
END_TEST

START_TEST(test_lower_le_upper)
{
    test_rng_init(test_seed() * 9173 + 5);
    for (int it = 0; it < 30; it++) {
        size_t n = (size_t)test_irand(1, 600);
        double beta = ldexp(1.0 + test_unif(), (int)test_irand(-2, 12));
        double eps = 0.01 + 0.9 * test_unif();
        circ_instance_t I;
        ck_assert_int_eq(circ_instance_init(&I, n, beta, 0), AR_OK);
        circ_lower_t lo;
        circ_upper_t up, ul;
        ck_assert_int_eq(circ_lower_search(&I, eps, SIZE_MAX, &lo), AR_OK);
        ck_assert_int_eq(circ_upper_search(&I, CIRC_PROJECTION, eps, SIZE_MAX, SIZE_MAX, &up, NULL),
                         AR_OK);
        ck_assert_int_eq(circ_upper_search(&I, CIRC_L1LP, eps, SIZE_MAX, SIZE_MAX, &ul, NULL), AR_OK);
        ck_assert_msg(lo.rank <= up.rank && lo.rank <= ul.rank,
                      "seed=%llu it=%d n=%zu beta=%.17g eps=%.17g: lower %zu proj %zu lp %zu",
                      (unsigned long long)test_seed(), it, n, beta, eps, lo.rank, up.rank, ul.rank);
        ck_assert_uint_eq(lo.rank * lo.step, n);
        if (lo.rank > 1)
            ck_assert(eps * lo.invnorm < 1);
        circ_bracket_t cb;
        ck_assert_int_eq(circ_bracket(n, beta, eps, 0, &cb), AR_OK);
        ck_assert(cb.lower <= cb.upper && cb.upper <= n && cb.lower >= 1);
        circ_instance_clear(&I);
    }
}
END_TEST

/* n = 2: A = [[a, 1-a], [1-a, a]], a = e^beta / (e^beta + e^-beta); rank_eps = 2 iff eps < tanh(beta) */
START_TEST(test_two_points)
{
    const double betas[] = { 0.05, 0.3, 1.0, 2.5 };
    for (size_t i = 0; i < 4; i++) {
        double th = tanh(betas[i]);
        circ_bracket_t cb;
        ck_assert_int_eq(circ_bracket(2, betas[i], th * (1 - 1e-6), 0, &cb), AR_OK);
        ck_assert_msg(cb.lower == 2 && cb.upper == 2, "beta=%g below: [%zu,%zu]", betas[i], cb.lower,
                      cb.upper);
        if (th * (1 + 1e-6) < 1) {
            ck_assert_int_eq(circ_bracket(2, betas[i], th * (1 + 1e-6), 0, &cb), AR_OK);
            ck_assert_msg(cb.lower == 1 && cb.upper == 1, "beta=%g above: [%zu,%zu]", betas[i],
                          cb.lower, cb.upper);
        }
    }
    circ_bracket_t cb;
    ck_assert_int_eq(circ_bracket(1, 3.0, 0.5, 0, &cb), AR_OK);
    ck_assert(cb.lower == 1 && cb.upper == 1);
}
END_TEST

START_TEST(test_bad_input)
{
    circ_bracket_t cb;
    ck_assert_int_eq(circ_bracket(0, 1.0, 0.1, 0, &cb), AR_EINVAL);
    ck_assert_int_eq(circ_bracket(10, -1.0, 0.1, 0, &cb), AR_EINVAL);
    ck_assert_int_eq(circ_bracket(10, NAN, 0.1, 0, &cb), AR_EINVAL);
    ck_assert_int_eq(circ_bracket(10, INFINITY, 0.1, 0, &cb), AR_EINVAL);
    ck_assert_int_eq(circ_bracket(10, 1.0, 0.0, 0, &cb), AR_EINVAL);
    ck_assert_int_eq(circ_bracket(10, 1.0, 1.0, 0, &cb), AR_EINVAL);
    ck_assert_int_eq(circ_bracket(10, 1.0, NAN, 0, &cb), AR_EINVAL);
    ck_assert_int_eq(circ_bracket(10, 1.0, 0.1, 5, &cb), AR_EINVAL);
    circ_instance_t I;
    ck_assert_int_eq(circ_instance_init(&I, 12, 3.0, 0), AR_OK);
    arb_ptr mu = _arb_vec_init(5);
    ck_assert_int_eq(circ_block_row(&I, 5, mu), AR_EINVAL);
    _arb_vec_clear(mu, 5);
    circ_upper_t up;
    ck_assert_int_eq(circ_upper_search(&I, CIRC_L1LP, 1.5, SIZE_MAX, SIZE_MAX, &up, NULL), AR_EINVAL);
    circ_instance_clear(&I);
    /* too little precision for a tiny eps: inconclusive, trivial bounds */
    ck_assert_int_eq(circ_bracket(50, 20.0, 1e-5, 16, &cb), AR_OK);
    ck_assert_str_eq(ar_cert_status_name(cb.status), "inconclusive");
    ck_assert(cb.lower == 1 && cb.upper == 50);
    ck_assert_int_eq(circ_bracket(50, 20.0, 1e-5, 0, &cb), AR_OK);
    ck_assert_str_eq(ar_cert_status_name(cb.status), "certified");
}
END_TEST

/* the figure: dense 20160-gon, beta = 1e4, eps = 0.1 */
START_TEST(test_figure_20160)
{
    circ_bracket_t cb;
    ck_assert_int_eq(circ_bracket(20160, 1e4, 0.1, 0, &cb), AR_OK);
    ck_assert_str_eq(ar_cert_status_name(cb.status), "certified");
    ck_assert_msg(cb.lower >= 440 && cb.upper <= 460, "bracket [%zu, %zu] not inside [440, 460]",
                  cb.lower, cb.upper);
}
END_TEST

Suite *suite_cert_circulant(void)
{
    Suite *s = suite_create("cert_circulant");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_enclosure);
    tcase_add_test(tc, test_block_matrix);
    tcase_add_test(tc, test_upper_recomputed);
    tcase_add_test(tc, test_vs_dense_bracket);
    tcase_add_test(tc, test_lower_le_upper);
    tcase_add_test(tc, test_two_points);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    TEST_TCASE(tf, "figure");
    tcase_add_test(tf, test_figure_20160);
    suite_add_tcase(s, tf);
    return s;
}
