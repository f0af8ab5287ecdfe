/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_poly.c -- the polynomial upper certificate on the sphere.
 *  - dimension formula vs sum of harmonic multiplicities N(d,k) and vs the
 *    numerical rank (SVD) of [p(x_i.x_j)] for a random p of degree L;
 *  - instance bound >= the true max row error, recomputed independently in
 *    Arb at 256 bits from the exact inputs (exact normalisations xh), for
 *    fitted and for random polynomials, d = 2, 3, 4, with multiplicities and
 *    with points a few 1e-13 off the sphere; and not vacuous;
 *  - continuum bound >= a brute-force high-resolution quadrature and close
 *    to it; monotonicity of the LP fits in L;
 *  - the search returns err <= eps < err(L-1); lower <= poly rank on a
 *    dense-bracket instance; bad input is rejected. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arb.h>
#include <lapacke.h>
#include <flint/fmpz.h>
#include "testutil.h"
#include "numerics/rng.h"
#include "numerics/cheb.h"
#include "constructions/pointsets/sphere.h"
#include "theory/certificates/cert_poly.h"
#include "theory/spectra/funkhecke.h"
#include "theory/brackets/bracket.h"

#define TP 256

START_TEST(test_dim)
{
    for (int d = 2; d <= 7; d++)
        for (unsigned long L = 0; L <= 60; L++) {
            fmpz_t s, N;
            fmpz_init(s);
            fmpz_init(N);
            for (unsigned long k = 0; k <= L; k++) {
                fh_multiplicity(N, d, k);
                fmpz_add(s, s, N);
            }
            ck_assert_msg(fmpz_equal_ui(s, poly_dim(d, L)), "d=%d L=%lu: dim %zu", d, L, poly_dim(d, L));
            if (d == 2)
                ck_assert_uint_eq(poly_dim(d, L), 2 * L + 1);
            if (d == 3)
                ck_assert_uint_eq(poly_dim(d, L), (L + 1) * (L + 1));
            fmpz_clear(s);
            fmpz_clear(N);
        }
    ck_assert_uint_eq(poly_dim(40, 100000), SIZE_MAX);
}
END_TEST

/* numerical rank of [p(x_i.x_j)] equals dim P_L for generic p (random
 * Chebyshev coefficients) on n > dim random points of S^{d-1} */
START_TEST(test_rank_svd)
{
    uint64_t seed = test_seed();
    rng_t r;
    rng_init(&r, seed + 31);
    int ds[4] = {2, 3, 4, 5};
    unsigned long Ls[4] = {6, 4, 3, 2};
    for (int t = 0; t < 4; t++) {
        int d = ds[t];
        unsigned long L = Ls[t];
        size_t dim = poly_dim(d, L), n = 3 * dim;
        pointset_t P = {0};
        ck_assert_int_eq(sphere_uniform(&P, n, (size_t)d, seed + 100 + (uint64_t)t), AR_OK);
        double c[16];
        for (unsigned long k = 0; k <= L; k++)
            c[k] = 0.5 + rng_uniform(&r);
        double *M = malloc(n * n * sizeof *M), *sv = malloc(n * sizeof *sv), *sup = malloc(n * sizeof *sup);
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) {
                double s = 0, e;
                for (int q = 0; q < d; q++)
                    s += P.x[i * (size_t)d + (size_t)q] * P.x[j * (size_t)d + (size_t)q];
                s = fmax(-1.0, fmin(1.0, s));
                M[i + j * n] = cheb_clenshaw(c, L + 1, s, &e);
            }
        ck_assert_int_eq(LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', (lapack_int)n, (lapack_int)n, M,
                                        (lapack_int)n, sv, NULL, 1, NULL, 1, sup), 0);
        size_t rk = 0;
        for (size_t i = 0; i < n; i++)
            rk += sv[i] > 1e-9 * sv[0];
        ck_assert_msg(rk == dim, "seed=%llu d=%d L=%lu n=%zu: numerical rank %zu != dim %zu (sv[dim-1]=%g sv[dim]=%g)",
                      (unsigned long long)seed, d, L, n, rk, dim, sv[dim - 1], sv[dim]);
        free(M);
        free(sv);
        free(sup);
        pointset_clear(&P);
    }
}
END_TEST

