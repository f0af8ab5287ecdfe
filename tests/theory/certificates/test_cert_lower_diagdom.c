/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_lower_diagdom.c -- exact diagonal dominance
 * (theory/certificates/cert_lower_diagdom.c, THEORY 3.4a): lower_diagdom against the exact
 * condition in rationals, and its inverse-norm bound 1 / min margin rounded upward. */
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

/* lower_diagdom against the exact THEORY 3.4(a) condition */
START_TEST(test_diagdom_exact)
{
    rng_t r;
    rng_init(&r, test_seed() + 503);
    int yes = 0, no = 0;
    for (int it = 0; it < 3000; it++) {
        size_t Am = 2 + rng_u64(&r) % 4, n = Am + rng_u64(&r) % 3;
        double a[5 * 7], rowerr[5];
        for (size_t i = 0; i < Am; i++) {
            for (size_t j = 0; j < n; j++)
                a[i + j * Am] = rng_uniform(&r) * (j == i ? 2 + 10 * rng_uniform(&r) : 1.0);
            rowerr[i] = (it % 3 == 0) ? 0.0 : ldexp(rng_uniform(&r), -3 - (int)(rng_u64(&r) % 40));
        }
        size_t m = 1 + rng_u64(&r) % Am;
        size_t rows[5], cols[5];
        for (size_t t = 0; t < m; t++) {
            rows[t] = t;
            cols[t] = t;
        }
        double eps = rng_uniform(&r);
        if (!(eps > 0))
            continue;
        smx_t A = make_smx(Am, n, a, rowerr);
        lower_cert_t c;
        ck_assert_int_eq(lower_diagdom(&A, rows, cols, m, eps, &c), AR_OK);
        /* exact: for all t, a_tt - sum_{u != t} a_tu - rowerr_t > eps */
        int truth = 1;
        fmpq_t s, x;
        fmpq_init(s); fmpq_init(x);
        for (size_t t = 0; t < m; t++) {
            fmpq_set_double(s, a[t + t * Am]);
            for (size_t u = 0; u < m; u++)
                if (u != t) {
                    fmpq_set_double(x, a[t + u * Am]);
                    fmpq_sub(s, s, x);
                }
            fmpq_set_double(x, rowerr[t]);
            fmpq_sub(s, s, x);
            fmpq_set_double(x, eps);
            if (fmpq_cmp(s, x) <= 0)
                truth = 0;
        }
        fmpq_clear(s); fmpq_clear(x);
        ck_assert_msg(c.rank == (truth ? m : 1),
                      "seed=%llu it=%d m=%zu eps=%a: lower_diagdom rank %zu, exact condition %d",
                      (unsigned long long)test_seed(), it, m, eps, c.rank, truth);
        if (truth && m > 1) yes++;
        else if (!truth) no++;
    }
    ck_assert_msg(yes > 100 && no > 100, "diagdom yes %d no %d", yes, no);
}
END_TEST

/* The inverse-norm bound of lower_diagdom is rounded upward: invnorm >=
 * 1/minmargin exactly (fmpq), where minmargin is the exact smallest margin
 * a_tt - sum_{u != t} a_tu - rowerr_t.  Random 2x2 cases (a round-to-nearest
 * reciprocal falls below the exact one in about half of them), and cases
 * constructed so that the nearest double of 1/margin is strictly below it:
 * this fails whenever the division escapes the upward mode (GCC moving it
 * across fesetround). */
static void check_diagdom_inv(const double *a, const double *rowerr, size_t m, double eps,
                              int *certified, const char *what, int it)
{
    size_t rows[4] = {0, 1, 2, 3}, cols[4] = {0, 1, 2, 3};
    double aa[16], re[4];
    memcpy(aa, a, m * m * sizeof *aa);
    memcpy(re, rowerr, m * sizeof *re);
    smx_t A = make_smx(m, m, aa, re);
    lower_cert_t c;
    ck_assert_int_eq(lower_diagdom(&A, rows, cols, m, eps, &c), AR_OK);
    if (c.rank != m)
        return;
    (*certified)++;
    fmpq_t mg, s, x;
    fmpq_init(mg); fmpq_init(s); fmpq_init(x);
    for (size_t t = 0; t < m; t++) {
        fmpq_set_double(s, a[t + t * m]);
        for (size_t u = 0; u < m; u++)
            if (u != t) {
                fmpq_set_double(x, a[t + u * m]);
                fmpq_sub(s, s, x);
            }
        fmpq_set_double(x, rowerr[t]);
        fmpq_sub(s, s, x);
        if (t == 0 || fmpq_cmp(s, mg) < 0)
            fmpq_set(mg, s);
    }
    ck_assert(fmpq_sgn(mg) > 0);
    fmpq_inv(mg, mg);                        /* exact 1/minmargin */
    fmpq_set_double(x, c.invnorm);
    ck_assert_msg(fmpq_cmp(x, mg) >= 0,
                  "seed=%llu %s it=%d: diagdom invnorm %a below the exact 1/minmargin",
                  (unsigned long long)test_seed(), what, it, c.invnorm);
    fmpq_clear(mg); fmpq_clear(s); fmpq_clear(x);
}

START_TEST(test_diagdom_invnorm_upward)
{
    rng_t r;
    rng_init(&r, test_seed() + 907);
    int certified = 0;
    for (int it = 0; it < 200; it++) {
        double a[4], re[2] = {0, 0};
        a[0] = 0.5 + 0.5 * rng_uniform(&r);
        a[3] = 0.5 + 0.5 * rng_uniform(&r);
        a[1] = 0.25 * rng_uniform(&r);
        a[2] = 0.25 * rng_uniform(&r);
        if (it % 2)
            re[0] = re[1] = ldexp(rng_uniform(&r), -20);
        check_diagdom_inv(a, re, 2, 0.1, &certified, "random 2x2", it);
    }
    ck_assert_int_eq(certified, 200);
    /* constructed: exact margins (doubles) for which the nearest double of
     * the reciprocal is strictly below it (asserted below) */
    const double marg[] = {0.75, 0.375 + 0x1p-10, 0.7, 0.65};
    int below = 0;
    for (size_t t = 0; t < sizeof marg / sizeof marg[0]; t++) {
        double off = 0.0625;                 /* a = [[marg + off, off], [off, marg + off]] */
        double a[4] = {marg[t] + off, off, off, marg[t] + off}, re[2] = {0, 0};
        fmpq_t q, x;
        fmpq_init(q); fmpq_init(x);
        fmpq_set_double(q, marg[t]);
        fmpq_inv(q, q);
        fmpq_set_double(x, 1.0 / marg[t]);  /* round-to-nearest reciprocal */
        if (fmpq_cmp(x, q) < 0)
            below++;
        fmpq_clear(q); fmpq_clear(x);
        int cert = 0;
        check_diagdom_inv(a, re, 2, 0.1, &cert, "constructed", (int)t);
        ck_assert_int_eq(cert, 1);
    }
    ck_assert_msg(below == 4, "only %d constructed cases have RN(1/margin) below 1/margin", below);
}
END_TEST

Suite *suite_cert_lower_diagdom(void)
{
    Suite *s = suite_create("cert_lower_diagdom");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_diagdom_exact);
    tcase_add_test(tc, test_diagdom_invnorm_upward);
    suite_add_tcase(s, tc);
    return s;
}
