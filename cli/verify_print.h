/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_print.h -- the verdict table of the laws (text and JSON): the items
 * that `attnrank verify` and `attnrank merge` judge in the library
 * (verify_row_result_t, sweeps/sweep_result.h) printed by the command, and
 * by the `make verify` Check runner.  Every function writes to the stream
 * its caller passes (the CLI: stdout). */
#ifndef ATTNRANK_CLI_VERIFY_PRINT_H
#define ATTNRANK_CLI_VERIFY_PRINT_H

#include <stdio.h>
#include "sweeps/sweep_result.h"

/* The text table's column header (one line). */
void verify_print_header(FILE *f);

/* A row item (VERIFY_ITEM_ROW) as text: a summary line, the fits, the
 * scope, one line per point (with its note when set) and the reason.  Rows
 * that are not asserted show "report:<verdict>". */
void verify_print_text(FILE *f, const verify_row_result_t *it);

/* A row item as one JSON object on one line, with its provenance members
 * (it->prov; NULL: this binary's version_json_fields). */
void verify_print_json(FILE *f, const verify_row_result_t *it);

/* A claim-T item (VERIFY_ITEM_T): its text lines (the planted dimension,
 * eta's, r(tau) against tau, the chain), its verdict line, or one JSON
 * object with its verdict. */
void verify_print_t_text(FILE *f, const verify_row_result_t *it);
void verify_print_t_verdict(FILE *f, const verify_row_result_t *it);
void verify_print_t_json(FILE *f, const verify_row_result_t *it);

/* A claim without a law row (VERIFY_ITEM_ELSEWHERE or VERIFY_ITEM_UNTESTED)
 * as one text line or one JSON object. */
void verify_print_untested(FILE *f, const verify_row_result_t *it, int json);

/* The state of a printed verify table: the sink's ctx. */
typedef struct {
    FILE *f;              /* the stream written to */
    int json;             /* JSON lines instead of the text table */
    int header;           /* text: the column header was printed */
} verify_printer_t;

/* A verify_row_sink_fn: prints item in the table of ctx (a verify_printer_t):
 * a row (the header before the first text row), a T case with its verdict
 * line, or an untested claim; then flushes the stream. */
void verify_print_item(void *ctx, const verify_row_result_t *item);

#endif
