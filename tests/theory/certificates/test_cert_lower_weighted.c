/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_lower_weighted.c -- the weighted test-matrix lower certificate
 * (theory/certificates/cert_lower_weighted.c, issue 24): every certified (S, W) recomputed in
 * exact rationals, and bad input. */
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

/* lower_weighted_cap on small random row-stochastic images: every certified (S, W) is recomputed in
 * exact rationals from the double image: ||W||_r1 <= 1 exactly, M = a_S W invertible with
 * (eps + max rowerr) ||M^{-1}||_inf < 1 (then every A within rowerr of the image is certified,
 * Theorem 3), and the reported bound is >= the exact ||M^{-1}||_inf.  Bad input is refused. */
START_TEST(test_weighted_fmpq_soundness)
{
    rng_t r;
    rng_init(&r, test_seed() + 733);
    int n_cert = 0, n_weighted = 0;
    for (int it = 0; it < 300; it++) {
        size_t Am = 4 + rng_u64(&r) % 5, n = 5 + rng_u64(&r) % 6;
        double a[8 * 10], rowerr[8], W[8 * 10];
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
        size_t first = rng_u64(&r) % 3;
        smx_t A = make_smx(Am, n, a, rowerr);
        lower_cert_t c;
        ck_assert_int_eq(lower_weighted_cap(&A, cand, Am, first, eps, (size_t)-1, &c, rows, W), AR_OK);
        if (c.method == AR_METHOD_TRIVIAL) {
            ck_assert_uint_eq(c.rank, 1);
            continue;
        }
        n_cert++;
        size_t s = c.rank;
        ck_assert_uint_gt(s, first);
        for (size_t t = 0; t < s; t++)
            ck_assert_uint_eq(rows[t], cand[t]);
        double emax = 0;
        for (size_t t = 0; t < s; t++)
            if (rowerr[rows[t]] > emax)
                emax = rowerr[rows[t]];
        fmpq_mat_t M, Mi;
        fmpq_mat_init(M, (slong)s, (slong)s);
        fmpq_mat_init(Mi, (slong)s, (slong)s);
        fmpq_t x, y, rs, inv, lhs;
        fmpq_init(x); fmpq_init(y); fmpq_init(rs); fmpq_init(inv); fmpq_init(lhs);
        int signed_w = 0;
        for (size_t j = 0; j < n; j++) {
            fmpq_zero(rs);
            for (size_t b = 0; b < s; b++) {
                double w = W[b + j * s];
                signed_w |= w < 0 || (w != 0 && w != 1);
                fmpq_set_double(x, fabs(w));
                fmpq_add(rs, rs, x);
            }
            ck_assert_msg(fmpq_cmp_ui(rs, 1) <= 0, "seed=%llu it=%d: row %zu of W has l1 norm %.17g > 1",
                          (unsigned long long)test_seed(), it, j, fmpq_get_d(rs));
        }
        n_weighted += signed_w;
        for (size_t t = 0; t < s; t++)
            for (size_t b = 0; b < s; b++) {
                fmpq_zero(rs);
                for (size_t j = 0; j < n; j++) {
                    fmpq_set_double(x, a[rows[t] + j * Am]);
                    fmpq_set_double(y, W[b + j * s]);
                    fmpq_mul(x, x, y);
                    fmpq_add(rs, rs, x);
                }
                fmpq_set(fmpq_mat_entry(M, (slong)t, (slong)b), rs);
            }
        int invertible = fmpq_mat_inv(Mi, M);
        ck_assert_msg(invertible, "seed=%llu it=%d: certified (%s) but M singular", (unsigned long long)test_seed(), it,
                      ar_method_name(c.method));
        fmpq_zero(inv);
        for (size_t t = 0; t < s; t++) {
            fmpq_zero(rs);
            for (size_t u = 0; u < s; u++) {
                fmpq_abs(x, fmpq_mat_entry(Mi, (slong)t, (slong)u));
                fmpq_add(rs, rs, x);
            }
            if (fmpq_cmp(rs, inv) > 0)
                fmpq_set(inv, rs);
        }
        fmpq_set_double(lhs, eps);
        fmpq_set_double(x, emax);
        fmpq_add(lhs, lhs, x);
        fmpq_mul(lhs, lhs, inv);
        ck_assert_msg(fmpq_cmp_ui(lhs, 1) < 0, "seed=%llu it=%d: %zu rows certified (%s) but exact "
                      "(eps+rowerr)||M^-1|| = %g", (unsigned long long)test_seed(), it, s, ar_method_name(c.method),
                      fmpq_get_d(lhs));
        fmpq_set_double(x, c.invnorm);
        ck_assert_msg(fmpq_cmp(x, inv) >= 0, "seed=%llu it=%d: reported invnorm %.17g < exact %.17g",
                      (unsigned long long)test_seed(), it, c.invnorm, fmpq_get_d(inv));
        fmpq_clear(x); fmpq_clear(y); fmpq_clear(rs); fmpq_clear(inv); fmpq_clear(lhs);
        fmpq_mat_clear(M); fmpq_mat_clear(Mi);
    }
    ck_assert_msg(n_cert > 40 && n_weighted > 20, "only %d non-trivial weighted certificates (%d with weights)", n_cert,
                  n_weighted);
    size_t bad[2] = { 0, 0 };
    double a2[4] = { 0.8, 0.2, 0.2, 0.8 }, re[2] = { 0, 0 };
    smx_t A2 = make_smx(2, 2, a2, re);
    lower_cert_t c2;
    ck_assert_int_eq(lower_weighted_cap(&A2, bad, 2, 0, 0.5, (size_t)-1, &c2, NULL, NULL), AR_EINVAL);
    bad[1] = 1;
    ck_assert_int_eq(lower_weighted_cap(&A2, bad, 2, 3, 0.5, (size_t)-1, &c2, NULL, NULL), AR_EINVAL);
    ck_assert_int_eq(lower_weighted_cap(&A2, bad, 2, 0, 0.5, (size_t)-1, &c2, NULL, NULL), AR_OK);
    ck_assert_uint_eq(c2.rank, 2);                    /* W = M^{-1} / c: the threshold is 0.6 again */
    ck_assert_int_eq(lower_weighted_cap(&A2, bad, 2, 0, 0.7, (size_t)-1, &c2, NULL, NULL), AR_OK);
    ck_assert_uint_eq(c2.rank, 1);
}
END_TEST

Suite *suite_cert_lower_weighted(void)
{
    Suite *s = suite_create("cert_lower_weighted");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_weighted_fmpq_soundness);
    suite_add_tcase(s, tc);
    return s;
}
