/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_ball.c -- claim-B certificates on weighted ball instances:
 * the multiplicity lemma on an expanded instance, the cluster lower
 * certificate against the dense enclosure, the tensor-Chebyshev bound
 * against an explicit B, bracket_compute_ball and its figure at beta 3000. */
#include <check.h>
#include <stdio.h>
#include <math.h>
#include <string.h>
#include "testutil.h"
#include "base/config.h"
#include "constructions/pointsets/ball.h"
#include "numerics/softmax.h"
#include "theory/brackets/bracket.h"
#include "theory/brackets/bracket_ball.h"
#include "theory/certificates/cert_ball.h"

/* The compressed instance P expanded to its full point list (w = NULL). */
static void expand(const pointset_t *P, pointset_t *E)
{
    fmpz_t N;
    fmpz_init(N);
    pointset_total_multiplicity(N, P);
    ck_assert(fmpz_cmp_ui(N, 20000) < 0);
    size_t n = fmpz_get_ui(N), d = P->d, r = 0;
    ck_assert_int_eq(pointset_init(E, n, d), AR_OK);
    for (size_t i = 0; i < P->n; i++)
        for (ulong k = 0; k < fmpz_get_ui(P->w + i); k++, r++)
            memcpy(E->x + r * d, P->x + i * d, d * sizeof(double));
    ck_assert_uint_eq(r, n);
    fmpz_clear(N);
}

START_TEST(test_multiplicity_lemma)
{
    /* dense weighted disk, 24 distinct points, weights up to e^6.  The eps-rank of the compressed
     * and expanded matrices is the same (proofs-notes/multiplicities.md), and every certificate on
     * the expansion's distinct rows is one on the compressed matrix; the growth over the rows of
     * the certified factors runs on both (full factors on the 24 rows, randomized on the 1608), so
     * the compressed bracket must certify what the expansion does: the same bracket. */
    ball_spec_t s;
    ball_spec_default(&s, BALL_DENSE, 2, 12.0);
    s.rho0 = 0.0;
    s.npoints = 24;
    pointset_t P, E;
    memset(&P, 0, sizeof P);
    memset(&E, 0, sizeof E);
    ck_assert_int_eq(ball_generate(&P, &s), AR_OK);
    expand(&P, &E);
    ck_assert_msg(E.n >= 1000, "expanded instance has %zu rows", E.n);
    double eps = 0.1;
    bracket_t bc, be;
    ck_assert_int_eq(bracket_compute(&P, &P, 12.0, eps, NULL, &bc), AR_OK);
    ck_assert_int_eq(bracket_compute(&E, &E, 12.0, eps, NULL, &be), AR_OK);
    ck_assert_str_eq(ar_cert_status_name(bc.status), "certified");
    ck_assert_str_eq(ar_cert_status_name(be.status), "certified");
    ck_assert_msg(bc.lower == be.lower && bc.upper == be.upper,
                  "compressed [%zu, %zu] vs expanded (%zu rows) [%zu, %zu]", bc.lower, bc.upper, E.n,
                  be.lower, be.upper);
    ck_assert(bc.lower >= 2);
    printf("multiplicity lemma: compressed %zu rows [%zu, %zu] (%s), expanded %zu rows [%zu, %zu] (%s)\n", P.n,
           bc.lower, bc.upper, ar_method_name(bc.lo.method), E.n, be.lower, be.upper, ar_method_name(be.lo.method));
    /* the ball engine agrees */
    bracket_t bb;
    ck_assert_int_eq(bracket_compute_ball(&P, 12.0, eps, NULL, &bb), AR_OK);
    ck_assert(bb.lower <= be.upper && bb.upper >= be.lower);
    pointset_clear(&P);
    pointset_clear(&E);
}
END_TEST

/* R_i = sum_{j != i} A_ij / A_ii from the dense enclosure (approximate). */
static double dense_maxR(const pointset_t *P, double beta)
{
    smx_t A;
    memset(&A, 0, sizeof A);
    ck_assert_int_eq(smx_compute(&A, P->x, P->n, P->x, P->n, P->d, P->w, beta, 128, 2), AR_OK);
    double mx = 0;
    for (size_t i = 0; i < P->n; i++) {
        double aii = A.a[i + i * P->n];
        mx = fmax(mx, (1.0 - aii) / aii);
    }
    smx_clear(&A);
    return mx;
}

