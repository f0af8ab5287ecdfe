/* testutil.h -- helpers shared by the Check suites.
 * TEST_SEED: base seed of randomized tests (env ATTNRANK_TEST_SEED, default 1),
 * printed with every failure so that the failing input can be reproduced. */
#ifndef ATTNRANK_TESTS_TESTUTIL_H
#define ATTNRANK_TESTS_TESTUTIL_H

#include <stdint.h>
#include <stdlib.h>

static inline uint64_t test_seed(void)
{
    const char *s = getenv("ATTNRANK_TEST_SEED");
    return s ? strtoull(s, NULL, 10) : 1u;
}

/* Build a TCase with no timeout limit (Check's default is 4 s). */
#define TEST_TCASE(var, name) TCase *var = tcase_create(name); tcase_set_timeout(var, 0)

#endif
