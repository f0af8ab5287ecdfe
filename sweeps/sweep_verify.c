/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweep_verify.c -- `attnrank verify`: judge the claims of the laws table
 * (whole, or one shard of its point list: theory/claims/vplan.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweeps/sweeps.h"
#include "sweeps/shards.h"
#include "sweeps/verify_judge.h"
#include "base/version.h"
#include "theory/claims/laws.h"
#include "theory/claims/verify.h"
#include "theory/claims/vplan.h"

typedef struct {
    const vplan_t *p;
} vctx_t;

static ar_status unit_fn(size_t u, void *ctx, json_t **rec)
{
    const vplan_t *p = ((vctx_t *)ctx)->p;
    vresult_t r;
    ar_status st = vplan_compute(p, u, &r);
    if (st)
        return st;
    *rec = vplan_record(p, u, &r);
    if (!*rec) {
        ar_error_set("verify: out of memory for a record");
        return AR_ENOMEM;
    }
    return AR_OK;
}

static ar_status check_fn(size_t u, void *ctx, const json_t *rec, const char *where)
{
    vresult_t r;
    return vplan_parse_record(((vctx_t *)ctx)->p, u, rec, where, &r);
}

static int run_shard(const vplan_t *p, shard_sel_t sel, const char *out, const shardfile_key_t *key,
                     const shards_notice_t *nt)
{
    size_t *owner;
    const char **ids;
    ar_status st = verify_plan_owners(p, sel.n, &owner, &ids);
    if (st)
        return sweep_fail(st);
    json_t *h = shards_header("verify", verify_shard_params(p), p->digest, sel, shards_precision());
    if (!h) {
        free(owner);
        free((void *)ids);
        ar_error_set("verify: out of memory for the shard header");
        return sweep_fail(AR_ENOMEM);
    }
    vctx_t c = { p };
    st = shards_run(out, h, ids, owner, p->nunits, sel, unit_fn, check_fn, &c, nt, key);
    json_decref(h);
    free(owner);
    free((void *)ids);
    return st ? sweep_fail(st) : 0;
}

int sweep_verify_run(const verify_spec_t *spec, const sweep_run_t *r)
{
    ar_status st;
    if ((st = verify_spec_validate(spec)))
        return sweep_fail(st);
    const char *claim = spec->claim[0] ? spec->claim : NULL;
    vtier_t tier = (vtier_t)spec->tier;
    shardfile_key_t kst;
    const shardfile_key_t *key = NULL;
    if (r->shard && ((st = shards_key_load(r->key, r->key_from_env, &kst, &key)) ||
                     (st = shardfile_check_target(r->out))))
        return sweep_fail(st);
    vplan_t p;
    if ((st = vplan_build(claim, (int)spec->d, tier, &p)))   /* a request that selects nothing is an error */
        return sweep_fail(st);
    if (p.nunits == 0) {
        ar_error_set("verify: --tier %s selects no row of %s%s", vplan_tier_name(tier), claim ? "claim " : "the table",
                     claim ? claim : "");
        vplan_clear(&p);
        return sweep_fail(AR_EINVAL);
    }
    if (r->shard) {
        shards_notice_t nt = { r->ev.notice, r->ev.ctx, r->progress };
        int rc = run_shard(&p, r->sel, r->out, key, &nt);
        vplan_clear(&p);
        return rc;
    }
    vresult_t *res = ar_calloc(p.nunits, sizeof *res, "verify results");
    if (!res) {
        vplan_clear(&p);
        return sweep_fail(AR_ENOMEM);
    }
    int tty = r->progress && r->ev.unit, rc = 0;
    verify_judge_t vj = { .prov = NULL };
    for (size_t g = 0; g < p.ngroups && rc == 0; g++) {
        for (size_t u = p.groups[g].first; u < p.groups[g].first + p.groups[g].count; u++) {
            if (tty) {
                char msg[160];
                vplan_describe(&p, u, msg, sizeof msg);
                r->ev.unit(r->ev.ctx, msg);
            }
            st = vplan_compute(&p, u, &res[u]);
            if (tty)
                r->ev.unit(r->ev.ctx, NULL);
            if (st) {
                rc = sweep_fail(st);
                break;
            }
        }
        if (rc == 0 && (st = verify_judge_group(&vj, &p, g, res, r->verify_row, r->verify_ctx)))
            rc = sweep_fail(st);
    }
    free(res);
    vplan_clear(&p);
    if (rc)
        return rc;
    if (!spec->d)                       /* claims without law rows have no dimension to select */
        verify_untested_items(claim, r->verify_row, r->verify_ctx);
    return vj.failed && r->strict ? 3 : 0;
}
