/* verify_print.h -- the verdict table of the laws (text and JSON), shared by
 * `attnrank verify` and the `make verify` Check runner. */
#ifndef ATTNRANK_CLI_VERIFY_PRINT_H
#define ATTNRANK_CLI_VERIFY_PRINT_H

#include <stdio.h>
#include "theory/claims/verify.h"

/* The text table's column header (one line). */
void verify_print_header(FILE *f);

/* One judged row as text: a summary line, the fits, the scope, one line per
 * point (with its note when set) and the reason.  Rows of kind "report"
 * show "reported (<verdict>)": they are never asserted. */
void verify_print_text(FILE *f, const verify_row_t *r);

/* One judged row as one JSON object on one line (with provenance fields). */
void verify_print_json(FILE *f, const verify_row_t *r);

/* The claims without a check in this version (laws_untested), filtered by
 * claim (NULL = all), as text lines or JSON objects. */
void verify_print_untested(FILE *f, const char *claim, int json);

/* Progress line on stderr ("\r[verify] msg"), for verify_law's callback. */
void verify_print_progress(const char *msg, void *ctx);

#endif
