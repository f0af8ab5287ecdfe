/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_packing_tail.c -- the counting tail of the packing certificate
 * (theory/certificates/cert_packing_tail.c, proofs-notes/packing-lower-bounds.md sections 6, 7):
 * on greedy cap packings, every row's sum of exp(-(beta/2) D_ij) over the pairs with
 * (beta/2) D_ij >= T is at most the counting tail (near the sphere and in R^d, both finite), its formula (the
 * sum by parts), the degenerate cases (m < 2, sigma <= 0), and the automatic threshold's range. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <arb.h>
#include "testutil.h"
#include "numerics/arbd.h"
#include "constructions/pointsets/pointset.h"
#include "constructions/pointsets/sphere.h"
#include "theory/certificates/cert_packing.h"
#include "theory/certificates/cert_packing_impl.h"

/* max over the rows of sum_{j: (beta/2) D_ij >= T} exp(-(beta/2) D_ij) (double; the caller allows
 * a relative 1e-9), and *sigma = (beta/2) min_{i != j} D_ij. */
static double far_sum(const pointset_t *P, double beta, double T, double *sigma)
{
    size_t m = P->n, d = P->d;
    double worst = 0.0, mn = INFINITY;
    for (size_t i = 0; i < m; i++) {
        double s = 0.0;
        for (size_t j = 0; j < m; j++) {
            if (j == i)
                continue;
            double D = 0.0;
            for (size_t c = 0; c < d; c++) {
                double u = P->x[i * d + c] - P->x[j * d + c];
                D += u * u;
            }
            double e = 0.5 * beta * D;
            mn = fmin(mn, e);
            if (e >= T)
                s += exp(-e);
        }
        worst = fmax(worst, s);
    }
    *sigma = mn;
    return worst;
}

START_TEST(test_tail_bounds_far_pairs)
{
    struct { size_t d; double theta, beta; size_t maxp; } cs[] = {
        { 3, 0.3, 50.0, 400 }, { 2, 0.2, 200.0, 40 }, { 4, 0.6, 20.0, 300 },
    };
    for (size_t q = 0; q < sizeof cs / sizeof cs[0]; q++) {
        pointset_t P;
        memset(&P, 0, sizeof P);
        ck_assert_int_eq(sphere_packing(&P, cs[q].d, cs[q].theta, cs[q].maxp, test_seed() + q, 0), AR_OK);
        double beta = cs[q].beta, sigma;
        far_sum(&P, beta, INFINITY, &sigma);
        sigma *= 1.0 - 1e-9;                            /* below every pair's (beta/2) D */
        ck_assert(sigma > 0);
        arb_t tail, tail_rd, eta;
        arb_init(tail);
        arb_init(tail_rd);
        arb_init(eta);
        double Ts[3] = { sigma + 0.5, sigma + 3.0, sigma + 8.0 };
        for (int k = 0; k < 3; k++) {
            double truth = far_sum(&P, beta, Ts[k], &(double){0});
            arb_set_d(eta, 1e-12);                      /* >= | |x_j| - 1 | for normalised doubles */
            pack_counting_tail(tail, sigma, Ts[k], P.n, P.d, beta, eta);
            arb_pos_inf(eta);
            pack_counting_tail(tail_rd, sigma, Ts[k], P.n, P.d, beta, eta);
            double ub = arbd_ub(tail), ub_rd = arbd_ub(tail_rd);
            ck_assert_msg(truth <= ub * (1.0 + 1e-9) && truth <= ub_rd * (1.0 + 1e-9),
                          "d=%zu m=%zu beta=%g T=%g: far sum %.17g, tail %.17g (R^d %.17g)", P.d, P.n, beta, Ts[k],
                          truth, ub, ub_rd);
            ck_assert_msg(ub < INFINITY && ub_rd < INFINITY, "T=%g: tail %.17g, R^d %.17g", Ts[k], ub, ub_rd);
        }
        arb_clear(tail);
        arb_clear(tail_rd);
        arb_clear(eta);
        pointset_clear(&P);
    }
}
END_TEST

