/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_lower_grow.c -- the greedy growth lower certificate
 * (theory/certificates/cert_lower_grow.c): soundness of every certified set against exact
 * rational arithmetic, the cap, and bad input. */
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

/* lower_grow_cap: whenever it certifies, the exact block matrix of its reported rows (fmpq,
 * argmax blocks, ties to the first) is invertible with (eps + max rowerr) ||M^{-1}|| < 1 and the
 * reported invnorm bounds ||M^{-1}|| (Theorem 3 recomputed independently); a certificate never
 * exceeds a certified upper end passed as cap; it certifies non-trivially often. */
START_TEST(test_grow_fmpq_soundness)
{
    rng_t r;
    rng_init(&r, test_seed() + 517);
    int n_cert = 0;
    for (int it = 0; it < 400; it++) {
        size_t Am = 4 + rng_u64(&r) % 5, n = 5 + rng_u64(&r) % 6;
        double a[8 * 10], rowerr[8];
        double p = 0.5 + 6 * rng_uniform(&r);
        for (size_t i = 0; i < Am; i++) {
            double s = 0;
            for (size_t j = 0; j < n; j++) {
                a[i + j * Am] = pow(rng_uniform(&r), p);
                if (j == (i * 3) % n)
                    a[i + j * Am] += 3 * rng_uniform(&r);
                s += a[i + j * Am];
            }
            for (size_t j = 0; j < n; j++)
                a[i + j * Am] /= s;
            rowerr[i] = (it % 3 == 0) ? 0.0 : ldexp(rng_uniform(&r), -12 - (int)(rng_u64(&r) % 30));
        }
        size_t cand[8], rows[8];
        for (size_t t = 0; t < Am; t++)
            cand[t] = t;
        for (size_t t = Am - 1; t > 0; t--) {
            size_t u = rng_u64(&r) % (t + 1), tmp = cand[t];
            cand[t] = cand[u]; cand[u] = tmp;
        }
        double eps = 0.02 + 0.5 * rng_uniform(&r);
        size_t cap = it % 5 == 0 ? 2 + rng_u64(&r) % 3 : (size_t)-1;
        smx_t A = make_smx(Am, n, a, rowerr);
        lower_cert_t c;
        ck_assert_int_eq(lower_grow_cap(&A, cand, Am, eps, cap, &c, rows), AR_OK);
        ck_assert_uint_le(c.rank, cap);
        if (c.method == AR_METHOD_TRIVIAL) {
            ck_assert_uint_eq(c.rank, 1);
            continue;
        }
        n_cert++;
        double emax = 0;
        for (size_t t = 0; t < c.rank; t++)
            if (rowerr[rows[t]] > emax)
                emax = rowerr[rows[t]];
        fmpq_t inv, lhs, x;
        fmpq_init(inv); fmpq_init(lhs); fmpq_init(x);
        int invertible = exact_block_invnorm(inv, a, Am, n, rows, c.rank);
        fmpq_set_double(lhs, eps);
        fmpq_set_double(x, emax);
        fmpq_add(lhs, lhs, x);
        fmpq_mul(lhs, lhs, inv);
        ck_assert_msg(invertible && fmpq_cmp_ui(lhs, 1) < 0, "seed=%llu it=%d: grown set of %zu rows certified (%s) "
                      "but exact (eps+rowerr)||M^-1|| = %g", (unsigned long long)test_seed(), it, c.rank,
                      ar_method_name(c.method), fmpq_get_d(lhs));
        fmpq_set_double(x, c.invnorm);
        ck_assert_msg(fmpq_cmp(x, inv) >= 0, "seed=%llu it=%d: reported invnorm %.17g < exact %.17g",
                      (unsigned long long)test_seed(), it, c.invnorm, fmpq_get_d(inv));
        fmpq_clear(inv); fmpq_clear(lhs); fmpq_clear(x);
    }
    ck_assert_msg(n_cert > 40, "only %d non-trivial grown certificates", n_cert);
    size_t bad[2] = { 0, 0 };
    double a2[4] = { 0.8, 0.2, 0.2, 0.8 }, re[2] = { 0, 0 };
    smx_t A2 = make_smx(2, 2, a2, re);
    lower_cert_t c2;
    ck_assert_int_eq(lower_grow_cap(&A2, bad, 2, 0.5, (size_t)-1, &c2, NULL), AR_EINVAL);   /* repeated row */
    bad[1] = 1;
    ck_assert_int_eq(lower_grow_cap(&A2, bad, 2, 0.5, (size_t)-1, &c2, NULL), AR_OK);
    ck_assert_uint_eq(c2.rank, 2);                    /* threshold 0.6 */
    ck_assert_int_eq(lower_grow_cap(&A2, bad, 2, 0.7, (size_t)-1, &c2, NULL), AR_OK);
    ck_assert_uint_eq(c2.rank, 1);
}
END_TEST

Suite *suite_cert_lower_grow(void)
{
    Suite *s = suite_create("cert_lower_grow");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_grow_fmpq_soundness);
    suite_add_tcase(s, tc);
    return s;
}
