/* SPDX-License-Identifier: GPL-3.0-or-later */
/* run_tests.c -- one Check runner for every suite in tests/<module>/test_*.c.
 * Each test file test_foo.c defines `Suite *suite_foo(void)`; the Makefile
 * generates suites.h listing them.  Select suites with CK_RUN_SUITE=name or
 * test cases with CK_RUN_CASE (Check's own variables).  Exit status is
 * non-zero when any test fails.  `run_tests --list` prints the suite names,
 * one per line, and runs nothing (scripts/run_check.sh runs them side by side). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <flint/flint.h>
#include "suites.h"
#include "include/attnrank.h"
#include "cli/blas_select.h"

typedef Suite *(*suite_fn)(void);

int main(int argc, char **argv)
{
    if (attnrank_check_environment() != ATTNRANK_OK) {   /* a forced core this CPU lacks would end in SIGILL */
        fprintf(stderr, "run_tests: %s\n", attnrank_error_message());
        return 2;
    }
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        static const char *const names[] = { ALL_SUITE_NAMES };
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            printf("%s\n", names[i]);
        return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_SUCCESS : EXIT_FAILURE;
    }
    if (argc > 1) {
        fprintf(stderr, "run_tests: no arguments but --list (select suites with CK_RUN_SUITE)\n");
        return 2;
    }
    blas_select_kernel(argc, argv);
    suite_fn suites[] = { ALL_SUITES };
    size_t ns = sizeof suites / sizeof suites[0];
    SRunner *sr = srunner_create(NULL);
    for (size_t i = 0; i < ns; i++)
        srunner_add_suite(sr, suites[i]());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    flint_cleanup_master();
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
