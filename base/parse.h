/* SPDX-License-Identifier: GPL-3.0-or-later */
/* parse.h -- strict conversions of text to numbers, shared by the command
 * line (cli/args.c) and the environment variables (base/envvar.h).
 * Nothing is skipped: no white space, no trailing characters. */
#ifndef ATTNRANK_BASE_PARSE_H
#define ATTNRANK_BASE_PARSE_H

#include <stdint.h>

/* 1 and *v = value when s is one or more ASCII decimal digits and nothing
 * else (no white space, sign, prefix or suffix) and the value fits in 64
 * bits; 0 otherwise (*v untouched). */
int parse_digits(const char *s, uint64_t *v);

/* Outcome of parse_real. */
typedef enum {
    PARSE_OK = 0,       /* a finite, normal (or zero) double */
    PARSE_SYNTAX,       /* not a number (also "inf", "nan", white space, trailing text) */
    PARSE_OVERFLOW,     /* beyond the largest double (would round to +-inf) */
    PARSE_UNDERFLOW,    /* not zero but below the smallest positive double (would round to 0) */
    PARSE_SUBNORMAL     /* a subnormal double (below DBL_MIN, the smallest normal one) */
} parse_real_t;

/* Convert s (strtod syntax, starting with a sign, a digit or '.') to *v.
 * *v is written only on PARSE_OK.  Subnormals are refused everywhere: they
 * carry fewer than 53 significant bits, so the stored value is not the one
 * typed, and the relative rounding bounds (u = 2^-53) used throughout do
 * not hold for them. */
parse_real_t parse_real(const char *s, double *v);

/* A one-line reason for a parse_real outcome ("is not a finite number",
 * "is below the smallest positive double ...", ...), static storage. */
const char *parse_real_reason(parse_real_t r);

#endif
