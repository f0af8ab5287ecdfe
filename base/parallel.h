/* SPDX-License-Identifier: GPL-3.0-or-later */
/* parallel.h -- attnrank's own threads: one thread per job (par_run), and a
 * fixed partition of a range into blocks spread over any number of threads
 * (par_parts, par_for).
 *
 * The rule that keeps every number the same for any thread count: a
 * computation is split into blocks by a function of the problem's shape
 * alone (par_parts), never of the thread count; each block writes only its
 * own outputs (or partial results that the caller reduces in block order),
 * each BLAS call inside a block runs single-threaded (blas_single_begin);
 * the blocks are then handed to the threads in any order (par_for).  Which
 * thread ran a block, and how many threads there were, changes no bit.
 *
 * OpenBLAS's threads (OPENBLAS_NUM_THREADS) do change bits: OpenBLAS 0.3.21's
 * dgemm sums some shapes differently with 1 and 2 threads (measured), so the
 * dense route's products with A, residual passes and TSQR run their blocks
 * with one BLAS thread each (numerics/amat.h, resid.h, tsqr.h). */
#ifndef ATTNRANK_BASE_PARALLEL_H
#define ATTNRANK_BASE_PARALLEL_H

#include <stddef.h>
#include "base/config.h"
#include "base/status.h"

#define PAR_MAX_JOBS 64
#define PAR_MAX_PARTS 64

/* fn(jobs + t * size) for t < njobs (at most PAR_MAX_JOBS): job 0 in the
 * calling thread, the others in new threads, which call thread_exit (if
 * not NULL, e.g. flint_cleanup for Arb's thread-local caches) before they
 * end.  A job whose thread cannot be created runs in the calling thread.
 * The calling thread's configuration (base/config.h) is installed in
 * every worker.  Returns when every job is done. */
void par_run(int njobs, void (*fn)(void *job), void (*thread_exit)(void), void *jobs, size_t size);

/* par_run with every job (the calling thread's too) run under cfg and the
 * calling thread's cancellation flag (base/cancel.h), both restored in the
 * calling thread afterwards: for independent computations run side by side,
 * each with its share of the threads (cfg->threads). */
void par_run_as(int njobs, void (*fn)(void *job), void (*thread_exit)(void), void *jobs, size_t size,
                const ar_config_t *cfg);

/* The thread count in effect: the configuration's threads (base/config.h),
 * clamped to [1, PAR_MAX_JOBS]. */
int par_threads(void);

/* The number of parts of the fixed partition of [0, len): len / min_len,
 * at least 2 when len >= 4 (the two halves the former two fixed threads
 * split, so that a range shorter than 2 min_len keeps that split's bits),
 * else 1, and at most PAR_MAX_PARTS.  A function of its arguments only. */
size_t par_parts(size_t len, size_t min_len);

/* The first index of part j (0 <= j <= parts) of [0, len) in parts parts:
 * floor(len j / parts).  Part j is [par_part_start(len, parts, j),
 * par_part_start(len, parts, j + 1)). */
size_t par_part_start(size_t len, size_t parts, size_t j);

/* fn(ctx, i) once for every block i < nblocks, on min(par_threads(),
 * nblocks) threads (the calling thread included; the others started here,
 * with the caller's configuration installed and thread_exit, if not NULL,
 * called before they end).  Blocks are taken in increasing order by
 * whichever thread is free, so fn must not depend on the thread that runs
 * it.  Returns when every block is done. */
void par_for(size_t nblocks, void (*fn)(void *ctx, size_t i), void *ctx, void (*thread_exit)(void));

/* par_for over items whose work can fail: fn(ctx, i) for every i < n (all of them run: no early
 * stop), on par_threads() threads as par_for.  Returns AR_OK, or the status of the least i that
 * failed, with the error message that item set (ar_error_set in the thread that ran it) set again
 * in the calling thread: the same status and message as a one-thread loop that stops at its first
 * failure, for any thread count. */
ar_status par_for_status(size_t n, ar_status (*fn)(void *ctx, size_t i), void *ctx, void (*thread_exit)(void));

#endif
