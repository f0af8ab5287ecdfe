/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_api_config.c -- the environment is read at the boundary only
 * (api/api_config.c) into the configuration the library's calls see
 * (base/config.h): a bad ATTNRANK_MAX_ALLOC_GB is an error, never 16 GiB;
 * every variable lands in its field; a configuration installed in a thread
 * reaches ar_calloc and par_run's workers; with none installed the built-in
 * defaults hold whatever the environment says. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "api/api_impl.h"
#include "base/parallel.h"

static const char *VARS[] = { "ATTNRANK_MAX_ALLOC_GB", "ATTNRANK_BALL_DENSE_MAX", "ATTNRANK_MAX_SCALE_N",
                              "ATTNRANK_FLINT_THREADS", "ATTNRANK_STREAM_MIB", "ATTNRANK_MAX_STREAM_N",
                              "OPENBLAS_NUM_THREADS", "ATTNRANK_SHARD_KEY", "ATTNRANK_THREADS" };

static void clear_vars(void)
{
    for (size_t i = 0; i < sizeof VARS / sizeof VARS[0]; i++)
        unsetenv(VARS[i]);
}

START_TEST(max_alloc_variable)
{
    ar_config_t c;
    clear_vars();
    setenv("ATTNRANK_MAX_ALLOC_GB", "12abc", 1);
    ck_assert_int_eq(api_config_from_env(&c), AR_EINVAL);
    ck_assert_msg(strstr(ar_error_get(), "ATTNRANK_MAX_ALLOC_GB='12abc'"), "%s", ar_error_get());
    setenv("ATTNRANK_MAX_ALLOC_GB", "0.5", 1);
    ck_assert(api_config_from_env(&c) == AR_OK && c.max_alloc_bytes == (size_t)1 << 29);
    unsetenv("ATTNRANK_MAX_ALLOC_GB");
    ck_assert(api_config_from_env(&c) == AR_OK && c.max_alloc_bytes == (size_t)16 << 30);
}
END_TEST

START_TEST(every_variable_read)
{
    ar_config_t c, d;
    clear_vars();
    ck_assert(api_config_from_env(&c) == AR_OK);
    ar_config_default(&d);
    d.threads = api_cpu_count();                          /* the boundary's default: the CPUs we may use */
    ck_assert(d.threads >= 1 && d.threads <= AR_CONFIG_MAX_THREADS);
    ck_assert(memcmp(&c, &d, sizeof c) == 0);             /* an empty environment: the defaults */
    setenv("ATTNRANK_BALL_DENSE_MAX", "7", 1);
    setenv("ATTNRANK_MAX_SCALE_N", "123", 1);
    setenv("ATTNRANK_FLINT_THREADS", "3", 1);
    setenv("ATTNRANK_STREAM_MIB", "5", 1);
    setenv("ATTNRANK_MAX_STREAM_N", "999", 1);
    setenv("OPENBLAS_NUM_THREADS", "4", 1);
    setenv("ATTNRANK_SHARD_KEY", "/some/key", 1);
    setenv("ATTNRANK_THREADS", "5", 1);
    ck_assert(api_config_from_env(&c) == AR_OK);
    ck_assert_uint_eq(c.threads, 5);
    ck_assert_uint_eq(c.ball_dense_max, 7);
    ck_assert_uint_eq(c.scale_max_n, 123);
    ck_assert_uint_eq(c.flint_threads, 3);
    ck_assert_uint_eq(c.stream_mib, 5);
    ck_assert_uint_eq(c.stream_max_n, 999);
    ck_assert_uint_eq(c.openblas_threads, 4);
    ck_assert_str_eq(c.shard_key, "/some/key");
    const char *bad[][2] = { { "ATTNRANK_BALL_DENSE_MAX", "-1" }, { "ATTNRANK_MAX_SCALE_N", "0" },
                             { "ATTNRANK_FLINT_THREADS", "257" }, { "ATTNRANK_STREAM_MIB", "x" },
                             { "ATTNRANK_MAX_STREAM_N", "" }, { "OPENBLAS_NUM_THREADS", "0" },
                             { "ATTNRANK_THREADS", "0" }, { "ATTNRANK_THREADS", "65" }, { "ATTNRANK_THREADS", "2x" } };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        clear_vars();
        setenv(bad[i][0], bad[i][1], 1);
        ck_assert_msg(api_config_from_env(&c) == AR_EINVAL && strstr(ar_error_get(), bad[i][0]), "%s=%s: %s",
                      bad[i][0], bad[i][1], ar_error_get());
    }
    clear_vars();
    char *longkey = malloc(5000);
    memset(longkey, 'k', 4999);
    longkey[4999] = '\0';
    setenv("ATTNRANK_SHARD_KEY", longkey, 1);
    free(longkey);
    ck_assert(api_config_from_env(&c) == AR_EINVAL && strstr(ar_error_get(), "ATTNRANK_SHARD_KEY"));
    clear_vars();
}
END_TEST

/* The cgroup v2 cpu.max text is untrusted: a quota lowers the count (rounded up), "max" and
 * anything malformed leave the affinity count. */
