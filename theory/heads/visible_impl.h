/* SPDX-License-Identifier: GPL-3.0-or-later */
/* visible_impl.h -- private to the visible-dimension module
 * (theory/heads/visible_*.c): the directed-rounding kernels and the checks
 * the files share.  Not part of the public interface (visible.h).
 *
 * Each dir_* kernel is a body for fround_run (numerics/fround.h): it runs
 * entirely in the rounding mode fround_run sets and exchanges data only
 * through its context, so no arithmetic can move out of the
 * directed-rounding region. */
#ifndef ATTNRANK_THEORY_VISIBLE_IMPL_H
#define ATTNRANK_THEORY_VISIBLE_IMPL_H

#include <stddef.h>
#include "numerics/fround.h"
#include "base/status.h"

#define UNIT_ROUNDOFF 0x1p-53

typedef struct {
    size_t m, n, d;
    const double *A, *B;
    double beta;
    double *out;
} gram_ctx_t;

typedef struct {
    size_t m, n;
    double *P;
    const double *a, *b;
} rank1_ctx_t;

typedef struct {
    size_t m, n;
    const double *X, *Y;
    int sign;
    double *out;
} extreme_ctx_t;

typedef struct {
    size_t m;
    double *hi;
    const double *lo;
} diff_ctx_t;

typedef struct {
    size_t N;
    const double *lo, *hi;
    double *rowsum;
    double fro, rowmax, colmax, mixed;
} norms_ctx_t;

/* out[i + j*m] = beta * sum_c A[i*d + c] B[j*d + c], every operation rounded
 * in the current mode.  Upward (downward) the result is an upper (lower)
 * bound of the exact value: each partial sum and product is a bound in that
 * direction, and beta >= 0 preserves the direction. */
void dir_gram(void *ctx);

/* P[i + j*m] += a[i] * b[j] in the current mode (a bound in that direction
 * of P + a b^T if P already was one). */
void dir_rank1(void *ctx);

/* out[i] = max_j (X - Y)[i + j*m] (sign = +1) or min_j (sign = -1), the
 * subtractions rounded in the current mode; NaN counts as +inf (max) or
 * -inf (min), the conservative side. */
void dir_row_extreme(void *ctx);

/* hi[i] -= lo[i] in the current mode (upward: an upper bound). */
void dir_diff(void *ctx);

/* Upward (caller's mode): upper bounds of the Frobenius norm, the max row
 * sum, the max column sum and sqrt(rowmax * colmax) of a matrix E known
 * only as lo <= E <= hi entrywise (N x N, column-major). */
void dir_norms(void *ctx);

/* AR_EINVAL (message naming `what` and the entry) unless x[0..cnt) is finite. */
ar_status visible_check_finite(const double *x, size_t cnt, const char *what);

/* AR_EINVAL unless every tau is in (0, 2). */
ar_status visible_check_taus(const double *taus, size_t ntau);

/* Exact rank of A B^T (diffs = 0) or of A Bd^T with Bd the rows B_j - B_0
 * (diffs = 1), for the stored doubles (FLINT integers); A ma x d, B nb x d. */
long visible_exact_rank_product(const double *A, size_t ma, const double *B, size_t nb, size_t d,
                                int diffs);

#endif
