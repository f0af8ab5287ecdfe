/* output.h -- small formatting helpers shared by the subcommands. */
#ifndef ATTNRANK_CLI_OUTPUT_H
#define ATTNRANK_CLI_OUTPUT_H

#include <stdio.h>
#include <flint/fmpz.h>

/* Print s as a JSON string literal (quotes and escapes included). */
void out_json_string(FILE *f, const char *s);

/* Print an exact integer for JSON: a number when it fits in 2^53, else a
 * decimal string in quotes. */
void out_json_fmpz(FILE *f, const fmpz_t x);

/* log10 of a positive integer of any size. */
double out_log10_fmpz(const fmpz_t x);

/* Wall clock (monotonic) in seconds. */
double out_now(void);

#endif
