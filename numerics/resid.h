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
 * Method: C = fl(a - U V^T) by one dgemm (any thread count, any summation
 * order); the a-priori bound |C - (a - U V^T)| <= gamma_{k+1} (|a| + |U||V|^T)
 * + underflow terms (u = 2^-52: any rounding mode), where the row sums of |U||V|^T are |U_i.| . colsum(|V|)
 * (O((m+n)k) work); all row sums are accumulated with upward rounding (own
 * single-threaded loops, compiled with -frounding-math).
 * work: m*n doubles of scratch, or NULL to allocate internally.
 * Returns +INFINITY if an input is non-finite or allocation fails. */
#ifndef ATTNRANK_NUMERICS_RESID_H
#define ATTNRANK_NUMERICS_RESID_H

#include <stddef.h>

double resid_r1_bound(size_t m, size_t n, size_t k, const double *a, const double *rowerr,
                      const double *U, size_t ldu, const double *V, size_t ldv, double *work);

/* Unit roundoff constant gamma_k = k u / (1 - k u) with u = 2^-52 (valid for
 * one IEEE operation in every rounding mode, so also for BLAS worker threads
 * whatever their mode), rounded up; +INFINITY if k u >= 1. */
double resid_gamma(size_t k);

#endif
