/* SPDX-License-Identifier: GPL-3.0-or-later */
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
#include "base/blas.h"
#include "base/blas_cores.h"

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

/* Issue 21 item 12: the streaming limits, the progress delay and
 * OPENBLAS_NUM_THREADS were read where used, and "1x", "-3" or "soon"
 * silently meant the default; now each is refused at start-up (exit 2, one
 * line naming the variable and its value, nothing on stdout). */
START_TEST(test_env_stream_progress)
{
    const char *int_bad[] = { "1x", "-3", "soon", "", " 4", "4 ", "+4", "0", "1e3", "18446744073709551616" };
    for (size_t i = 0; i < sizeof int_bad / sizeof int_bad[0]; i++) {
        version_with("ATTNRANK_STREAM_MIB", int_bad[i], 2);
        version_with("ATTNRANK_MAX_STREAM_N", int_bad[i], 2);
        version_with("OPENBLAS_NUM_THREADS", int_bad[i], 2);
    }
    version_with("ATTNRANK_STREAM_MIB", "1048577", 2);      /* above 1 TiB */
    version_with("ATTNRANK_MAX_STREAM_N", "16777217", 2);   /* above 2^24 points */
    version_with("OPENBLAS_NUM_THREADS", "1025", 2);
    version_with("ATTNRANK_STREAM_MIB", "1", 0);
    version_with("ATTNRANK_STREAM_MIB", "1048576", 0);
    version_with("ATTNRANK_MAX_STREAM_N", "100", 0);
    version_with("OPENBLAS_NUM_THREADS", "2", 0);
    const char *sec_bad[] = { "soon", "-3", "-0.5", "1x", "", "nan", "inf", "1e7", "1e-320" };
    for (size_t i = 0; i < sizeof sec_bad / sizeof sec_bad[0]; i++)
        version_with("ATTNRANK_PROGRESS_AFTER", sec_bad[i], 2);
    version_with("ATTNRANK_PROGRESS_AFTER", "0", 0);
    version_with("ATTNRANK_PROGRESS_AFTER", "0.5", 0);
    version_with("ATTNRANK_PROGRESS_AFTER", "1000000", 0);
    /* the range is in the message, and the refusal comes before a bracket's own work */
    const char *bargs[] = { "bracket", "--geometry", "sphere", "--family", "polygon", "--d", "2", "--n", "8",
                            "--beta", "1", "--eps", "0.1", "--progress", NULL };
    ck_assert_int_eq(setenv("ATTNRANK_PROGRESS_AFTER", "soon", 1), 0);
    cli_expect_refused(edir, bargs, 2, "ATTNRANK_PROGRESS_AFTER='soon' is not a finite number: expected a number in "
                       "[0, 1000000]", 60);
    unsetenv("ATTNRANK_PROGRESS_AFTER");
    ck_assert_int_eq(setenv("ATTNRANK_STREAM_MIB", "1x", 1), 0);
    cli_expect_refused(edir, bargs, 2, "ATTNRANK_STREAM_MIB='1x': expected a decimal integer in [1, 1048576]", 60);
    unsetenv("ATTNRANK_STREAM_MIB");
    ck_assert_int_eq(setenv("ATTNRANK_MAX_STREAM_N", "-3", 1), 0);
    cli_expect_refused(edir, bargs, 2, "ATTNRANK_MAX_STREAM_N='-3': expected a decimal integer in [1, 16777216]", 60);
    unsetenv("ATTNRANK_MAX_STREAM_N");
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

/* A forced OpenBLAS core the CPU cannot run is refused at start-up with one
 * line, instead of dying with SIGILL at the first kernel (issue 14 item 6:
 * exit 132, no message); an unknown core name is refused instead of being
 * quietly replaced by OpenBLAS's own detection.  The bracket multiplies
 * matrices, so the old binary reaches the forced kernels. */
START_TEST(test_forced_blas_core)
{
    const char *args[] = { "bracket", "--geometry", "sphere", "--family", "uniform", "--d", "3", "--n", "200",
                           "--beta", "5", "--eps", "0.1", NULL };
    const char *lacking = NULL;
    for (size_t i = 0; blas_core_name(i) && !lacking; i++)
        if (blas_core_check(blas_core_name(i), blas_cpu_features()) != AR_OK)
            lacking = blas_core_name(i);
    if (lacking) {
        ck_assert_int_eq(setenv("OPENBLAS_CORETYPE", lacking, 1), 0);
        char needle[96];
        snprintf(needle, sizeof needle, "OPENBLAS_CORETYPE=%s: its kernels need", lacking);
        cli_expect_refused(edir, args, 2, needle, 120);
    } else {
        fprintf(stderr, "test_forced_blas_core: this CPU runs every core of OpenBLAS 0.3.21; only the unknown "
                        "name is tried\n");
    }
    ck_assert_int_eq(setenv("OPENBLAS_CORETYPE", "Foo", 1), 0);
    cli_expect_refused(edir, args, 2, "OPENBLAS_CORETYPE='Foo' is not a core", 120);
    ck_assert_int_eq(setenv("OPENBLAS_CORETYPE", "prescott", 1), 0);   /* every x86-64 CPU runs it */
    cli_run_t *r = malloc(sizeof *r);
    ck_assert(r != NULL);
    cli_run_ex(r, edir, args, 0, 120);
    ck_assert_msg(r->status == 0 && strstr(r->out, "rank_eps"), "exit %d: %s", r->status, r->err);
    free(r);
    unsetenv("OPENBLAS_CORETYPE");
}
END_TEST

Suite *suite_cli_env(void)
{
    Suite *s = suite_create("cli_env");
    TEST_TCASE(tc, "core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_env_refused);
    tcase_add_test(tc, test_env_message);
    tcase_add_test(tc, test_env_stream_progress);
    tcase_add_test(tc, test_forced_blas_core);
    suite_add_tcase(s, tc);
    return s;
}
