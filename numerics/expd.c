/* SPDX-License-Identifier: GPL-3.0-or-later */
/* expd.c -- tabulated exponential with an a-priori relative error bound
 * (see expd.h; the error analysis is proofs-notes/fast-enclosure.md, "expd").
 *
 *   t  = x * (128/ln2)                       (any rounding)
 *   kf = (t + 1.5*2^52) - 1.5*2^52           an integer with |kf - t| < 1 in every mode
 *   r  = (x - kf*C1) - kf*C2                  C1 + C2 ~ ln2/128, C1 with 32 significant bits
 *   p  = 1 + r(1 + r(1/2 + r(1/6 + r(1/24 + r/120))))
 *   y  = T[kf mod 128] * p * 2^floor(kf/128)  (the power of two applied exactly)
 * Only the table comes from Arb; the evaluation is plain double arithmetic
 * whose rounding errors are bounded a priori for any rounding mode. */
#include "numerics/expd.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <arb.h>

#define EXPD_N 128

static double expd_T[EXPD_N];
static double expd_C1, expd_C2, expd_INV;
static pthread_once_t expd_once = PTHREAD_ONCE_INIT;

/* T[j] = 2^(j/128) rounded to nearest from a 256-bit Arb ball (|T[j] - 2^(j/128)| <= 2^-53 2^(j/128)
 * up to the ball radius, far below);  C1 = ln2/128 truncated to 32 significant bits (kf*C1 is exact
 * for |kf| < 2^21), C2 = nearest double to ln2/128 - C1, INV = nearest double to 128/ln2. */
static void expd_build(void)
{
    arb_t t, l;
    arf_t c1;
    arb_init(t);
    arb_init(l);
    arf_init(c1);
    for (int j = 0; j < EXPD_N; j++) {
        arb_const_log2(l, 256);
        arb_set_si(t, j);
        arb_mul(t, t, l, 256);
        arb_div_ui(t, t, EXPD_N, 256);
        arb_exp(t, t, 256);
        expd_T[j] = arf_get_d(arb_midref(t), ARF_RND_NEAR);
    }
    arb_const_log2(l, 256);
    arb_div_ui(l, l, EXPD_N, 256);
    arf_set_round(c1, arb_midref(l), 32, ARF_RND_DOWN);
    expd_C1 = arf_get_d(c1, ARF_RND_NEAR);              /* exact: 32 bits */
    arb_sub_arf(t, l, c1, 256);
    expd_C2 = arf_get_d(arb_midref(t), ARF_RND_NEAR);
    arb_inv(t, l, 256);
    expd_INV = arf_get_d(arb_midref(t), ARF_RND_NEAR);
    arb_clear(t);
    arb_clear(l);
    arf_clear(c1);
    flint_cleanup();
}

void expd_init(void)
{
    pthread_once(&expd_once, expd_build);
}

/* 1/k! rounded to nearest, as exact hexadecimal literals (a division would be
 * evaluated at run time under -frounding-math, in the caller's mode) */
#define EXPD_C3 0x1.5555555555555p-3
#define EXPD_C4 0x1.5555555555555p-5
#define EXPD_C5 0x1.1111111111111p-7

static inline double expd_one(double x)
{
    const double shift = 0x1.8p52;
    double t = x * expd_INV;
    double kf = (t + shift) - shift;
    double r = (x - kf * expd_C1) - kf * expd_C2;
    double p = 1.0 + r * (1.0 + r * (0.5 + r * (EXPD_C3 + r * (EXPD_C4 + r * EXPD_C5))));
    int64_t ki = (int64_t)kf;
    int64_t j = ki & (EXPD_N - 1);
    int64_t e = (ki - j) / EXPD_N;               /* exact: ki - j is a multiple of N */
    uint64_t bits = (uint64_t)(e + 1023) << 52;  /* 2^e, normal for e in [-1020, 1022] */
    double two_e;
    memcpy(&two_e, &bits, sizeof two_e);
    return (expd_T[j] * p) * two_e;
}

void expd_vec(double *y, const double *x, size_t len)
{
    expd_init();
    for (size_t t = 0; t < len; t++)
        y[t] = expd_one(x[t]);
}

void expd_vec0(double *y, const double *x, size_t len)
{
    expd_init();
    for (size_t t = 0; t < len; t++) {
        double v = x[t];
        y[t] = v >= EXPD_MIN ? expd_one(v) : 0.0;
    }
}

double expd(double x)
{
    expd_init();
    return expd_one(x);
}
