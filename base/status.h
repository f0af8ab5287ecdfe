/* SPDX-License-Identifier: GPL-3.0-or-later */
/* status.h -- error codes and the last-error message shared by every layer.
 *
 * Convention: every fallible function returns ar_status (AR_OK == 0).  On
 * failure it also records a one-line, human-readable message with
 * ar_error_set(); the CLI prints ar_error_get() on stderr and exits non-zero.
 * The message buffer is thread-local. */
#ifndef ATTNRANK_BASE_STATUS_H
#define ATTNRANK_BASE_STATUS_H

#include <stddef.h>

typedef enum {
    AR_OK = 0,
    AR_EINVAL = 1,   /* bad argument or malformed input */
    AR_ENOMEM = 2,   /* allocation failed or size beyond memory */
    AR_EIO = 3,      /* file could not be read or written */
    AR_ENUMERIC = 4, /* a numerical routine failed (LAPACK info != 0, ...) */
    AR_ECANCELED = 5 /* the caller's cancellation flag was set (base/cancel.h) */
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
 * Requests above ar_max_alloc() bytes are refused up front so that "sizes
 * beyond memory" give a clean error, not the OOM killer. */
void *ar_calloc(size_t nmemb, size_t size, const char *what);

/* Accepted range of ATTNRANK_MAX_ALLOC_GB and of a call's memory limit, in GiB (1 KiB .. 1 PiB). */
#define AR_MAX_ALLOC_GB_MIN 1e-6
#define AR_MAX_ALLOC_GB_MAX 1048576.0

/* Bytes allowed for one allocation in the calling thread: the installed
 * configuration's max_alloc_bytes (base/config.h: 16 GiB by default, the
 * boundary sets it from ATTNRANK_MAX_ALLOC_GB or the call's memory limit). */
size_t ar_max_alloc(void);

/* The same limit with a status (always AR_OK): what every size decision made
 * from memory reads. */
ar_status ar_max_alloc_effective(size_t *bytes);

#endif
