/* testutil.h -- helpers shared by the Check suites.
 * TEST_SEED: base seed of randomized tests (env ATTNRANK_TEST_SEED, default 1),
 * printed with every failure so that the failing input can be reproduced. */
#ifndef ATTNRANK_TESTS_TESTUTIL_H
#define ATTNRANK_TESTS_TESTUTIL_H

#include <stdint.h>
#include <stdlib.h>
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

/* Build a TCase with no timeout limit (Check's default is 4 s). */
#define TEST_TCASE(var, name) TCase *var = tcase_create(name); tcase_set_timeout(var, 0)

#endif
