/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_python.c -- the Python package's pytest suite (python/tests: its
 * results against the CLI's JSON bit for bit, errors, cancellation, the
 * torch helper against scripts/export_heads.py) run by Debian's
 * /usr/bin/python3 on the library of this build (ATTNRANK_TEST_LIBRARY, set
 * by make check).  Skipped with a printed reason when /usr/bin/python3
 * lacks numpy or pytest, and in the sanitizer build (its library needs the
 * ASan runtime loaded first; the plain make check runs the suite). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

START_TEST(test_pytest_suite)
{
    const char *lib = getenv("ATTNRANK_TEST_LIBRARY");
    if (!lib || !*lib) {
        printf("test_python: SKIP the pytest suite: no shared library for this build (ATTNRANK_TEST_LIBRARY "
               "unset: the sanitizer build, or the suite run outside make check)\n");
        return;
    }
    if (system("/usr/bin/python3 -c 'import numpy, pytest' > /dev/null 2>&1") != 0) {
        printf("test_python: SKIP the pytest suite: /usr/bin/python3 cannot import numpy and pytest "
               "(Debian: apt-get install python3-numpy python3-pytest)\n");
        return;
    }
    if (strchr(lib, '\'')) {
        ck_abort_msg("ATTNRANK_TEST_LIBRARY holds a quote");
        return;
    }
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "ATTNRANK_LIBRARY='%s' /usr/bin/python3 -m pytest -q -p no:cacheprovider python/tests",
             lib);
    fflush(stdout);
    int rc = system(cmd);
    ck_assert_msg(rc == 0, "pytest python/tests failed (exit status %d)", rc);
}
END_TEST

Suite *suite_python(void)
{
    Suite *s = suite_create("python");
    TCase *tc = tcase_create("python");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_pytest_suite);
    suite_add_tcase(s, tc);
    return s;
}
