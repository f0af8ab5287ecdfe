/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_packing.c -- packing lower certificates at scale (issue #3 part 3).
 *
 * Truth: R_i = sum_{j != i} exp(beta (x_i.x_j - x_i.x_i)) over ALL pairs in
 * 256-bit MPFR (dot products of doubles are exact at that precision).
 * Checked: pack_diagdom's max_R is >= the truth and within 1e-6 relative +
 * its own tail of it; its verdict agrees with the exact criterion and with
 * the dense certificates (lower_diagdom, lower_blocks_rows on smx_compute)
 * outside a declared slack; the pair enumeration of the cell grid finds
 * exactly the pairs below the threshold; points off the unit sphere;
 * the multiset statement against a dense weighted enclosure; determinism;
 * bad input. */
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

/* max_i R_i in 256-bit MPFR over all pairs (rounded to nearest double). */
static double true_max_R(const pointset_t *P, double beta)
{
    size_t m = P->n, d = P->d;
    mpfr_t s, t, dot, nrm, best;
    mpfr_inits2(256, s, t, dot, nrm, best, (mpfr_ptr)0);
    mpfr_set_zero(best, 1);
    for (size_t i = 0; i < m; i++) {
        const double *xi = P->x + i * d;
        mpfr_set_zero(nrm, 1);
        for (size_t c = 0; c < d; c++) {
            mpfr_set_d(t, xi[c], MPFR_RNDN);
            mpfr_mul_d(t, t, xi[c], MPFR_RNDN);
            mpfr_add(nrm, nrm, t, MPFR_RNDN);
        }
        mpfr_set_zero(s, 1);
        for (size_t j = 0; j < m; j++) {
            if (j == i)
                continue;
            const double *xj = P->x + j * d;
            mpfr_set_zero(dot, 1);
            for (size_t c = 0; c < d; c++) {
                mpfr_set_d(t, xi[c], MPFR_RNDN);
                mpfr_mul_d(t, t, xj[c], MPFR_RNDN);
                mpfr_add(dot, dot, t, MPFR_RNDN);
            }
            mpfr_sub(t, dot, nrm, MPFR_RNDN);
            mpfr_mul_d(t, t, beta, MPFR_RNDN);
            mpfr_exp(t, t, MPFR_RNDN);
            mpfr_add(s, s, t, MPFR_RNDN);
        }
        if (mpfr_cmp(s, best) > 0)
            mpfr_set(best, s, MPFR_RNDN);
    }
    double r = mpfr_get_d(best, MPFR_RNDN);
    mpfr_clears(s, t, dot, nrm, best, (mpfr_ptr)0);
    return r;
}

static double tau_of(double eps)
{
    return (1.0 - eps) / (1.0 + eps);
}

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

/* n > m: the weighted (multiset) matrix of the returned sub-packing, built
 * densely with integer multiplicities, must pass the dense diagonal check. */
START_TEST(test_multiset_claim)
{
    uint64_t seed = test_seed() * 1000 + 31;
    double eps = 0.1;
    pointset_t P = { 0 };
    ck_assert_int_eq(sphere_packing(&P, 3, 0.6, 40, seed, 0), AR_OK);
    size_t m = P.n;
    /* large margin (small max_R) and a margin near the threshold */
    double betas[2] = { 40.0, 9.0 };
    for (int b = 0; b < 2; b++) {
        pack_cert_t c;
        ck_assert_int_eq(pack_diagdom(&P, betas[b], eps, &c), AR_OK);
        if (!c.certified)
            continue;
        size_t ns[4] = { m / 2, m, 2 * m + 1, 7 * m + 3 };
        for (int k = 0; k < 4; k++) {
            size_t n = ns[k], kk = pack_multiset_lower(&c, n);
            ck_assert(kk >= 1 && kk <= (n < m ? n : m));
            if (n <= m)
                ck_assert_int_eq(kk, n);
            if (kk < 2)
                continue;
            /* weights on the first kk points: q or q+1, summing to n */
            size_t q = n / kk, rem = n % kk;
            if (n <= m) {
                q = 1;
                rem = 0;
            }
            pointset_t Q = { 0 };
            ck_assert_int_eq(pointset_init(&Q, kk, 3), AR_OK);
            memcpy(Q.x, P.x, kk * 3 * sizeof(double));
            ck_assert_int_eq(pointset_alloc_weights(&Q), AR_OK);
            for (size_t i = 0; i < kk; i++)
                fmpz_set_ui(Q.w + i, (ulong)(q + (i < rem)));
            smx_t A;
            memset(&A, 0, sizeof A);
            ck_assert_int_eq(smx_compute(&A, Q.x, kk, Q.x, kk, 3, Q.w, betas[b], 0, 2), AR_OK);
            size_t *id = malloc(kk * sizeof *id);
            for (size_t i = 0; i < kk; i++)
                id[i] = i;
            lower_cert_t ld;
            ck_assert_int_eq(lower_diagdom(&A, id, id, kk, eps, &ld), AR_OK);
            ck_assert_msg(ld.rank == kk, "beta=%g m=%zu n=%zu: claimed %zu, dense weighted "
                          "check gives %zu (max_R=%.17g)", betas[b], m, n, kk, ld.rank, c.max_R);
            free(id);
            smx_clear(&A);
            pointset_clear(&Q);
        }
    }
    pointset_clear(&P);
}
END_TEST

START_TEST(test_search_deterministic)
{
    uint64_t seed = test_seed() + 5;
    pack_cert_t a, b;
    ck_assert_int_eq(pack_lower_search(3, 30.0, 0.1, seed, 5000, &a), AR_OK);   /* the pooled greedy here */
    ck_assert_int_eq(pack_lower_search(3, 30.0, 0.1, seed, 5000, &b), AR_OK);
    ck_assert_msg(a.m == b.m && a.theta == b.theta && a.max_R == b.max_R,
                  "seed=%llu: runs differ (m %zu/%zu theta %.17g/%.17g)",
                  (unsigned long long)seed, a.m, b.m, a.theta, b.theta);
    ck_assert(a.certified == a.m && a.m > 1);
    /* re-create the certified packing and check it independently */
    pointset_t P = { 0 };
    ck_assert_int_eq(sphere_packing_pool(&P, 3, a.theta, 5000, seed, PACK_POOL_MAX), AR_OK);
    ck_assert_int_eq(P.n, a.m);
    double truth = true_max_R(&P, 30.0);
    ck_assert_msg(truth < tau_of(0.1) && truth <= a.max_R, "true R %.17g, max_R %.17g", truth,
                  a.max_R);
    pointset_clear(&P);
    /* the zonal code's search, re-created and checked the same way */
    ck_assert_int_eq(pack_lower_search_gen(3, 30.0, 0.1, seed, 5000, PACK_DIAGDOM, PACK_GEN_ZONAL, &b), AR_OK);
    ck_assert(b.certified == b.m && b.m > 1);
    ck_assert_int_eq(sphere_zonal(&P, 3, b.theta, 5000), AR_OK);
    ck_assert_int_eq(P.n, b.m);
    truth = true_max_R(&P, 30.0);
    ck_assert_msg(truth < tau_of(0.1) && truth <= b.max_R, "zonal: true R %.17g, max_R %.17g", truth, b.max_R);
    pointset_clear(&P);
    /* d = 2: the regular polygon; the count is floor-limited by max_points */
    pack_cert_t c;
    ck_assert_int_eq(pack_lower_search(2, 100.0, 0.1, seed, 30, &c), AR_OK);
    ck_assert_int_eq(c.m, 30);
    ck_assert_int_eq(c.certified, 30);
}
END_TEST

START_TEST(test_bad_input)
{
    pointset_t P = { 0 };
    ck_assert_int_eq(sphere_uniform(&P, 10, 3, 1), AR_OK);
    pack_cert_t c;
    ck_assert_int_eq(pack_diagdom(NULL, 1.0, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(pack_diagdom(&P, 1.0, 0.1, NULL), AR_EINVAL);
    ck_assert_int_eq(pack_diagdom(&P, -1.0, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(pack_diagdom(&P, INFINITY, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(pack_diagdom(&P, 1.0, 0.0, &c), AR_EINVAL);
    ck_assert_int_eq(pack_diagdom(&P, 1.0, 1.0, &c), AR_EINVAL);
    ck_assert_int_eq(pack_diagdom(&P, 1.0, NAN, &c), AR_EINVAL);
    ck_assert_int_eq(pack_diagdom_phi(&P, 1.0, 0.1, -1.0, &c), AR_EINVAL);
    ck_assert_int_eq(pack_diagdom_phi(&P, 1.0, 0.1, NAN, &c), AR_EINVAL);
    double keep = P.x[4];
    P.x[4] = 1.6;
    ck_assert_int_eq(pack_diagdom(&P, 1.0, 0.1, &c), AR_EINVAL);
    P.x[4] = NAN;
    ck_assert_int_eq(pack_diagdom(&P, 1.0, 0.1, &c), AR_EINVAL);
    P.x[4] = keep;
    ck_assert_int_eq(pointset_alloc_weights(&P), AR_OK);
    ck_assert_int_eq(pack_diagdom(&P, 1.0, 0.1, &c), AR_OK);     /* all ones: accepted */
    fmpz_set_ui(P.w + 3, 2);
    ck_assert_int_eq(pack_diagdom(&P, 1.0, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(pack_invnorm(&P, 1.0, 0.1, &c), AR_EINVAL);
    pointset_clear(&P);
    ck_assert_int_eq(pointset_init(&P, 6001, 3), AR_OK);
    ck_assert_int_eq(pack_invnorm(&P, 1.0, 0.1, &c), AR_EINVAL);
    pointset_clear(&P);
    ck_assert_int_eq(pack_lower_search(1, 1.0, 0.1, 1, 10, &c), AR_EINVAL);
    ck_assert_int_eq(pack_lower_search(17, 1.0, 0.1, 1, 10, &c), AR_EINVAL);
    ck_assert_int_eq(pack_lower_search(3, -1.0, 0.1, 1, 10, &c), AR_EINVAL);
    ck_assert_int_eq(pack_lower_search(3, 1.0, 1.5, 1, 10, &c), AR_EINVAL);
    ck_assert_int_eq(pack_lower_search(3, 1.0, 0.1, 1, 0, &c), AR_EINVAL);
    ck_assert_int_eq(pack_lower_search(3, 1.0, 0.1, 1, 10, NULL), AR_EINVAL);
    ck_assert_int_eq(pack_lower_search_with(3, 1.0, 0.1, 1, 7000, PACK_INVNORM, &c), AR_EINVAL);
    /* beta = 0: A = all 1/m, only one point can be certified */
    ck_assert_int_eq(pack_lower_search(3, 0.0, 0.1, 1, 10, &c), AR_OK);
    ck_assert_int_eq(c.m, 1);
    ck_assert_int_eq(c.certified, 1);
}
END_TEST

Suite *suite_cert_packing(void)
{
    Suite *s = suite_create("cert_packing");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_packing_vs_truth_and_dense);
    tcase_add_test(tc, test_grid_pairs_and_offsphere);
    tcase_add_test(tc, test_multiset_claim);
    tcase_add_test(tc, test_search_deterministic);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
