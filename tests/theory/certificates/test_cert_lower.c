/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_lower.c -- what the lower certificates share (theory/certificates/cert_lower.c,
 * THEORY 3.4): the exact 2x2 eps-rank formula through both certificates (blocks and exact
 * diagonal dominance: the inequality eps ||M^{-1}|| < 1 evaluated upward), and the validation of
 * the enclosure, eps and row sets.  The certificates' own tests: test_cert_lower_<name>.c. */
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
#include "numerics/fps.h"
#include "constructions/pointsets/pointset.h"
#include "constructions/pointsets/sphere.h"
#include "theory/certificates/cert_lower.h"
#include "lowerutil.h"

/* 2x2 symmetric stochastic [[a,1-a],[1-a,a]]: rank_eps = 2 iff eps < 2a - 1.
 * Any stochastic symmetric A' within rowerr of the image has 2a'-1 >=
 * 2a-1-rowerr, so a certificate is sound only if eps + rowerr < 2a - 1. */
START_TEST(test_2x2_exact)
{
    rng_t r;
    rng_init(&r, test_seed() + 501);
    int certified = 0;
    for (int it = 0; it < 4000; it++) {
        double av = 0.5 + 0.5 * rng_uniform(&r);
        double a[4] = { av, 1 - av, 1 - av, av };          /* 1 - av exact (Sterbenz) */
        double re = (it % 3 == 0) ? 0.0 : ldexp(rng_uniform(&r), -20 - (int)(rng_u64(&r) % 30));
        double rowerr[2] = { re, re };
        double gap = 2 * av - 1;
        double eps = (it % 2) ? rng_uniform(&r) : gap * (0.9 + 0.2 * rng_uniform(&r));
        if (!(eps > 0 && eps < 1))
            continue;
        smx_t A = make_smx(2, 2, a, rowerr);
        size_t rows[2] = { 0, 1 }, cols[2] = { 0, 1 };
        lower_cert_t c, dd;
        ck_assert_int_eq(lower_blocks_rows(&A, rows, 2, eps, &c), AR_OK);
        ck_assert_int_eq(lower_diagdom(&A, rows, cols, 2, eps, &dd), AR_OK);
        /* exact: eps + re + 1 < 2 av ? (all dyadic, fmpq) */
        fmpq_t lhs, rhs, x;
        fmpq_init(lhs); fmpq_init(rhs); fmpq_init(x);
        fmpq_set_double(lhs, eps);
        fmpq_set_double(x, re);
        fmpq_add(lhs, lhs, x);
        fmpq_set_si(x, 1, 1);
        fmpq_add(lhs, lhs, x);
        fmpq_set_double(rhs, av);
        fmpq_mul_2exp(rhs, rhs, 1);
        int truth = fmpq_cmp(lhs, rhs) < 0;
        fmpq_clear(lhs); fmpq_clear(rhs); fmpq_clear(x);
        for (int v = 0; v < 2; v++) {
            const lower_cert_t *cc = v ? &dd : &c;
            ck_assert_msg(cc->rank == 1 || cc->rank == 2, "rank %zu", cc->rank);
            ck_assert_msg(cc->rank == 1 || truth,
                          "seed=%llu it=%d %s: certified rank 2 for a=%a eps=%a rowerr=%a, but eps+rowerr >= 2a-1",
                          (unsigned long long)test_seed(), it, v ? "lower_diagdom" : "lower_blocks_rows",
                          av, eps, re);
            /* completeness with a 1% margin */
            if (eps + re < 0.99 * gap)
                ck_assert_msg(cc->rank == 2, "seed=%llu it=%d %s: a=%a eps=%a rowerr=%a not certified",
                              (unsigned long long)test_seed(), it, v ? "diagdom" : "blocks", av, eps, re);
        }
        certified += c.rank == 2;
    }
    ck_assert_int_gt(certified, 100);
}
END_TEST

START_TEST(test_bad_input)
{
    double a[4] = { 0.8, 0.2, 0.2, 0.8 }, re[2] = { 0, 0 };
    smx_t A = make_smx(2, 2, a, re);
    lower_cert_t c;
    size_t dup[2] = { 1, 1 }, oob[2] = { 0, 2 }, ok[2] = { 0, 1 };
    ck_assert_int_eq(lower_blocks_rows(&A, dup, 2, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(lower_blocks_rows(&A, oob, 2, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(lower_blocks_rows(&A, ok, 2, 0.0, &c), AR_EINVAL);
    ck_assert_int_eq(lower_blocks_rows(&A, ok, 2, 1.0, &c), AR_EINVAL);
    ck_assert_int_eq(lower_blocks_rows(&A, ok, 2, NAN, &c), AR_EINVAL);
    ck_assert_int_eq(lower_blocks(&A, dup, 2, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(lower_diagdom(&A, ok, dup, 2, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(lower_blocks(&A, ok, 2, 0.5, &c), AR_OK);
    ck_assert_int_eq(c.rank, 2);                       /* 0.5 < 2*0.8 - 1 = 0.6 */
    ck_assert_int_eq(lower_blocks(&A, ok, 2, 0.7, &c), AR_OK);
    ck_assert_int_eq(c.rank, 1);
}
END_TEST

Suite *suite_cert_lower(void)
{
    Suite *s = suite_create("cert_lower");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_2x2_exact);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