/* The counting tail's formula in R^d (eta = +inf), recomputed here in long double:
 *   sum_{k < K} min(m - 1, N(t_{k+1})) (e^{-t_k} - e^{-t_{k+1}}) + (m - 1) e^{-t_K},
 * N(t) = (2 sqrt(t / sigma) + 1)^d - 1, t_k = T + k/4, K the first k + 1 with N(t_{k+1}) >= m - 1
 * (section 7 of the note: the sum by parts, 1 - e^{-1/4} = 0.221 of the annulus sum before it). */
static long double tail_reference(double sigma, double T, size_t m, size_t d)
{
    long double acc = 0.0L, mm = (long double)(m - 1);
    int k;
    for (k = 0; k < 400; k++) {
        long double t1 = (long double)T + 0.25L * (k + 1), tk = (long double)T + 0.25L * k;
        long double N = powl(2.0L * sqrtl(t1 / (long double)sigma) + 1.0L, (long double)d) - 1.0L;
        if (N > mm)
            N = mm;
        acc += N * (expl(-tk) - expl(-t1));
        if (N >= mm)
            break;
    }
    int K = k < 400 ? k + 1 : 400;
    return acc + mm * expl(-((long double)T + 0.25L * K));
}

START_TEST(test_tail_formula_by_parts)
{
    struct { double sigma, T; size_t m, d; } cs[] = {
        { 1.0, 2.0, 50, 3 }, { 2.77, 15.5, 588402, 7 }, { 2.64, 11.75, 763468, 6 }, { 0.5, 30.0, 1000000, 2 },
    };
    arb_t tail, eta;
    arb_init(tail);
    arb_init(eta);
    arb_pos_inf(eta);
    for (size_t q = 0; q < sizeof cs / sizeof cs[0]; q++) {
        pack_counting_tail(tail, cs[q].sigma, cs[q].T, cs[q].m, cs[q].d, 10.0, eta);
        double ub = arbd_ub(tail);
        long double ref = tail_reference(cs[q].sigma, cs[q].T, cs[q].m, cs[q].d);
        ck_assert_msg((long double)ub >= ref * (1.0L - 1e-15L) && (long double)ub <= ref * (1.0L + 1e-9L),
                      "sigma %g T %g m %zu d %zu: tail %.17g, reference %.17Lg", cs[q].sigma, cs[q].T, cs[q].m,
                      cs[q].d, ub, ref);
    }
    arb_clear(tail);
    arb_clear(eta);
}
END_TEST

START_TEST(test_tail_degenerate_and_threshold)
{
    arb_t tail, eta;
    arb_init(tail);
    arb_init(eta);
    arb_pos_inf(eta);
    pack_counting_tail(tail, 1.0, 2.0, 1, 3, 10.0, eta);
    ck_assert(arb_is_zero(tail));                       /* one point: no pair */
    pack_counting_tail(tail, 0.0, 2.0, 10, 3, 10.0, eta);
    ck_assert(arb_is_finite(tail) == 0);                /* no separation: no bound */
    arb_clear(tail);
    arb_clear(eta);
    /* the threshold: the crude choice without a separation, never above it, never below sigma */
    double tau = (1.0 - 0.1) / (1.0 + 0.1), crude = log(1000.0) + log(1e4 / tau) + 1.0;
    ck_assert(pack_tail_threshold(1000, 3, 0.0, tau, 0.05 * tau) == crude);
    for (double sg = 0.5; sg < 20; sg *= 2) {
        double T = pack_tail_threshold(1000, 3, sg, tau, 1e-3 * tau);
        ck_assert_msg(T <= crude && (T == crude || T >= sg), "sigma %g: T %g (crude %g)", sg, T, crude);
    }
}
END_TEST

Suite *suite_cert_packing_tail(void)
{
    Suite *s = suite_create("cert_packing_tail");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_tail_bounds_far_pairs);
    tcase_add_test(tc, test_tail_formula_by_parts);
    tcase_add_test(tc, test_tail_degenerate_and_threshold);
    suite_add_tcase(s, tc);
    return s;
}
