/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweep_result.h -- what a sweep returns to its caller, who shows it: the
 * points, fits and provenance of a scale sweep, the results and the pooled
 * association of a calibration, the judged rows of verify.  The library
 * computes (or, under merge, reads from the shard files) and never prints
 * them; the attnrank command prints them (cli/scale_print.c,
 * cli/calib_print.c, cli/verify_print.c). */
#ifndef ATTNRANK_SWEEPS_SWEEP_RESULT_H
#define ATTNRANK_SWEEPS_SWEEP_RESULT_H

#include <stddef.h>
#include "sweeps/sweep_spec.h"
#include "theory/claims/fit.h"
#include "theory/claims/law_point.h"
#include "theory/heads/calib.h"
#include "theory/heads/visible.h"   /* VISIBLE_NONE: a count that is not available */
#include "theory/claims/claim_t.h"
#include "theory/claims/verify.h"

/* A scale sweep of claim S or B: one point per beta of the grid. */
typedef struct {
    scale_spec_t spec;
    size_t count;
    law_point_t *pts;          /* count points, in grid order */
    size_t *sphere;            /* claim B: the sphere packing's certified size at each beta (else 0) */
    double *law;               /* the law at each point: S (1+beta)^((d-1)/2), B beta^(d/2) */
    double law_exponent;       /* S (d-1)/2, B d/2 */
    /* fits against 1+beta (S) or beta (B); zero when not computed */
    fit_t fit_lower, fit_upper, fit_continuum, fit_sphere;
    int has_fit;               /* B: count >= 2 (its fits were attempted) */
    int has_lower, has_upper, has_continuum;   /* S: the fit of that column succeeded */
    char *prov_json;           /* provenance as JSON members without braces (the shards' under merge) */
    char prov_line[512];       /* the same as one line, for the TSV comment */
} scale_result_t;

void scale_result_clear(scale_result_t *r);

/* A calibration: the results of nd models (R[0..nd)) and, when nd > 1, their
 * pooled association. */
typedef struct {
    calib_result_t R[2];
    size_t nd;
    calib_assoc_t pooled;
} calib_results_t;

void calib_results_clear(calib_results_t *r);

/* One judged item of verify, handed to the caller (verify_row_sink_fn) as
 * soon as it is judged, in the table's order: a law row, a claim-T case,
 * or (after them, for a run without a dimension) a claim whose law is
 * asserted by its own suite, or one without a check in this version.  The
 * pointers are valid during the call only. */
typedef enum { VERIFY_ITEM_ROW, VERIFY_ITEM_T, VERIFY_ITEM_ELSEWHERE, VERIFY_ITEM_UNTESTED } verify_item_kind_t;
typedef struct {
    verify_item_kind_t kind;
    const verify_row_t *row;       /* ROW: the judged row (row->law: its law) */
    int asserted;                  /* ROW: make verify asserts its verdict (law_asserted); T: 1 */
    const claim_t_record_t *t;     /* T: the case */
    int pass;                      /* T: claim_t_judge's verdict */
    const char *reason;            /* T: claim_t_judge's reason */
    const char *claim;             /* ELSEWHERE, UNTESTED: the claim */
    const char *note;              /* ELSEWHERE: the suite that asserts it; UNTESTED: why there is no check */
    const char *prov;              /* ROW, T: provenance JSON members without braces (the shards' under
                                      merge), NULL: this binary's (version_json_fields) */
} verify_row_result_t;

/* Receives each judged item of a verify run or a verify merge. */
typedef void (*verify_row_sink_fn)(void *ctx, const verify_row_result_t *item);

/* What `attnrank merge` rebuilt: a scale sweep or a calibration (verify
 * merges hand their items to the run's sink as the groups are judged,
 * SWEEP_MERGED_VERIFY). */
typedef enum { SWEEP_MERGED_NONE, SWEEP_MERGED_VERIFY, SWEEP_MERGED_SCALE, SWEEP_MERGED_CALIB } sweep_merged_kind_t;
typedef struct {
    sweep_merged_kind_t kind;
    scale_result_t scale;
    calib_results_t calib;
} sweep_merged_t;

void sweep_merged_clear(sweep_merged_t *m);

#endif
