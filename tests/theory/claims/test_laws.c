/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_laws.c -- the law module: log-log fits, the band check, the laws
 * table's declarations, and the verdict logic of verify_law, including a
 * negative control (a wrong predicted exponent must give "fail"). */
#include <check.h>
#include <stdio.h>
#include <math.h>
#include <string.h>
#include "testutil.h"
#include "numerics/rng.h"
#include "theory/claims/fit.h"
#include "theory/claims/laws.h"
#include "theory/claims/claim_s.h"
#include "theory/claims/verify.h"

START_TEST(test_fit_exact_power_law)
{
    rng_t r;
    rng_init(&r, test_seed() + 41);
    for (int t = 0; t < 50; t++) {
        double p = 4 * rng_uniform(&r) - 2, c = exp(6 * rng_uniform(&r) - 3);
        double x[7], y[7];
        for (int i = 0; i < 7; i++) {
            x[i] = exp(i * 0.7 + rng_uniform(&r) * 0.3);
            y[i] = c * pow(x[i], p);
        }
        fit_t f;
        ck_assert_int_eq(fit_loglog(x, y, 7, &f), AR_OK);
        ck_assert_msg(fabs(f.slope - p) < 1e-12 && fabs(f.intercept - log(c)) < 1e-11 && f.slope_se < 1e-10,
                      "seed %llu: slope %.17g vs %.17g, se %g", (unsigned long long)test_seed(), f.slope, p, f.slope_se);
    }
}
END_TEST

START_TEST(test_fit_standard_error)
{
    /* y = x^1 * (1 + alternating noise): slope 1 exactly by symmetry? no: compute the
     * textbook standard error independently and compare */
    double x[5] = { 1, 2, 4, 8, 16 }, y[5] = { 1.1, 1.8, 4.4, 7.2, 17.6 };
    fit_t f;
    ck_assert_int_eq(fit_loglog(x, y, 5, &f), AR_OK);
    double lx[5], ly[5], mx = 0, my = 0;
    for (int i = 0; i < 5; i++) {
        lx[i] = log(x[i]);
        ly[i] = log(y[i]);
        mx += lx[i] / 5;
        my += ly[i] / 5;
    }
    double sxx = 0, sxy = 0;
    for (int i = 0; i < 5; i++) {
        sxx += (lx[i] - mx) * (lx[i] - mx);
        sxy += (lx[i] - mx) * (ly[i] - my);
    }
    double b = sxy / sxx, a = my - b * mx, rss = 0;
    for (int i = 0; i < 5; i++)
        rss += pow(ly[i] - a - b * lx[i], 2);
    double se = sqrt(rss / 3 / sxx);
    ck_assert_msg(fabs(f.slope - b) < 1e-13 && fabs(f.slope_se - se) < 1e-13, "slope %g/%g se %g/%g", f.slope, b,
                  f.slope_se, se);
}
END_TEST

START_TEST(test_fit_bad_input)
{
    double x[3] = { 1, 2, 3 }, y[3] = { 1, 0, 3 }, xs[3] = { 2, 2, 2 }, yn[3] = { 1, NAN, 2 };
    fit_t f;
    ck_assert_int_eq(fit_loglog(x, y, 3, &f), AR_EINVAL);
    ck_assert_int_eq(fit_loglog(xs, x, 3, &f), AR_EINVAL);
    ck_assert_int_eq(fit_loglog(x, yn, 3, &f), AR_EINVAL);
    ck_assert_int_eq(fit_loglog(x, x, 1, &f), AR_EINVAL);
    double r[3] = { 1, 2, 3 };
    ck_assert(fit_band_ok(r, 3, 1, 3));
    ck_assert(!fit_band_ok(r, 3, 1.5, 3));
    ck_assert(!fit_band_ok(r, 3, 1, 2.9));
    double rn[2] = { 1, NAN };
    ck_assert(!fit_band_ok(rn, 2, 0, 10));
}
END_TEST

