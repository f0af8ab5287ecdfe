/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rng.h -- small deterministic random generator (splitmix64 seeding a
 * xoshiro256** state).  The same seed gives the same stream on every
 * platform; normals use the polar Box-Muller method with libm log/sqrt. */
#ifndef ATTNRANK_NUMERICS_RNG_H
#define ATTNRANK_NUMERICS_RNG_H

#include <stdint.h>

typedef struct { uint64_t s[4]; int has_spare; double spare; } rng_t;

void rng_init(rng_t *r, uint64_t seed);
uint64_t rng_u64(rng_t *r);
/* Uniform double in [0, 1) with 53 random bits. */
double rng_uniform(rng_t *r);
/* Standard normal. */
double rng_normal(rng_t *r);

#endif
