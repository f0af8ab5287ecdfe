/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_rng.c -- splitmix64 / xoshiro256** against published reference
 * outputs and an independently written implementation; uniform and normal
 * variates against their defining formulas and moment bounds. */
#include <check.h>
#include <math.h>
#include <string.h>
#include "testutil.h"
#include "numerics/rng.h"

/* Independent transcription of the reference algorithms: state held in four
 * named variables, rotation through 128-bit arithmetic, splitmix64 with an
 * explicit counter. */
typedef struct { uint64_t a, b, c, d; } ref_state;

static uint64_t ref_rotl(uint64_t v, unsigned k)
{
    unsigned __int128 w = (unsigned __int128)v << k;
    return (uint64_t)w | (uint64_t)(w >> 64);
}

static uint64_t ref_splitmix(uint64_t seed, unsigned idx)   /* idx-th output, 1-based */
{
    uint64_t z = seed + (uint64_t)idx * UINT64_C(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static uint64_t ref_next(ref_state *s)
{
    uint64_t out = ref_rotl(s->b + (s->b << 2), 7);
    out = out + (out << 3);
    ref_state n;
    n.c = s->c ^ s->a ^ (s->b << 17);
    n.d = ref_rotl(s->d ^ s->b, 45);
    n.b = s->b ^ s->c ^ s->a;
    n.a = s->a ^ s->d ^ s->b;
    *s = n;
    return out;
}

/* Published splitmix64 outputs for seed 1234567 (Rosetta Code task
 * "Pseudo-random numbers/Splitmix64"): the state after rng_init. */
START_TEST(test_splitmix_published)
{
    const uint64_t want[4] = { UINT64_C(6457827717110365317), UINT64_C(3203168211198807973),
                               UINT64_C(9817491932198370423), UINT64_C(4593380528125082431) };
    rng_t r;
    rng_init(&r, 1234567);
    for (int i = 0; i < 4; i++)
        ck_assert_msg(r.s[i] == want[i], "splitmix64(1234567) output %d: got %llu want %llu",
                      i + 1, (unsigned long long)r.s[i], (unsigned long long)want[i]);
    ck_assert_msg(ref_splitmix(1234567, 5) == UINT64_C(16408922859458223821), "reference splitmix broken");
}
END_TEST

/* Published xoshiro256** outputs from state {1, 2, 3, 4} (test of the
 * reference C implementation, as used by e.g. the C++ wrapper
 * morinim/xoshiro256ss). */
START_TEST(test_xoshiro_published)
{
    const uint64_t want[10] = { 11520u, 0u, 1509978240u, UINT64_C(1215971899390074240),
                                UINT64_C(1216172134540287360), UINT64_C(607988272756665600),
                                UINT64_C(16172922978634559625), UINT64_C(8476171486693032832),
                                UINT64_C(10595114339597558777), UINT64_C(2904607092377533576) };
    rng_t r;
    rng_init(&r, 0);
    r.s[0] = 1; r.s[1] = 2; r.s[2] = 3; r.s[3] = 4;
    for (int i = 0; i < 10; i++) {
        uint64_t v = rng_u64(&r);
        ck_assert_msg(v == want[i], "xoshiro256**{1,2,3,4} output %d: got %llu want %llu",
                      i, (unsigned long long)v, (unsigned long long)want[i]);
    }
}
END_TEST

START_TEST(test_against_reference)
{
    uint64_t base = test_seed();
    for (uint64_t k = 0; k < 50; k++) {
        uint64_t seed = base * UINT64_C(1000003) + k * UINT64_C(0x123456789) + (k == 7 ? UINT64_MAX - base : 0);
        rng_t r;
        rng_init(&r, seed);
        ref_state s = { ref_splitmix(seed, 1), ref_splitmix(seed, 2), ref_splitmix(seed, 3), ref_splitmix(seed, 4) };
        for (int i = 0; i < 2000; i++) {
            uint64_t a = rng_u64(&r), b = ref_next(&s);
            ck_assert_msg(a == b, "seed %llu output %d: got %llu reference %llu",
                          (unsigned long long)seed, i, (unsigned long long)a, (unsigned long long)b);
        }
    }
}
END_TEST

START_TEST(test_determinism)
{
    uint64_t seed = test_seed() + 42;
    rng_t a, b, c;
    rng_init(&a, seed);
    rng_init(&b, seed);
    rng_init(&c, seed + 1);
    int differ = 0;
    for (int i = 0; i < 3000; i++) {
        int kind = i % 3;
        double x, y;
        if (kind == 0) {
            uint64_t u = rng_u64(&a), v = rng_u64(&b);
            differ |= u != rng_u64(&c);
            ck_assert_msg(u == v, "seed %llu step %d: u64 differ", (unsigned long long)seed, i);
            continue;
        }
        x = kind == 1 ? rng_uniform(&a) : rng_normal(&a);
        y = kind == 1 ? rng_uniform(&b) : rng_normal(&b);
        ck_assert_msg(memcmp(&x, &y, sizeof x) == 0, "seed %llu step %d: %.17g vs %.17g",
                      (unsigned long long)seed, i, x, y);
    }
    ck_assert_msg(differ, "seeds %llu and %llu gave identical streams", (unsigned long long)seed,
                  (unsigned long long)seed + 1);
}
END_TEST

START_TEST(test_uniform)
{
    uint64_t seed = test_seed() + 7;
    rng_t a, b;
    rng_init(&a, seed);
    rng_init(&b, seed);
    const int N = 200000;
    double sum = 0.0, lo = 1.0, hi = 0.0;
    for (int i = 0; i < N; i++) {
        double u = rng_uniform(&a);
        uint64_t raw = rng_u64(&b);
        ck_assert_msg(u >= 0.0 && u < 1.0, "seed %llu: uniform %.17g outside [0,1)", (unsigned long long)seed, u);
        /* 53 bits: u * 2^53 is the integer formed by the top 53 bits */
        ck_assert_msg(ldexp(u, 53) == (double)(raw >> 11), "seed %llu step %d: %.17g is not top53/2^53",
                      (unsigned long long)seed, i, u);
        sum += u;
        lo = fmin(lo, u);
        hi = fmax(hi, u);
    }
    double mean = sum / N, sigma = sqrt(1.0 / 12.0 / N);
    ck_assert_msg(fabs(mean - 0.5) <= 5 * sigma, "seed %llu: mean %.6f, 5 sigma = %.2g",
                  (unsigned long long)seed, mean, 5 * sigma);
    ck_assert_msg(lo < 1e-3 && hi > 1 - 1e-3, "seed %llu: range [%g, %g]", (unsigned long long)seed, lo, hi);
    /* extremes of the mapping */
    rng_t z;
    rng_init(&z, 0);
    z.s[0] = z.s[1] = z.s[2] = z.s[3] = 0;          /* all-zero state outputs 0 forever */
    ck_assert(rng_uniform(&z) == 0.0);
}
END_TEST

START_TEST(test_normal)
{
    uint64_t seed = test_seed() + 99;
    rng_t a, b;
    rng_init(&a, seed);
    rng_init(&b, seed);
    const int N = 200000;
    double s1 = 0, s2 = 0, s4 = 0;
    for (int i = 0; i < N; i += 2) {
        double x = rng_normal(&a), y = rng_normal(&a);
        /* Marsaglia's polar method from the same uniforms, written out */
        double u, v, s;
        for (;;) {
            u = rng_uniform(&b) * 2 - 1;
            v = rng_uniform(&b) * 2 - 1;
            s = u * u + v * v;
            if (s > 0 && s < 1)
                break;
        }
        double f = sqrt(-2 * log(s) / s);
        ck_assert_msg(x == u * f && y == v * f, "seed %llu pair %d: (%.17g, %.17g) vs polar (%.17g, %.17g)",
                      (unsigned long long)seed, i / 2, x, y, u * f, v * f);
        s1 += x + y;
        s2 += x * x + y * y;
        s4 += x * x * x * x + y * y * y * y;
    }
    double mean = s1 / N, var = s2 / N - mean * mean, m4 = s4 / N;
    ck_assert_msg(fabs(mean) <= 5 / sqrt(N), "seed %llu: mean %.5f", (unsigned long long)seed, mean);
    ck_assert_msg(fabs(var - 1) <= 5 * sqrt(2.0 / N), "seed %llu: variance %.5f", (unsigned long long)seed, var);
    ck_assert_msg(fabs(m4 - 3) <= 5 * sqrt(96.0 / N), "seed %llu: 4th moment %.5f", (unsigned long long)seed, m4);
}
END_TEST

Suite *suite_rng(void)
{
    Suite *s = suite_create("rng");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_splitmix_published);
    tcase_add_test(tc, test_xoshiro_published);
    tcase_add_test(tc, test_against_reference);
    tcase_add_test(tc, test_determinism);
    tcase_add_test(tc, test_uniform);
    tcase_add_test(tc, test_normal);
    suite_add_tcase(s, tc);
    return s;
}
