/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_judge.h -- the groups of a verify plan judged in order and handed
 * to the caller's sink as result items (sweeps/sweep_result.h), shared by
 * `attnrank verify` and `attnrank merge`; the tests' runner builds its
 * items here too.  Nothing is printed here: the CLI prints the items
 * (cli/verify_print.c). */
#ifndef ATTNRANK_SWEEPS_VERIFY_JUDGE_H
#define ATTNRANK_SWEEPS_VERIFY_JUDGE_H

#include "base/status.h"
#include "sweeps/sweep_result.h"
#include "theory/claims/vplan.h"

/* The verdicts so far of the groups judged with one verify_judge_t. */
typedef struct {
    const char *prov;     /* provenance members for the items (NULL: this binary's) */
    int failed;           /* an asserted row failed, or a T case */
    int not_pass;         /* an asserted row or a T case did not pass (make verify's criterion) */
} verify_judge_t;

/* The item of a judged row (asserted from its law) or of a claim-T case
 * (judged by claim_t_judge into reason[len]), with provenance prov. */
void verify_item_row(verify_row_result_t *it, const verify_row_t *row, const char *prov);
void verify_item_t(verify_row_result_t *it, const claim_t_record_t *t, const char *prov, char *reason,
                   size_t len);

/* Judge group g of p from every unit's result, update vj's flags and hand
 * the item to sink(ctx, item) (sink NULL: judge only).  AR_ENOMEM, or the
 * status of vplan_judge_row. */
ar_status verify_judge_group(verify_judge_t *vj, const vplan_t *p, size_t g, const vresult_t *res,
                             verify_row_sink_fn sink, void *ctx);

/* The claims without a law row (laws_checked_elsewhere, then laws_untested),
 * filtered by claim (NULL = all), each handed to sink(ctx, item). */
void verify_untested_items(const char *claim, verify_row_sink_fn sink, void *ctx);

#endif
