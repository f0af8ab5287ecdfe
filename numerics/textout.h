/* textout.h -- text and JSON output helpers shared by the CLI and the sweeps'
 * reports (strings from files escaped, numbers that JSON can hold). */
#ifndef ATTNRANK_NUMERICS_TEXTOUT_H
#define ATTNRANK_NUMERICS_TEXTOUT_H

#include <stdio.h>

/* Print s as a JSON string literal, encoded by jansson in pure ASCII (every
 * character outside printable ASCII as \uXXXX; invalid UTF-8 bytes as the
 * text \xNN): valid JSON whatever s holds. */
void out_json_string(FILE *f, const char *s);

/* Print v for JSON: %.17g when finite, else null (never a bare nan/inf). */
void out_json_number(FILE *f, double v);

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