/* Independent truth: max_i sum_j w_j |g(t_ij) - q(th_ij)| / sum_j w_j g(t_ij),
 * t exact dot of the stored doubles, th = t / (|x_i| |x_j|), in Arb. */
static void true_err(const pointset_t *P, double beta, const double *c, unsigned long L, arb_t out)
{
    size_t n = P->n, d = P->d;
    arb_ptr nrm = _arb_vec_init((slong)n);
    arb_t t, s, th, g, q, num, den, b, w, x;
    arb_init(t); arb_init(s); arb_init(th); arb_init(g); arb_init(q);
    arb_init(num); arb_init(den); arb_init(b); arb_init(w); arb_init(x);
    arb_set_d(b, beta);
    for (size_t i = 0; i < n; i++) {
        arb_zero(nrm + i);
        for (size_t k = 0; k < d; k++) {
            arb_set_d(x, P->x[i * d + k]);
            arb_addmul(nrm + i, x, x, TP);
        }
        arb_sqrt(nrm + i, nrm + i, TP);
    }
    arb_zero(out);
    for (size_t i = 0; i < n; i++) {
        arb_zero(num);
        arb_zero(den);
        for (size_t j = 0; j < n; j++) {
            arb_zero(t);
            for (size_t k = 0; k < d; k++) {
                arb_set_d(x, P->x[i * d + k]);
                arb_set_d(s, P->x[j * d + k]);
                arb_addmul(t, x, s, TP);
            }
            arb_mul(th, nrm + i, nrm + j, TP);
            arb_div(th, t, th, TP);
            if (arb_gt(th, (arb_one(s), s)))
                arb_one(th);      /* th <= 1 exactly (Cauchy-Schwarz); trims the ball */
            cheb_eval_arb(q, c, L + 1, th, TP);
            arb_sub_ui(g, t, 1, TP);
            arb_mul(g, g, b, TP);
            arb_exp(g, g, TP);
            if (P->w)
                arb_set_fmpz(w, P->w + j);
            else
                arb_one(w);
            arb_sub(q, g, q, TP);
            arb_abs(q, q);
            arb_addmul(num, w, q, TP);
            arb_addmul(den, w, g, TP);
        }
        arb_div(num, num, den, TP);
        arb_max(out, out, num, TP);
    }
    _arb_vec_clear(nrm, (slong)n);
    arb_clear(t); arb_clear(s); arb_clear(th); arb_clear(g); arb_clear(q);
    arb_clear(num); arb_clear(den); arb_clear(b); arb_clear(w); arb_clear(x);
}

