/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_lower_peel.c -- the peeled block test matrix
 * (theory/certificates/cert_lower_peel.c, issue 32): soundness against exact rational
 * arithmetic, and the lower end's budget (peel, growth and weighted search under a budget). */
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

/* lower_peel_cap (issue 32): whenever it certifies, the exact test matrix of its rows and blocks
 * (exact_peel_invnorm, recomputed in rationals from the double image) is invertible with
 * (eps + max rowerr) ||M^{-1}||_inf < 1 and the reported bound is at least the exact norm; the
 * rows come in candidate order, never more than cap; it certifies non-trivially often. */
START_TEST(test_peel_fmpq_soundness)
{
    rng_t r;
    rng_init(&r, test_seed() + 911);
    int n_cert = 0;
    for (int it = 0; it < 200; it++) {
        size_t Am = 6 + rng_u64(&r) % 7, n = Am + rng_u64(&r) % 4;
        double a[12 * 15], rowerr[12];
        size_t cand[12], rows[12];
        random_heavy_image(&r, Am, n, 0.3, 1.5, it % 3 == 0, a, rowerr, cand);
        double eps = 0.05 + 0.4 * rng_uniform(&r);
        size_t cap = it % 5 == 0 ? 3 + rng_u64(&r) % 4 : (size_t)-1, s0 = Am < cap ? Am : cap;
        smx_t A = make_smx(Am, n, a, rowerr);
        lower_cert_t c;
        ck_assert_int_eq(lower_peel_cap(&A, cand, Am, eps, cap, NULL, &c, rows), AR_OK);
        ck_assert_uint_le(c.rank, cap);
        if (c.method == AR_METHOD_TRIVIAL) {
            ck_assert_uint_eq(c.rank, 1);
            continue;
        }
        n_cert++;
        for (size_t t = 1; t < c.rank; t++) {          /* candidate order */
            size_t p0 = 0, p1 = 0;
            for (size_t u = 0; u < Am; u++) {
                p0 = cand[u] == rows[t - 1] ? u : p0;
                p1 = cand[u] == rows[t] ? u : p1;
            }
            ck_assert_uint_lt(p0, p1);
        }
        double emax = 0;
        for (size_t t = 0; t < c.rank; t++)
            emax = fmax(emax, rowerr[rows[t]]);
        fmpq_t inv, lhs, x;
        fmpq_init(inv); fmpq_init(lhs); fmpq_init(x);
        int invertible = exact_peel_invnorm(inv, a, Am, n, cand, s0, rows, c.rank);
        fmpq_set_double(lhs, eps);
        fmpq_set_double(x, emax);
        fmpq_add(lhs, lhs, x);
        fmpq_mul(lhs, lhs, inv);
        ck_assert_msg(invertible && fmpq_cmp_ui(lhs, 1) < 0, "seed=%llu it=%d: peeled set of %zu rows certified "
                      "(%s) but exact (eps+rowerr)||M^-1|| = %g", (unsigned long long)test_seed(), it, c.rank,
                      ar_method_name(c.method), fmpq_get_d(lhs));
        fmpq_set_double(x, c.invnorm);
        ck_assert_msg(fmpq_cmp(x, inv) >= 0, "seed=%llu it=%d: reported invnorm %.17g < exact %.17g",
                      (unsigned long long)test_seed(), it, c.invnorm, fmpq_get_d(inv));
        fmpq_clear(inv); fmpq_clear(lhs); fmpq_clear(x);
    }
    ck_assert_msg(n_cert > 60, "only %d non-trivial peeled certificates", n_cert);
}
END_TEST

/* On a high-rank image (self-attention of 400 N(0,1) rows in d = 32 at beta 1/sqrt(32)) the peel
 * certifies at least half the rows (268 with the default seed), at least as many as the greedy
 * growth on the same candidates (77); its spending is its estimate; a second peel from the same
 * set is skipped; the budget is
 * honoured: a peel whose estimate exceeds it is refused (cut), a growth or weighted search under
 * a small budget stops early (cut) with a smaller certificate and spends at most its budget. */
START_TEST(test_peel_budget)
{
    rng_t r;
    rng_init(&r, test_seed() + 1013);
    size_t m = 400;
    double *a = diag_image(&r, m, 32), *rowerr = calloc(m, sizeof *rowerr);
    size_t *cand = malloc(m * sizeof *cand), *rows = malloc(m * sizeof *rows);
    for (size_t t = 0; t < m; t++)
        cand[t] = t;
    smx_t A = make_smx(m, m, a, rowerr);
    double eps = 0.1;
    lower_cert_t cp, cg;
    lower_ctl_t ctl = { 0 };
    ck_assert_int_eq(lower_peel_cap(&A, cand, m, eps, (size_t)-1, &ctl, &cp, rows), AR_OK);
    double peel_spent = ctl.spent;
    ck_assert_double_eq(peel_spent, lower_peel_cost(m, m));
    ck_assert_int_eq(ctl.cut, 0);
    lower_ctl_t gctl = { 0 };
    ck_assert_int_eq(lower_grow_ctl(&A, cand, m, eps, (size_t)-1, &gctl, &cg, NULL), AR_OK);
    fprintf(stderr, "peel %zu rows (%.3g flops), growth %zu rows (%.3g flops) of %zu\n", cp.rank, peel_spent, cg.rank,
           gctl.spent, m);
    ck_assert_uint_ge(cp.rank, m / 2);
    ck_assert_uint_ge(cp.rank, cg.rank);
    /* the same set again: skipped, nothing spent */
    lower_cert_t c2;
    ck_assert_int_eq(lower_peel_cap(&A, cand, m, eps, (size_t)-1, &ctl, &c2, NULL), AR_OK);
    ck_assert_str_eq(ar_method_name(c2.method), "trivial");
    ck_assert_double_eq(ctl.spent, peel_spent);
    /* budgets */
    lower_ctl_t small = { .budget = 0.5 * lower_peel_cost(m, m) };
    ck_assert_int_eq(lower_peel_cap(&A, cand, m, eps, (size_t)-1, &small, &c2, NULL), AR_OK);
    ck_assert_str_eq(ar_method_name(c2.method), "trivial");
    ck_assert_int_eq(small.cut, 1);
    ck_assert_double_eq(small.spent, 0.0);
    lower_ctl_t gsmall = { .budget = gctl.spent / 20 };
    ck_assert_int_eq(lower_grow_ctl(&A, cand, m, eps, (size_t)-1, &gsmall, &c2, NULL), AR_OK);
    ck_assert_int_eq(gsmall.cut, 1);
    ck_assert(gsmall.spent <= gsmall.budget);
    ck_assert_uint_lt(c2.rank, cg.rank);
    ck_assert_uint_gt(c2.rank, 1);                     /* the partial set is still certified */
    lower_ctl_t wsmall = { .budget = 1e6 };
    ck_assert_int_eq(lower_weighted_ctl(&A, cand, m, 0, eps, (size_t)-1, &wsmall, &c2, NULL, NULL), AR_OK);
    ck_assert_int_eq(wsmall.cut, 1);
    ck_assert(wsmall.spent <= wsmall.budget);
    free(a); free(rowerr); free(cand); free(rows);
}
END_TEST

Suite *suite_cert_lower_peel(void)
{
    Suite *s = suite_create("cert_lower_peel");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_peel_fmpq_soundness);
    tcase_add_test(tc, test_peel_budget);
    suite_add_tcase(s, tc);
    return s;
}
