/* SPDX-License-Identifier: GPL-3.0-or-later */
/* expd.h -- exp(x) in double with a proven relative error bound.
 *
 * expd(x) = 2^e * T[j] * p(r): x = (128 e + j) ln2/128 + r, T[j] = 2^(j/128)
 * rounded from an Arb ball (table built once, thread-safe), p the degree-5
 * Taylor polynomial of exp evaluated by Horner.  For every x in
 * [EXPD_MIN, EXPD_MAX] and in EVERY rounding mode (each IEEE operation has
 * relative error < u = 2^-52 whatever the mode):
 *
 *      |expd(x) - exp(x)| <= EXPD_RELERR * exp(x),   EXPD_RELERR = 2^-48,
 *
 * and the result is a normal double.  Proof: proofs-notes/fast-enclosure.md
 * (checked against Arb by tests/numerics/test_expd.c).  Outside the domain
 * the result is unspecified (callers must test the range first). */
#ifndef ATTNRANK_NUMERICS_EXPD_H
#define ATTNRANK_NUMERICS_EXPD_H

#include <stddef.h>

#define EXPD_MIN (-707.0)
#define EXPD_MAX 709.0
#define EXPD_RELERR 0x1p-48

/* Build the table (idempotent, thread-safe; expd_vec calls it). */
void expd_init(void);

/* y[t] = expd(x[t]) for t < len (x in [EXPD_MIN, EXPD_MAX]; y may alias x). */
void expd_vec(double *y, const double *x, size_t len);

/* y[t] = expd(x[t]) for EXPD_MIN <= x[t] <= EXPD_MAX, y[t] = 0 for x[t] < EXPD_MIN
 * (x[t] <= EXPD_MAX required; y may alias x). */
void expd_vec0(double *y, const double *x, size_t len);

/* One value (same function as expd_vec). */
double expd(double x);

#endif