START_TEST(test_instance_vs_truth)
{
    uint64_t seed = test_seed();
    rng_t r;
    rng_init(&r, seed + 41);
    struct { int d; size_t n; double beta; unsigned long L; int weights, offsphere, randpoly; } cs[] = {
        {2, 120, 30.0, 8, 0, 0, 0},   {2, 200, 10.0, 5, 1, 1, 0},  {3, 250, 10.0, 6, 0, 0, 0},
        {3, 300, 30.0, 9, 0, 1, 0},   {3, 150, 3.0, 3, 1, 0, 1},   {4, 200, 10.0, 5, 0, 0, 0},
        {4, 150, 20.0, 7, 1, 1, 1},   {3, 200, 60.0, 12, 0, 0, 0},
    };
    arb_t tr;
    arb_init(tr);
    for (size_t it = 0; it < sizeof cs / sizeof cs[0]; it++) {
        pointset_t P = {0};
        if (cs[it].d == 3 && it % 2 == 0)
            ck_assert_int_eq(sphere_fibonacci(&P, cs[it].n), AR_OK);
        else
            ck_assert_int_eq(sphere_uniform(&P, cs[it].n, (size_t)cs[it].d, seed + it), AR_OK);
        if (cs[it].offsphere)          /* push points up to ~5e-13 off the sphere */
            for (size_t i = 0; i < P.n; i++) {
                double f = 1.0 + (rng_uniform(&r) - 0.5) * 1e-12;
                for (size_t k = 0; k < P.d; k++)
                    P.x[i * P.d + k] *= f;
            }
        if (cs[it].weights) {
            ck_assert_int_eq(pointset_alloc_weights(&P), AR_OK);
            for (size_t i = 0; i < P.n; i++)
                fmpz_set_ui(P.w + i, 1 + rng_u64(&r) % 1000);
        }
        unsigned long L = cs[it].L;
        double c[64];
        if (cs[it].randpoly) {
            for (unsigned long k = 0; k <= L; k++)
                c[k] = rng_normal(&r) * 0.3;
        } else {
            ck_assert_int_eq(poly_fit(cs[it].d, cs[it].beta, L, c, NULL), AR_OK);
        }
        double bound;
        ck_assert_int_eq(poly_instance_error(&P, cs[it].beta, c, L, &bound), AR_OK);
        true_err(&P, cs[it].beta, c, L, tr);
        double hi = arf_get_d(arb_midref(tr), ARF_RND_UP) + mag_get_d(arb_radref(tr));
        double mid = arf_get_d(arb_midref(tr), ARF_RND_NEAR);
        ck_assert_msg(bound >= hi, "seed=%llu case=%zu (d=%d n=%zu beta=%g L=%lu): bound %.17g < true %.17g",
                      (unsigned long long)seed, it, cs[it].d, cs[it].n, cs[it].beta, L, bound, hi);
        ck_assert_msg(bound <= mid * 1.01 + 1e-9,
                      "seed=%llu case=%zu (d=%d n=%zu beta=%g L=%lu): bound %.6g vacuous vs true %.6g",
                      (unsigned long long)seed, it, cs[it].d, cs[it].n, cs[it].beta, L, bound, mid);
        /* the multi-polynomial pass gives the same bounds */
        double c2[64], e2[2];
        ck_assert_int_eq(poly_fit(cs[it].d, cs[it].beta, L + 1, c2, NULL), AR_OK);
        const double *cc[2] = {c, c2};
        unsigned long LL[2] = {L, L + 1};
        ck_assert_int_eq(poly_instance_errors(&P, cs[it].beta, 2, cc, LL, e2), AR_OK);
        true_err(&P, cs[it].beta, c2, L + 1, tr);
        hi = arf_get_d(arb_midref(tr), ARF_RND_UP) + mag_get_d(arb_radref(tr));
        ck_assert_msg(e2[1] >= hi, "seed=%llu case=%zu: pass bound %.17g < true %.17g (L+1)",
                      (unsigned long long)seed, it, e2[1], hi);
        ck_assert_msg(e2[0] <= bound * (1 + 1e-9) && e2[0] >= bound * (1 - 1e-9),
                      "seed=%llu case=%zu: pass with 2 polynomials differs (%.17g vs %.17g)",
                      (unsigned long long)seed, it, e2[0], bound);
        pointset_clear(&P);
    }
    arb_clear(tr);
}
END_TEST

/* brute-force continuum E(q): midpoint rule in theta, N points, long double */
static double brute_E(int d, double beta, const double *c, unsigned long L, long N)
{
    long double num = 0, den = 0;
    for (long i = 0; i < N; i++) {
        long double th = (long double)M_PI * ((long double)i + 0.5L) / (long double)N;
        long double s = cosl(th), w = powl(sinl(th), d - 2);
        long double g = expl((long double)beta * (s - 1.0L)), q = 0;
        for (unsigned long k = 0; k <= L; k++)
            q += (long double)c[k] * cosl((long double)k * th);
        num += fabsl(g - q) * w;
        den += g * w;
    }
    return (double)(num / den);
}

