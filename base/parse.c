/* SPDX-License-Identifier: GPL-3.0-or-later */
/* parse.c -- strict number conversions (see parse.h). */
#include "base/parse.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

int parse_digits(const char *s, uint64_t *v)
{
    uint64_t x = 0;
    if (!s || *s == '\0')
        return 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9' || x > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
            return 0;
        x = 10 * x + (uint64_t)(*p - '0');
    }
    *v = x;
    return 1;
}

parse_real_t parse_real(const char *s, double *v)
{
    if (!s || (*s != '-' && *s != '+' && *s != '.' && (*s < '0' || *s > '9')))
        return PARSE_SYNTAX;                /* strtod would skip leading white space */
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || *end != '\0' || isnan(x))
        return PARSE_SYNTAX;
    if (isinf(x))
        return errno == ERANGE ? PARSE_OVERFLOW : PARSE_SYNTAX;   /* "inf" typed is not a number here */
    if (x == 0.0 && errno == ERANGE)
        return PARSE_UNDERFLOW;
    if (x != 0.0 && fabs(x) < DBL_MIN)
        return PARSE_SUBNORMAL;
    *v = x;
    return PARSE_OK;
}

const char *parse_real_reason(parse_real_t r)
{
    switch (r) {
    case PARSE_OK: return "is a number";
    case PARSE_SYNTAX: return "is not a finite number";
    case PARSE_OVERFLOW: return "is beyond the largest double (about 1.8e308)";
    case PARSE_UNDERFLOW: return "is below the smallest positive double (about 4.9e-324) and would round to 0";
    case PARSE_SUBNORMAL:
        return "is subnormal (below 2.2250738585072014e-308, the smallest normal double; "
               "subnormals are refused: they lose precision and void the rounding bounds)";
    }
    return "is not a number";
}
