/* run_tests.c -- one Check runner for every suite in tests/<module>/test_*.c.
 * Each test file test_foo.c defines `Suite *suite_foo(void)`; the Makefile
 * generates suites.h listing them.  Select suites with CK_RUN_SUITE=name or
 * test cases with CK_RUN_CASE (Check's own variables).  Exit status is
 * non-zero when any test fails. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <flint/flint.h>
#include "suites.h"
#include "numerics/blas_select.h"

typedef Suite *(*suite_fn)(void);

int main(int argc, char **argv)
{
    if (blas_check_env() != AR_OK) {      /* a forced core this CPU lacks would end in SIGILL */
        fprintf(stderr, "run_tests: %s\n", ar_error_get());
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
