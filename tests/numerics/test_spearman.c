/* test_spearman.c -- ranks with ties, rho against hand-computed values,
 * permutation p-values: small for a perfect monotone relation, large for an
 * unrelated one, reproducible for a seed, exact for n = 3 by enumeration. */
#include <check.h>
#include <math.h>
#include "testutil.h"
#include "numerics/spearman.h"

START_TEST(ranks_ties)
{
    double x[5] = { 3.0, 1.0, 3.0, 2.0, 5.0 }, r[5];
    spearman_ranks(x, 5, r);
    ck_assert(r[0] == 3.5 && r[1] == 1.0 && r[2] == 3.5 && r[3] == 2.0 && r[4] == 5.0);
}
END_TEST

START_TEST(rho_values)
{
    double x[5] = { 1, 2, 3, 4, 5 }, y[5] = { 2, 4, 6, 8, 100 }, z[5] = { 5, 4, 3, 2, 1 };
    ck_assert(fabs(spearman_rho(x, y, 5) - 1.0) < 1e-15);
    ck_assert(fabs(spearman_rho(x, z, 5) + 1.0) < 1e-15);
    /* d = (0, 0, 1, -1, 0): rho = 1 - 6*2/(5*24) = 0.9 */
    double w[5] = { 1, 2, 4, 3, 5 };
    ck_assert(fabs(spearman_rho(x, w, 5) - 0.9) < 1e-15);
    double c[5] = { 1, 1, 1, 1, 1 };
    ck_assert(isnan(spearman_rho(x, c, 5)));
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
    double rho, p, rho2, p2;
    ck_assert_int_eq(spearman_test(x, y, 20, 2000, 7, &rho, &p), AR_OK);
    ck_assert(fabs(rho - 1.0) < 1e-15);
    ck_assert(p <= 2.0 / 2001.0);       /* no permutation of 20 reaches |rho| = 1 in 2000 draws */
    ck_assert_int_eq(spearman_test(x, u, 20, 2000, 7, &rho, &p), AR_OK);
    ck_assert_int_eq(spearman_test(x, u, 20, 2000, 7, &rho2, &p2), AR_OK);
    ck_assert(rho == rho2 && p == p2);  /* same seed, same answer */
    ck_assert(p > 1.0 / 2001.0);
    /* n = 3, perfect order: 2 of the 6 permutations have |rho| = 1, so p -> 1/3 */
    double a[3] = { 1, 2, 3 };
    ck_assert_int_eq(spearman_test(a, a, 3, 60000, 3, &rho, &p), AR_OK);
    ck_assert(fabs(p - 1.0 / 3.0) < 0.01);
    double bad[2] = { 1, NAN };
    ck_assert_int_eq(spearman_test(a, bad, 2, 10, 1, &rho, &p), AR_EINVAL);
    ck_assert_int_eq(spearman_test(a, a, 1, 10, 1, &rho, &p), AR_EINVAL);
}
END_TEST

Suite *suite_spearman(void)
{
    Suite *s = suite_create("spearman");
    TEST_TCASE(tc, "spearman");
    tcase_add_test(tc, ranks_ties);
    tcase_add_test(tc, rho_values);
    tcase_add_test(tc, perm_pvalues);
    suite_add_tcase(s, tc);
    return s;
}
