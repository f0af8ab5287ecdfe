/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sha256.h -- SHA-256 (FIPS 180-4) as lowercase hex, on nettle (a
 * maintained implementation instead of a hand-written one).  Used to pin
 * the corpus sentences and every file of the claim-E model cache; checked
 * against the FIPS test vectors. */
#ifndef ATTNRANK_BASE_SHA256_H
#define ATTNRANK_BASE_SHA256_H

#include <stddef.h>
#include "base/status.h"

/* SHA-256 of data[0..n); hex receives 64 hex digits and a NUL (65 bytes). */
void sha256_hex(const void *data, size_t n, char hex[65]);

/* Incremental SHA-256: init, feed any number of pieces, then the hex digest
 * (the state is consumed; init again to reuse it). */
typedef struct {
    _Alignas(16) unsigned char state[128];   /* nettle's struct sha256_ctx (checked to fit in sha256.c) */
} sha256_stream_t;
void sha256_stream_init(sha256_stream_t *s);
void sha256_stream_update(sha256_stream_t *s, const void *data, size_t n);
void sha256_stream_hex(sha256_stream_t *s, char hex[65]);

/* Incremental HMAC-SHA256 (RFC 2104, FIPS 198-1) on nettle, as lowercase
 * hex: init with the key, feed any number of pieces, then the digest (the
 * state is consumed).  Checked against the RFC 4231 test vectors. */
typedef struct {
    _Alignas(16) unsigned char state[384];   /* nettle's struct hmac_sha256_ctx (checked to fit) */
} hmac_sha256_stream_t;
void hmac_sha256_stream_init(hmac_sha256_stream_t *s, const void *key, size_t klen);
void hmac_sha256_stream_update(hmac_sha256_stream_t *s, const void *data, size_t n);
void hmac_sha256_stream_hex(hmac_sha256_stream_t *s, char hex[65]);
/* HMAC-SHA256 of data[0..n) under key[0..klen). */
void hmac_sha256_hex(const void *key, size_t klen, const void *data, size_t n, char hex[65]);

/* 1 when the two 64-digit hex strings are equal, in time independent of
 * where they differ. */
int sha256_hex_equal(const char *a, const char *b);

/* SHA-256 of the regular file `path`, read in chunks (opened with
 * infile_open, INFILE_REGULAR; `what` names the content in messages).
 * AR_EIO if it cannot be opened or read, AR_EINVAL if it is not a regular
 * file; one-line message naming the path. */
ar_status sha256_file_hex(const char *path, const char *what, char hex[65]);

/* 1 if s is a digest as this module writes it: exactly 64 lowercase hex digits. */
int sha256_is_hex(const char *s);

#endif
