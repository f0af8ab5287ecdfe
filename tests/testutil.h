/* SPDX-License-Identifier: GPL-3.0-or-later */
/* testutil.h -- helpers shared by the Check suites.
 * TEST_SEED: base seed of randomized tests (env ATTNRANK_TEST_SEED, default 1),
 * printed with every failure so that the failing input can be reproduced. */
#ifndef ATTNRANK_TESTS_TESTUTIL_H
#define ATTNRANK_TESTS_TESTUTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/config.h"
#include "numerics/rng.h"

static inline uint64_t test_seed(void)
{
    const char *s = getenv("ATTNRANK_TEST_SEED");
    return s ? strtoull(s, NULL, 10) : 1u;
}

/* A per-file random stream for randomized tests, on the project's own
 * generator (numerics/rng.h, checked against published values in test_rng). */
static rng_t test_rng_state __attribute__((unused));

static inline void test_rng_init(uint64_t seed) { rng_init(&test_rng_state, seed); }

/* Uniform double in [0, 1). */
static inline double test_unif(void) { return rng_uniform(&test_rng_state); }

/* Uniform integer in [lo, hi] (inclusive). */
static inline long test_irand(long lo, long hi)
{
    return lo + (long)(rng_u64(&test_rng_state) % (uint64_t)(hi - lo + 1));
}

/* Write data[0, n) to the file dir/name (created or truncated); returns 0 on
 * success, -1 on any failure (the caller asserts). */
static inline int test_write_file(const char *dir, const char *name, const void *data, size_t n)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *p = malloc(len);
    if (!p)
        return -1;
    snprintf(p, len, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    free(p);
    if (!f)
        return -1;
    int ok = fwrite(data, 1, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* Build a TCase with no timeout limit (Check's default is 4 s). */
#define TEST_TCASE(var, name) TCase *var = tcase_create(name); tcase_set_timeout(var, 0)

/* TEST_HAVE_ASAN is defined when built with AddressSanitizer, which reserves
 * terabytes of address space and cannot start under RLIMIT_AS: tests that
 * limit memory are compiled out then (and say so). */
#if defined(__SANITIZE_ADDRESS__)
#define TEST_HAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_HAVE_ASAN 1
#endif
#endif

/* Current address-space size of this process in bytes (0 if unknown), the
 * base of an RLIMIT_AS that leaves a chosen margin. */
static inline unsigned long long test_vm_size(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    unsigned long long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmSize: %llu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb * 1024;
}

/* The thread counts of issue 35's rule (base/parallel.h): every number the same for each. */
static const int TEST_THREAD_COUNTS[] __attribute__((unused)) = { 1, 2, 3, 5, 16, 64 };
#define TEST_NTHREAD_COUNTS (sizeof TEST_THREAD_COUNTS / sizeof TEST_THREAD_COUNTS[0])

/* Install in the calling thread a configuration of the defaults with `threads` of attnrank's
 * threads (c must outlive the installation); returns the previous one, to reinstall after. */
static inline const ar_config_t *test_threads_install(ar_config_t *c, int threads)
{
    ar_config_default(c);
    c->threads = (size_t)threads;
    return ar_config_install(c);
}

#endif
