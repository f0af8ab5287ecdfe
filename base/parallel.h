/* SPDX-License-Identifier: GPL-3.0-or-later */
/* parallel.h -- run one function on an array of jobs, one thread per job. */
#ifndef ATTNRANK_BASE_PARALLEL_H
#define ATTNRANK_BASE_PARALLEL_H

#include <stddef.h>
#include "base/status.h"

#define PAR_MAX_JOBS 64

/* fn(jobs + t * size) for t < njobs (at most PAR_MAX_JOBS): job 0 in the
 * calling thread, the others in new threads, which call thread_exit (if
 * not NULL, e.g. flint_cleanup for Arb's thread-local caches) before they
 * end.  A job whose thread cannot be created runs in the calling thread.
 * The calling thread's configuration (base/config.h) is installed in
 * every worker.  Returns when every job is done.
 *
 * The project's own threads (softmax rows, the polynomial certificate's
 * pass) are fixed at two, whatever the CPUs: their partition enters the
 * upward-rounded sums, so a fixed count keeps every number the same on any
 * machine.  OpenBLAS's threads (OPENBLAS_NUM_THREADS) do change bits:
 * OpenBLAS 0.3.21's dgemm sums some shapes differently with 1 and 2 threads
 * (measured), so the dense route's products with A run on the project's two
 * fixed threads with one BLAS thread each (numerics/amat.h, resid.h). */
void par_run(int njobs, void (*fn)(void *job), void (*thread_exit)(void), void *jobs, size_t size);


#endif
