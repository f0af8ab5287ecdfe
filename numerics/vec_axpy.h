/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vec_axpy.h -- y[k] += a x[k] (k < n) in plain C that -O2 vectorises.
 *
 * Each element gets one multiply and one add, in the order of the scalar loop
 * `for (k = 0; k < n; k++) y[k] += a * x[k];`, and the project compiles in C11
 * mode, which contracts no FMA: the result equals that loop's bit for bit in
 * every rounding mode.  It is written in blocks of four on restrict pointers
 * (y and x must not overlap), which GCC's -O2 cost model vectorises and the
 * scalar loop it does not (USE lite's matmul_bias; the ONNX interpreter's
 * pointwise convolution for the channels its blocked kernel leaves over). */
#ifndef ATTNRANK_NUMERICS_VEC_AXPY_H
#define ATTNRANK_NUMERICS_VEC_AXPY_H

#include <stddef.h>

static inline void vec_axpy(double *restrict y, const double *restrict x, double a, size_t n)
{
    size_t k = 0;
    for (; k + 4 <= n; k += 4) {
        double t0 = a * x[k], t1 = a * x[k + 1], t2 = a * x[k + 2], t3 = a * x[k + 3];
        y[k] += t0;
        y[k + 1] += t1;
        y[k + 2] += t2;
        y[k + 3] += t3;
    }
    for (; k < n; k++)
        y[k] += a * x[k];
}

#endif