START_TEST(test_cluster_vs_dense)
{
    for (size_t d = 2; d <= 3; d++) {
        double beta = d == 2 ? 1000.0 : 300.0;
        ball_spec_t s;
        ball_spec_default(&s, BALL_SHELLS, d, beta);
        pointset_t P;
        memset(&P, 0, sizeof P);
        ck_assert_int_eq(ball_generate(&P, &s), AR_OK);
        ball_lower_t c;
        ck_assert_int_eq(ball_cluster_lower(&P, beta, 0.1, 0.0, &c), AR_OK);
        double R = dense_maxR(&P, beta);
        /* upper bound, and tight (the tail is <= 1e-4 tau) */
        ck_assert_msg(c.max_R >= R * (1 - 1e-9), "d=%zu: certified max R %.9g < dense %.9g", d, c.max_R, R);
        ck_assert_msg(c.max_R <= R * 1.001 + 1e-3, "d=%zu: certified max R %.9g loose vs %.9g", d, c.max_R, R);
        ck_assert_uint_eq(c.certified, P.n);
        ck_assert_str_eq(ar_method_name(c.method), "diagdom");
        /* a smaller spacing fails honestly; a coarser net then certifies */
        s.c_angular *= 0.5;
        s.c_radial *= 0.5;
        pointset_t Q;
        memset(&Q, 0, sizeof Q);
        ck_assert_int_eq(ball_generate(&Q, &s), AR_OK);
        ck_assert_int_eq(ball_cluster_lower(&Q, beta, 0.1, 0.0, &c), AR_OK);
        ck_assert_uint_eq(c.certified, 0);
        ball_lower_t b;
        ck_assert_int_eq(ball_lower_search(&Q, beta, 0.1, &b), AR_OK);
        ck_assert_str_eq(ar_method_name(b.method), "cluster");
        ck_assert_msg(b.certified > P.n / 4 && b.certified < Q.n, "d=%zu: cluster %zu of %zu (packing %zu)", d,
                      b.certified, Q.n, P.n);
        pointset_clear(&P);
        pointset_clear(&Q);
    }
}
END_TEST

/* issue 35: the cluster certificate checks its centres in fixed blocks side by side; every field
 * (certified count, max R, max tail, near pairs, method) is the same for every thread count, with
 * and without a net (delta = 0, half the search's net, which fails, and the search's), on a d = 3 shells instance of
 * several blocks. */
START_TEST(test_cluster_thread_counts)
{
    double beta = 300.0;
    ball_spec_t s;
    ball_spec_default(&s, BALL_SHELLS, 3, beta);
    s.c_angular *= 0.5;
    s.c_radial *= 0.5;
    pointset_t Q;
    memset(&Q, 0, sizeof Q);
    ck_assert_int_eq(ball_generate(&Q, &s), AR_OK);
    ck_assert_msg(Q.n > 2000, "instance of %zu points: too few blocks to test", Q.n);
    ball_lower_t b;
    ck_assert_int_eq(ball_lower_search(&Q, beta, 0.1, &b), AR_OK);
    ck_assert(b.delta > 0 && b.certified > 1);
    double deltas[] = { 0.0, 0.5 * b.delta, b.delta };
    for (size_t k = 0; k < 3; k++) {
        ball_lower_t c1;
        for (size_t t = 0; t < TEST_NTHREAD_COUNTS; t++) {
            ar_config_t cfg;
            const ar_config_t *prev = test_threads_install(&cfg, TEST_THREAD_COUNTS[t]);
            ball_lower_t c;
            ck_assert_int_eq(ball_cluster_lower(&Q, beta, 0.1, deltas[k], t ? &c : &c1), AR_OK);
            ar_config_install(prev);
            if (t == 0)
                continue;
            ck_assert_msg(c.certified == c1.certified && c.m == c1.m && c.near_pairs == c1.near_pairs &&
                              memcmp(&c.max_R, &c1.max_R, sizeof c.max_R) == 0 &&
                              memcmp(&c.max_tail, &c1.max_tail, sizeof c.max_tail) == 0 && c.method == c1.method,
                          "delta %g, %d threads: certified %zu of %zu, max R %a, tail %a, pairs %zu; one thread: "
                          "%zu of %zu, %a, %a, %zu", deltas[k], TEST_THREAD_COUNTS[t], c.certified, c.m, c.max_R,
                          c.max_tail, c.near_pairs, c1.certified, c1.m, c1.max_R, c1.max_tail, c1.near_pairs);
        }
        /* the finer instance fails diagonal dominance, a finer net than the search's fails too, and the
         * search's net certifies */
        ck_assert_uint_eq(c1.certified, k < 2 ? 0 : c1.m);
        ck_assert(c1.near_pairs > 0);
    }
    pointset_clear(&Q);
}
END_TEST

