/* SPDX-License-Identifier: GPL-3.0-or-later */
/* resid.h -- certified max-row-l1 distance between an enclosed matrix and a
 * floating-point factorisation, at BLAS speed.
 *
 * Given the double image a (m x n, column-major) of an exact matrix A with
 * row error bounds rowerr (sum_j |A_ij - a_ij| <= rowerr[i]) and factors
 * U (m x k, leading dimension ldu) and V (n x k, leading dimension ldv),
 * return an upper bound, rigorous despite all floating-point rounding, on
 *
 *      || A - U V^T ||_r1 = max_i sum_j |A_ij - (U V^T)_ij|.
 *
 * Method: C = fl(a - U V^T) by dgemm (the bound holds for any summation order;
 * the rows are split into fixed parts spread over attnrank's threads, each part
 * one single-threaded BLAS call, so that the bits do not depend on
 * OPENBLAS_NUM_THREADS nor on the thread count); the a-priori bound |C - (a - U V^T)| <= gamma_{k+1} (|a| + |U||V|^T)
 * + underflow terms (u = 2^-52: any rounding mode), where the row sums of |U||V|^T are |U_i.| . colsum(|V|)
 * (O((m+n)k) work); all row sums are accumulated with upward rounding (own
 * loops, compiled with -frounding-math; the rows split into the same parts, each row
 * summed by one of them in a fixed order).
 * work: m*n doubles of scratch, or NULL to allocate internally.
 * Returns +INFINITY if an input is non-finite or allocation fails. */
#ifndef ATTNRANK_NUMERICS_RESID_H
#define ATTNRANK_NUMERICS_RESID_H

#include <stddef.h>

double resid_r1_bound(size_t m, size_t n, size_t k, const double *a, const double *rowerr,
                      const double *U, size_t ldu, const double *V, size_t ldv, double *work);

/* One block of rows of an enclosed matrix against a factorisation, for
 * several ranks k at once (the columns of U and V are used in order). */
typedef struct {
    size_t b, n;              /* rows in the block, columns */
    const double *a;          /* entry (t, j): a[t + j lda] (rowmajor 0) or a[t lda + j] (rowmajor 1) */
    size_t lda;
    int rowmajor;
    const double *rowerr;     /* b row error bounds of the enclosure, or NULL */
    const double *U;          /* entry (t, c) of the block's rows of U: U[t + c ldu] */
    size_t ldu;
    const double *V;          /* n x kmax, leading dimension ldv >= n */
    size_t ldv;
    const double *cv;         /* kmax: cv[c] >= sum_j |V_jc| (resid_colsums_up) */
    const size_t *ks;         /* nk strictly increasing ranks (ks[0] may be 0) */
    size_t nk;
    double *rowbound;         /* NULL, or out: rowbound[t ldr + i] = row i's bound for rank ks[t]
                                 (the quantity whose maximum is bound[t]; +INFINITY when not finite) */
    size_t ldr;               /* leading dimension of rowbound (>= b) */
} resid_block_t;

/* Rows per part of the O(b n) row sums of resid_block_multi: the rows are split into
 * par_parts(b, RESID_PART_ROWS) contiguous parts whatever the machine and the thread count
 * (base/parallel.h); each row is summed in one part in one fixed order, so the bound does
 * not depend on the split nor on which thread ran a part. */
#define RESID_PART_ROWS 256

/* For t < nk: bound[t] = max(bound[t], max over the block's rows of the
 * rigorous bound on sum_j |A_ij - (U_k V_k^T)_ij|, k = ks[t]) -- the bound
 * of resid_r1_bound, evaluated by one chain of dgemm calls over the
 * segments of columns (see resid.c).  work: b*n doubles, or NULL.
 * A non-finite input, overflow or a failed allocation gives +INFINITY.
 * bound[] must be initialised by the caller (0 for a first block). */
void resid_block_multi(const resid_block_t *B, double *work, double *bound);

/* cv[c] >= sum_j |V_jc| for c < k (upward rounding). */
void resid_colsums_up(size_t n, size_t k, const double *V, size_t ldv, double *cv);

/* Unit roundoff constant gamma_k = k u / (1 - k u) with u = 2^-52 (valid for
 * one IEEE operation in every rounding mode, so also for BLAS worker threads
 * whatever their mode), rounded up; +INFINITY if k u >= 1. */
double resid_gamma(size_t k);

#endif