START_TEST(cpu_quota_parse)
{
    ck_assert_uint_eq(api_cpu_quota_parse("200000 100000\n", 16), 2);
    ck_assert_uint_eq(api_cpu_quota_parse("150000 100000", 16), 2);       /* 1.5 CPUs: two threads */
    ck_assert_uint_eq(api_cpu_quota_parse("50000 100000\n", 16), 1);
    ck_assert_uint_eq(api_cpu_quota_parse("6400000 100000\n", 16), 16);  /* never above the affinity */
    ck_assert_uint_eq(api_cpu_quota_parse("max 100000\n", 12), 12);
    const char *bad[] = { "", "\n", "max", "200000", "200000 0\n", "0 100000\n", "-200000 100000\n",
                          "200000  100000\n", "200000 100000 7\n", "200000 100000\n\n", "2e5 100000\n",
                          "99999999999999999999 100000\n", "200000 abc\n", " 200000 100000\n", "maxi 100000\n" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(api_cpu_quota_parse(bad[i], 7) == 7, "'%s' was accepted", bad[i]);
    ck_assert_uint_eq(api_cpu_quota_parse(NULL, 3), 3);
    ck_assert_uint_eq(api_cpu_quota_parse("200000 100000\n", 0), 1);
    size_t n = api_cpu_count();
    ck_assert(n >= 1 && n <= AR_CONFIG_MAX_THREADS);
}
END_TEST

static void probe_limit(void *job)
{
    size_t *out = job;
    *out = ar_max_alloc();
}

START_TEST(installed_configuration)
{
    clear_vars();
    setenv("ATTNRANK_MAX_ALLOC_GB", "0.001", 1);        /* read only at the boundary: no effect here */
    ck_assert_uint_eq(ar_max_alloc(), (size_t)16 << 30);
    ar_config_t c;
    ar_config_default(&c);
    c.max_alloc_bytes = 1000;
    const ar_config_t *prev = ar_config_install(&c);
    ck_assert_ptr_null(prev);
    ck_assert_uint_eq(ar_max_alloc(), 1000);
    ck_assert_ptr_null(ar_calloc(1001, 1, "probe"));    /* refused, the variable named */
    ck_assert_msg(strstr(ar_error_get(), "set ATTNRANK_MAX_ALLOC_GB"), "%s", ar_error_get());
    c.max_alloc_from_call = 1;
    ck_assert_ptr_null(ar_calloc(1001, 1, "probe"));
    ck_assert_msg(strstr(ar_error_get(), "the call's memory limit"), "%s", ar_error_get());
    void *p = ar_calloc(1000, 1, "probe");
    ck_assert_ptr_nonnull(p);
    free(p);
    size_t seen[4] = { 0, 0, 0, 0 };
    par_run(4, probe_limit, NULL, seen, sizeof seen[0]);   /* the workers see the caller's settings */
    for (int t = 0; t < 4; t++)
        ck_assert_uint_eq(seen[t], 1000);
    ck_assert_ptr_eq(ar_config_install(NULL), &c);
    ck_assert_uint_eq(ar_max_alloc(), (size_t)16 << 30);
    par_run(2, probe_limit, NULL, seen, sizeof seen[0]);
    ck_assert_uint_eq(seen[1], (size_t)16 << 30);
    unsetenv("ATTNRANK_MAX_ALLOC_GB");
}
END_TEST

/* A bad value is refused by the call, not replaced by the default: the ball
 * instance below would take the ball route with its 3000-point default. */
START_TEST(bad_variable_refused_by_the_call)
{
    clear_vars();
    double x[6] = { 0.1, 0.2, -0.3, 0.4, 0.5, -0.6 };
    attnrank_bracket_result r;
    ATTNRANK_INIT(&r);
    setenv("ATTNRANK_BALL_DENSE_MAX", "lots", 1);
    ck_assert_int_eq(attnrank_bracket_arrays(x, 3, x, 3, 2, NULL, NULL, 2.0, 0.1, NULL, &r), ATTNRANK_EINVAL);
    ck_assert_msg(strstr(attnrank_error_message(), "ATTNRANK_BALL_DENSE_MAX"), "%s", attnrank_error_message());
    unsetenv("ATTNRANK_BALL_DENSE_MAX");
    ck_assert_int_eq(attnrank_bracket_arrays(x, 3, x, 3, 2, NULL, NULL, 2.0, 0.1, NULL, &r), ATTNRANK_OK);
    attnrank_bracket_clear(&r);
    ck_assert_ptr_null(ar_config_installed());           /* the call removed its configuration */
}
END_TEST

Suite *suite_api_config(void)
{
    Suite *s = suite_create("api_config");
    TEST_TCASE(tc, "api_config");
    tcase_add_test(tc, max_alloc_variable);
    tcase_add_test(tc, every_variable_read);
    tcase_add_test(tc, cpu_quota_parse);
    tcase_add_test(tc, installed_configuration);
    tcase_add_test(tc, bad_variable_refused_by_the_call);
    suite_add_tcase(s, tc);
    return s;
}