/* The D4 lattice of the full 4-ball (family packed, claim B's d = 4 lower instance):
 * weighted diagonal dominance certifies every point at the default spacing and at
 * 0.99 of it, the certified max R bounds the dense double max R and is within 0.1 %
 * of it, and it sits at the lattice's interior value sum_v e^{-beta |v|^2 / 2}
 * (theta series 24, 24, 96, 24, 144 of D4) up to the multiplicity rounding; at 0.98
 * of the spacing the interior value exceeds 9/11 and the certificate fails. */
START_TEST(test_d4_lattice_diagdom)
{
    const double fac[3] = { 1.0, 0.99, 0.98 };
    double beta = 40.0;
    for (int k = 0; k < 3; k++) {
        ball_spec_t s;
        ball_spec_default(&s, BALL_PACKED, 4, beta);
        s.rho0 = 0.0;
        s.c_lattice *= fac[k];
        pointset_t P;
        memset(&P, 0, sizeof P);
        ck_assert_int_eq(ball_generate(&P, &s), AR_OK);
        ball_lower_t c;
        ck_assert_int_eq(ball_cluster_lower(&P, beta, 0.1, 0.0, &c), AR_OK);
        double R = dense_maxR(&P, beta), x = s.c_lattice * s.c_lattice / 2;
        double interior = 24 * exp(-x) + 24 * exp(-2 * x) + 96 * exp(-3 * x) + 24 * exp(-4 * x) + 144 * exp(-5 * x);
        ck_assert_msg(c.max_R >= R * (1 - 1e-9) && c.max_R <= R * 1.001 + 1e-3, "scale %g: certified %.9g, dense %.9g",
                      fac[k], c.max_R, R);
        ck_assert_msg(fabs(R - interior) < 0.02, "scale %g: max R %.6g, interior %.6g", fac[k], R, interior);
        if (k < 2)
            ck_assert_uint_eq(c.certified, P.n);
        else
            ck_assert_uint_eq(c.certified, 0);
        pointset_clear(&P);
    }
}
END_TEST

/* Chebyshev (second kind) interpolant at p points of t -> e^{-beta (s-t)^2/2}, at t. */
static double cheb_interp(double beta, double s, size_t p, double t)
{
    double num = 0, den = 0;
    for (size_t k = 0; k < p; k++) {
        double tk = cos(M_PI * (double)k / (double)(p - 1));
        double wk = (k % 2 ? -1.0 : 1.0) * ((k == 0 || k == p - 1) ? 0.5 : 1.0);
        if (t == tk)
            return exp(-beta * (s - tk) * (s - tk) / 2);
        double c = wk / (t - tk);
        num += c * exp(-beta * (s - tk) * (s - tk) / 2);
        den += c;
    }
    return num / den;
}

START_TEST(test_cheb_error_bound)
{
    double betas[] = { 5.0, 50.0, 400.0 };
    for (int b = 0; b < 3; b++)
        for (size_t p = 8; p <= 80; p += 12) {
            double bound = ball_cheb_error(betas[b], p), meas = 0;
            for (int i = 0; i <= 40; i++)
                for (int j = 0; j <= 400; j++) {
                    double s = -1.2 + 2.4 * i / 40.0, t = -1 + 2.0 * j / 400.0;
                    meas = fmax(meas, fabs(cheb_interp(betas[b], s, p, t) - exp(-betas[b] * (s - t) * (s - t) / 2)));
                }
            if (meas > 1e-13)
                ck_assert_msg(meas <= bound, "beta %g p %zu: measured %g > bound %g", betas[b], p, meas, bound);
            /* not absurdly loose where it matters */
            if (bound < 0.01 && bound > 1e-10)
                ck_assert_msg(bound <= 1e4 * meas, "beta %g p %zu: bound %g vs measured %g", betas[b], p, bound, meas);
        }
}
END_TEST

