/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_lower_dominant.c -- the diagonally dominant subset of a row set
 * (theory/certificates/cert_lower_dominant.c, issue 32): soundness against exact rational
 * arithmetic. */
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

/* lower_dominant_rows (issue 32): whenever it certifies, the exact test matrix of its rows with
 * their own blocks (argmax over the kept rows, exact_peel_invnorm) is invertible with
 * (eps + max rowerr) ||M^{-1}||_inf < 1 and the reported bound is at least the exact norm; the
 * rows come in candidate order, never more than cap; it certifies non-trivially often. */
START_TEST(test_dominant_fmpq_soundness)
{
    rng_t r;
    rng_init(&r, test_seed() + 1201);
    int n_cert = 0;
    for (int it = 0; it < 200; it++) {
        size_t Am = 6 + rng_u64(&r) % 7, n = Am + rng_u64(&r) % 4;
        double a[12 * 15], rowerr[12];
        size_t cand[12], rows[12];
        random_heavy_image(&r, Am, n, 0.2, 2.0, it % 3 == 0, a, rowerr, cand);
        double eps = 0.05 + 0.4 * rng_uniform(&r);
        size_t cap = it % 5 == 0 ? 3 + rng_u64(&r) % 4 : (size_t)-1;
        smx_t A = make_smx(Am, n, a, rowerr);
        lower_cert_t c;
        ck_assert_int_eq(lower_dominant_rows(&A, cand, Am, eps, cap, &c, rows), AR_OK);
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
        int invertible = exact_peel_invnorm(inv, a, Am, n, rows, c.rank, rows, c.rank);
        fmpq_set_double(lhs, eps);
        fmpq_set_double(x, emax);
        fmpq_add(lhs, lhs, x);
        fmpq_mul(lhs, lhs, inv);
        ck_assert_msg(invertible && fmpq_cmp_ui(lhs, 1) < 0, "seed=%llu it=%d: dominant set of %zu rows "
                      "certified (%s) but exact (eps+rowerr)||M^-1|| = %g", (unsigned long long)test_seed(), it,
                      c.rank, ar_method_name(c.method), fmpq_get_d(lhs));
        fmpq_set_double(x, c.invnorm);
        ck_assert_msg(fmpq_cmp(x, inv) >= 0, "seed=%llu it=%d: reported invnorm %.17g < exact %.17g",
                      (unsigned long long)test_seed(), it, c.invnorm, fmpq_get_d(inv));
        fmpq_clear(inv); fmpq_clear(lhs); fmpq_clear(x);
    }
    ck_assert_msg(n_cert > 60, "only %d non-trivial dominant-row certificates", n_cert);
}
END_TEST

Suite *suite_cert_lower_dominant(void)
{
    Suite *s = suite_create("cert_lower_dominant");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_dominant_fmpq_soundness);
    suite_add_tcase(s, tc);
    return s;
}
