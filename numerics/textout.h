/* SPDX-License-Identifier: GPL-3.0-or-later */
/* textout.h -- text and JSON output helpers shared by the CLI and the sweeps'
 * reports (strings from files escaped, numbers that JSON can hold). */
#ifndef ATTNRANK_NUMERICS_TEXTOUT_H
#define ATTNRANK_NUMERICS_TEXTOUT_H

#include <stdio.h>

/* Print s as a JSON string literal, encoded by jansson in pure ASCII (every
 * character outside printable ASCII as \uXXXX; invalid UTF-8 bytes as the
 * text \xNN): valid JSON whatever s holds. */
void out_json_string(FILE *f, const char *s);

/* Print v for JSON: the shortest decimal that reads back as v (real_str) when finite, else null
 * (never a bare nan/inf). */
void out_json_number(FILE *f, double v);

/* The shortest decimal text of v that reads back (strtod) as exactly v: "0.1", not
 * "0.10000000000000001" (the least number of significant digits, 1 to 17, that round-trips), in
 * plain notation for 1e-5 <= |v| < 1e17 ("30", not "3e+01") and exponent notation outside;
 * "inf", "-inf", "nan" otherwise.  Returns one of 16 buffers of the calling thread, used in turn, so that
 * up to 16 values may appear in one printf. */
const char *real_str(double v);

/* Print a count for JSON where 0 means "not computed" (an end or a size that was not certified or
 * not run): the number, or null for 0. */
void out_json_count(FILE *f, size_t v);

/* Print s for a terminal, a TSV or a markdown cell: control characters
 * (tab and newline included), DEL and invalid UTF-8 as \xNN; with md, '|'
 * as "\|".  For every string that may come from a file. */
void out_text(FILE *f, const char *s, int md);

/* Print an exact non-negative integer given as decimal digits for JSON: a
 * number when it is below 2^53, else a decimal string in quotes. */
void out_json_decimal(FILE *f, const char *digits);

/* Wall clock (monotonic) in seconds. */
double out_now(void);

#endif
