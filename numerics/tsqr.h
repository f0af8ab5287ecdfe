/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tsqr.h -- orthonormal bases and thin SVDs of tall matrices on two threads (a one-level
 * TSQR: Demmel, Grigori, Hoemmen, Langou, "Communication-optimal parallel and sequential QR
 * and LU factorizations", SIAM J. Sci. Comput. 34 (2012)).  The rows are split into
 * TSQR_PARTS fixed contiguous halves; each half is factored by LAPACK (dgeqrf, dorgqr) in one of
 * attnrank's threads with one BLAS thread, the two R factors stacked and factored again.  The
 * split does not depend on the machine or on OPENBLAS_NUM_THREADS, so the bits of the result
 * depend only on the BLAS core, as a one-thread LAPACK call's do.  Like linalg.h, nothing here
 * is rigorous: the results are candidates, certified afterwards (resid.h).  Column-major. */
#ifndef ATTNRANK_NUMERICS_TSQR_H
#define ATTNRANK_NUMERICS_TSQR_H

#include <stddef.h>
#include "base/status.h"

#define TSQR_PARTS 2

/* Whether tsqr_orth and tsqr_svd split an m x l matrix (each half at least 2 l rows and the
 * matrix at least 2^16 entries); otherwise they are la_orth and la_svd. */
int tsqr_splits(size_t m, size_t l);

/* Y (m x l, 0 < l <= m, leading dimension m) <- an orthonormal basis of its columns' span
 * (full column rank assumed, as for la_orth): the Q factor of the two-level QR above, or
 * la_orth's when tsqr_splits(m, l) is 0.  AR_ENOMEM / AR_ENUMERIC (LAPACK failure) with the
 * error text set; Y is then unspecified. */
ar_status tsqr_orth(size_t m, size_t l, double *Y);

/* Thin SVD a = U diag(s) VT of the tall m x l matrix a (m >= l, not modified): a = Q R by the
 * split QR, R = Ur diag(s) VT by dgesdd, U = Q Ur (its two halves on two threads); la_svd when
 * tsqr_splits(m, l) is 0.  U m x l, s l (descending), VT l x l, allocated (caller frees). */
ar_status tsqr_svd(size_t m, size_t l, const double *a, double **U, double **s, double **VT);

#endif
