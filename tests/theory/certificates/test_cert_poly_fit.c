/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_poly_fit.c -- the candidate fit and its cheap stand-in
 * (theory/certificates/cert_poly_fit.c; proofs-notes/polynomial-certificate.md
 * sections 3 and 5):
 *  - poly_fit_estimate (IRLS, no simplex) is within 0.2% of the LP estimate
 *    of poly_fit, below and past the old cliff (beta = 450, objective
 *    coefficients subnormal);
 *  - the continuum search placed by the stand-in returns the least degree
 *    whose certified bound is <= eps over a window below it, with the very
 *    bound that poly_fit + poly_continuum_error give at that degree (the
 *    candidate is the LP fit, as before), so it certifies;
 *  - bad input is rejected. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include "testutil.h"
#include "theory/certificates/cert_poly.h"

START_TEST(test_estimate_vs_lp)
{
    struct { int d; double beta; unsigned long L; } cs[] = {
        {3, 50.0, 15}, {4, 100.0, 28}, {5, 200.0, 43}, {6, 80.0, 27}, {2, 30.0, 12},
        {5, 450.0, 68},     /* past the old cliff */
    };
    for (size_t it = 0; it < sizeof cs / sizeof cs[0]; it++) {
        double c[96], est, pe;
        ck_assert_msg(poly_fit(cs[it].d, cs[it].beta, cs[it].L, c, &est) == AR_OK, "poly_fit: %s",
                      ar_error_get());
        ck_assert_msg(poly_fit_estimate(cs[it].d, cs[it].beta, cs[it].L, &pe) == AR_OK, "estimate: %s",
                      ar_error_get());
        ck_assert_msg(fabs(pe - est) <= 2e-3 * est, "case %zu (d=%d beta=%g L=%lu): stand-in %.12g, LP %.12g",
                      it, cs[it].d, cs[it].beta, cs[it].L, pe, est);
    }
}
END_TEST

/* The search against a scan: every degree of [L - 6, L] is fitted by the LP
 * and certified here; the search's L must be the least one of the window
 * whose bound is <= eps, and its reported bound the scan's, bit for bit. */
START_TEST(test_search_least_degree)
{
    struct { int d; double beta; } cs[] = { {4, 50.0}, {6, 40.0}, {3, 100.0} };
    for (size_t it = 0; it < sizeof cs / sizeof cs[0]; it++) {
        int d = cs[it].d;
        double beta = cs[it].beta;
        poly_cert_t pc;
        ck_assert_msg(poly_upper_continuum(d, beta, 0.1, &pc) == AR_OK, "search: %s", ar_error_get());
        ck_assert_msg(pc.L >= 7 && pc.L < 64, "case %zu: L = %lu", it, pc.L);
        unsigned long least = 0;
        double at = NAN;
        for (unsigned long L = pc.L - 6; L <= pc.L; L++) {
            double c[64], err;
            ck_assert_int_eq(poly_fit(d, beta, L, c, NULL), AR_OK);
            ck_assert_int_eq(poly_continuum_error(d, beta, c, L, &err), AR_OK);
            if (err <= 0.1 && least == 0) {
                least = L;
                at = err;
            }
        }
        ck_assert_msg(least == pc.L, "case %zu (d=%d beta=%g): search L=%lu, scan least certifying %lu", it, d,
                      beta, pc.L, least);
        ck_assert_msg(at == pc.err && pc.err <= 0.1 && pc.err_below > 0.1,
                      "case %zu: search err %.17g, scan %.17g, below %.17g", it, pc.err, at, pc.err_below);
        ck_assert_uint_eq(pc.rank, poly_dim(d, pc.L));
    }
}
END_TEST

START_TEST(test_bad_input)
{
    double est, c[4];
    ck_assert_int_eq(poly_fit_estimate(1, 10.0, 3, &est), AR_EINVAL);
    ck_assert_int_eq(poly_fit_estimate(3, -1.0, 3, &est), AR_EINVAL);
    ck_assert_int_eq(poly_fit_estimate(3, NAN, 3, &est), AR_EINVAL);
    ck_assert_int_eq(poly_fit_estimate(3, 10.0, 5000, &est), AR_EINVAL);
    ck_assert_int_eq(poly_fit_estimate(3, 10.0, 3, NULL), AR_EINVAL);
    ck_assert_int_eq(poly_fit(3, 10.0, 3, NULL, &est), AR_EINVAL);
    ck_assert_int_eq(poly_fit(65, 10.0, 3, c, &est), AR_EINVAL);
}
END_TEST

Suite *suite_cert_poly_fit(void)
{
    Suite *s = suite_create("cert_poly_fit");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_estimate_vs_lp);
    tcase_add_test(tc, test_search_least_degree);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
