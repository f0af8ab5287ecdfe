/* parallel.h -- run one function on an array of jobs, one thread per job. */
#ifndef ATTNRANK_NUMERICS_PARALLEL_H
#define ATTNRANK_NUMERICS_PARALLEL_H

#include <stddef.h>

#define PAR_MAX_JOBS 64

/* fn(jobs + t * size) for t < njobs (at most PAR_MAX_JOBS): job 0 in the
 * calling thread, the others in new threads, which call thread_exit (if
 * not NULL, e.g. flint_cleanup for Arb's thread-local caches) before they
 * end.  A job whose thread cannot be created runs in the calling thread.
 * Returns when every job is done. */
void par_run(int njobs, void (*fn)(void *job), void (*thread_exit)(void), void *jobs, size_t size);

#endif