START_TEST(test_tensor_explicit)
{
    /* B_ij = A_ij prod_c q(x_ic, x_jc) / K_ij, rank p^d; its error against the
     * enclosure of A must be within the certified err */
    double beta = 20.0, eps = 0.1;
    ball_spec_t s;
    ball_spec_default(&s, BALL_UNIFORM, 2, beta);
    s.rho0 = 0.0;
    s.npoints = 2000;
    pointset_t P;
    memset(&P, 0, sizeof P);
    ck_assert_int_eq(ball_generate(&P, &s), AR_OK);
    ball_upper_t u;
    ck_assert_int_eq(ball_upper_tensor(&P, beta, eps, &u), AR_OK);
    ck_assert_int_eq(u.capped, 0);
    ck_assert_uint_eq(u.rank, u.p * u.p);
    ck_assert(u.err < eps);
    smx_t A;
    memset(&A, 0, sizeof A);
    ck_assert_int_eq(smx_compute(&A, P.x, P.n, P.x, P.n, 2, P.w, beta, 128, 2), AR_OK);
    double worst = 0;
    for (size_t i = 0; i < P.n; i += 37) {
        double row = A.rowerr[i];
        for (size_t j = 0; j < P.n; j++) {
            double ratio = 1.0;
            for (size_t c = 0; c < 2; c++) {
                double xs = P.x[i * 2 + c], yt = P.x[j * 2 + c];
                ratio *= cheb_interp(beta, xs, u.p, yt) / exp(-beta * (xs - yt) * (xs - yt) / 2);
            }
            double a = A.a[i + j * P.n];
            row += fabs(a - a * ratio);
        }
        worst = fmax(worst, row);
    }
    ck_assert_msg(worst <= u.err * (1 + 1e-6), "explicit rank-%zu error %g > certified %g", u.rank, worst, u.err);
    /* one point per axis fewer is not certified */
    ck_assert(ball_cheb_error(beta, u.p - 1) > u.e1);
    smx_clear(&A);
    /* points outside [-1, 1]^d are refused */
    P.x[0] = 1.25;
    ck_assert_int_eq(ball_upper_tensor(&P, beta, eps, &u), AR_EINVAL);
    pointset_clear(&P);
}
END_TEST

START_TEST(test_bracket_ball_figure)
{
    /* the figure: d = 2, beta = 3000, eps = 0.1, default shells */
    ball_spec_t s;
    ball_spec_default(&s, BALL_SHELLS, 2, 3000.0);
    pointset_t P;
    memset(&P, 0, sizeof P);
    ck_assert_int_eq(ball_generate(&P, &s), AR_OK);
    ar_config_t cfg;
    ar_config_default(&cfg);
    cfg.ball_dense_max = 0;
    ar_config_install(&cfg);
    bracket_t b;
    ball_bracket_info_t info;
    ck_assert_int_eq(bracket_compute_ball_ex(&P, 3000.0, 0.1, NULL, &b, &info), AR_OK);
    ar_config_install(NULL);
    ck_assert_str_eq(ar_cert_status_name(b.status), "certified");
    ck_assert_str_eq(ar_method_name(b.lo.method), "ball-diagdom");
    ck_assert_msg(b.lower >= 600, "lower %zu < 600", b.lower);
    ck_assert_uint_eq(b.lower, P.n);
    ck_assert(b.lo.invnorm * 0.1 < 1);
    ck_assert_int_eq(info.dense_run, 0);
    pointset_clear(&P);
}
END_TEST

START_TEST(test_bad_input)
{
    pointset_t P;
    memset(&P, 0, sizeof P);
    ck_assert_int_eq(pointset_init(&P, 3, 2), AR_OK);
    ball_lower_t c;
    ball_upper_t u;
    bracket_t b;
    ck_assert_int_eq(ball_cluster_lower(&P, 0.0, 0.1, 0.0, &c), AR_EINVAL);
    ck_assert_int_eq(ball_cluster_lower(&P, 10.0, 1.0, 0.0, &c), AR_EINVAL);
    ck_assert_int_eq(ball_cluster_lower(&P, 10.0, 0.1, -1.0, &c), AR_EINVAL);
    ck_assert_int_eq(ball_upper_tensor(&P, INFINITY, 0.1, &u), AR_EINVAL);
    ck_assert_int_eq(bracket_compute_ball(NULL, 10.0, 0.1, NULL, &b), AR_EINVAL);
    P.x[1] = NAN;
    ck_assert_int_eq(bracket_compute_ball(&P, 10.0, 0.1, NULL, &b), AR_EINVAL);
    /* three coincident points: never certified beyond rank 1 */
    P.x[1] = 0.0;
    ck_assert_int_eq(ball_cluster_lower(&P, 10.0, 0.1, 0.0, &c), AR_OK);
    ck_assert_uint_eq(c.certified, 0);
    ck_assert_int_eq(bracket_compute_ball(&P, 10.0, 0.1, NULL, &b), AR_OK);
    ck_assert_uint_eq(b.lower, 1);
    pointset_clear(&P);
}
END_TEST

Suite *suite_cert_ball(void)
{
    Suite *s = suite_create("cert_ball");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_multiplicity_lemma);
    tcase_add_test(tc, test_cluster_vs_dense);
    tcase_add_test(tc, test_cluster_thread_counts);
    tcase_add_test(tc, test_d4_lattice_diagdom);
    tcase_add_test(tc, test_cheb_error_bound);
    tcase_add_test(tc, test_tensor_explicit);
    tcase_add_test(tc, test_bracket_ball_figure);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
