/* SPDX-License-Identifier: GPL-3.0-or-later */
/* linalg.h -- thin, checked wrappers over LAPACKE/OpenBLAS.  All matrices are
 * column-major doubles.  None of these results is rigorous by itself: every
 * factorisation is only a *candidate*, certified afterwards (resid.h,
 * invnorm.h).  Output arrays are allocated with ar_calloc and owned by the
 * caller (free()). */
#ifndef ATTNRANK_NUMERICS_LINALG_H
#define ATTNRANK_NUMERICS_LINALG_H

#include <stddef.h>
#include "base/status.h"

/* Thin SVD a = U diag(s) VT by dgesdd: U m x r, s r (descending), VT r x n,
 * r = min(m, n).  a is not modified. */
ar_status la_svd(size_t m, size_t n, const double *a, double **U, double **s, double **VT);

/* Factors of the truncated SVDs of a (m x n) from the eigendecomposition of its Gram matrix on
 * the smaller side (dsyrk + dsyevd + one dgemm: about 12 r^3 flops for a square a against
 * dgesdd's 22 r^3): with r = min(m, n), G = a a^T (m <= n) or a^T a, and its eigenvectors in
 * descending eigenvalue order, U (m x r) and V (n x r) such that for every k, U_k V_k^T is the
 * projection of a onto the top-k singular subspace (m <= n: U = eigenvectors, V = a^T U; else
 * V = eigenvectors, U = a V) -- the rank-k truncated SVD when the subspaces are exact.  The
 * squared singular values lose the directions of singular values below about 1e-8 sigma_1 to
 * rounding; callers certify the product afterwards.  a is not modified. */
ar_status la_gram_factors(size_t m, size_t n, const double *a, double **U, double **V);

/* Singular values only (dgesdd 'N'): s (min(m, n), descending, allocated). */
ar_status la_svals(size_t m, size_t n, const double *a, double **s);

/* Symmetric eigendecomposition of the n x n matrix a (lower triangle used) by
 * dsyevd: eigenvalues w ascending, eigenvectors as columns of Z (n x n). */
ar_status la_syev(size_t n, const double *a, double **w, double **Z);

/* Pivoted Cholesky (dpstrf) of the symmetric positive semidefinite n x n
 * matrix a: on return L (n x n, lower, columns beyond *rank are zero) and a
 * 0-based permutation piv with a[piv,piv] ~ L L^T.  tol < 0 uses LAPACK's
 * default stopping tolerance. */
ar_status la_pchol(size_t n, const double *a, double tol, double **L, size_t **piv, size_t *rank);

/* LU-based approximate inverse of the n x n matrix a into ainv (n*n, caller
 * allocated).  AR_ENUMERIC if a is exactly singular in floating point. */
ar_status la_inv(size_t n, const double *a, double *ainv);

/* C = alpha A B^T + beta C wrapper (dgemm 'N','T'), A m x k, B n x k. */
void la_gemm_nt(size_t m, size_t n, size_t k, double alpha, const double *A, size_t lda,
                const double *B, size_t ldb, double beta, double *C, size_t ldc);

/* Orthonormal basis of the columns of Y (m x l, m >= l, leading dimension m),
 * in place: Y <- the Q factor of a Householder QR (dgeqrf, dorgqr). */
ar_status la_orth(size_t m, size_t l, double *Y);

/* Row pivots of U's first k columns (m x k, leading dimension m): column-pivoted QR (dgeqp3) of
 * U^T, the rows of largest residual norm first, into order[0..min(m, k)) (0-based).  Runs on one
 * BLAS thread (the order does not depend on the thread count).  Returns how many were written
 * (0 on failure or allocation failure). */
size_t la_row_pivots(size_t m, size_t k, const double *U, size_t *order);

#endif
