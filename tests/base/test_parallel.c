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

/* par_for_status: every item runs, and the least failing item's status and message come back
 * (items 3 and 7 fail with their own messages; item 3's wins) for every thread count. */
static atomic_size_t status_ran;

static ar_status status_item(void *ctx, size_t i)
{
    (void)ctx;
    atomic_fetch_add(&status_ran, 1);
    if (i == 3 || i == 7) {
        ar_error_set("item %zu failed", i);
        return i == 3 ? AR_EIO : AR_EINVAL;
    }
    return AR_OK;
}

static ar_status status_none(void *ctx, size_t i)
{
    (void)ctx;
    (void)i;
    atomic_fetch_add(&status_ran, 1);
    return AR_OK;
}

START_TEST(for_status_first_failure)
{
    for (size_t t = 0; t < TEST_NTHREAD_COUNTS; t++) {
        ar_config_t cfg;
        const ar_config_t *prev = test_threads_install(&cfg, TEST_THREAD_COUNTS[t]);
        atomic_store(&status_ran, 0);
        ar_error_set("stale");
        ar_status st = par_for_status(40, status_item, NULL, NULL);
        ck_assert_int_eq(st, AR_EIO);
        ck_assert_str_eq(ar_error_get(), "item 3 failed");
        ck_assert_uint_eq(atomic_load(&status_ran), 40);
        atomic_store(&status_ran, 0);
        ck_assert_int_eq(par_for_status(40, status_none, NULL, NULL), AR_OK);
        ck_assert_uint_eq(atomic_load(&status_ran), 40);
        ck_assert_int_eq(par_for_status(0, status_none, NULL, NULL), AR_OK);
        ar_config_install(prev);
    }
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
    tcase_add_test(tc, for_status_first_failure);
    suite_add_tcase(s, tc);
    return s;
}
