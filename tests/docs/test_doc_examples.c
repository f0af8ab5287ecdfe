/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_doc_examples.c -- every example of README.md and doc/ (every .md file) runs: the
 * fenced blocks marked sh, python and c (scripts/run_doc_examples.sh extracts
 * them and runs each in a fresh temporary directory with `attnrank` on the
 * PATH: $ATTNRANK_BIN, set by make check).  The test fails with the script's
 * output (the failing file, block number, line and the block's own output)
 * when it exits non-zero.  Blocks the script cannot run here (no numpy, no
 * torch or matplotlib, no shared library in the sanitizer build) are skipped
 * by it with a printed reason.  The repository root is the working directory
 * (make check runs from there). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/cliutil.h"

START_TEST(test_examples_run)
{
    ck_assert_msg(access("scripts/run_doc_examples.sh", R_OK) == 0,
                  "run from the repository root (no scripts/run_doc_examples.sh)");
    char dir[256], cmd[1024], path[512];
    cli_tmpdir_make(dir, sizeof dir, "docs");
    snprintf(path, sizeof path, "%s/out.txt", dir);
    snprintf(cmd, sizeof cmd, "sh scripts/run_doc_examples.sh > '%s' 2>&1", path);
    int ws = system(cmd);
    int rc = ws == -1 ? -1 : WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    static char out[1 << 16];
    cli_slurp(path, out, sizeof out);
    cli_tmpdir_remove(dir);
    /* the last lines hold the verdict (the failing block and its output, or the summary) */
    size_t len = strlen(out);
    const char *tail = len > 6000 ? out + len - 6000 : out;
    if (rc != 0)
        ck_abort_msg("sh scripts/run_doc_examples.sh: exit status %d:\n%s", rc, tail);
    const char *sum = strstr(out, "run_doc_examples: ");
    ck_assert_msg(sum != NULL, "no summary line from run_doc_examples.sh:\n%s", tail);
    printf("test_doc_examples: %s", sum);
}
END_TEST

Suite *suite_doc_examples(void)
{
    Suite *s = suite_create("doc_examples");
    TCase *tc = tcase_create("doc_examples");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_examples_run);
    suite_add_tcase(s, tc);
    return s;
}
