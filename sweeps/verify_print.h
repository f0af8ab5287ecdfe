/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_print.h -- the verdict table of the laws (text and JSON), shared by
 * `attnrank verify` and the `make verify` Check runner.  Every function writes
 * to the stream its caller passes (the CLI: stdout); the library never picks
 * a standard stream itself (scripts/check_lib_symbols.sh). */
#ifndef ATTNRANK_SWEEPS_VERIFY_PRINT_H
#define ATTNRANK_SWEEPS_VERIFY_PRINT_H

#include <stdio.h>
#include "theory/claims/verify.h"
#include "theory/claims/claim_t.h"
#include "theory/claims/vplan.h"

/* The text table's column header (one line). */
void verify_print_header(FILE *f);

/* One judged row as text: a summary line, the fits, the scope, one line per
 * point (with its note when set) and the reason.  Rows of kind "report"
 * show "reported (<verdict>)": they are never asserted. */
void verify_print_text(FILE *f, const verify_row_t *r);

/* One judged row as one JSON object on one line, with the provenance fields
 * prov (JSON members without braces; NULL: this binary's version_json_fields). */
void verify_print_json(FILE *f, const verify_row_t *r, const char *prov);

/* A claim-T case (theory/claims/claim_t.h): its text lines (the planted
 * dimension, eta's, r(tau) against tau, the chain), its verdict line, or
 * one JSON object with the verdict of claim_t_judge. */
void verify_print_t_text(FILE *f, const claim_t_record_t *t);
void verify_print_t_verdict(FILE *f, const claim_t_record_t *t);
void verify_print_t_json(FILE *f, const claim_t_record_t *t, const char *prov);

/* The claims without a check in this version (laws_untested), filtered by
 * claim (NULL = all), as text lines or JSON objects. */
void verify_print_untested(FILE *f, const char *claim, int json);

/* Printing the groups of a verify plan (theory/claims/vplan.h) in order. */
typedef struct {
    int json;             /* JSON lines instead of the text table */
    const char *prov;     /* provenance members for JSON rows (NULL: this binary's) */
    int header;           /* text: the column header was printed */
    int failed;           /* an asserted row failed, or a T case */
    int not_pass;         /* an asserted row or a T case did not pass (make verify's criterion) */
} verify_out_t;

/* Judge group g of p from every unit's result (vo's flags) and write it to f,
 * a stream the caller opened (NULL: judge only, write nothing). */
ar_status verify_print_group(FILE *f, verify_out_t *vo, const vplan_t *p, size_t g, const vresult_t *res);

#endif
