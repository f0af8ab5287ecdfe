/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tsqr.h -- orthonormal bases and thin SVDs of tall matrices on a fixed binary tree (TSQR:
 * Demmel, Grigori, Hoemmen, Langou, "Communication-optimal parallel and sequential QR and LU
 * factorizations", SIAM J. Sci. Comput. 34 (2012)).  The rows are split into tsqr_parts(m, l)
 * fixed contiguous leaves (a power of two, a function of the shape alone); each leaf is
 * factored by LAPACK (dgeqrf, dorgqr) with one BLAS thread, the R factors stacked in pairs and
 * factored again, level by level, in a fixed tree; the leaves and the nodes of a level are
 * spread over attnrank's threads (base/parallel.h).  Neither the tree nor any block's
 * arithmetic depends on the machine, OPENBLAS_NUM_THREADS or the thread count, so the bits of
 * the result depend only on the BLAS core, as a one-thread LAPACK call's do.  Like linalg.h,
 * nothing here is rigorous: the results are candidates, certified afterwards (resid.h).
 * Column-major. */
#ifndef ATTNRANK_NUMERICS_TSQR_H
#define ATTNRANK_NUMERICS_TSQR_H

#include <stddef.h>
#include "base/status.h"

#define TSQR_MAX_PARTS 64
#define TSQR_LEAF_RATIO 8       /* more than two leaves only while each has at least 8 l rows */

/* The number of leaves for an m x l matrix: 1 (no split) unless each of two halves has at
 * least 2 l rows and the matrix at least 2^16 entries; then the largest power of two P <=
 * TSQR_MAX_PARTS with P = 2 or m / P >= TSQR_LEAF_RATIO l (two leaves where the one-level
 * split of issue 24 ran, so those shapes keep their bits).  A function of (m, l) only. */
size_t tsqr_parts(size_t m, size_t l);

/* Whether tsqr_orth and tsqr_svd split an m x l matrix (tsqr_parts(m, l) > 1); otherwise they
 * are la_orth and la_svd. */
int tsqr_splits(size_t m, size_t l);

/* Y (m x l, 0 < l <= m, leading dimension m) <- an orthonormal basis of its columns' span
 * (full column rank assumed, as for la_orth): the Q factor of the tree QR above, or
 * la_orth's when tsqr_splits(m, l) is 0.  AR_ENOMEM / AR_ENUMERIC (LAPACK failure) with the
 * error text set; Y is then unspecified. */
ar_status tsqr_orth(size_t m, size_t l, double *Y);

/* Thin SVD a = U diag(s) VT of the tall m x l matrix a (m >= l, not modified): a = Q R by the
 * split QR, R = Ur diag(s) VT by dgesdd, U = Q Ur (leaf by leaf over the threads); la_svd when
 * tsqr_splits(m, l) is 0.  U m x l, s l (descending), VT l x l, allocated (caller frees). */
ar_status tsqr_svd(size_t m, size_t l, const double *a, double **U, double **s, double **VT);

#endif
