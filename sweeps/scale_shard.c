/* SPDX-License-Identifier: GPL-3.0-or-later */
/* scale_shard.c -- shards of `attnrank scale` (see scale_shard.h). */
#include "sweeps/scale_shard.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweeps/sweeps.h"
#include "sweeps/shards.h"
#include "base/sha256.h"
#include "numerics/shard.h"
#include "base/version.h"
#include "theory/claims/vplan.h"

ar_status scale_sweep_init(scale_sweep_t *s, const scale_spec_t *spec, const double *betas, size_t count,
                           double law_exponent, const shardfile_t *files, size_t nf)
{
    memset(s, 0, sizeof *s);
    s->claim = scale_claim_name(spec->claim);
    s->d = (int)spec->d;
    s->eps = spec->eps;
    s->betas = betas;
    s->count = count;
    s->law_exponent = law_exponent;
    s->files = files;
    s->nf = nf;
    s->params = json_pack("{s:s,s:o}", "claim", s->claim, "spec", scale_spec_json(spec));
    if (!s->params)
        goto oom;
    char *ptxt = shardfile_dump(s->params);
    if (!ptxt)
        goto oom;
    sha256_stream_t h;
    sha256_stream_init(&h);
    char b[96];
    snprintf(b, sizeof b, "attnrank scale plan 2 claim %s\n", s->claim);
    sha256_stream_update(&h, b, strlen(b));
    sha256_stream_update(&h, ptxt, strlen(ptxt));
    free(ptxt);
    for (size_t t = 0; t < count; t++) {
        snprintf(b, sizeof b, "\n%.17g", betas[t]);
        sha256_stream_update(&h, b, strlen(b));
    }
    sha256_stream_hex(&h, s->digest);
    return AR_OK;
oom:
    json_decref(s->params);
    s->params = NULL;
    ar_error_set("scale: out of memory");
    return AR_ENOMEM;
}

void scale_sweep_clear(scale_sweep_t *s)
{
    json_decref(s->params);
    free((void *)s->rec);
    memset(s, 0, sizeof *s);
}

/* ids "beta[t]=B" and owners of the grid for n shards */
static ar_status owners(const scale_sweep_t *s, size_t n, size_t **owner, char ***ids)
{
    *owner = ar_calloc(s->count, sizeof **owner, "shard owners");
    *ids = ar_calloc(s->count, sizeof **ids, "shard ids");
    double *cost = ar_calloc(s->count, sizeof *cost, "shard costs");
    ar_status st = *owner && *ids && cost ? AR_OK : AR_ENOMEM;
    double top = pow(s->betas[s->count - 1] + 1, s->law_exponent);
    for (size_t t = 0; st == AR_OK && t < s->count; t++) {
        (*ids)[t] = malloc(48);
        if (!(*ids)[t]) {
            st = AR_ENOMEM;
            break;
        }
        snprintf((*ids)[t], 48, "beta[%zu]=%.10g", t, s->betas[t]);
        cost[t] = pow(pow(s->betas[t] + 1, s->law_exponent) / top, 1.5);
        if (!isfinite(cost[t]))
            cost[t] = 1;
    }
    if (st == AR_OK)
        st = shard_assign(cost, s->count, n, *owner);
    free(cost);
    return st;
}

static void free_ids(char **ids, size_t n)
{
    for (size_t t = 0; ids && t < n; t++)
        free(ids[t]);
    free(ids);
}

typedef struct {
    scale_sweep_t *s;
    scale_point_fn fn;
    void *ctx;
    char **ids;
} run_ctx_t;

static ar_status unit_fn(size_t u, void *ctx, json_t **rec)
{
    run_ctx_t *c = ctx;
    law_point_t lp;
    size_t sphere = 0;
    ar_status st = c->fn(c->ctx, u, &lp, &sphere);
    if (st)
        return st;
    json_t *o = json_object();
    int bad = !o || json_object_set_new(o, "point", json_string(c->ids[u])) || law_point_json(o, &lp) ||
              json_object_set_new(o, "sphere", json_integer((json_int_t)sphere));
    if (bad) {
        json_decref(o);
        ar_error_set("scale: out of memory for a record");
        return AR_ENOMEM;
    }
    *rec = o;
    return AR_OK;
}

static ar_status parse_rec(const scale_sweep_t *s, size_t t, const json_t *o, const char *where, law_point_t *lp,
                           size_t *sphere)
{
    ar_status st = law_point_from_json(o, where, lp);
    if (st == AR_OK)
        st = shardrec_size(o, "sphere", (size_t)1 << 53, where, sphere);
    if (st == AR_OK && lp->beta != s->betas[t]) {
        ar_error_set("%s: beta %.17g, the grid's point %zu is %.17g", where, lp->beta, t, s->betas[t]);
        st = AR_EINVAL;
    }
    if (st == AR_OK)
        st = law_point_check(lp, s->d, s->betas[t], s->eps, where);
    return st;
}

