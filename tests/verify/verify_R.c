/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_R.c -- claim R (a fixed head of visible dimension r,
 * proofs-notes/claim-R.md): one Check test per claim-R row of the laws
 * table (theory/claims/laws.c).  Exponent rows are asserted; the random-head rows
 * are reports (the constant of the upper law), printed only. */
#include <check.h>
#include "verify/verifyutil.h"

START_TEST(test_row)
{
    verify_assert_row("R", (size_t)_i);
}
END_TEST

Suite *suite_verify_R(void)
{
    Suite *s = suite_create("verify_R");
    TCase *tc = tcase_create("rows");
    tcase_set_timeout(tc, 1800);
    tcase_add_loop_test(tc, test_row, 0, (int)verify_rows("R"));
    suite_add_tcase(s, tc);
    return s;
}
