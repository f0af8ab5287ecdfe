/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_envvar.c -- strict environment readers: unset gives the default,
 * a valid value is read exactly, and every malformed or out-of-range value
 * is refused with one line naming the variable, the value and the range
 * (never silently the default); the allocation limit reads through them
 * (the bracket size limits: tests/theory/brackets/test_route.c). */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "base/envvar.h"

#define VAR "ATTNRANK_TEST_ENVVAR"

START_TEST(sizes)
{
    size_t v = 0;
    unsetenv(VAR);
    ck_assert(env_size(VAR, 1, 10, 4, &v) == AR_OK && v == 4);
    setenv(VAR, "10", 1);
    ck_assert(env_size(VAR, 1, 10, 4, &v) == AR_OK && v == 10);
    const char *bad[] = { "", "0", "11", "-1", "+3", " 3", "3 ", "3x", "1e1", "99999999999999999999" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv(VAR, bad[i], 1);
        v = 77;
        ck_assert_msg(env_size(VAR, 1, 10, 4, &v) == AR_EINVAL && v == 77, "'%s' accepted", bad[i]);
        ck_assert_msg(strstr(ar_error_get(), VAR) && strstr(ar_error_get(), "[1, 10]"), "%s", ar_error_get());
    }
    unsetenv(VAR);
}
END_TEST

/* env_size_opt: unset is "not set" (another library's default), set must be in range. */
START_TEST(optional_sizes)
{
    size_t v = 77;
    int set = -1;
    unsetenv(VAR);
    ck_assert(env_size_opt(VAR, 1, 8, &set, &v) == AR_OK && set == 0 && v == 77);
    setenv(VAR, "8", 1);
    ck_assert(env_size_opt(VAR, 1, 8, &set, &v) == AR_OK && set == 1 && v == 8);
    const char *bad[] = { "", "0", "9", "-1", "2x", " 2", "1e0" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv(VAR, bad[i], 1);
        v = 77;
        ck_assert_msg(env_size_opt(VAR, 1, 8, &set, &v) == AR_EINVAL && v == 77 && set == 0, "'%s' accepted", bad[i]);
        ck_assert_msg(strstr(ar_error_get(), VAR) && strstr(ar_error_get(), "[1, 8]"), "%s", ar_error_get());
    }
    unsetenv(VAR);
}
END_TEST

START_TEST(reals_and_flags)
{
    double x = 0;
    int f = -1;
    unsetenv(VAR);
    ck_assert(env_real(VAR, 1e-6, 1e6, 16, &x) == AR_OK && x == 16);
    setenv(VAR, "0.0001", 1);
    ck_assert(env_real(VAR, 1e-6, 1e6, 16, &x) == AR_OK && x == 0.0001);
    const char *bad[] = { "0", "-5", "lots", "nan", "inf", "1e300", "", "12abc", "1e-400", "1e-320" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv(VAR, bad[i], 1);
        x = 77;
        ck_assert_msg(env_real(VAR, 1e-6, 1e6, 16, &x) == AR_EINVAL && x == 77, "'%s' accepted", bad[i]);
        ck_assert_msg(strstr(ar_error_get(), VAR) && strstr(ar_error_get(), "[1e-06, 1000000]"), "%s",
                      ar_error_get());
    }
    ck_assert(env_flag(VAR, 1, &f) == AR_EINVAL);        /* "1e-320" is no flag */
    setenv(VAR, "0", 1);
    ck_assert(env_flag(VAR, 1, &f) == AR_OK && f == 0);
    setenv(VAR, "1", 1);
    ck_assert(env_flag(VAR, 0, &f) == AR_OK && f == 1);
    ck_assert(env_guard(VAR, &f) == AR_OK && f == 1);
    setenv(VAR, "yes", 1);
    ck_assert(env_flag(VAR, 1, &f) == AR_EINVAL && env_guard(VAR, &f) == AR_EINVAL);
    unsetenv(VAR);
    ck_assert(env_flag(VAR, 1, &f) == AR_OK && f == 1);
    ck_assert(env_guard(VAR, &f) == AR_OK && f == 0);
}
END_TEST

Suite *suite_envvar(void)
{
    Suite *s = suite_create("envvar");
    TEST_TCASE(tc, "envvar");
    tcase_add_test(tc, sizes);
    tcase_add_test(tc, optional_sizes);
    tcase_add_test(tc, reals_and_flags);
    suite_add_tcase(s, tc);
    return s;
}
