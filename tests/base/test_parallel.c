/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_parallel.c -- base/parallel.h: par_run_as runs every job, the calling thread's
 * included, under the given configuration and the calling thread's cancellation flag, and
 * restores both in the calling thread afterwards; par_part_start covers [0, len). */
#include <check.h>
#include <stdatomic.h>
#include "testutil.h"
#include "base/cancel.h"
#include "base/config.h"
#include "base/parallel.h"

typedef struct {
    const volatile int *want_cancel;
    int want_threads;
    atomic_int *seen, *bad;
} as_job;

static void as_check(void *arg)
{
    as_job *j = arg;
    if (par_threads() != j->want_threads || cancel_current() != j->want_cancel)
        atomic_store(j->bad, 1);
    atomic_fetch_add(j->seen, 1);
}

START_TEST(run_as_installs_and_restores)
{
    static const volatile int flag = 0;
    const volatile int *cprev = cancel_install(&flag);
    ar_config_t outer, inner;
    const ar_config_t *prev = test_threads_install(&outer, 5);
    inner = outer;
    inner.threads = 3;
    atomic_int seen = 0, bad = 0;
    for (int nj = 1; nj <= 4; nj++) {
        as_job jobs[4];
        for (int t = 0; t < nj; t++)
            jobs[t] = (as_job){ &flag, 3, &seen, &bad };
        atomic_store(&seen, 0);
        par_run_as(nj, as_check, NULL, jobs, sizeof jobs[0], &inner);
        ck_assert_int_eq(atomic_load(&seen), nj);
        ck_assert_msg(!atomic_load(&bad), "%d jobs: a job ran without the given threads or cancel flag", nj);
        ck_assert_int_eq(par_threads(), 5);             /* the caller's, restored */
        ck_assert_ptr_eq((const void *)cancel_current(), (const void *)&flag);
    }
    ar_config_install(prev);
    cancel_install(cprev);
}
END_TEST

START_TEST(part_starts_cover)
{
    for (size_t len = 0; len < 50; len++)
        for (size_t parts = 1; parts < 9; parts++) {
            ck_assert_uint_eq(par_part_start(len, parts, 0), 0);
            ck_assert_uint_eq(par_part_start(len, parts, parts), len);
            for (size_t j = 0; j < parts; j++)
                ck_assert_uint_le(par_part_start(len, parts, j), par_part_start(len, parts, j + 1));
        }
}
END_TEST

Suite *suite_parallel(void)
{
    Suite *s = suite_create("parallel");
    TEST_TCASE(tc, "parallel");
    tcase_add_test(tc, run_as_installs_and_restores);
    tcase_add_test(tc, part_starts_cover);
    suite_add_tcase(s, tc);
    return s;
}
