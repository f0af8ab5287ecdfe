/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_status.c -- the statuses' name table: every status's name parses
 * back to it, unknown names are rejected (message set, output untouched),
 * the two names differ and are the printed "certified" / "inconclusive". */
#include <check.h>
#include <string.h>
#include "testutil.h"
#include "theory/certificates/cert_status.h"

START_TEST(test_round_trip)
{
    for (int s = 0; s < AR_CERT_STATUS_COUNT; s++) {
        ar_cert_status_t back = AR_CERT_STATUS_COUNT;
        ck_assert_int_eq(ar_cert_status_parse(ar_cert_status_name((ar_cert_status_t)s), &back), AR_OK);
        ck_assert_int_eq(back, s);
    }
    ck_assert_str_eq(ar_cert_status_name(AR_CERT_CERTIFIED), "certified");
    ck_assert_str_eq(ar_cert_status_name(AR_CERT_INCONCLUSIVE), "inconclusive");
}
END_TEST

START_TEST(test_no_duplicates)
{
    for (int a = 0; a < AR_CERT_STATUS_COUNT; a++)
        for (int b = a + 1; b < AR_CERT_STATUS_COUNT; b++)
            ck_assert_str_ne(ar_cert_status_name((ar_cert_status_t)a), ar_cert_status_name((ar_cert_status_t)b));
}
END_TEST

START_TEST(test_unknown_rejected)
{
    const char *bad[] = { "", "Certified", "certified ", "inconclusive\n", "pass", "unknown", "not run" };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        ar_cert_status_t s = AR_CERT_CERTIFIED;
        ck_assert_int_eq(ar_cert_status_parse(bad[k], &s), AR_EINVAL);
        ck_assert_int_eq(s, AR_CERT_CERTIFIED);
        ck_assert_ptr_nonnull(strstr(ar_error_get(), "unknown status"));
    }
    ar_cert_status_t s = AR_CERT_INCONCLUSIVE;
    ck_assert_int_eq(ar_cert_status_parse(NULL, &s), AR_EINVAL);
    ck_assert_int_eq(s, AR_CERT_INCONCLUSIVE);
    ck_assert_str_eq(ar_cert_status_name(AR_CERT_STATUS_COUNT), "unknown");
}
END_TEST

Suite *suite_cert_status(void)
{
    Suite *s = suite_create("cert_status");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_no_duplicates);
    tcase_add_test(tc, test_unknown_rejected);
    suite_add_tcase(s, tc);
    return s;
}
