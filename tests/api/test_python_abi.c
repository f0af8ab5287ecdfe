/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_python_abi.c -- the Python package's hand-written mirrors of
 * include/attnrank.h still match it: scripts/check_python_abi.py compiles a
 * small C program against the header that prints sizeof, _Alignof and every
 * field's offsetof and size of the seven structs python/attnrank/_lib.py
 * copies as ctypes classes, and the enum constants and #defines the package
 * copies (status codes, engines, upper bits, NAME_LEN, HEAD_MAX_TAUS, NONE,
 * the API version), and compares them with the ctypes classes and constants
 * of the package loaded on this build's library (ATTNRANK_TEST_LIBRARY, set
 * by make check).  The test fails with the script's output, one line per
 * mismatch.  Skipped with a printed reason in the sanitizer build (no shared
 * library for /usr/bin/python3) and when /usr/bin/python3 lacks numpy.  The
 * repository root is the working directory (make check runs from there). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/cliutil.h"

START_TEST(test_python_mirrors_header)
{
    const char *lib = getenv("ATTNRANK_TEST_LIBRARY");
    if (!lib || !*lib) {
        printf("test_python_abi: SKIP: no shared library for this build (ATTNRANK_TEST_LIBRARY unset: the "
               "sanitizer build, or the suite run outside make check)\n");
        return;
    }
    if (system("/usr/bin/python3 -c 'import numpy' > /dev/null 2>&1") != 0) {
        printf("test_python_abi: SKIP: /usr/bin/python3 cannot import numpy (Debian: apt-get install "
               "python3-numpy)\n");
        return;
    }
    ck_assert_msg(access("scripts/check_python_abi.py", R_OK) == 0,
                  "run from the repository root (no scripts/check_python_abi.py)");
    ck_assert_msg(strchr(lib, '\'') == NULL, "ATTNRANK_TEST_LIBRARY holds a quote");
    char dir[256], cmd[2048], path[512];
    cli_tmpdir_make(dir, sizeof dir, "pyabi");
    snprintf(path, sizeof path, "%s/out.txt", dir);
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 scripts/check_python_abi.py --library '%s' > '%s' 2>&1", lib, path);
    int ws = system(cmd);
    int rc = ws == -1 ? -1 : WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    static char out[1 << 16];
    cli_slurp(path, out, sizeof out);
    cli_tmpdir_remove(dir);
    size_t len = strlen(out);
    const char *tail = len > 6000 ? out + len - 6000 : out;
    if (rc != 0)
        ck_abort_msg("scripts/check_python_abi.py: exit status %d:\n%s", rc, tail);
    ck_assert_msg(strstr(out, " match include/attnrank.h") != NULL, "no summary line from check_python_abi.py:\n%s",
                  tail);
    printf("test_python_abi: %s", out);
}
END_TEST

Suite *suite_python_abi(void)
{
    Suite *s = suite_create("python_abi");
    TCase *tc = tcase_create("python_abi");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_python_mirrors_header);
    suite_add_tcase(s, tc);
    return s;
}
