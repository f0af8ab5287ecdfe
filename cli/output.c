/* output.c -- JSON helpers and timing. */
#include "cli/output.h"
#include "numerics/clock.h"

#include <math.h>
#include <time.h>

void out_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

void out_json_fmpz(FILE *f, const fmpz_t x)
{
    fmpz_t lim;
    fmpz_init(lim);
    fmpz_one(lim);
    fmpz_mul_2exp(lim, lim, 53);
    if (fmpz_cmpabs(x, lim) < 0) {
        fmpz_fprint(f, x);
    } else {
        fputc('"', f);
        fmpz_fprint(f, x);
        fputc('"', f);
    }
    fmpz_clear(lim);
}

double out_log10_fmpz(const fmpz_t x)
{
    return fmpz_dlog(x) / log(10.0);
}

double out_now(void)
{
    return clock_now();
}
