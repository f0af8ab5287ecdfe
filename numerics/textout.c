/* SPDX-License-Identifier: GPL-3.0-or-later */
/* textout.c -- JSON and text output helpers, timing. */
#include "numerics/textout.h"
#include "base/clock.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "base/status.h"

/* s with control characters and invalid UTF-8 written as \xNN (ar_escape),
 * in buf or on the heap (*heap, to free) when long. */
static const char *escaped(const char *s, char *buf, size_t cap, char **heap)
{
    size_t need = 4 * strlen(s) + 1;
    *heap = NULL;
    if (need > cap && (*heap = malloc(need))) {
        buf = *heap;
        cap = need;
    }
    ar_escape(s, buf, cap);
    return buf;
}

void out_json_string(FILE *f, const char *s)
{
    json_t *j = json_string(s);   /* NULL for invalid UTF-8: then its escaped text */
    char sbuf[1024], *heap = NULL;
    if (!j)
        j = json_string(escaped(s, sbuf, sizeof sbuf, &heap));
    free(heap);
    char *t = j ? json_dumps(j, JSON_ENCODE_ANY | JSON_ENSURE_ASCII) : NULL;
    fputs(t ? t : "null", f);
    free(t);
    json_decref(j);
}

void out_json_number(FILE *f, double v)
{
    if (isfinite(v))
        fputs(real_str(v), f);
    else
        fputs("null", f);
}

void out_json_count(FILE *f, size_t v)
{
    if (v)
        fprintf(f, "%zu", v);
    else
        fputs("null", f);
}

const char *real_str(double v)
{
    static _Thread_local char buf[16][32];
    static _Thread_local unsigned next;
    char *b = buf[next++ % 16];
    if (!isfinite(v)) {
        snprintf(b, 32, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
        return b;
    }
    for (int p = 1; p <= 17; p++) {
        snprintf(b, 32, "%.*e", p - 1, v);
        if (strtod(b, NULL) != v && p < 17)
            continue;
        /* p significant digits suffice: plain notation for 1e-5 <= |v| <
         * 1e17 (30, not 3e+01), exponent notation outside. */
        int ex = atoi(strchr(b, 'e') + 1);
        if (v != 0 && (ex < -5 || ex > 16))
            return b;
        snprintf(b, 32, "%.*f", p - 1 - ex > 0 ? p - 1 - ex : 0, v);
        return b;
    }
    return b;
}

void out_text(FILE *f, const char *s, int md)
{
    char sbuf[1024], *heap = NULL;
    const char *e = escaped(s, sbuf, sizeof sbuf, &heap);
    for (; *e; e++) {
        if (md && *e == '|')
            fputc('\\', f);
        fputc(*e, f);
    }
    free(heap);
}

void out_json_decimal(FILE *f, const char *x)
{
    static const char lim[] = "9007199254740992";   /* 2^53 */
    size_t k = strlen(x), kl = sizeof lim - 1;
    if (k < kl || (k == kl && strcmp(x, lim) < 0))
        fputs(x, f);
    else
        fprintf(f, "\"%s\"", x);
}

double out_now(void)
{
    return clock_now();
}
