/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sha256.c -- SHA-256 through nettle (see sha256.h). */
#include "base/sha256.h"

#include <string.h>
#include "base/infile.h"

#include <nettle/hmac.h>
#include <nettle/sha2.h>
#include <stdio.h>

#define SHA256_CHUNK (1u << 16)

static void bytes_hex(const unsigned char d[SHA256_DIGEST_SIZE], char hex[65])
{
    static const char digits[] = "0123456789abcdef";
    for (size_t k = 0; k < SHA256_DIGEST_SIZE; k++) {
        hex[2 * k] = digits[d[k] >> 4];
        hex[2 * k + 1] = digits[d[k] & 15];
    }
    hex[2 * SHA256_DIGEST_SIZE] = '\0';
}

static void digest_hex(struct sha256_ctx *ctx, char hex[65])
{
    unsigned char d[SHA256_DIGEST_SIZE];
    sha256_digest(ctx, sizeof d, d);
    bytes_hex(d, hex);
}

void sha256_hex(const void *data, size_t n, char hex[65])
{
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_update(&ctx, n, data);
    digest_hex(&ctx, hex);
}

_Static_assert(sizeof(struct sha256_ctx) <= sizeof(((sha256_stream_t *)0)->state), "sha256_stream_t too small");

void sha256_stream_init(sha256_stream_t *s)
{
    sha256_init((struct sha256_ctx *)(void *)s->state);
}

void sha256_stream_update(sha256_stream_t *s, const void *data, size_t n)
{
    sha256_update((struct sha256_ctx *)(void *)s->state, n, data);
}

void sha256_stream_hex(sha256_stream_t *s, char hex[65])
{
    digest_hex((struct sha256_ctx *)(void *)s->state, hex);
}

_Static_assert(sizeof(struct hmac_sha256_ctx) <= sizeof(((hmac_sha256_stream_t *)0)->state),
               "hmac_sha256_stream_t too small");

void hmac_sha256_stream_init(hmac_sha256_stream_t *s, const void *key, size_t klen)
{
    hmac_sha256_set_key((struct hmac_sha256_ctx *)(void *)s->state, klen, key);
}

void hmac_sha256_stream_update(hmac_sha256_stream_t *s, const void *data, size_t n)
{
    hmac_sha256_update((struct hmac_sha256_ctx *)(void *)s->state, n, data);
}

void hmac_sha256_stream_hex(hmac_sha256_stream_t *s, char hex[65])
{
    unsigned char d[SHA256_DIGEST_SIZE];
    hmac_sha256_digest((struct hmac_sha256_ctx *)(void *)s->state, sizeof d, d);
    bytes_hex(d, hex);
}

void hmac_sha256_hex(const void *key, size_t klen, const void *data, size_t n, char hex[65])
{
    hmac_sha256_stream_t s;
    hmac_sha256_stream_init(&s, key, klen);
    hmac_sha256_stream_update(&s, data, n);
    hmac_sha256_stream_hex(&s, hex);
}

int sha256_hex_equal(const char *a, const char *b)
{
    unsigned diff = 0;
    for (size_t k = 0; k < 64; k++)
        diff |= (unsigned)(unsigned char)a[k] ^ (unsigned)(unsigned char)b[k];
    return diff == 0 && a[64] == '\0' && b[64] == '\0';
}

ar_status sha256_file_hex(const char *path, const char *what, char hex[65])
{
    hex[0] = '\0';
    FILE *f;
    ar_status st = infile_open(path, what, INFILE_REGULAR, &f, NULL);
    if (st)
        return st;
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    unsigned char buf[SHA256_CHUNK];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        sha256_update(&ctx, got, buf);
    int err = ferror(f);
    fclose(f);
    if (err) {
        ar_error_set("%s: read error", path);
        return AR_EIO;
    }
    digest_hex(&ctx, hex);
    return AR_OK;
}

int sha256_is_hex(const char *s)
{
    if (!s || strlen(s) != 64)
        return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
            return 0;
    return 1;
}
