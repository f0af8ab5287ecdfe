/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_lower_impl.h -- what the lower certificates' files share (not a public interface):
 * validation (cert_lower.c), the block test matrix certified for a given column assignment
 * (cert_lower_blocks.c), the work control's accounting and progress (cert_lower.c). */
#ifndef ATTNRANK_THEORY_CERT_LOWER_IMPL_H
#define ATTNRANK_THEORY_CERT_LOWER_IMPL_H

#include <stddef.h>
#include "theory/certificates/cert_lower.h"

/* A column in no block (a zero row of the test matrix W). */
#define LOWER_BLOCK_NONE ((size_t)-1)

/* The trivial certificate: rank 1, ||M^{-1}|| = 1, method "trivial". */
void lower_set_trivial(lower_cert_t *out);

/* 1 when A holds an image and 0 < eps < 1; else 0 with a message naming `who`. */
int lower_check_common(const smx_t *A, double eps, const char *who);

/* 1 when idx[0..m) are distinct and < bound, else 0.  mark: bound bytes of scratch, zero on
 * entry and restored to zero on return. */
int lower_distinct_below(const size_t *idx, size_t m, size_t bound, unsigned char *mark);

/* idx[0..m) distinct row indices < bound: AR_OK, AR_ENOMEM, or AR_EINVAL with the message
 * "<fn>: <what> must be distinct row indices < bound". */
ar_status lower_rows_distinct(const size_t *idx, size_t m, size_t bound, const char *fn, const char *what);

/* blk[j] = the position t < m of the largest a_{rows[t], j} (ties: the first): the blocks of
 * lower_blocks_rows. */
void lower_blocks_assign(const smx_t *A, const size_t *rows, size_t m, size_t *blk);

/* The rigorous probe of the rows rows[0..m) with the block test matrix of the assignment blk
 * (n entries: a position < m, or LOWER_BLOCK_NONE for a column in no block; W then has at most
 * one 1 per row, ||W||_r1 <= 1): Mmid (m x m scratch) the block sums, their rounding and the
 * enclosure bounded, then Varah, then the verified inverse norm from R0 (an approximate inverse
 * of Mmid, m x m, or NULL for LAPACK's).  out: rank m with "diagdom" or "invnorm", or trivial. */
void lower_blocks_certify(const smx_t *A, const size_t *rows, size_t m, double eps, const size_t *blk,
                          double *Mmid, const double *R0, lower_cert_t *out);

/* The block certificate of rows[0..m) without validation (lower_blocks_rows' core): blocks by
 * lower_blocks_assign, then lower_blocks_certify with LAPACK's inverse; trivial when m > n.
 * Scratch: blk (n entries), Mmid (m * m doubles). */
void lower_blocks_probe(const smx_t *A, const size_t *rows, size_t m, double eps, size_t *blk, double *Mmid,
                        lower_cert_t *out);

/* 1 when spending `flops` more would take ctl over its budget (never with ctl NULL or an
 * unlimited budget). */
int lower_over_budget(const lower_ctl_t *ctl, double flops);

/* Record `flops` spent (ctl may be NULL). */
void lower_spend(lower_ctl_t *ctl, double flops);

#endif
