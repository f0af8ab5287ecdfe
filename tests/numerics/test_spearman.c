/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_spearman.c -- ranks with ties, rho against hand-computed values,
 * permutation p-values (exact by enumeration for n = 3 and 4, small for a
 * perfect monotone relation, large for an unrelated one, reproducible for a
 * seed), the asymptotic t p-value against the closed-form Student t
 * distributions with 1 and 2 degrees of freedom, and the documented
 * answers for constant input and n < 3. */
#include <check.h>
#include <math.h>
#include "testutil.h"
#include "numerics/spearman.h"

START_TEST(ranks_ties)
{
    double x[5] = { 3.0, 1.0, 3.0, 2.0, 5.0 }, r[5];
    ck_assert_int_eq(spearman_ranks(x, 5, r), AR_OK);
    ck_assert(r[0] == 3.5 && r[1] == 1.0 && r[2] == 3.5 && r[3] == 2.0 && r[4] == 5.0);
    /* three-way tie at the top: positions 3, 4, 5 share rank 4 */
    double y[5] = { 7, -1, 7, 0, 7 }, s[5];
    ck_assert_int_eq(spearman_ranks(y, 5, s), AR_OK);
    ck_assert(s[0] == 4.0 && s[1] == 1.0 && s[2] == 4.0 && s[3] == 2.0 && s[4] == 4.0);
}
END_TEST

START_TEST(rho_values)
{
    double x[5] = { 1, 2, 3, 4, 5 }, y[5] = { 2, 4, 6, 8, 100 }, z[5] = { 5, 4, 3, 2, 1 }, rho;
    ck_assert_int_eq(spearman_rho(x, y, 5, &rho), AR_OK);
    ck_assert(fabs(rho - 1.0) < 1e-15);
    ck_assert_int_eq(spearman_rho(x, z, 5, &rho), AR_OK);
    ck_assert(fabs(rho + 1.0) < 1e-15);
    /* d = (0, 0, 1, -1, 0): rho = 1 - 6*2/(5*24) = 0.9 */
    double w[5] = { 1, 2, 4, 3, 5 };
    ck_assert_int_eq(spearman_rho(x, w, 5, &rho), AR_OK);
    ck_assert(fabs(rho - 0.9) < 1e-15);
    /* ties: ranks (1, 2.5, 2.5, 4) against (1, 2, 3, 4): sum dx dy = 4.5,
     * sum dx^2 = 4.5, sum dy^2 = 5, so rho = sqrt(0.9) */
    double t1[4] = { 1, 2, 2, 3 }, t2[4] = { 10, 20, 30, 40 };
    ck_assert_int_eq(spearman_rho(t1, t2, 4, &rho), AR_OK);
    ck_assert_msg(fabs(rho - sqrt(0.9)) < 1e-15, "rho %.17g", rho);
    double c[5] = { 1, 1, 1, 1, 1 };
    ck_assert_int_eq(spearman_rho(x, c, 5, &rho), AR_OK);
    ck_assert(isnan(rho));
    ck_assert_int_eq(spearman_rho(x, y, 1, &rho), AR_EINVAL);
}
END_TEST

START_TEST(t_pvalues)
{
    /* n = 3 (1 degree of freedom, Cauchy): rho = 1/2 gives t = 1/sqrt(3) and
     * p = 1 - (2/pi) atan(1/sqrt(3)) = 1 - 1/3 = 2/3 */
    ck_assert_msg(fabs(spearman_p_t(0.5, 3) - 2.0 / 3.0) < 1e-14, "p %.17g", spearman_p_t(0.5, 3));
    ck_assert(fabs(spearman_p_t(-0.5, 3) - 2.0 / 3.0) < 1e-14);
    /* n = 4 (2 degrees of freedom): p = 1 - t / sqrt(2 + t^2), t = rho sqrt(2/(1 - rho^2)) */
    for (double rho = 0.1; rho < 0.95; rho += 0.2) {
        double t = rho * sqrt(2.0 / (1.0 - rho * rho)), want = 1.0 - t / sqrt(2.0 + t * t);
        ck_assert_msg(fabs(spearman_p_t(rho, 4) - want) < 1e-13, "rho %g: p %.17g, closed form %.17g", rho,
                      spearman_p_t(rho, 4), want);
    }
    ck_assert(spearman_p_t(0.0, 10) == 1.0);
    ck_assert(spearman_p_t(1.0, 10) == 0.0 && spearman_p_t(-1.0, 10) == 0.0);
    ck_assert(spearman_p_t(0.9, 2) == 1.0);      /* no degree of freedom */
    ck_assert(spearman_p_t(NAN, 10) == 1.0);
}
END_TEST

