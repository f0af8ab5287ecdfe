/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweep_merge.c -- `attnrank merge`: the tables, fits and verdicts of a sweep
 * rebuilt from its shard files (sweeps/shards.h), without recomputing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweeps/sweeps.h"
#include "sweeps/shards.h"
#include "sweeps/verify_judge.h"

#include "sweeps/calib_shard.h"
#include "sweeps/scale_shard.h"

static int merge_verify(const shardfile_t *files, size_t nf, const sweep_run_t *r)
{
    vplan_t p;
    vresult_t *res;
    char *prov;
    ar_status st = verify_shards_load(files, nf, &p, &res, &prov);
    if (st)
        return sweep_fail(st);
    verify_judge_t vj = { .prov = prov };
    for (size_t g = 0; g < p.ngroups && st == AR_OK; g++)
        st = verify_judge_group(&vj, &p, g, res, r->verify_row, r->verify_ctx);
    if (st == AR_OK && p.dim == 0)
        verify_untested_items(p.claim[0] ? p.claim : NULL, r->verify_row, r->verify_ctx);
    free(res);
    free(prov);
    vplan_clear(&p);
    if (st)
        return sweep_fail(st);
    return vj.not_pass ? 3 : 0;
}

void sweep_merged_clear(sweep_merged_t *m)
{
    scale_result_clear(&m->scale);
    calib_results_clear(&m->calib);
    m->kind = SWEEP_MERGED_NONE;
}

int sweep_merge_run(char *const *paths, size_t nf, const sweep_run_t *r, sweep_merged_t *out)
{
    memset(out, 0, sizeof *out);
    if (nf == 0) {
        ar_error_set("merge: no shard files given (attnrank merge [--format text|json] FILES...)");
        return sweep_fail(AR_EINVAL);
    }
    shardfile_t *files = NULL;
    ar_status st;
    shardfile_key_t kst;
    const shardfile_key_t *key = NULL;
    if ((st = shards_key_load(r->key, r->key_from_env, &kst, &key)))
        return sweep_fail(st);
    if ((st = shards_read_all(paths, nf, key, &files)))
        return sweep_fail(st);
    const char *sweep = files[0].sweep;
    int rc;
    if (r->per_sentence && strcmp(sweep, "calib")) {
        ar_error_set("merge: --per-sentence is for calib sweeps, these are shards of '%s'", sweep);
        shards_free_all(files, nf);
        return sweep_fail(AR_EINVAL);
    }
    if (!strcmp(sweep, "verify")) {
        if (r->format == SWEEP_FORMAT_TSV) {
            ar_error_set("merge: --format tsv is for scale sweeps; verify merges print text or json");
            rc = sweep_fail(AR_EINVAL);
        } else {
            out->kind = SWEEP_MERGED_VERIFY;
            rc = merge_verify(files, nf, r);
        }
    } else if (!strcmp(sweep, "scale")) {
        out->kind = SWEEP_MERGED_SCALE;
        rc = sweep_merge_scale(files, nf, r, &out->scale);
    } else if (!strcmp(sweep, "calib")) {
        out->kind = SWEEP_MERGED_CALIB;
        rc = sweep_merge_calib(files, nf, r, &out->calib);
    } else {
        ar_error_set("%s: a shard of 'attnrank %s', which this attnrank cannot merge", files[0].what, sweep);
        rc = sweep_fail(AR_EINVAL);
    }
    shards_free_all(files, nf);
    return rc;
}