START_TEST(test_table_declarations)
{
    size_t n;
    const law_t *t = laws_table(&n);
    ck_assert(n >= 1);
    for (size_t i = 0; i < n; i++) {
        ck_assert(t[i].claim && strlen(t[i].claim) == 1);
        if (!strcmp(t[i].claim, "S") && t[i].kind != LAW_SATURATION)
            ck_assert_msg(fabs(t[i].predicted - 0.5 * (t[i].dim - 1)) < 1e-15, "S row %zu: predicted %g for d=%d", i,
                          t[i].predicted, t[i].dim);
        /* claim S: tolerance 0.1 (issue #3); claims R and B: 0.2 (issues #8 and 7) */
        ck_assert(t[i].tol > 0 && t[i].tol <= (strcmp(t[i].claim, "S") ? 0.2 : 0.1));
        ck_assert(t[i].eps > 0 && t[i].eps < 1);
        if (t[i].kind != LAW_SATURATION)
            ck_assert(t[i].band_lo > 0 && t[i].band_lo < t[i].band_hi);
        if (t[i].kind == LAW_SATURATION) {
            ck_assert(t[i].nbetas == 1 && t[i].nns >= 3 && t[i].nns <= VERIFY_MAX_POINTS);
            for (size_t k = 1; k < t[i].nns; k++)
                ck_assert(t[i].ns[k] > t[i].ns[k - 1]);
            continue;
        }
        ck_assert(t[i].nbetas >= 3 && t[i].nbetas <= VERIFY_MAX_POINTS);
        for (size_t k = 1; k < t[i].nbetas; k++)
            ck_assert(t[i].betas[k] > t[i].betas[k - 1]);
    }
}
END_TEST

/* verify_law on a small d = 2 row: the right exponent passes, a wrong one fails */
START_TEST(test_verdicts)
{
    static const double betas[] = { 30, 100, 300 };
    law_t L = { .claim = "S", .dim = 2, .variable = LAW_VAR_ONE_PLUS_BETA, .predicted = 0.5, .tol = 0.1, .eps = 0.1,
                .band_lo = 1.0, .band_hi = 10.0, .betas = betas, .nbetas = 3, .family = "polygon",
                .n_per_law = 20.0, .n_min = 64, .n_max = 600, .scope = "test row", .engine = 0, .packing = 0,
                .upper_source = LAW_UPPER_INSTANCE, .kind = LAW_EXPONENT, .point = claim_s_law_point };
    verify_row_t row;
    ck_assert_int_eq(verify_law(&L, &row, NULL, NULL), AR_OK);
    ck_assert_msg(row.verdict == VERDICT_PASS, "right exponent: verdict %s (%s)", verify_verdict_name(row.verdict),
                  row.reason);
    ck_assert_uint_eq(row.npts, 3);
    for (size_t i = 0; i < 3; i++)
        ck_assert(row.pts[i].p.lower <= row.pts[i].p.upper);
    law_t W = L;
    W.predicted = 1.0;               /* wrong exponent: must fail */
    ck_assert_int_eq(verify_law(&W, &row, NULL, NULL), AR_OK);
    ck_assert_msg(row.verdict == VERDICT_FAIL, "wrong exponent: verdict %s", verify_verdict_name(row.verdict));
    law_t B = L;
    B.band_lo = 5.0;                 /* band that the ratios (about 4) violate: must fail */
    B.band_hi = 9.0;
    ck_assert_int_eq(verify_law(&B, &row, NULL, NULL), AR_OK);
    ck_assert_msg(row.verdict == VERDICT_FAIL, "violated band: verdict %s", verify_verdict_name(row.verdict));
    law_t S = L;
    S.n_per_law = 0.5;               /* instances far too small: upper hits n -> inconclusive */
    S.n_min = 4;
    ck_assert_int_eq(verify_law(&S, &row, NULL, NULL), AR_OK);
    ck_assert_msg(row.verdict == VERDICT_INCONCLUSIVE, "tiny instances: verdict %s",
                  verify_verdict_name(row.verdict));
}
END_TEST

/* laws_check_selection: every (claim, dimension) of the table is a
 * selection; a pair that names no row is refused with the table's claims
 * and dimensions, whatever the table holds. */
