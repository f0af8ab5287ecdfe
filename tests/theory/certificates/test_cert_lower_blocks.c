/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_lower_blocks.c -- the block test-matrix certificate
 * (theory/certificates/cert_lower_blocks.c, THEORY 3.4b): soundness against exact rational
 * arithmetic on small matrices whose double image is taken as an exact point of the enclosure,
 * both certification paths (Varah / verified inverse norm), full rank on well-separated
 * packings, and the galloping search. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <flint/fmpz.h>
#include <flint/fmpq.h>
#include <flint/fmpq_mat.h>
#include "testutil.h"
#include "numerics/rng.h"
#include "numerics/softmax.h"
#include "numerics/softmax_dbl.h"
#include "numerics/fps.h"
#include "constructions/pointsets/pointset.h"
#include "constructions/pointsets/sphere.h"
#include "theory/certificates/cert_lower.h"
#include "theory/certificates/cert_lower_impl.h"
#include "lowerutil.h"

/* Random small nonnegative matrices, rows S of size 2..3 (m = 3 or 4 rows in
 * A, n = 3..6 columns): whenever the code certifies rank m_S, the exact block
 * test matrix of the image satisfies (eps + max rowerr) ||M^{-1}||_inf < 1
 * (a necessary condition for the claim to hold for every A in the
 * enclosure) and the reported invnorm bounds ||M^{-1}||_inf.  Both paths
 * must occur; with a 5% margin the code must certify. */
START_TEST(test_small_fmpq_soundness)
{
    rng_t r;
    rng_init(&r, test_seed() + 502);
    int n_diag = 0, n_inv = 0, n_fail = 0;
    for (int it = 0; it < 3000; it++) {
        size_t Am = 3 + rng_u64(&r) % 2, n = 3 + rng_u64(&r) % 4;
        size_t mS = 2 + rng_u64(&r) % 2;
        double a[4 * 6], rowerr[4];
        double p = 0.3 + 5 * rng_uniform(&r);
        for (size_t i = 0; i < Am; i++) {
            double s = 0;
            for (size_t j = 0; j < n; j++) {
                a[i + j * Am] = pow(rng_uniform(&r), p);
                if (j == i % n)
                    a[i + j * Am] += rng_uniform(&r) * 2;       /* some diagonal weight */
                s += a[i + j * Am];
            }
            for (size_t j = 0; j < n; j++)
                a[i + j * Am] /= s;
            rowerr[i] = (it % 4 == 0) ? 0.0 : ldexp(rng_uniform(&r), -10 - (int)(rng_u64(&r) % 40));
        }
        size_t rows[3];
        size_t perm[4] = { 0, 1, 2, 3 };
        for (size_t t = Am - 1; t > 0; t--) {
            size_t u = rng_u64(&r) % (t + 1), tmp = perm[t];
            perm[t] = perm[u]; perm[u] = tmp;
        }
        for (size_t t = 0; t < mS; t++)
            rows[t] = perm[t];
        double eps = rng_uniform(&r) * (it % 2 ? 1.0 : 0.3);
        if (!(eps > 0))
            continue;
        smx_t A = make_smx(Am, n, a, rowerr);
        lower_cert_t c;
        ck_assert_int_eq(lower_blocks_rows(&A, rows, mS, eps, &c), AR_OK);
        double emax = 0;
        for (size_t t = 0; t < mS; t++)
            if (rowerr[rows[t]] > emax)
                emax = rowerr[rows[t]];
        fmpq_t inv, lhs, x;
        fmpq_init(inv); fmpq_init(lhs); fmpq_init(x);
        int invertible = exact_block_invnorm(inv, a, Am, n, rows, mS);
        fmpq_set_double(lhs, eps);
        fmpq_set_double(x, emax);
        fmpq_add(lhs, lhs, x);
        fmpq_mul(lhs, lhs, inv);                     /* (eps + e) ||M^{-1}|| */
        if (c.rank == mS) {
            ck_assert_msg(invertible && fmpq_cmp_ui(lhs, 1) < 0,
                          "seed=%llu it=%d m=%zu n=%zu |S|=%zu eps=%a: certified (%s) but exact "
                          "(eps+rowerr)||M^-1|| = %g (invertible %d)", (unsigned long long)test_seed(), it,
                          Am, n, mS, eps, ar_method_name(c.method), fmpq_get_d(lhs), invertible);
            fmpq_set_double(x, c.invnorm);
            ck_assert_msg(fmpq_cmp(x, inv) >= 0, "seed=%llu it=%d: reported invnorm %.17g < exact %.17g",
                          (unsigned long long)test_seed(), it, c.invnorm, fmpq_get_d(inv));
            if (c.method == AR_METHOD_DIAGDOM) n_diag++;
            else if (c.method == AR_METHOD_INVNORM) n_inv++;
            else ck_abort_msg("certified with method %s", ar_method_name(c.method));
        } else {
            ck_assert_msg(c.rank == 1 && c.method == AR_METHOD_TRIVIAL, "rank %zu method %s", c.rank,
                          ar_method_name(c.method));
            n_fail++;
            /* completeness: a clear margin must be certified */
            if (invertible && emax < 1e-6) {
                fmpq_set_si(x, 21, 20);
                fmpq_mul(lhs, lhs, x);
                ck_assert_msg(fmpq_cmp_ui(lhs, 1) >= 0,
                              "seed=%llu it=%d m=%zu n=%zu |S|=%zu eps=%a: 1.05 (eps+e)||M^-1|| = %g < 1 "
                              "but not certified", (unsigned long long)test_seed(), it, Am, n, mS, eps,
                              fmpq_get_d(lhs));
            }
        }
        fmpq_clear(inv); fmpq_clear(lhs); fmpq_clear(x);
    }
    ck_assert_msg(n_diag > 50 && n_inv > 50 && n_fail > 50, "paths exercised: diagdom %d invnorm %d failed %d",
                  n_diag, n_inv, n_fail);
}
END_TEST

