/* SPDX-License-Identifier: GPL-3.0-or-later */
/* blas.h -- the BLAS this process runs on: the core's name (for provenance)
 * and OpenBLAS's thread count, which the library pins to one thread wherever
 * a result enters a certified number.  Tests: tests/base/test_blas.c. */
#ifndef ATTNRANK_BASE_BLAS_H
#define ATTNRANK_BASE_BLAS_H

#include <stddef.h>

/* 1 when the process runs under a finite RLIMIT_AS (ulimit -v). */
int blas_as_limited(void);

/* Name of the BLAS core in use ("Haswell", "Zen", ..., or "reference/unknown"). */
const char *blas_corename(void);

/* Set the number of OpenBLAS threads (no-op for other BLAS).  Under a finite
 * RLIMIT_AS (cli/oom.h) only counts the process has already run with are
 * set (1, or back to a count it had): a larger one would start threads whose
 * buffers may not fit. */
void blas_set_threads(int n);

/* The number of OpenBLAS threads in use (1 for other BLAS). */
int blas_get_threads(void);

/* A region whose BLAS calls must run on one OpenBLAS thread (every call whose
 * result enters a certified number: OpenBLAS 0.3.21's dgemm and LAPACK sum
 * some shapes differently with 1 and 2 threads).  OpenBLAS's thread count is
 * one process-wide setting, so the regions are counted under a mutex: the
 * first blas_single_begin of the process (any thread) saves the count and sets
 * one thread, the matching last blas_single_end restores it.  Nested and
 * concurrent regions (two brackets in two threads of one process) are safe:
 * while any region is open the count stays 1, and no region ever restores a
 * count under another.  Each begin needs exactly one end on the same path. */
void blas_single_begin(void);
void blas_single_end(void);

#endif
