/* SPDX-License-Identifier: GPL-3.0-or-later */
/* oom.h -- what the process does when memory runs out.
 *
 * GMP, MPFR, FLINT and Arb cannot report an allocation failure to their
 * caller: by default they print their own message and abort().  oom_install
 * replaces their allocators by ones that, on failure, print exactly one line
 * "<prog>: out of memory (...)" on stderr and end the process with exit
 * status 1 (no core dump, no partial output flushed).
 *
 * OpenBLAS (0.3.21) reserves a 128 MiB work buffer per thread and retries
 * forever when it cannot get one; its exit handler then waits for its worker
 * threads.  Under an address-space limit (ulimit -v) that hangs the process.
 * oom_blas_guard makes such runs end: see below. */
#ifndef ATTNRANK_CLI_OOM_H
#define ATTNRANK_CLI_OOM_H

#include <stddef.h>
#include "base/status.h"

/* Install the GMP (mp_set_memory_functions) and FLINT
 * (__flint_set_memory_functions) allocators described above; prog (kept by
 * pointer, must outlive the process) starts the message.  Call first thing in
 * main(), before any GMP/FLINT/MPFR/Arb object exists. */
void oom_install(const char *prog);

/* Print "<prog>: out of memory (<what>: <bytes> bytes)" as one line on
 * stderr (write(2), no stdio, no allocation) and _exit(1). */
_Noreturn void oom_fail(const char *what, size_t bytes);

/* Under a finite RLIMIT_AS only (no effect otherwise):
 *  - re-execute /proc/self/exe once with OPENBLAS_NUM_THREADS=1 (overriding
 *    any other value: OpenBLAS starts its threads when it is loaded, and each
 *    one spins if its buffer cannot be allocated), so BLAS runs on one
 *    thread under any finite limit;
 *  - check that OpenBLAS's work buffer fits (oom_fail otherwise) and make
 *    OpenBLAS take it now, with a 1 x 1 dgemm, so that later allocation
 *    failures happen in code that reports them.
 * Call in main() after oom_install and before any BLAS call.  May not return
 * (exec or oom_fail). */
void oom_blas_guard(char **argv);

#endif
