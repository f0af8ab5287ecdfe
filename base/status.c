/* SPDX-License-Identifier: GPL-3.0-or-later */
/* status.c -- error codes, thread-local last-error message, checked allocation. */
#include "base/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include "base/config.h"

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

/* Escape raw into out (at most cap bytes and a NUL): control characters
 * (C0, DEL, C1) and invalid UTF-8 bytes become \xNN, valid UTF-8 is copied
 * whole.  Returns the length written. */
static size_t escape_into(const unsigned char *p, char *out, size_t cap)
{
    size_t o = 0;
    while (*p && o < cap) {
        size_t len = *p >= 0x80 ? utf8_len(p) : (*p >= 0x20 && *p != 0x7f);
        if (len) {
            if (o + len > cap)
                break;
            memcpy(out + o, p, len);
            o += len;
            p += len;
        } else {
            if (o + 4 > cap)
                break;
            snprintf(out + o, 5, "\\x%02x", *p);
            o += 4;
            p++;
        }
    }
    out[o] = '\0';
    return o;
}

void ar_escape(const char *raw, char *out, size_t cap)
{
    if (cap == 0)
        return;
    escape_into((const unsigned char *)raw, out, cap - 1);
}

/* ERR_TAIL bytes of a message too long for the buffer are kept from its end
 * (the reason usually comes last, after a name or path that may be long). */
#define ERR_TAIL 192

void ar_error_set(const char *fmt, ...)
{
    char sraw[2048], sesc[4096];
    char *raw = sraw, *esc = sesc;
    size_t escap = sizeof sesc - 1;
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int need = vsnprintf(sraw, sizeof sraw, fmt, ap);
    va_end(ap);
    if (need >= (int)sizeof sraw) {      /* a long message: on the heap (the stack copy, cut, if that fails) */
        char *r = malloc((size_t)need + 1), *e = malloc(4 * (size_t)need + 1);
        if (r && e) {
            vsnprintf(r, (size_t)need + 1, fmt, aq);
            raw = r;
            esc = e;
            escap = 4 * (size_t)need;
        } else {
            free(r);
            free(e);
        }
    }
    va_end(aq);
    /* One line that cannot drive a terminal: control characters and invalid
     * UTF-8 bytes, which may come from file names or file contents echoed in
     * the message, are written as \xNN. */
    size_t n = escape_into((const unsigned char *)raw, esc, escap), cap = sizeof ar_errbuf - 1;
    if (n <= cap) {
        memcpy(ar_errbuf, esc, n + 1);
    } else {
        /* too long: its head, " ... ", and its last ERR_TAIL bytes, cut at UTF-8 boundaries */
        size_t head = cap - ERR_TAIL - 5, tail = n - ERR_TAIL;
        while (head > 0 && ((unsigned char)esc[head] & 0xc0) == 0x80)
            head--;
        while (tail < n && ((unsigned char)esc[tail] & 0xc0) == 0x80)
            tail++;
        memcpy(ar_errbuf, esc, head);
        memcpy(ar_errbuf + head, " ... ", 5);
        memcpy(ar_errbuf + head + 5, esc + tail, n - tail + 1);
    }
    if (raw != sraw) {
        free(raw);
        free(esc);
    }
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
    case AR_ECANCELED: return "cancelled";
    }
    return "unknown status";
}

size_t ar_max_alloc(void)
{
    return ar_config()->max_alloc_bytes;
}

ar_status ar_max_alloc_effective(size_t *bytes)
{
    *bytes = ar_config()->max_alloc_bytes;
    return AR_OK;
}

void *ar_calloc(size_t nmemb, size_t size, const char *what)
{
    if (nmemb == 0 || size == 0) {
        nmemb = 1;
        size = 1;
    }
    const ar_config_t *cfg = ar_config();
    size_t limit = cfg->max_alloc_bytes;
    if (nmemb > SIZE_MAX / size || nmemb * size > limit) {
        ar_error_set("%s: %zu x %zu bytes exceeds the allocation limit (%.6g GiB; %s)", what, nmemb, size,
                     (double)limit / 1073741824.0, cfg->max_alloc_from_call ? "the call's memory limit"
                                                                           : "set ATTNRANK_MAX_ALLOC_GB");
        return NULL;
    }
    void *p = calloc(nmemb, size);
    if (!p)
        ar_error_set("%s: out of memory allocating %zu x %zu bytes", what, nmemb, size);
    return p;
}
