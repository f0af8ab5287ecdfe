/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_packing_diagdom.c -- diagonal dominance of packings at scale
 * (theory/certificates/cert_packing_diagdom.c; issue #3 part 3).
 *
 * Truth: R_i = sum_{j != i} exp(beta (x_i.x_j - x_i.x_i)) over ALL pairs in
 * 256-bit MPFR (dot products of doubles are exact at that precision).
 * Checked: pack_diagdom's max_R is >= the truth and within 1e-6 relative +
 * its own tail of it; its verdict agrees with the exact criterion and with
 * the dense certificates (lower_diagdom, lower_blocks_rows on smx_compute)
 * outside a declared slack; the pair enumeration of the cell grid finds
 * exactly the pairs below the threshold; points off the unit sphere. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include <flint/fmpz.h>
#include "testutil.h"
#include "numerics/rng.h"
#include "numerics/softmax.h"
#include "constructions/pointsets/pointset.h"
#include "constructions/pointsets/sphere.h"
#include "constructions/pointsets/sphere_code.h"
#include "theory/certificates/cert_lower.h"
#include "theory/certificates/cert_packing.h"
#include "theory/certificates/cert_packing_impl.h"
#include "packutil.h"

/* Bound checks shared by the tests: 0.5 ulp of the truth's rounding is
 * covered by the 1e-15 relative allowance on the lower side. */
static void check_bound(const pack_cert_t *c, double truth, const char *what, uint64_t seed)
{
    ck_assert_msg(c->max_R >= truth * (1.0 - 1e-15),
                  "%s seed=%llu d=%zu m=%zu beta=%.17g: max_R=%.17g < true %.17g", what,
                  (unsigned long long)seed, c->d, c->m, c->beta, c->max_R, truth);
    ck_assert_msg(c->max_R <= truth * (1.0 + 1e-6) + c->max_tail + 1e-300,
                  "%s seed=%llu d=%zu m=%zu beta=%.17g: max_R=%.17g vacuous vs true %.17g "
                  "(tail %.3g)", what, (unsigned long long)seed, c->d, c->m, c->beta,
                  c->max_R, truth, c->max_tail);
}

START_TEST(test_packing_vs_truth_and_dense)
{
    uint64_t seed = test_seed() * 1000 + 17;
    rng_t r;
    rng_init(&r, seed);
    double eps = 0.1, tau = tau_of(eps);
    int n_cert = 0, n_fail = 0;
    for (int trial = 0; trial < 16; trial++) {
        size_t d = 2 + (size_t)(trial % 4);
        double theta = (d == 2 ? 0.02 : 0.25) + (d == 2 ? 0.1 : 0.35) * rng_uniform(&r);
        pointset_t P = { 0 };
        ck_assert_int_eq(sphere_packing(&P, d, theta, 300, seed + (uint64_t)trial, 0), AR_OK);
        size_t m = P.n;
        /* beta near the dominance threshold: beta (1 - cos theta) in [0.4, 4.4] */
        double beta = (0.4 + 4.0 * rng_uniform(&r)) / (1.0 - cos(theta));
        pack_cert_t c;
        ck_assert_int_eq(pack_diagdom(&P, beta, eps, &c), AR_OK);
        ck_assert(c.m == m && (c.certified == 0 || c.certified == m));
        double truth = true_max_R(&P, beta);
        check_bound(&c, truth, "pack_diagdom", seed + (uint64_t)trial);
        double slack = 1e-6 * truth + c.max_tail + 1e-12;
        int true_cert = truth < tau;          /* exact criterion (tau in double: 1e-16 off) */
        if (fabs(truth - tau) > slack)
            ck_assert_msg((c.certified == m) == true_cert,
                          "seed=%llu d=%zu m=%zu beta=%.17g: certified=%zu but true R=%.17g "
                          "tau=%.17g", (unsigned long long)(seed + (uint64_t)trial), d, m,
                          beta, c.certified, truth, tau);
        /* dense certificates on the same instance */
        smx_t A;
        memset(&A, 0, sizeof A);
        ck_assert_int_eq(smx_compute(&A, P.x, m, P.x, m, d, NULL, beta, 0, 2), AR_OK);
        size_t *id = malloc(m * sizeof *id);
        for (size_t i = 0; i < m; i++)
            id[i] = i;
        lower_cert_t ld, lb;
        ck_assert_int_eq(lower_diagdom(&A, id, id, m, eps, &ld), AR_OK);
        ck_assert_int_eq(lower_blocks_rows(&A, id, m, eps, &lb), AR_OK);
        double dense_slack = 1e-9;
        if (c.certified && tau - truth > dense_slack) {
            ck_assert_msg(ld.rank == m && lb.rank == m,
                          "seed=%llu d=%zu m=%zu beta=%.17g: pack certified, dense diag %zu, "
                          "blocks %zu", (unsigned long long)(seed + (uint64_t)trial), d, m,
                          beta, ld.rank, lb.rank);
            pack_cert_t ci;
            ck_assert_int_eq(pack_invnorm(&P, beta, eps, &ci), AR_OK);
            ck_assert_msg(ci.certified == m, "pack_invnorm failed where diagdom certified");
        }
        if (ld.rank == m && m > 1 && tau - truth > slack)
            ck_assert_msg(c.certified == m, "seed=%llu: dense diag certified, pack did not "
                          "(true R=%.17g, max_R=%.17g)",
                          (unsigned long long)(seed + (uint64_t)trial), truth, c.max_R);
        if (c.certified)
            n_cert++;
        else
            n_fail++;
        free(id);
        smx_clear(&A);
        pointset_clear(&P);
    }
    ck_assert_msg(n_cert > 0 && n_fail > 0, "trials not informative: %d certified, %d failed",
                  n_cert, n_fail);
}
END_TEST

/* Random points (not a packing) scaled off the sphere by factors in
 * [0.9, 1.1]; explicit thresholds phi2 from tiny (large tail) to huge (no
 * tail).  The grid must find exactly the pairs with fl(|x_i - x_j|^2) < phi2. */
START_TEST(test_grid_pairs_and_offsphere)
{
    uint64_t seed = test_seed() * 1000 + 29;
    rng_t r;
    rng_init(&r, seed);
    for (int trial = 0; trial < 6; trial++) {
        size_t d = 2 + (size_t)(trial % 4), m = 120 + (size_t)(rng_uniform(&r) * 120);
        pointset_t P = { 0 };
        ck_assert_int_eq(sphere_uniform(&P, m, d, seed + (uint64_t)trial), AR_OK);
        for (size_t i = 0; i < m; i++) {
            double f = 0.9 + 0.2 * rng_uniform(&r);
            for (size_t c = 0; c < d; c++)
                P.x[i * d + c] *= f;
        }
        double beta = 20.0 + 200.0 * rng_uniform(&r);
        double phis[4] = { 1e-3, 0.05, 0.5, 200.0 };
        double truth = true_max_R(&P, beta);
        for (int k = 0; k < 4; k++) {
            pack_cert_t c;
            ck_assert_int_eq(pack_diagdom_phi(&P, beta, 0.1, phis[k], &c), AR_OK);
            size_t cnt = 0;
            for (size_t i = 0; i < m; i++)
                for (size_t j = i + 1; j < m; j++) {
                    double D = 0.0;
                    for (size_t cc = 0; cc < d; cc++) {
                        double u = P.x[i * d + cc] - P.x[j * d + cc];
                        D += u * u;
                    }
                    cnt += D < c.phi2;
                }
            ck_assert_msg(c.near_pairs == cnt, "seed=%llu d=%zu m=%zu phi2=%g: grid found %zu "
                          "pairs, brute force %zu", (unsigned long long)(seed + (uint64_t)trial),
                          d, m, c.phi2, c.near_pairs, cnt);
            check_bound(&c, truth, "pack_diagdom_phi", seed + (uint64_t)trial);
            if (k == 3)
                ck_assert_msg(c.max_tail == 0.0 && cnt == m * (m - 1) / 2,
                              "huge phi2 must evaluate every pair");
        }
        pointset_clear(&P);
    }
}
END_TEST

/* The second pass on the rows that need it (diagdom_refine, proofs-notes/packing-lower-bounds.md
 * section 6): the zonal code of S^4 at theta = 0.343529344, beta = 40 (1440 points) fails the first
 * pass on its counting tail alone and is certified by refining a few rows.  The certificate must
 * hold against the truth, agree with the whole second pass at the same threshold (which evaluates
 * every pair below it), and have evaluated fewer pairs than that pass. */
START_TEST(test_refined_rows)
{
    pointset_t P = { 0 };
    ck_assert_int_eq(sphere_zonal(&P, 5, 0.343529344, 100000), AR_OK);
    ck_assert_uint_eq(P.n, 1440);
    double beta = 40.0, eps = 0.1;
    pack_cert_t c, f;
    ck_assert_int_eq(pack_diagdom(&P, beta, eps, &c), AR_OK);
    ck_assert_int_eq(pack_diagdom_phi(&P, beta, eps, c.phi2, &f), AR_OK);
    ck_assert_msg(c.certified == P.n && f.certified == P.n, "refined %zu, whole pass %zu of %zu", c.certified,
                  f.certified, P.n);
    ck_assert_msg(c.near_pairs < f.near_pairs, "refined rows evaluated %zu pairs, the whole pass %zu: "
                  "the refinement did not run", c.near_pairs, f.near_pairs);
    double truth = true_max_R(&P, beta);
    check_bound(&c, truth, "pack_diagdom (refined rows)", 0);
    ck_assert(c.max_R < tau_of(eps) && f.max_R >= truth * (1.0 - 1e-15));
    pointset_clear(&P);
}
END_TEST

/* The certificate's later thresholds (attempts 2 and 3, T raised by ln 1e3 each) also re-sum only
 * the rows the first pass flagged: on a zonal code of S^4, beta is bisected towards the value where
 * the certificate flips, which lands within a hair of tau and makes it try those thresholds; there
 * each verdict equals the whole pass's at the same threshold, with fewer pairs, and every
 * certified bound is above the 256-bit truth (proofs-notes/packing-lower-bounds.md section 6). */
START_TEST(test_refined_later_thresholds)
{
    pointset_t P = { 0 };
    ck_assert_int_eq(sphere_zonal(&P, 5, 0.343529344, 100000), AR_OK);
    double lo = 10.0, hi = 40.0, eps = 0.1, T_min = INFINITY;
    int later = 0, truths = 0;
    for (int it = 0; it < 40; it++) {
        double beta = 0.5 * (lo + hi);
        pack_cert_t c, f;
        ck_assert_int_eq(pack_diagdom(&P, beta, eps, &c), AR_OK);
        double T = c.phi2 * beta / 2;
        T_min = fmin(T_min, T);
        if (T > T_min + 5.0) {                          /* a later threshold: T1 + ln 1e3 or more */
            later++;
            ck_assert_int_eq(pack_diagdom_phi(&P, beta, eps, c.phi2, &f), AR_OK);
            ck_assert_msg(c.certified == f.certified, "beta %.17g T %g: refined %zu, whole pass %zu", beta, T,
                          c.certified, f.certified);
            ck_assert_msg(c.near_pairs < f.near_pairs, "beta %.17g: refined rows %zu pairs, whole pass %zu", beta,
                          c.near_pairs, f.near_pairs);
            if (c.certified && truths < 2) {
                check_bound(&c, true_max_R(&P, beta), "pack_diagdom (later threshold)", 0);
                truths++;
            }
        }
        if (c.certified)
            hi = beta;
        else
            lo = beta;
    }
    ck_assert_msg(later >= 2 && truths >= 1, "not informative: %d later thresholds, %d certified", later, truths);
    pointset_clear(&P);
}
END_TEST

/* The search's passes (stop_early = 1: a sample of rows first, then a pass that may stop) give
 * the same verdict as the complete certificate, on zonal codes of S^5 at beta = 60 from far below
 * to above the certified angle (the sample decides the clear failures; proofs-notes/
 * packing-lower-bounds.md section 6). */
START_TEST(test_early_verdicts)
{
    double beta = 60.0, eps = 0.1;
    pack_cert_t best;
    ck_assert_int_eq(pack_lower_search_gen(6, beta, eps, 1, 1000000, PACK_DIAGDOM, PACK_GEN_ZONAL, &best), AR_OK);
    ck_assert(best.certified > 1000);
    double f[6] = { 0.7, 0.9, 0.99, 0.999, 1.0, 1.05 };
    int fails = 0, certs = 0;
    for (int k = 0; k < 6; k++) {
        pointset_t P = { 0 };
        ck_assert_int_eq(sphere_zonal(&P, 6, best.theta * f[k], 1000000), AR_OK);
        pack_cert_t e, c;
        ck_assert_int_eq(pack_diagdom_run(&P, beta, eps, 0.0, 1, &e), AR_OK);
        ck_assert_int_eq(pack_diagdom(&P, beta, eps, &c), AR_OK);
        ck_assert_msg(e.certified == c.certified, "theta %.9f (%zu points): early %zu, complete %zu",
                      best.theta * f[k], P.n, e.certified, c.certified);
        if (!e.certified)
            ck_assert(isinf(e.max_R) || !(e.max_R < tau_of(eps)));
        fails += !c.certified;
        certs += c.certified > 0;
        pointset_clear(&P);
    }
    ck_assert_msg(fails >= 2 && certs >= 2, "not informative: %d failed, %d certified", fails, certs);
}
END_TEST

Suite *suite_cert_packing_diagdom(void)
{
    Suite *s = suite_create("cert_packing_diagdom");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_packing_vs_truth_and_dense);
    tcase_add_test(tc, test_grid_pairs_and_offsphere);
    tcase_add_test(tc, test_refined_rows);
    tcase_add_test(tc, test_refined_later_thresholds);
    tcase_add_test(tc, test_early_verdicts);
    suite_add_tcase(s, tc);
    return s;
}