/* The one name table of each law enum: the names printed in the table,
 * the JSON and the API's strings. */
START_TEST(test_law_names)
{
    ck_assert_str_eq(law_kind_name(LAW_EXPONENT), "exponent");
    ck_assert_str_eq(law_kind_name(LAW_SATURATION), "saturation");
    ck_assert_str_eq(law_kind_name(LAW_REPORT), "report");
    ck_assert_str_eq(law_tier_name(LAW_TIER_DEFAULT), "default");
    ck_assert_str_eq(law_tier_name(LAW_TIER_EXTENDED), "extended");
    ck_assert_str_eq(law_upper_name(LAW_UPPER_INSTANCE), "instance");
    ck_assert_str_eq(law_upper_name(LAW_UPPER_CONTINUUM), "continuum");
    ck_assert_str_eq(law_variable_name(LAW_VAR_ONE_PLUS_BETA), "1+beta");
    ck_assert_str_eq(law_variable_name(LAW_VAR_BETA), "beta");
    ck_assert_str_eq(law_variable_name(LAW_VAR_N), "n");
    ck_assert_str_eq(verify_verdict_name(VERDICT_PASS), "pass");
    ck_assert_str_eq(verify_verdict_name(VERDICT_FAIL), "fail");
    ck_assert_str_eq(verify_verdict_name(VERDICT_INCONCLUSIVE), "inconclusive");
    law_t L = { .variable = LAW_VAR_BETA, .kind = LAW_REPORT, .tier = LAW_TIER_EXTENDED };
    ck_assert(law_variable(&L, 2.0) == 2.0 && !law_asserted(&L) && law_extended(&L));
    L.variable = LAW_VAR_ONE_PLUS_BETA;
    L.kind = LAW_SATURATION;
    L.tier = LAW_TIER_DEFAULT;
    ck_assert(law_variable(&L, 2.0) == 3.0 && law_asserted(&L) && !law_extended(&L));
}
END_TEST

START_TEST(test_selection)
{
    size_t n;
    const law_t *L = laws_table(&n);
    ck_assert_int_eq(laws_check_selection(NULL, 0), AR_OK);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(laws_check_selection(L[i].claim, 0), AR_OK);
        ck_assert_int_eq(laws_check_selection(L[i].claim, L[i].dim), AR_OK);
        ck_assert_int_eq(laws_check_selection(NULL, L[i].dim), AR_OK);
    }
    const char *const *e = laws_checked_elsewhere();
    for (size_t i = 0; e[i]; i += 2) {
        ck_assert_int_eq(laws_check_selection(e[i], 0), AR_OK);
        ck_assert_int_eq(laws_check_selection(e[i], 2), AR_EINVAL);     /* no rows: no dimension */
    }
    ck_assert_int_eq(laws_check_selection("S", 1), AR_EINVAL);
    ck_assert_msg(strstr(ar_error_get(), "claim S has no law row with d = 1"), "%s", ar_error_get());
    for (size_t i = 0; i < n; i++) {                                    /* every row's dimension is listed */
        char want[32];
        snprintf(want, sizeof want, "%s: %s = ", L[i].claim, strcmp(L[i].claim, "R") ? "d" : "r");
        ck_assert_msg(strstr(ar_error_get(), want), "[%s] lacks '%s'", ar_error_get(), want);
    }
    ck_assert_int_eq(laws_check_selection(NULL, 64), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "no law row has dimension 64"));
    ck_assert_int_eq(laws_check_selection("Q", 0), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "no claim 'Q'"));
}
END_TEST

Suite *suite_laws(void)
{
    Suite *s = suite_create("laws");
    TEST_TCASE(tc, "laws");
    tcase_add_test(tc, test_fit_exact_power_law);
    tcase_add_test(tc, test_fit_standard_error);
    tcase_add_test(tc, test_fit_bad_input);
    tcase_add_test(tc, test_table_declarations);
    tcase_add_test(tc, test_law_names);
    tcase_add_test(tc, test_verdicts);
    tcase_add_test(tc, test_selection);
    suite_add_tcase(s, tc);
    return s;
}
