/* SPDX-License-Identifier: GPL-3.0-or-later */
/* status.h -- error codes and the last-error message shared by every layer.
 *
 * Convention: every fallible function returns ar_status (AR_OK == 0).  On
 * failure it also records a one-line, human-readable message with
 * ar_error_set(); the CLI prints ar_error_get() on stderr and exits non-zero.
 * The message buffer is thread-local. */
#ifndef ATTNRANK_NUMERICS_STATUS_H
#define ATTNRANK_NUMERICS_STATUS_H

#include <stddef.h>

typedef enum {
    AR_OK = 0,
    AR_EINVAL = 1,   /* bad argument or malformed input */
    AR_ENOMEM = 2,   /* allocation failed or size beyond memory */
    AR_EIO = 3,      /* file could not be read or written */
    AR_ENUMERIC = 4, /* a numerical routine failed (LAPACK info != 0, ...) */
    AR_ECANCELED = 5 /* the caller's cancellation flag was set (numerics/cancel.h) */
} ar_status;

/* Record a printf-style one-line message (no trailing newline needed). */
void ar_error_set(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Copy raw into out (cap bytes with the NUL) as ar_error_set writes it: C0
 * and C1 control characters, DEL and invalid UTF-8 bytes become \xNN, valid
 * UTF-8 is copied whole; cut at a character boundary when out is full.
 * For any text from a file or the environment printed on a terminal. */
void ar_escape(const char *raw, char *out, size_t cap);

/* The last message recorded in this thread ("" if none). */
const char *ar_error_get(void);

/* Static name of a status code ("ok", "invalid input", ...). */
const char *ar_status_str(ar_status s);

/* Checked allocation of nmemb*size bytes, zero-filled.  Returns NULL and
 * records an AR_ENOMEM message naming `what` on overflow or failure.
 * Requests above ar_max_alloc() bytes (default 16 GiB, override with the
 * environment variable ATTNRANK_MAX_ALLOC_GB) are refused up front so that
 * "sizes beyond memory" give a clean error, not the OOM killer; with an
 * invalid ATTNRANK_MAX_ALLOC_GB every request is refused, with the message
 * of ar_max_alloc_read. */
void *ar_calloc(size_t nmemb, size_t size, const char *what);

/* Accepted range of ATTNRANK_MAX_ALLOC_GB, in GiB (1 KiB .. 1 PiB). */
#define AR_MAX_ALLOC_GB_MIN 1e-6
#define AR_MAX_ALLOC_GB_MAX 1048576.0

/* A limit for the calling thread only (bytes > 0), or 0 to remove it: while
 * set, ar_calloc and ar_max_alloc use it instead of ATTNRANK_MAX_ALLOC_GB
 * (the public API's per-call memory limit, include/attnrank.h). */
void ar_max_alloc_set_thread(size_t bytes);

/* Bytes allowed for one allocation: 16 GiB, or ATTNRANK_MAX_ALLOC_GB GiB
 * (a decimal number in [AR_MAX_ALLOC_GB_MIN, AR_MAX_ALLOC_GB_MAX]).
 * AR_EINVAL with a one-line message for any other value (numerics/envvar.h). */
ar_status ar_max_alloc_read(size_t *bytes);

/* ar_max_alloc_read's bytes, or 0 (nothing allowed) when the variable is invalid. */
size_t ar_max_alloc(void);

/* The limit in effect in this thread: the per-call limit when set (ar_max_alloc_set_thread), else
 * ar_max_alloc_read's (with its AR_EINVAL for a bad ATTNRANK_MAX_ALLOC_GB).  What every size
 * decision made from memory reads, so that the per-call limit and the variable act alike. */
ar_status ar_max_alloc_effective(size_t *bytes);

#endif