static ar_status check_fn(size_t u, void *ctx, const json_t *rec, const char *where)
{
    law_point_t lp;
    size_t sp;
    return parse_rec(((run_ctx_t *)ctx)->s, u, rec, where, &lp, &sp);
}

int scale_sweep_shard(scale_sweep_t *s, const sweep_run_t *r, scale_point_fn fn, void *ctx)
{
    shard_sel_t sel = r->sel;
    ar_status st;
    shardfile_key_t kst;
    const shardfile_key_t *key;
    if ((st = shards_key_load(r->key, r->key_from_env, &kst, &key)))
        return sweep_fail(st);
    size_t *owner = NULL;
    char **ids = NULL;
    if ((st = owners(s, sel.n, &owner, &ids))) {
        free(owner);
        free_ids(ids, s->count);
        return sweep_fail(st);
    }
    json_t *h = shards_header("scale", json_incref(s->params), s->digest, sel, shards_precision());
    run_ctx_t c = { s, fn, ctx, ids };
    shards_notice_t nt = { r->ev.notice, r->ev.ctx, 1 };
    st = h ? shards_run(r->out, h, (const char *const *)ids, owner, s->count, sel, unit_fn, check_fn, &c, &nt, key)
           : AR_ENOMEM;
    json_decref(h);
    free(owner);
    free_ids(ids, s->count);
    return st ? sweep_fail(st) : 0;
}

ar_status scale_sweep_collect(scale_sweep_t *s)
{
    const shardfile_t *f = s->files;
    if (strcmp(f[0].plan, s->digest)) {
        ar_error_set("%s: shard of another point list than this attnrank's (plan %.12s..., here %.12s...)", f[0].what,
                     f[0].plan, s->digest);
        return AR_EINVAL;
    }
    size_t *owner = NULL;
    char **ids = NULL;
    ar_status st = owners(s, f[0].shards, &owner, &ids);
    s->rec = st ? NULL : ar_calloc(s->count, sizeof *s->rec, "records");
    if (st == AR_OK && !s->rec)
        st = AR_ENOMEM;
    if (st == AR_OK)
        st = shardset_collect(f, s->nf, (const char *const *)ids, owner, s->count, s->rec);
    free(owner);
    free_ids(ids, s->count);
    return st;
}

ar_status scale_sweep_record(const scale_sweep_t *s, size_t t, law_point_t *lp, size_t *sphere)
{
    char where[600];
    shardset_where(s->files, s->nf, s->rec[t], where, sizeof where);
    return parse_rec(s, t, s->rec[t], where, lp, sphere);
}

int sweep_merge_scale(const shardfile_t *files, size_t nf, const sweep_run_t *r, scale_result_t *out)
{
    ar_status st;
    if ((st = shards_old_header(files[0].header, files[0].what)))
        return sweep_fail(st);
    const json_t *pa = json_object_get(files[0].header, "params");
    const json_t *cl = json_object_get(pa, "claim"), *sp = json_object_get(pa, "spec");
    if (!json_is_object(pa) || json_object_size(pa) != 2 || !json_is_string(cl) || !json_is_object(sp)) {
        ar_error_set("%s: header: 'params' must be {\"claim\":C,\"spec\":{...}} of attnrank scale", files[0].what);
        return sweep_fail(AR_EINVAL);
    }
    const char *claim = json_string_value(cl);
    if (strcmp(claim, "S") && strcmp(claim, "B")) {
        ar_error_set("%s: header: scale of claim '%s'", files[0].what, claim);
        return sweep_fail(AR_EINVAL);
    }
    const json_t *sc = json_object_get(sp, "claim");
    if (!json_is_string(sc) || strcmp(json_string_value(sc), claim)) {
        ar_error_set("%s: header: 'params.spec.claim' is not the sweep's claim '%s'", files[0].what, claim);
        return sweep_fail(AR_EINVAL);
    }
    char what[600];
    snprintf(what, sizeof what, "%s: header: params.spec", files[0].what);
    scale_spec_t spec;
    if ((st = scale_spec_from_json(sp, what, &spec)))
        return sweep_fail(st);
    return sweep_scale_exec(&spec, r, files, nf, out);
}

char *scale_prov_json(const scale_sweep_t *s)
{
    if (!s->files)
        return strdup(version_json_fields());
    return shards_prov_text(s->files[0].header);
}

void scale_prov_line(const scale_sweep_t *s, char *buf, size_t cap)
{
    if (!s->files) {
        snprintf(buf, cap, "%s", version_line());
        return;
    }
    const json_t *p = json_object_get(s->files[0].header, "provenance");
#define F(k) (json_is_string(json_object_get(p, k)) ? json_string_value(json_object_get(p, k)) : "?")
    snprintf(buf, cap, "attnrank %s (commit %s; MPFR %s, GMP %s, FLINT %s, Arb %s, BLAS core %s)", F("attnrank"),
             F("commit"), F("mpfr"), F("gmp"), F("flint"), F("arb"), F("blas_core"));
#undef F
}
