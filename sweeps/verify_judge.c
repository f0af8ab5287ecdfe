/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_judge.c -- the groups of a verify plan judged into result items
 * (see verify_judge.h). */
#include "sweeps/verify_judge.h"

#include <stdlib.h>
#include <string.h>
#include "theory/claims/laws.h"

void verify_item_row(verify_row_result_t *it, const verify_row_t *row, const char *prov)
{
    memset(it, 0, sizeof *it);
    it->kind = VERIFY_ITEM_ROW;
    it->row = row;
    it->asserted = law_asserted(row->law);
    it->prov = prov;
}

void verify_item_t(verify_row_result_t *it, const claim_t_record_t *t, const char *prov, char *reason,
                   size_t len)
{
    memset(it, 0, sizeof *it);
    it->kind = VERIFY_ITEM_T;
    it->t = t;
    it->asserted = 1;
    it->pass = claim_t_judge(t, reason, len);
    it->reason = reason;
    it->prov = prov;
}

ar_status verify_judge_group(verify_judge_t *vj, const vplan_t *p, size_t g, const vresult_t *res,
                             verify_row_sink_fn sink, void *ctx)
{
    const vgroup_t *G = &p->groups[g];
    verify_row_result_t it;
    if (G->kind == VG_T) {
        char reason[256];
        verify_item_t(&it, &res[G->first].t, vj->prov, reason, sizeof reason);
        vj->not_pass |= !it.pass;
        vj->failed |= !it.pass;
        if (sink)
            sink(ctx, &it);
        return AR_OK;
    }
    verify_row_t *row = malloc(sizeof *row);
    if (!row) {
        ar_error_set("verify: out of memory");
        return AR_ENOMEM;
    }
    ar_status st = vplan_judge_row(p, g, res, row);
    if (st == AR_OK) {
        verify_item_row(&it, row, vj->prov);
        if (it.asserted) {
            vj->failed |= row->verdict == VERDICT_FAIL;
            vj->not_pass |= row->verdict != VERDICT_PASS;
        }
        if (sink)
            sink(ctx, &it);
    }
    free(row);
    return st;
}

/* Hand the claims of list (pairs claim, note; NULL-terminated) as items of kind k. */
static void hand_list(const char *const *list, verify_item_kind_t k, const char *claim, verify_row_sink_fn sink,
                      void *ctx)
{
    for (size_t i = 0; list[i]; i += 2) {
        if (claim && strcmp(claim, list[i]))
            continue;
        verify_row_result_t it;
        memset(&it, 0, sizeof it);
        it.kind = k;
        it.claim = list[i];
        it.note = list[i + 1];
        sink(ctx, &it);
    }
}

void verify_untested_items(const char *claim, verify_row_sink_fn sink, void *ctx)
{
    if (!sink)
        return;
    hand_list(laws_checked_elsewhere(), VERIFY_ITEM_ELSEWHERE, claim, sink, ctx);
    hand_list(laws_untested(), VERIFY_ITEM_UNTESTED, claim, sink, ctx);
}
