/* test_cli_env.c -- the environment variables attnrank reads: a value that
 * is not in the accepted range is refused at start-up, before any work,
 * with one line naming the variable, its value and the range (exit 2);
 * valid values and unset variables are accepted.  (Issue 14 item 10: the
 * old readers took 0, -5, lots, nan, inf, 1e300 or empty for the default
 * and "12abc" for 12.) */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "cli/cliutil.h"

static char edir[256];

static void setup(void)
{
    cli_tmpdir_make(edir, sizeof edir, "clienv");
}

static void teardown(void)
{
    cli_tmpdir_remove(edir);
}

/* `attnrank --version` with name=value (value NULL: unset) exits with code. */
static void version_with(const char *name, const char *value, int code)
{
    if (value)
        ck_assert_int_eq(setenv(name, value, 1), 0);
    else
        unsetenv(name);
    const char *args[] = { "--version", NULL };
    if (code == 0) {
        cli_run_t *r = malloc(sizeof *r);
        ck_assert(r != NULL);
        cli_run_ex(r, edir, args, 0, 60);
        ck_assert_msg(r->status == 0, "%s='%s': exit %d (%s)", name, value ? value : "(unset)", r->status, r->err);
        ck_assert_msg(r->err[0] == '\0', "%s='%s': stderr %s", name, value ? value : "(unset)", r->err);
        free(r);
    } else {
        char needle[300];
        snprintf(needle, sizeof needle, "%s='%s'", name, value);
        cli_expect_refused(edir, args, code, needle, 60);
    }
    unsetenv(name);
}

START_TEST(test_env_refused)
{
    const char *gb_bad[] = { "0", "-5", "lots", "nan", "inf", "1e300", "", "12abc", " 12", "12 ", "1e-400" };
    for (size_t i = 0; i < sizeof gb_bad / sizeof gb_bad[0]; i++)
        version_with("ATTNRANK_MAX_ALLOC_GB", gb_bad[i], 2);
    version_with("ATTNRANK_MAX_ALLOC_GB", "12", 0);
    version_with("ATTNRANK_MAX_ALLOC_GB", "0.25", 0);
    version_with("ATTNRANK_MAX_ALLOC_GB", NULL, 0);
    const char *n_bad[] = { "", "abc", "-1", "3000x", "+5", "1e3", "99999999999", "18446744073709551616" };
    for (size_t i = 0; i < sizeof n_bad / sizeof n_bad[0]; i++) {
        version_with("ATTNRANK_BALL_DENSE_MAX", n_bad[i], 2);
        version_with("ATTNRANK_MAX_SCALE_N", n_bad[i], 2);
    }
    version_with("ATTNRANK_MAX_SCALE_N", "0", 2);          /* at least one point */
    version_with("ATTNRANK_BALL_DENSE_MAX", "0", 0);       /* 0: the dense certificates are off */
    version_with("ATTNRANK_BALL_DENSE_MAX", "300", 0);
    version_with("ATTNRANK_MAX_SCALE_N", "5000", 0);
    const char *flag_bad[] = { "", "yes", "2", "00", "1 " };
    for (size_t i = 0; i < sizeof flag_bad / sizeof flag_bad[0]; i++) {
        version_with("ATTNRANK_BLAS_AUTO", flag_bad[i], 2);
        version_with("ATTNRANK_BLAS_REEXEC", flag_bad[i], 2);
        version_with("ATTNRANK_OOM_REEXEC", flag_bad[i], 2);
    }
    version_with("ATTNRANK_BLAS_AUTO", "0", 0);
    version_with("ATTNRANK_BLAS_AUTO", "1", 0);
    version_with("ATTNRANK_BLAS_REEXEC", "0", 2);          /* a guard is "1" or unset */
}
END_TEST

/* The range is in the message, and the refusal comes before the command's
 * own work and messages. */
START_TEST(test_env_message)
{
    ck_assert_int_eq(setenv("ATTNRANK_MAX_ALLOC_GB", "lots", 1), 0);
    cli_expect_refused(edir, (const char *[]){ "bracket", "--geometry", "sphere", "--family", "polygon", "--d", "2",
                                               "--n", "8", "--beta", "1", "--eps", "0.1", NULL },
                       2, "expected a number in [1e-06, 1048576]", 60);
    unsetenv("ATTNRANK_MAX_ALLOC_GB");
    ck_assert_int_eq(setenv("ATTNRANK_BALL_DENSE_MAX", "12abc", 1), 0);
    cli_expect_refused(edir, (const char *[]){ "frobnicate", NULL }, 2, "expected a decimal integer in [0, 5000000]",
                       60);
    unsetenv("ATTNRANK_BALL_DENSE_MAX");
}
END_TEST

Suite *suite_cli_env(void)
{
    Suite *s = suite_create("cli_env");
    TEST_TCASE(tc, "core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_env_refused);
    tcase_add_test(tc, test_env_message);
    suite_add_tcase(s, tc);
    return s;
}
