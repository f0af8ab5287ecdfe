/* SPDX-License-Identifier: GPL-3.0-or-later */
/* softmax_dbl.h -- the enclosure of A = rowsoftmax(beta Q K^T) with key
 * multiplicities, evaluated in double arithmetic with an a-priori bound.
 *
 * Same result contract as smx_compute (numerics/softmax.h): a double image a
 * and rigorous row bounds rowerr_i >= sum_j |A_ij - a_ij|, but the entries
 * are computed in double (logits by a dot product, one expd per entry,
 * row sums and quotients) and rowerr_i is a closed-form function of the
 * row's magnitudes, u = 2^-52 and EXPD_RELERR, valid in every rounding mode
 * (proofs-notes/fast-enclosure.md).  About 100x faster than the Arb path;
 * rowerr is ~1e-13 instead of ~1e-16.  Rows can be produced in any blocks,
 * in any order, so that a caller can stream A without storing it.
 *
 * Applies when the a-priori logit error delta_i of every row is at most
 * SMXD_MAX_DELTA (logits up to about 10^8 in magnitude) and no scaled key
 * fl(beta k_jc) is subnormal (its rounding error is then absolute, up to
 * half its value: the image would not see the keys); otherwise smxd_prepare
 * reports ok = 0 and the caller uses the Arb path.  delta_i bounds the
 * absolute error of subnormal products too (fast-enclosure.md, Lemma 2). */
#ifndef ATTNRANK_NUMERICS_SOFTMAX_DBL_H
#define ATTNRANK_NUMERICS_SOFTMAX_DBL_H

#include <stddef.h>
#include <flint/fmpz.h>
#include "base/status.h"
#include "numerics/softmax.h"

#define SMXD_MAX_DELTA 0x1p-20

typedef struct {
    size_t m, n, d;
    const double *q;  /* m x d row-major queries (borrowed; must outlive the context) */
    double *bk;       /* n x d row-major: fl(beta k_jc) */
    double *lw;       /* n: double log w_j, or NULL when every w_j = 1 */
    double W;         /* >= max_j |lw_j| (0 without multiplicities) */
    double dw;        /* >= max_j |lw_j - log w_j| */
    double *bK;       /* d: >= beta max_j |k_jc| (rounded up) */
    double beta;
    int ok;           /* 1: every row's delta_i <= SMXD_MAX_DELTA and no fl(beta k_jc) is subnormal
                         (the double path applies) */
    int subnormal;    /* 1: some 0 < |fl(beta k_jc)| < 2^-1022 (then ok = 0) */
    int nthreads;
    const double *bias; /* m x n row-major logit bias (borrowed; -inf: masked), or NULL */
    double *B;        /* m: >= max_j |b_ij| over the row's finite entries (with a bias) */
} smxd_t;

/* Prepare the context for q (m x d), k (n x d), multiplicities w (n, or
 * NULL for ones) and beta.  Inputs are validated as smx_compute does
 * (AR_EINVAL).  nthreads 0 = par_threads().  S->ok tells whether the double path
 * applies; smxd_clear frees the context in every case. */
ar_status smxd_prepare(smxd_t *S, const double *q, size_t m, const double *k, size_t n, size_t d,
                       const fmpz *w, double beta, int nthreads);

/* smxd_prepare with an additive logit bias (numerics/softmax.h smx_compute_bias; borrowed, must
 * outlive the context): entries with b_ij = -inf are exactly 0 and in no sum or maximum; a finite
 * b_ij is added to the logit (one more rounding: fast-enclosure.md, Lemma 2b).  bias NULL is
 * smxd_prepare. */
ar_status smxd_prepare_bias(smxd_t *S, const double *q, size_t m, const double *k, size_t n, size_t d,
                            const fmpz *w, const double *bias, double beta, int nthreads);

/* Rows i0 <= i < i1 of the image: a[(i - i0) + j * lda] for j < n
 * (column-major block, lda >= i1 - i0), rowerr[i - i0] (rigorous),
 * lognorm[i - i0] (approximate log sum_l w_l exp(beta q_i.k_l); may be
 * NULL).  Requires S->ok.  Deterministic: the same rows are computed
 * bit-identically whatever the blocking or the thread count.  AR_ENOMEM (nothing written, the
 * error set) when its row buffers (64 rows of n doubles per thread) cannot be allocated. */
ar_status smxd_rows(const smxd_t *S, size_t i0, size_t i1, double *a, size_t lda, double *rowerr,
                    double *lognorm);

/* The column-major block of rows rows[t] for t < cnt
 * (arbitrary row indices, a[t + j * lda]): same values and status as smxd_rows. */
ar_status smxd_rows_at(const smxd_t *S, const size_t *rows, size_t cnt, double *a, size_t lda, double *rowerr,
                       double *lognorm);

/* Row-major variant for streaming consumers: row t (index rows[t], or i0 + t
 * when rows is NULL) at a[t * lda + j], lda >= n.  Same values. */
void smxd_rows_rm(const smxd_t *S, const size_t *rows, size_t i0, size_t cnt, double *a, size_t lda,
                  double *rowerr, double *lognorm);

/* rowerr[i] for every row i < m without evaluating the rows (the bound is a
 * function of the row's magnitudes only; the same values smxd_rows gives). */
void smxd_rowerr(const smxd_t *S, double *rowerr);

void smxd_clear(smxd_t *S);

/* The whole enclosure as smx_compute returns it, by the double path when it
 * applies (A->prec = 53, A->method "double") and by smx_compute at its
 * default precision otherwise (A->method "arb").  Same errors as
 * smx_compute. */
ar_status smx_compute_dbl(smx_t *A, const double *q, size_t m, const double *k, size_t n, size_t d,
                          const fmpz *w, double beta, int nthreads);

/* The same with a logit bias (smx_compute_bias when the double path does not apply). */
ar_status smx_compute_dbl_bias(smx_t *A, const double *q, size_t m, const double *k, size_t n, size_t d,
                               const fmpz *w, const double *bias, double beta, int nthreads);

#endif