START_TEST(perm_pvalues)
{
    double x[20], y[20], u[20];
    test_rng_init(test_seed());
    for (int i = 0; i < 20; i++) {
        x[i] = i;
        y[i] = i * i;
        u[i] = test_unif();
    }
    spearman_t s, s2;
    ck_assert_int_eq(spearman_test(x, y, 20, 2000, 7, &s), AR_OK);
    ck_assert(fabs(s.rho - 1.0) < 1e-15);
    ck_assert(s.p_perm <= 2.0 / 2001.0);       /* no permutation of 20 reaches |rho| = 1 in 2000 draws */
    ck_assert(s.p_t == 0.0);
    ck_assert_int_eq(spearman_test(x, u, 20, 2000, 7, &s), AR_OK);
    ck_assert_int_eq(spearman_test(x, u, 20, 2000, 7, &s2), AR_OK);
    ck_assert(s.rho == s2.rho && s.p_perm == s2.p_perm && s.p_t == s2.p_t);   /* same seed, same answer */
    ck_assert(s.p_perm > 1.0 / 2001.0);
    ck_assert(s.p_t == spearman_p_t(s.rho, 20));
    /* n = 3, perfect order: 2 of the 6 permutations have |rho| = 1, so p -> 1/3 */
    double a[3] = { 1, 2, 3 };
    ck_assert_int_eq(spearman_test(a, a, 3, 60000, 3, &s), AR_OK);
    ck_assert(fabs(s.p_perm - 1.0 / 3.0) < 0.01);
    /* n = 3, rho = 1/2: every permutation has |rho| >= 1/2, so p_perm = 1 exactly; p_t = 2/3 */
    double b[3] = { 1, 3, 2 };
    ck_assert_int_eq(spearman_test(a, b, 3, 500, 3, &s), AR_OK);
    ck_assert(fabs(s.rho - 0.5) < 1e-15);
    ck_assert(s.p_perm == 1.0);
    ck_assert(fabs(s.p_t - 2.0 / 3.0) < 1e-14);
    /* n = 4, perfect order: 2 of the 24 permutations reach |rho| = 1 */
    double c4[4] = { 1, 2, 3, 4 };
    ck_assert_int_eq(spearman_test(c4, c4, 4, 120000, 5, &s), AR_OK);
    ck_assert_msg(fabs(s.p_perm - 1.0 / 12.0) < 0.005, "p %g", s.p_perm);
    double bad[2] = { 1, NAN };
    ck_assert_int_eq(spearman_test(a, bad, 2, 10, 1, &s), AR_EINVAL);
    ck_assert_int_eq(spearman_test(a, a, 1, 10, 1, &s), AR_EINVAL);
    ck_assert_int_eq(spearman_test(a, a, 3, 0, 1, &s), AR_EINVAL);
}
END_TEST

START_TEST(constant_input)
{
    double x[6] = { 1, 2, 3, 4, 5, 6 }, c[6] = { 2, 2, 2, 2, 2, 2 };
    spearman_t s;
    ck_assert_int_eq(spearman_test(x, c, 6, 100, 1, &s), AR_OK);
    ck_assert(isnan(s.rho) && s.p_perm == 1.0 && s.p_t == 1.0);
    ck_assert_int_eq(spearman_test(c, x, 6, 100, 1, &s), AR_OK);
    ck_assert(isnan(s.rho) && s.p_perm == 1.0 && s.p_t == 1.0);
}
END_TEST

Suite *suite_spearman(void)
{
    Suite *s = suite_create("spearman");
    TEST_TCASE(tc, "spearman");
    tcase_add_test(tc, ranks_ties);
    tcase_add_test(tc, rho_values);
    tcase_add_test(tc, t_pvalues);
    tcase_add_test(tc, perm_pvalues);
    tcase_add_test(tc, constant_input);
    suite_add_tcase(s, tc);
    return s;
}
