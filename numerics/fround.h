/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fround.h -- directed rounding the compiler cannot move (numerics only).
 *
 * GCC treats fesetround() as an ordinary call and moves arithmetic on
 * register values across it, even with -frounding-math (GCC bug 34678): an
 * operation written between fesetround(FE_UPWARD) and the restoring call may
 * execute before or after them, in the caller's mode.  This module is the one
 * place where the rounding mode changes.  It offers two constructs:
 *
 *   - fround_run(mode, body, ctx): sets the mode, calls body(ctx) through a
 *     function pointer, restores the caller's mode.  fround_run lives in its
 *     own translation unit and is marked noipa, so the compiler of the caller
 *     sees an opaque call: nothing in body can be executed outside it, and
 *     body exchanges its inputs and outputs through *ctx (memory the opaque
 *     call may read and write, so stores before it and loads after it stay in
 *     place).  The body must not change the mode itself.
 *   - scalar operations rounded up or down (fround_add_up, ...), built on
 *     fround_run; each takes its operands as arguments and returns the
 *     correctly rounded result in the named direction.
 *
 * Bodies should be declared FROUND_BODY (noinline, noipa) so that no
 * interprocedural analysis of the caller's file can treat them as pure
 * functions.  Every function preserves the caller's rounding mode. */
#ifndef ATTNRANK_NUMERICS_FROUND_H
#define ATTNRANK_NUMERICS_FROUND_H

#include <stddef.h>

#if defined(__has_attribute)
#if __has_attribute(noipa)
#define FROUND_BODY __attribute__((noinline, noipa))
/* out[j] <= (scale / 2) sum_{c<d} (x[c] - Y[j d + c])^2 for j < cnt, every
 * operation rounded toward -infinity (differences taken as max - min, so
 * each is a lower bound of the absolute difference): a lower bound by
 * construction, also under overflow (a downward result never exceeds the
 * exact one; +inf cannot occur from finite inputs) and underflow.  NaN for
 * a NaN coordinate or a scale that is not >= 0.  O(cnt d), one mode switch. */
void fround_half_sqdist_down(const double *x, const double *Y, size_t d, size_t cnt, double scale,
                             double *out);

#endif
/* out[j] <= (scale / 2) sum_{c<d} (x[c] - Y[j d + c])^2 for j < cnt, every
 * operation rounded toward -infinity (differences taken as max - min, so
 * each is a lower bound of the absolute difference): a lower bound by
 * construction, also under overflow (a downward result never exceeds the
 * exact one; +inf cannot occur from finite inputs) and underflow.  NaN for
 * a NaN coordinate or a scale that is not >= 0.  O(cnt d), one mode switch. */
void fround_half_sqdist_down(const double *x, const double *Y, size_t d, size_t cnt, double scale,
                             double *out);

#endif
#ifndef FROUND_BODY
#define FROUND_BODY __attribute__((noinline))
/* out[j] <= (scale / 2) sum_{c<d} (x[c] - Y[j d + c])^2 for j < cnt, every
 * operation rounded toward -infinity (differences taken as max - min, so
 * each is a lower bound of the absolute difference): a lower bound by
 * construction, also under overflow (a downward result never exceeds the
 * exact one; +inf cannot occur from finite inputs) and underflow.  NaN for
 * a NaN coordinate or a scale that is not >= 0.  O(cnt d), one mode switch. */
void fround_half_sqdist_down(const double *x, const double *Y, size_t d, size_t cnt, double scale,
                             double *out);

#endif

typedef void (*fround_body_fn)(void *ctx);

/* Run body(ctx) with the FPU rounding mode set to `mode` (FE_UPWARD,
 * FE_DOWNWARD, FE_TONEAREST or FE_TOWARDZERO); the caller's mode is restored
 * before returning.  Nesting is allowed (the inner call restores the outer
 * body's mode). */
void fround_run(int mode, fround_body_fn body, void *ctx);

/* a op b rounded toward +infinity (_up) or -infinity (_down): the IEEE
 * result of one operation in that mode, so _up >= exact >= _down for finite
 * results (an overflowing _down result is -inf or DBL_MAX-bounded as IEEE
 * says).  NaN in, NaN out. */
double fround_add_up(double a, double b);
double fround_add_down(double a, double b);
double fround_sub_up(double a, double b);
double fround_sub_down(double a, double b);
double fround_mul_up(double a, double b);
double fround_mul_down(double a, double b);
double fround_div_up(double a, double b);
double fround_div_down(double a, double b);

/* out[j] <= (scale / 2) sum_{c<d} (x[c] - Y[j d + c])^2 for j < cnt, every
 * operation rounded toward -infinity (differences taken as max - min, so
 * each is a lower bound of the absolute difference): a lower bound by
 * construction, also under overflow (a downward result never exceeds the
 * exact one; +inf cannot occur from finite inputs) and underflow.  NaN for
 * a NaN coordinate or a scale that is not >= 0.  O(cnt d), one mode switch. */
void fround_half_sqdist_down(const double *x, const double *Y, size_t d, size_t cnt, double scale,
                             double *out);

#endif
