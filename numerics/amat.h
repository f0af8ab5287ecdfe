/* SPDX-License-Identifier: GPL-3.0-or-later */
/* amat.h -- an enclosed matrix A (double image + row error bounds) visited
 * in blocks of rows, either held in memory (smx_t, column-major) or streamed
 * (smxd_t: each block evaluated on demand, never the whole matrix).
 *
 * The products and residuals the randomized certificates need are written
 * once against this interface, so that the same code certifies a matrix of
 * any size in O((m + n) k + block n) memory. */
#ifndef ATTNRANK_NUMERICS_AMAT_H
#define ATTNRANK_NUMERICS_AMAT_H

#include <stddef.h>
#include "base/status.h"
#include "numerics/softmax.h"
#include "numerics/softmax_dbl.h"

typedef struct {
    size_t m, n;
    const smx_t *A;     /* in memory (column-major image), or NULL */
    const smxd_t *S;    /* streamed (used when A is NULL) */
    size_t blk;         /* rows per block (0 = AMAT_DEFAULT_BLOCK_BYTES / (8 n)) */
    size_t passes;      /* out: number of full passes over A so far */
} amat_t;

#define AMAT_DEFAULT_BLOCK_BYTES ((size_t)32 << 20)

/* Rows per block of amat_visit: M->blk when set, else AMAT_DEFAULT_BLOCK_BYTES (or a quarter of
 * the allocation bound ar_max_alloc(), when smaller) of n doubles; at least 16, at most m. */
size_t amat_block_rows(const amat_t *M);

/* A view of an in-memory enclosure / of a streamed one. */
void amat_memory(amat_t *M, const smx_t *A);
void amat_stream(amat_t *M, const smxd_t *S);

/* One block of rows [i0, i0 + b): entry (t, j) at a[t + j lda] (rowmajor 0)
 * or a[t lda + j] (rowmajor 1); rowerr[t] its row error bound. */
typedef struct {
    size_t i0, b, lda;
    int rowmajor;
    const double *a, *rowerr;
} amat_block_t;

typedef ar_status (*amat_visit_fn)(void *ctx, const amat_block_t *blk);

/* Call f on every block of rows in order (streamed blocks are evaluated
 * into one scratch buffer of blk * n doubles).  Stops at the first non-OK
 * status and returns it. */
ar_status amat_visit(amat_t *M, amat_visit_fn f, void *ctx);

/* A call of amat_visit_par: block blk into slot's scratch (slot < the slots amat_visit_par
 * reports; no two concurrent calls share a slot). */
typedef ar_status (*amat_visit_par_fn)(void *ctx, const amat_block_t *blk, size_t slot);

/* The number of slots amat_visit_par(M, slot_bytes, ...) will use: min(par_threads(), blocks),
 * and no more than fit, with each streamed slot's block buffer, in half the allocation bound
 * (at least 1).  A caller allocates its per-slot scratch (slot_bytes each) for that many. */
size_t amat_visit_slots(const amat_t *M, size_t slot_bytes);

/* f on every block of amat_visit (the same blocks, whatever the thread count), the blocks
 * spread over amat_visit_slots(M, slot_bytes) of attnrank's threads, each thread one slot;
 * inside f, par_threads() is the slot's share, par_threads() / slots (at least 1: the
 * parallelism is across blocks, and only when there are fewer blocks than threads does a
 * block get more than one), and streamed blocks are evaluated on the slot's thread with that
 * share.  f must write only its block's outputs and give the same bits for any par_threads()
 * (a fixed partition, base/parallel.h), so that nothing depends on which thread ran a block
 * nor on the share; a caller reduces per-block results in block order.
 * Counts one pass.  Returns the status of the first block (in block order) that failed, or
 * AR_ECANCELED / AR_ENOMEM; blocks not yet started when one fails are skipped.  An error
 * message f sets on a worker thread is that thread's (base/status.h): f reports by status. */
ar_status amat_visit_par(amat_t *M, size_t slot_bytes, amat_visit_par_fn f, void *ctx);

/* Y = A X (X n x l, Y m x l, column-major, leading dimensions n and m).  amat_mul and
 * amat_tmul split rows of each block (rows of Z) into a fixed partition that depends on the
 * shape alone, each part one single-threaded BLAS call (OpenBLAS is set to one thread
 * meanwhile), the parts spread over attnrank's threads (base/parallel.h): the results do
 * not depend on OPENBLAS_NUM_THREADS nor on the thread count; amat_mul runs the blocks of a streamed
 * (or blocked) image side by side (amat_visit_par), their parts in order.  A held image with blk 0 is one block for the
 * products (the results then differ from a blocked or streamed product by summation order only);
 * each product counts as one pass. */
ar_status amat_mul(amat_t *M, size_t l, const double *X, double *Y);

/* Z = A^T Y (Y m x l, Z n x l). */
ar_status amat_tmul(amat_t *M, size_t l, const double *Y, double *Z);

/* The rows rows[0..cnt) of A as an in-memory enclosure R (cnt x n, R->method
 * and prec as the source; lognorm filled).  Caller frees with smx_clear. */
ar_status amat_rows(const amat_t *M, const size_t *rows, size_t cnt, smx_t *R);

/* X = the rows rows[0..cnt) of the held image A->a (m x n, column-major): entry (t, j) at
 * X[t * ldx + j] (rowmajor 1, ldx >= n) or X[t + j * ldx] (rowmajor 0, ldx >= cnt).  The
 * columns are split into a fixed partition (parts of at least AMAT_GATHER_COLS columns when
 * cnt n is large) spread over attnrank's threads; a copy, so the same bits for any count. */
#define AMAT_GATHER_COLS 512
void amat_gather(const smx_t *A, const size_t *rows, size_t cnt, double *X, size_t ldx, int rowmajor);

#endif