START_TEST(test_continuum_vs_quadrature)
{
    struct { int d; double beta; unsigned long L; } cs[] = {
        {2, 20.0, 8}, {3, 5.0, 3}, {3, 60.0, 14}, {4, 20.0, 8}, {5, 40.0, 10}, {2, 100.0, 20},
        {3, 640.0, 60},    /* past the old cliff: e^{-2 beta} underflows a double */
    };
    for (size_t it = 0; it < sizeof cs / sizeof cs[0]; it++) {
        double c[64], E, est;
        ck_assert_int_eq(poly_fit(cs[it].d, cs[it].beta, cs[it].L, c, &est), AR_OK);
        ck_assert_int_eq(poly_continuum_error(cs[it].d, cs[it].beta, c, cs[it].L, &E), AR_OK);
        double bf = brute_E(cs[it].d, cs[it].beta, c, cs[it].L, 400000);
        ck_assert_msg(E >= bf * (1 - 1e-6), "case %zu (d=%d beta=%g L=%lu): rigorous %.10g < quadrature %.10g",
                      it, cs[it].d, cs[it].beta, cs[it].L, E, bf);
        ck_assert_msg(E <= bf * (1 + 3e-3), "case %zu (d=%d beta=%g L=%lu): rigorous %.10g far above quadrature %.10g",
                      it, cs[it].d, cs[it].beta, cs[it].L, E, bf);
    }
}
END_TEST

/* Issue 35: the continuum bound's cells run side by side on a fixed partition and their terms
 * are added in cell order, so the bound is the same bits for every thread count (d = 2 has the
 * split end cells; d = 6 many split cells; 2^14 cells and more span several rounds). */
START_TEST(test_continuum_thread_counts)
{
    struct { int d; double beta; unsigned long L; } cs[] = { {2, 100.0, 20}, {3, 60.0, 14}, {6, 160.0, 41} };
    for (size_t it = 0; it < sizeof cs / sizeof cs[0]; it++) {
        double c[64], est, E1 = 0;
        ck_assert_int_eq(poly_fit(cs[it].d, cs[it].beta, cs[it].L, c, &est), AR_OK);
        for (size_t t = 0; t < TEST_NTHREAD_COUNTS; t++) {
            ar_config_t cfg;
            const ar_config_t *prev = test_threads_install(&cfg, TEST_THREAD_COUNTS[t]);
            double E;
            ck_assert_int_eq(poly_continuum_error(cs[it].d, cs[it].beta, c, cs[it].L, t ? &E : &E1), AR_OK);
            ar_config_install(prev);
            ck_assert_msg(t == 0 || memcmp(&E, &E1, sizeof E) == 0, "d=%d beta=%g: %d threads %a, one thread %a",
                          cs[it].d, cs[it].beta, TEST_THREAD_COUNTS[t], E, E1);
        }
    }
}
END_TEST

START_TEST(test_fit_monotone)
{
    int ds[3] = {2, 3, 4};
    for (int t = 0; t < 3; t++) {
        double prev = INFINITY, prevE = INFINITY;
        for (unsigned long L = 1; L <= 14; L++) {
            double c[32], est, E;
            ck_assert_int_eq(poly_fit(ds[t], 30.0, L, c, &est), AR_OK);
            ck_assert_int_eq(poly_continuum_error(ds[t], 30.0, c, L, &E), AR_OK);
            ck_assert_msg(est <= prev * (1 + 1e-6) + 1e-12, "d=%d L=%lu: LP estimate increased %.10g -> %.10g",
                          ds[t], L, prev, est);
            ck_assert_msg(E <= prevE * (1 + 1e-2) + 1e-9, "d=%d L=%lu: certified E increased %.10g -> %.10g",
                          ds[t], L, prevE, E);
            prev = est;
            prevE = E;
        }
    }
}
END_TEST

