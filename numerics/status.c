/* status.c -- error codes, thread-local last-error message, checked allocation. */
#include "numerics/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include "numerics/envvar.h"

static _Thread_local char ar_errbuf[512];

/* Length of the valid UTF-8 sequence at p (1..4 bytes), or 0 if the bytes
 * there are not one; C1 controls (U+0080..U+009F) count as invalid. */
static size_t utf8_len(const unsigned char *p)
{
    unsigned c = p[0];
    size_t len;
    unsigned min;
    if (c >= 0xc2 && c <= 0xdf) { len = 2; min = 0xa0; }          /* U+00A0.. (no C1) */
    else if (c >= 0xe0 && c <= 0xef) { len = 3; min = 0x800; }
    else if (c >= 0xf0 && c <= 0xf4) { len = 4; min = 0x10000; }
    else return 0;
    unsigned cp = c & (0x7f >> len);
    for (size_t k = 1; k < len; k++) {
        if ((p[k] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[k] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

void ar_error_set(const char *fmt, ...)
{
    char raw[sizeof ar_errbuf];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    /* One line that cannot drive a terminal: control characters (C0, DEL,
     * C1) and invalid UTF-8 bytes, which may come from file names or file
     * contents echoed in the message, are written as \xNN. */
    const unsigned char *p = (const unsigned char *)raw;
    size_t o = 0, cap = sizeof ar_errbuf - 1;
    while (*p && o < cap) {
        size_t len = *p >= 0x80 ? utf8_len(p) : (*p >= 0x20 && *p != 0x7f);
        if (len) {
            if (o + len > cap)
                break;
            memcpy(ar_errbuf + o, p, len);
            o += len;
            p += len;
        } else {
            if (o + 4 > cap)
                break;
            snprintf(ar_errbuf + o, 5, "\\x%02x", *p);
            o += 4;
            p++;
        }
    }
    ar_errbuf[o] = '\0';
}

const char *ar_error_get(void) { return ar_errbuf; }

const char *ar_status_str(ar_status s)
{
    switch (s) {
    case AR_OK: return "ok";
    case AR_EINVAL: return "invalid input";
    case AR_ENOMEM: return "out of memory";
    case AR_EIO: return "i/o error";
    case AR_ENUMERIC: return "numerical failure";
    }
    return "unknown status";
}

ar_status ar_max_alloc_read(size_t *bytes)
{
    double gb;
    ar_status st = env_real("ATTNRANK_MAX_ALLOC_GB", AR_MAX_ALLOC_GB_MIN, AR_MAX_ALLOC_GB_MAX, 16.0, &gb);
    if (st == AR_OK)
        *bytes = (size_t)(gb * 1073741824.0);   /* <= 2^50: in range */
    return st;
}

size_t ar_max_alloc(void)
{
    size_t b;
    return ar_max_alloc_read(&b) == AR_OK ? b : 0;
}

void *ar_calloc(size_t nmemb, size_t size, const char *what)
{
    if (nmemb == 0 || size == 0) {
        nmemb = 1;
        size = 1;
    }
    size_t limit;
    if (ar_max_alloc_read(&limit) != AR_OK)
        return NULL;                        /* the message names the bad ATTNRANK_MAX_ALLOC_GB */
    if (nmemb > SIZE_MAX / size || nmemb * size > limit) {
        ar_error_set("%s: %zu x %zu bytes exceeds the allocation limit (%.1f GiB; set ATTNRANK_MAX_ALLOC_GB)",
                     what, nmemb, size, (double)limit / 1073741824.0);
        return NULL;
    }
    void *p = calloc(nmemb, size);
    if (!p)
        ar_error_set("%s: out of memory allocating %zu x %zu bytes", what, nmemb, size);
    return p;
}
