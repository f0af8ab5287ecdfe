/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_parse.c -- strict number conversions: digits only for integers;
 * for reals each outcome (syntax, overflow, underflow to 0, subnormal) on
 * the boundary cases, and exact values accepted. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include "testutil.h"
#include "base/parse.h"

START_TEST(digits)
{
    uint64_t v = 7;
    ck_assert(parse_digits("0", &v) && v == 0);
    ck_assert(parse_digits("18446744073709551615", &v) && v == UINT64_MAX);
    const char *bad[] = { "", " 1", "1 ", "+1", "-1", "0x10", "1e3", "18446744073709551616", "12abc" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = 7;
        ck_assert_msg(!parse_digits(bad[i], &v) && v == 7, "'%s' accepted", bad[i]);
    }
    ck_assert(!parse_digits(NULL, &v));
}
END_TEST

START_TEST(reals)
{
    double v = 7;
    ck_assert(parse_real("0.25", &v) == PARSE_OK && v == 0.25);
    ck_assert(parse_real("-3e2", &v) == PARSE_OK && v == -300);
    ck_assert(parse_real(".5", &v) == PARSE_OK && v == 0.5);
    ck_assert(parse_real("0", &v) == PARSE_OK && v == 0);
    ck_assert(parse_real("0e-400", &v) == PARSE_OK && v == 0);          /* an exact zero is no underflow */
    ck_assert(parse_real("2.2250738585072014e-308", &v) == PARSE_OK && v == DBL_MIN);
    ck_assert(parse_real("1.7976931348623157e308", &v) == PARSE_OK && v == DBL_MAX);
    v = 7;
    const char *syntax[] = { "", " 1", "1 ", "lots", "12abc", "nan", "inf", "-inf", "+nan", "1,5", "e5" };
    for (size_t i = 0; i < sizeof syntax / sizeof syntax[0]; i++)
        ck_assert_msg(parse_real(syntax[i], &v) == PARSE_SYNTAX && v == 7, "'%s'", syntax[i]);
    ck_assert(parse_real("1e400", &v) == PARSE_OVERFLOW && v == 7);
    ck_assert(parse_real("-1e400", &v) == PARSE_OVERFLOW && v == 7);
    ck_assert(parse_real("1e-400", &v) == PARSE_UNDERFLOW && v == 7);
    ck_assert(parse_real("-1e-400", &v) == PARSE_UNDERFLOW && v == 7);
    ck_assert(parse_real("1e-320", &v) == PARSE_SUBNORMAL && v == 7);
    ck_assert(parse_real("4.9e-324", &v) == PARSE_SUBNORMAL && v == 7);   /* the smallest subnormal */
    ck_assert(parse_real("2.2250738585072e-308", &v) == PARSE_SUBNORMAL && v == 7);  /* just below DBL_MIN */
    ck_assert(strstr(parse_real_reason(PARSE_UNDERFLOW), "below the smallest positive double"));
    ck_assert(strstr(parse_real_reason(PARSE_SUBNORMAL), "subnormal"));
    ck_assert(strstr(parse_real_reason(PARSE_OVERFLOW), "beyond the largest double"));
    ck_assert(strstr(parse_real_reason(PARSE_SYNTAX), "not a finite number"));
}
END_TEST

Suite *suite_parse(void)
{
    Suite *s = suite_create("parse");
    TEST_TCASE(tc, "parse");
    tcase_add_test(tc, digits);
    tcase_add_test(tc, reals);
    suite_add_tcase(s, tc);
    return s;
}
