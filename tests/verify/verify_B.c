/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_B.c -- claim B (the full-ball law beta^{d/2} with Gaussian
 * multiplicities, proofs-notes/claim-B.md): one Check test per claim-B row
 * of the laws table (theory/claims/laws.c). */
#include <check.h>
#include "verify/verifyutil.h"

START_TEST(test_row)
{
    verify_assert_row("B", (size_t)_i);
}
END_TEST

Suite *suite_verify_B(void)
{
    Suite *s = suite_create("verify_B");
    TCase *tc = tcase_create("rows");
    tcase_set_timeout(tc, 1800);
    tcase_add_loop_test(tc, test_row, 0, (int)verify_rows("B"));
    suite_add_tcase(s, tc);
    return s;
}
