/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_T.c -- claim T (tolerance-indexed visible dimension,
 * proofs-notes/claim-T.md), asserted by `make verify`: one Check test per
 * planted head of theory/claims/claim_t.h, which states the cases and the
 * assertions (recovery of r0 by r(tau) above the noise's eta and not below
 * it; the certified chain between A and its rank-k logits). */
#include <check.h>
#include "theory/claims/claim_t.h"
#include "verify/verifyutil.h"

START_TEST(test_planted_recovery_and_chain)
{
    verify_assert_t((size_t)_i);
}
END_TEST

Suite *suite_verify_T(void)
{
    Suite *s = suite_create("verify_T");
    TCase *tc = tcase_create("planted");
    tcase_set_timeout(tc, 600);
    size_t n;
    claim_t_cases(&n);
    if (!verify_tier_has_default())
        n = 0;   /* claim T's cases are of the default tier */
    tcase_add_loop_test(tc, test_planted_recovery_and_chain, 0, (int)n);
    suite_add_tcase(s, tc);
    return s;
}
