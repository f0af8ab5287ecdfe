/* status.c -- error codes, thread-local last-error message, checked allocation. */
#include "numerics/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

static _Thread_local char ar_errbuf[512];

void ar_error_set(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ar_errbuf, sizeof ar_errbuf, fmt, ap);
    va_end(ap);
    for (char *p = ar_errbuf; *p; p++)   /* keep it one line */
        if (*p == '\n' || *p == '\r')
            *p = ' ';
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

size_t ar_max_alloc(void)
{
    const char *s = getenv("ATTNRANK_MAX_ALLOC_GB");
    double gb = 16.0;
    if (s) {
        char *end;
        double v = strtod(s, &end);
        if (end != s && v > 0 && v < 1e6)
            gb = v;
    }
    return (size_t)(gb * 1073741824.0);
}

void *ar_calloc(size_t nmemb, size_t size, const char *what)
{
    if (nmemb == 0 || size == 0) {
        nmemb = 1;
        size = 1;
    }
    if (nmemb > SIZE_MAX / size || nmemb * size > ar_max_alloc()) {
        ar_error_set("%s: %zu x %zu bytes exceeds the allocation limit (%.1f GiB; set ATTNRANK_MAX_ALLOC_GB)",
                     what, nmemb, size, (double)ar_max_alloc() / 1073741824.0);
        return NULL;
    }
    void *p = calloc(nmemb, size);
    if (!p)
        ar_error_set("%s: out of memory allocating %zu x %zu bytes", what, nmemb, size);
    return p;
}
