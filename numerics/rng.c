/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rng.c -- splitmix64-seeded xoshiro256** generator, uniform and normal
 * variates.  Algorithms: Blackman & Vigna, "Scrambled linear pseudorandom
 * number generators" (xoshiro256**), Steele et al. (splitmix64). */
#include "numerics/rng.h"

#include <math.h>

/* One splitmix64 step: advance *x and return the mixed output. */
static uint64_t splitmix64_next(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static inline uint64_t rotl64(uint64_t v, int k)
{
    return (v << k) | (v >> (64 - k));
}

/* State s[0..3] = the first four splitmix64 outputs from `seed` (never all
 * zero: splitmix64 is a bijection of its counter, and four consecutive
 * outputs cannot all vanish). */
void rng_init(rng_t *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64_next(&x);
    r->has_spare = 0;
    r->spare = 0.0;
}

/* Next 64-bit output of xoshiro256**. */
uint64_t rng_u64(rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return result;
}

/* (top 53 bits) * 2^-53: exactly representable, in [0, 1 - 2^-53]. */
double rng_uniform(rng_t *r)
{
    return (double)(rng_u64(r) >> 11) * 0x1.0p-53;
}

/* Polar Box-Muller (Marsaglia): draws pairs, returns one and caches the
 * other.  Uses libm log/sqrt, so the last bits may differ between libms. */
double rng_normal(rng_t *r)
{
    if (r->has_spare) {
        r->has_spare = 0;
        return r->spare;
    }
    double u, v, s;
    do {
        u = 2.0 * rng_uniform(r) - 1.0;
        v = 2.0 * rng_uniform(r) - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    double m = sqrt(-2.0 * log(s) / s);
    r->spare = v * m;
    r->has_spare = 1;
    return u * m;
}
