/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_S.c -- claim S (spherical self-attention, proofs-notes/claim-S.md):
 * one Check test per claim-S row of the laws table (theory/claims/laws.c). */
#include <check.h>
#include "verify/verifyutil.h"

START_TEST(test_row)
{
    verify_assert_row("S", (size_t)_i);
}
END_TEST

Suite *suite_verify_S(void)
{
    Suite *s = suite_create("verify_S");
    TCase *tc = tcase_create("rows");
    tcase_set_timeout(tc, 1800);
    tcase_add_loop_test(tc, test_row, 0, (int)verify_rows("S"));
    suite_add_tcase(s, tc);
    return s;
}
