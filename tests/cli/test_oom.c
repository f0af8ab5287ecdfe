/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_oom.c -- allocation failures inside GMP and FLINT end the process with
 * one line "attnrank: out of memory (...)" and exit 1, not with the
 * libraries' own message and abort() (issue 10.2).  Each case runs in a child
 * under an address-space limit (setrlimit RLIMIT_AS).  Skipped under
 * AddressSanitizer, which cannot run under RLIMIT_AS. */
#include <check.h>
#include <fcntl.h>
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <flint/flint.h>
#include <flint/fmpz.h>
#include "testutil.h"
#include "cli/oom.h"

#ifndef TEST_HAVE_ASAN
/* Run case k in a child with its stderr in a file; return the exit status
 * (128 + signal if killed) and the stderr text. */
static int run_case(int k, char *err, size_t cap)
{
    char path[] = "/tmp/attnrank_oom_XXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        dup2(fd, 2);
        oom_install("attnrank");
        unsigned long long lim = test_vm_size() + (64u << 20);
        struct rlimit rl = { (rlim_t)lim, (rlim_t)lim };
        if (setrlimit(RLIMIT_AS, &rl) != 0)
            _exit(9);
        if (k == 0) {                              /* FLINT's allocator */
            void *p = flint_malloc((size_t)1 << 30);
            flint_free(p);
        } else if (k == 1) {                       /* GMP's reallocate, through FLINT's fmpz */
            fmpz_t x;
            fmpz_init_set_ui(x, 3);
            fmpz_mul_2exp(x, x, (ulong)1 << 33);   /* a 1 GiB integer */
            fmpz_clear(x);
        } else {                                   /* GMP directly */
            mpz_t z;
            mpz_init(z);
            mpz_realloc2(z, (mp_bitcnt_t)1 << 33);
            mpz_clear(z);
        }
        _exit(0);
    }
    int ws;
    ck_assert(waitpid(pid, &ws, 0) == pid);
    ssize_t n = pread(fd, err, cap - 1, 0);
    err[n > 0 ? n : 0] = '\0';
    close(fd);
    unlink(path);
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}
#endif

START_TEST(test_oom_one_line)
{
#ifdef TEST_HAVE_ASAN
    fprintf(stderr, "test_oom_one_line: skipped under AddressSanitizer (RLIMIT_AS cannot be used)\n");
#else
    for (int k = 0; k < 3; k++) {
        char err[1024];
        int rc = run_case(k, err, sizeof err);
        size_t len = strlen(err);
        ck_assert_msg(rc == 1, "case %d: exit %d (stderr [%s])", k, rc, err);
        ck_assert_msg(strncmp(err, "attnrank: out of memory (", 25) == 0 && len > 0 &&
                          strchr(err, '\n') == err + len - 1,
                      "case %d: stderr is not one 'attnrank: out of memory' line: [%s]", k, err);
    }
#endif
}
END_TEST

Suite *suite_oom(void)
{
    Suite *s = suite_create("oom");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_oom_one_line);
    suite_add_tcase(s, tc);
    return s;
}
