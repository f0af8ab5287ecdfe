/* SPDX-License-Identifier: GPL-3.0-or-later */
/* run_verify.c -- `make verify`: the theorem checks as one Check run.
 *
 * Each tests/verify/verify_<claim>.c defines Suite *suite_verify_<claim>(void)
 * (one test per law row); the Makefile lists them in verify_suites.h.  Prints
 * the verdict table on stdout (JSON lines with ATTNRANK_VERIFY_FORMAT=json),
 * progress on stderr, and ends with Check's summary line; the exit status is
 * non-zero when an asserted row does not pass.  Select a claim with
 * CK_RUN_SUITE=verify_S (make verify CLAIM=S). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <flint/flint.h>
#include "verify_suites.h"
#include "cli/verify_print.h"
#include "sweeps/verify_judge.h"
#include "cli/blas_select.h"
#include "include/attnrank.h"
#include "base/parallel.h"
#include "api/api_impl.h"
#include <flint/flint.h>

typedef Suite *(*suite_fn)(void);

int main(int argc, char **argv)
{
    /* the boundary: the environment read once into the settings every suite runs under */
    static ar_config_t cfg;
    if ((ar_status)attnrank_check_environment() != AR_OK || api_config_from_env(&cfg) != AR_OK) {  /* a forced core this CPU lacks would end in SIGILL */
        fprintf(stderr, "run_verify: %s\n", ar_error_get());
        return 2;
    }
    ar_config_install(&cfg);
    flint_set_num_threads((int)cfg.flint_threads);
    blas_select_kernel(argc, argv);
    const char *fmt = getenv("ATTNRANK_VERIFY_FORMAT");
    int json = fmt && strcmp(fmt, "json") == 0;
    const char *sel = getenv("CK_RUN_SUITE");
    const char *claim = sel && strncmp(sel, "verify_", 7) == 0 ? sel + 7 : NULL;
    if (!json)
        verify_print_header(stdout);
    verify_printer_t pr = { stdout, json, 1 };
    verify_untested_items(claim, verify_print_item, &pr);
    fflush(stdout);
    suite_fn suites[] = { VERIFY_SUITES };
    size_t ns = sizeof suites / sizeof suites[0];
    SRunner *sr = srunner_create(NULL);
    for (size_t i = 0; i < ns; i++)
        srunner_add_suite(sr, suites[i]());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    flint_cleanup_master();
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
