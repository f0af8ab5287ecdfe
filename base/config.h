/* SPDX-License-Identifier: GPL-3.0-or-later */
/* config.h -- the library's settings, as explicit values.
 *
 * Every setting the library used to take from an environment variable
 * (ATTNRANK_MAX_ALLOC_GB, ATTNRANK_STREAM_MIB, ATTNRANK_MAX_STREAM_N,
 * ATTNRANK_BALL_DENSE_MAX, ATTNRANK_MAX_SCALE_N, ATTNRANK_FLINT_THREADS, ATTNRANK_THREADS,
 * OPENBLAS_NUM_THREADS, ATTNRANK_SHARD_KEY) is a field here.  The
 * environment is read only at the boundary: the public API's entries
 * (api/api_config.c) and the CLI read it once into an ar_config_t and install
 * it for the duration of the call; nothing else in the library calls getenv.
 *
 * The configuration in effect is per thread: ar_config_install() sets it for
 * the calling thread, par_run() hands it to its workers, and a thread with
 * none installed sees the built-in defaults (ar_config_default). */
#ifndef ATTNRANK_BASE_CONFIG_H
#define ATTNRANK_BASE_CONFIG_H

#include <stddef.h>

/* Built-in defaults, and the ranges the boundary accepts. */
#define AR_CONFIG_MAX_ALLOC_BYTES ((size_t)16 << 30)   /* ATTNRANK_MAX_ALLOC_GB 16 */
#define AR_CONFIG_STREAM_MAX_N 65536                    /* ATTNRANK_MAX_STREAM_N */
#define AR_CONFIG_BALL_DENSE_MAX 3000                   /* ATTNRANK_BALL_DENSE_MAX */
#define AR_CONFIG_SCALE_MAX_N 200000                    /* ATTNRANK_MAX_SCALE_N */
#define AR_CONFIG_MAX_THREADS 64                       /* ATTNRANK_THREADS, --threads: 1..64 */
#define AR_CONFIG_THREADS 2                             /* threads with no boundary (tests, internal callers) */
#define AR_CONFIG_STREAM_MIB 1024                       /* ATTNRANK_STREAM_MIB's default row-block budget */

typedef struct {
    size_t max_alloc_bytes;   /* largest single allocation (ar_calloc) and the memory of size decisions */
    int max_alloc_from_call;  /* 1: max_alloc_bytes is the call's own memory limit (named so in messages) */
    size_t stream_mib;        /* the streamed route's explicit budget in MiB; 0: unset, memory decides */
    size_t stream_max_n;      /* largest m or n the dense route streams */
    size_t ball_dense_max;    /* most distinct ball points the dense cluster certificates take */
    size_t scale_max_n;       /* most points of the large spherical route */
    size_t flint_threads;     /* FLINT's thread count (applied by the boundary) */
    size_t openblas_threads;  /* OPENBLAS_NUM_THREADS as given; 0: unset (recorded in shard headers) */
    size_t threads;           /* attnrank's own worker threads (base/parallel.h), 1..64; the boundary
                               * sets the caller's count or the CPUs the process may use */
    char shard_key[4096];     /* ATTNRANK_SHARD_KEY, the path of the shard key file; "": none */
} ar_config_t;

/* *c = the built-in defaults (the values of an empty environment). */
void ar_config_default(ar_config_t *c);

/* The configuration in effect in the calling thread: the one installed by
 * ar_config_install, or the built-in defaults.  Never NULL. */
const ar_config_t *ar_config(void);

/* Install c (which must outlive the installation) for the calling thread, or
 * NULL to return to the defaults; returns the previous installation (NULL if
 * none), to be reinstalled by the caller when its scope ends. */
const ar_config_t *ar_config_install(const ar_config_t *c);

/* The installation of the calling thread as ar_config_install set it (NULL
 * if none): what a function that starts threads hands to them. */
const ar_config_t *ar_config_installed(void);

#endif