START_TEST(test_search)
{
    uint64_t seed = test_seed();
    pointset_t P = {0};
    ck_assert_int_eq(sphere_fibonacci(&P, 400), AR_OK);
    poly_cert_t c;
    ck_assert_int_eq(poly_upper_instance(&P, 20.0, 0.1, &c), AR_OK);
    ck_assert_msg(!c.capped && c.err <= 0.1 && c.L > 0 && c.err_below > 0.1,
                  "seed=%llu: instance search L=%lu err=%g below=%g capped=%d", (unsigned long long)seed,
                  c.L, c.err, c.err_below, c.capped);
    ck_assert_uint_eq(c.rank, poly_dim(3, c.L));
    double coef[64], e;
    ck_assert_int_eq(poly_fit(3, 20.0, c.L, coef, NULL), AR_OK);
    ck_assert_int_eq(poly_instance_error(&P, 20.0, coef, c.L, &e), AR_OK);
    ck_assert_msg(e == c.err, "recomputed %.17g vs reported %.17g", e, c.err);
    /* continuum */
    poly_cert_t cc;
    ck_assert_int_eq(poly_upper_continuum(3, 20.0, 0.1, &cc), AR_OK);
    ck_assert_msg(cc.err <= 0.1 && cc.err_below > 0.1, "continuum L=%lu err=%g below=%g", cc.L, cc.err,
                  cc.err_below);
    ck_assert_uint_eq(cc.rank, (cc.L + 1) * (cc.L + 1));
    /* cap: few points, large beta -> the trivial bound rank <= n binds */
    pointset_t S = {0};
    ck_assert_int_eq(sphere_fibonacci(&S, 12), AR_OK);
    ck_assert_int_eq(poly_upper_instance(&S, 200.0, 0.05, &c), AR_OK);
    ck_assert_msg(c.capped && c.rank == 12 && c.err == 0, "cap: capped=%d rank=%zu", c.capped, c.rank);
    /* beta = 0: A = J/n, rank 1 */
    ck_assert_int_eq(poly_upper_instance(&P, 0.0, 0.1, &c), AR_OK);
    ck_assert_msg(c.rank == 1 && c.L == 0 && c.err <= 1e-12, "beta=0: rank %zu err %g", c.rank, c.err);
    pointset_clear(&S);
    pointset_clear(&P);
}
END_TEST

START_TEST(test_vs_bracket)
{
    uint64_t seed = test_seed();
    double betas[2] = {5.0, 15.0};
    for (int t = 0; t < 2; t++) {
        pointset_t P = {0};
        ck_assert_int_eq(sphere_uniform(&P, 180, 3, seed + 7 + (uint64_t)t), AR_OK);
        bracket_t b;
        ck_assert_int_eq(bracket_compute(&P, &P, betas[t], 0.2, NULL, &b), AR_OK);
        poly_cert_t c;
        ck_assert_int_eq(poly_upper_instance(&P, betas[t], 0.2, &c), AR_OK);
        ck_assert_msg(b.lower <= c.rank, "seed=%llu beta=%g: dense lower %zu > poly rank %zu",
                      (unsigned long long)seed, betas[t], b.lower, c.rank);
        fprintf(stderr, "cert_poly vs bracket (n=180, d=3, beta=%g, eps=0.2): lower %zu, dense upper %zu, poly %zu (L=%lu, err %.4f)\n",
                betas[t], b.lower, b.upper, c.rank, c.L, c.err);
        pointset_clear(&P);
    }
}
END_TEST