/* lower_blocks_gallop: with bisect_max at least the first failed length it is lower_blocks_cap
 * (same rank and bound, *failed = 0); below it no bisection runs, *failed is the first failed
 * length (a power of two, or the order's length) and the result is the last certified length
 * before it (its half, or 1); on a self-attention head of 300 rows in d = 32 the first failure
 * lies above 16 rows. */
START_TEST(test_blocks_gallop)
{
    rng_t r;
    rng_init(&r, test_seed() + 1301);
    size_t m = 300;
    double *a = diag_image(&r, m, 32), *rowerr = calloc(m, sizeof *rowerr);
    size_t *order = malloc(m * sizeof *order);
    for (size_t t = 0; t < m; t++)
        order[t] = (t * 7) % m;                 /* 7 is prime to 300: a permutation */
    smx_t A = make_smx(m, m, a, rowerr);
    lower_cert_t full, g;
    size_t failed = 99;
    ck_assert_int_eq(lower_blocks_cap(&A, order, m, 0.1, (size_t)-1, &full), AR_OK);
    ck_assert_int_eq(lower_blocks_gallop(&A, order, m, 0.1, (size_t)-1, (size_t)-1, &g, &failed), AR_OK);
    ck_assert_uint_eq(g.rank, full.rank);
    ck_assert_uint_eq(failed, 0);
    ck_assert_int_eq(lower_blocks_gallop(&A, order, m, 0.1, (size_t)-1, 16, &g, &failed), AR_OK);
    if (full.rank < m) {
        ck_assert_uint_gt(failed, 16);
        ck_assert(failed == m || (failed & (failed - 1)) == 0);
        size_t last = 1;                        /* the last power of two below failed */
        while (2 * last < failed)
            last *= 2;
        ck_assert_uint_eq(g.rank, last);
        ck_assert_uint_le(g.rank, full.rank);
    }
    free(a); free(rowerr); free(order);
}
END_TEST

/* Issue 35: the probe's loops (the assignment over the columns, the block sums and the enorm over
 * the rows) run on a fixed partition; the assignment, the test matrix, the certificate of one row
 * set and the galloping search's result are the same bits for every thread count, on a softmax
 * image large enough to be split (and on one too small to be). */
START_TEST(test_blocks_thread_counts)
{
    static const size_t shapes[][2] = { { 700, 900 }, { 40, 60 } };
    for (size_t sh = 0; sh < 2; sh++) {
        size_t m = shapes[sh][0], n = shapes[sh][1], d = 3;
        test_rng_init(test_seed() + 1350 + sh);
        double *q = malloc(m * d * sizeof *q), *k = malloc(n * d * sizeof *k);
        for (size_t t = 0; t < m * d; t++)
            q[t] = 2 * test_unif() - 1;
        for (size_t t = 0; t < n * d; t++)
            k[t] = 2 * test_unif() - 1;
        smx_t A;
        ck_assert_int_eq(smx_compute_dbl(&A, q, m, k, n, d, NULL, 20.0, 0), AR_OK);
        size_t *order = malloc(m * sizeof *order);
        for (size_t t = 0; t < m; t++)
            order[t] = (t * 11) % m;            /* 11 is prime to 700 and 40: a permutation */
        size_t lens[3] = { 5, m / 10, m / 3 };
        size_t *blk1 = malloc(3 * n * sizeof *blk1), *blk = malloc(n * sizeof *blk);
        double *M1 = calloc(3 * m * m, sizeof *M1), *Mt = calloc(m * m, sizeof *Mt);
        lower_cert_t g1, p1[3];
        memset(&g1, 0, sizeof g1);               /* set at c == 0; gcc cannot see that */
        for (size_t c = 0; c < TEST_NTHREAD_COUNTS; c++) {
            ar_config_t cfg;
            const ar_config_t *prev = test_threads_install(&cfg, TEST_THREAD_COUNTS[c]);
            lower_cert_t g, p;
            ck_assert_int_eq(lower_blocks_cap(&A, order, m, 0.1, (size_t)-1, &g), AR_OK);
            for (int v = 0; v < 3; v++) {
                size_t len = lens[v];
                lower_blocks_assign(&A, order, len, c ? blk : blk1 + v * n);
                lower_blocks_certify(&A, order, len, 0.1, c ? blk : blk1 + v * n, c ? Mt : M1 + v * m * m, NULL,
                                     c ? &p : &p1[v]);
                ck_assert_msg(c == 0 || (memcmp(blk, blk1 + v * n, n * sizeof *blk) == 0 &&
                                         memcmp(Mt, M1 + v * m * m, len * len * sizeof *Mt) == 0 &&
                                         p.rank == p1[v].rank && p.invnorm == p1[v].invnorm &&
                                         p.method == p1[v].method),
                              "m=%zu n=%zu rows %zu: %d threads differ from one", m, n, len, TEST_THREAD_COUNTS[c]);
            }
            ar_config_install(prev);
            if (c == 0)
                g1 = g;
            ck_assert_msg(g.rank == g1.rank && g.invnorm == g1.invnorm && g.method == g1.method,
                          "m=%zu n=%zu: the search on %d threads: rank %zu, one thread %zu", m, n,
                          TEST_THREAD_COUNTS[c], g.rank, g1.rank);
        }
        ck_assert_uint_gt(g1.rank, 1);
        free(q); free(k); free(order); free(blk1); free(blk); free(M1); free(Mt);
        smx_clear(&A);
    }
}
END_TEST

