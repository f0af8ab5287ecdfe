/* SPDX-License-Identifier: GPL-3.0-or-later */
/* heads_threads.h -- shared by the model tests (test_real.c, test_ppocr.c): a model's heads,
 * made by make(ctx, &D) at every thread count of TEST_THREAD_COUNTS, must have the same digest
 * (model_heads_digest: every number of every input) as at one thread (issue 35). */
#ifndef ATTNRANK_TESTS_HEADS_THREADS_H
#define ATTNRANK_TESTS_HEADS_THREADS_H

#include <check.h>
#include <string.h>
#include "testutil.h"
#include "base/config.h"
#include "constructions/pointsets/model_heads.h"

static void check_heads_thread_counts(ar_status (*make)(void *ctx, model_heads_t *D), void *ctx)
{
    char hex1[65] = "";
    for (size_t t = 0; t < TEST_NTHREAD_COUNTS; t++) {
        ar_config_t cfg;
        const ar_config_t *prev = test_threads_install(&cfg, TEST_THREAD_COUNTS[t]);
        model_heads_t D;
        ar_status st = make(ctx, &D);
        ar_config_install(prev);
        ck_assert_msg(st == AR_OK, "%s", ar_error_get());
        char hex[65];
        model_heads_digest(&D, hex);
        if (t == 0)
            memcpy(hex1, hex, sizeof hex);
        ck_assert_msg(strcmp(hex, hex1) == 0, "%d threads: digest %s, one thread %s", TEST_THREAD_COUNTS[t], hex,
                      hex1);
        model_heads_clear(&D);
    }
}

#endif