START_TEST(test_bad_input)
{
    pointset_t P = {0};
    ck_assert_int_eq(sphere_fibonacci(&P, 50), AR_OK);
    poly_cert_t c;
    double coef[3] = {1, 0, 0}, e;
    ck_assert_int_eq(poly_upper_instance(&P, 10.0, 0.0, &c), AR_EINVAL);
    ck_assert_int_eq(poly_upper_instance(&P, 10.0, 1.0, &c), AR_EINVAL);
    ck_assert_int_eq(poly_upper_instance(&P, 10.0, NAN, &c), AR_EINVAL);
    ck_assert_int_eq(poly_upper_instance(&P, -1.0, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(poly_instance_error(&P, INFINITY, coef, 2, &e), AR_EINVAL);
    ck_assert_int_eq(poly_upper_continuum(1, 10.0, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(poly_upper_continuum(3, -2.0, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(poly_upper_continuum(3, 10.0, 1.5, &c), AR_EINVAL);
    ck_assert_int_eq(poly_fit(1, 10.0, 3, coef, NULL), AR_EINVAL);
    P.x[7] *= 1.0 + 1e-9;             /* a point off the sphere */
    ck_assert_int_eq(poly_upper_instance(&P, 10.0, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(poly_instance_error(&P, 10.0, coef, 2, &e), AR_EINVAL);
    pointset_clear(&P);
    pointset_t Q = {0};
    ck_assert_int_eq(sphere_polygon(&Q, 10), AR_OK);
    Q.d = 1;
    Q.n = 20;                           /* d = 1 is rejected */
    ck_assert_int_eq(poly_instance_error(&Q, 10.0, coef, 2, &e), AR_EINVAL);
    Q.d = 2;
    Q.n = 10;
    pointset_clear(&Q);
}
END_TEST

/* Regression: at beta = 1000, degree 85, every GLPK method failed and the fit
 * aborted the continuum search; the IRLS fallback must give a candidate whose
 * certified continuum error is below 0.1 (the l1-optimal rank 7396 = 86^2). */
START_TEST(test_fit_fallback_beta1000)
{
    double c[86], est, err;
    ck_assert_msg(poly_fit(3, 1000.0, 85, c, &est) == AR_OK, "poly_fit: %s", ar_error_get());
    ck_assert_int_eq(poly_continuum_error(3, 1000.0, c, 85, &err), AR_OK);
    ck_assert_msg(err < 0.1, "certified continuum error %g at L = 85, beta = 1000", err);
}
END_TEST
/* Regression (issue 36): past beta ~ 354 some LP objective coefficients
 * w_i e^{beta (s_i - 1)} are subnormal or zero, and the automatically scaled
 * dual simplex returned a false optimum (q = 0, estimate 1 at d = 5,
 * beta = 450, L = 90) or ran for minutes (L = 85, 100).  The fits must be
 * proper (estimate well below 1) and the LP estimate monotone in L. */
START_TEST(test_fit_wide_objective)
{
    double prev = INFINITY;
    for (unsigned long L = 85; L <= 95; L += 5) {
        double c[96], est;
        ck_assert_msg(poly_fit(5, 450.0, L, c, &est) == AR_OK, "poly_fit: %s", ar_error_get());
        ck_assert_msg(est < 0.05 && est <= prev * (1 + 1e-6), "d=5 beta=450 L=%lu: estimate %.10g (previous %.10g)",
                      L, est, prev);
        prev = est;
    }
}
END_TEST

/* Past the old cliff (issue 36): the continuum search at beta = 640 in d = 3
 * certifies, its degree is minimal for the certified bound (err_below > eps)
 * and not below the degree certified at beta = 320 (the l1 error of a fixed
 * degree grows with beta). */
START_TEST(test_continuum_past_cliff)
{
    poly_cert_t a, b;
    ck_assert_msg(poly_upper_continuum(3, 320.0, 0.1, &a) == AR_OK, "beta 320: %s", ar_error_get());
    ck_assert_msg(poly_upper_continuum(3, 640.0, 0.1, &b) == AR_OK, "beta 640: %s", ar_error_get());
    ck_assert_msg(b.err <= 0.1 && b.err_below > 0.1, "beta 640: L=%lu err=%g below=%g", b.L, b.err, b.err_below);
    ck_assert_msg(b.L >= a.L, "degree fell with beta: %lu at 320, %lu at 640", a.L, b.L);
    ck_assert_uint_eq(b.rank, (b.L + 1) * (b.L + 1));
}
END_TEST


Suite *suite_cert_poly(void)
{
    Suite *s = suite_create("cert_poly");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_dim);
    tcase_add_test(tc, test_fit_fallback_beta1000);
    tcase_add_test(tc, test_fit_wide_objective);
    tcase_add_test(tc, test_continuum_past_cliff);
    tcase_add_test(tc, test_rank_svd);
    tcase_add_test(tc, test_instance_vs_truth);
    tcase_add_test(tc, test_continuum_vs_quadrature);
    tcase_add_test(tc, test_continuum_thread_counts);
    tcase_add_test(tc, test_fit_monotone);
    tcase_add_test(tc, test_search);
    tcase_add_test(tc, test_vs_bracket);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