/* packings at large beta: the block certificate gives full rank by
 * diagonal dominance; lower_blocks reports exactly the packing size, and
 * every length it reports is certified when re-checked. */
START_TEST(test_packing_full_rank)
{
    struct { size_t d; double theta, beta; size_t maxp; } cs[] = {
        { 2, 0.4, 80.0, 200 }, { 3, 0.5, 100.0, 60 }, { 4, 0.8, 60.0, 60 }, { 3, 0.25, 400.0, 150 },
    };
    for (size_t q = 0; q < sizeof cs / sizeof cs[0]; q++) {
        pointset_t P;
        memset(&P, 0, sizeof P);
        ck_assert_int_eq(sphere_packing(&P, cs[q].d, cs[q].theta, cs[q].maxp, test_seed() + q, 0), AR_OK);
        smx_t A;
        memset(&A, 0, sizeof A);
        ck_assert_int_eq(smx_compute(&A, P.x, P.n, P.x, P.n, P.d, NULL, cs[q].beta, 0, 1), AR_OK);
        size_t *order = malloc(P.n * sizeof *order);
        ck_assert_int_eq(fps_order(P.x, P.n, P.d, 0, order, NULL), AR_OK);
        lower_cert_t c, c2;
        ck_assert_int_eq(lower_blocks(&A, order, P.n, 0.5, &c), AR_OK);
        ck_assert_msg(c.rank == P.n && c.method == AR_METHOD_DIAGDOM,
                      "packing d=%zu theta=%g beta=%g n=%zu: rank %zu method %s", cs[q].d, cs[q].theta,
                      cs[q].beta, P.n, c.rank, ar_method_name(c.method));
        /* eps near 1: whatever length is reported re-certifies on its own */
        lower_cert_t c3;
        ck_assert_int_eq(lower_blocks(&A, order, P.n, 0.999, &c2), AR_OK);
        ck_assert_int_eq(lower_blocks_rows(&A, order, c2.rank, 0.999, &c3), AR_OK);
        ck_assert_msg(c3.rank == c2.rank && c2.rank >= 1, "eps 0.999: reported %zu, re-check %zu", c2.rank, c3.rank);
        free(order);
        smx_clear(&A);
        pointset_clear(&P);
    }
    /* dense Fibonacci set: the reported length re-certifies */
    pointset_t F;
    memset(&F, 0, sizeof F);
    ck_assert_int_eq(sphere_fibonacci(&F, 300), AR_OK);
    smx_t A;
    memset(&A, 0, sizeof A);
    ck_assert_int_eq(smx_compute(&A, F.x, F.n, F.x, F.n, 3, NULL, 30.0, 0, 1), AR_OK);
    size_t *order = malloc(F.n * sizeof *order);
    ck_assert_int_eq(fps_order(F.x, F.n, 3, 0, order, NULL), AR_OK);
    lower_cert_t c, c2;
    ck_assert_int_eq(lower_blocks(&A, order, F.n, 0.1, &c), AR_OK);
    ck_assert_msg(c.rank > 1 && c.rank < F.n, "fibonacci 300 beta 30: rank %zu", c.rank);
    ck_assert_int_eq(lower_blocks_rows(&A, order, c.rank, 0.1, &c2), AR_OK);
    ck_assert_msg(c2.rank == c.rank && c2.method == c.method, "re-check %zu %s vs %zu %s",
                  c2.rank, ar_method_name(c2.method), c.rank, ar_method_name(c.method));
    free(order);
    smx_clear(&A);
    pointset_clear(&F);
}
END_TEST

Suite *suite_cert_lower_blocks(void)
{
    Suite *s = suite_create("cert_lower_blocks");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_small_fmpq_soundness);
    tcase_add_test(tc, test_blocks_gallop);
    tcase_add_test(tc, test_blocks_thread_counts);
    tcase_add_test(tc, test_packing_full_rank);
    suite_add_tcase(s, tc);
    return s;
}
