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

const shardfile_t *scale_merge_files;
size_t scale_merge_nf;

static const char *const skip[] = { "format", "shard", "out", "help", "key" };

/* The options a merge reads from a scale header: those that define the grid
 * and the points (sweep_scale.c, sweep_scale_ball.c), nothing else. */
static const shards_allowed_t allowed_S[] = {
    { "claim", 0 }, { "d", 0 }, { "beta", 0 }, { "eps", 0 }, { "family", 0 }, { "n", 0 }, { "n-max", 0 },
    { "continuum", 1 }, { "no-packing", 1 }, { "seed", 0 }, { "engine", 0 }, { "no-instance", 1 },
};
static const shards_allowed_t allowed_B[] = {
    { "claim", 0 }, { "d", 0 }, { "beta", 0 }, { "eps", 0 }, { "rho0", 0 }, { "unweighted", 1 }, { "upper", 1 },
    { "n", 0 }, { "npoints", 0 }, { "no-sphere", 1 }, { "continuum", 1 }, { "hs", 0 },
};

ar_status scale_sweep_init(scale_sweep_t *s, const char *claim, int d, double eps, const opt_t *o, size_t no,
                           const double *betas, size_t count, double law_exponent)
{
    memset(s, 0, sizeof *s);
    s->claim = claim;
    s->d = d;
    s->eps = eps;
    s->betas = betas;
    s->count = count;
    s->law_exponent = law_exponent;
    s->params = shards_options_json(o, no, skip, sizeof skip / sizeof skip[0]);
    if (!s->params)
        goto oom;
    char *ptxt = shardfile_dump(s->params);
    if (!ptxt)
        goto oom;
    sha256_stream_t h;
    sha256_stream_init(&h);
    char b[96];
    snprintf(b, sizeof b, "attnrank scale plan 1 claim %s\n", claim);
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

int scale_sweep_shard(scale_sweep_t *s, const char *shard, const char *out, const char *keyfile, scale_point_fn fn,
                      void *ctx)
{
    shard_sel_t sel;
    ar_status st;
    const shardfile_key_t *key;
    if ((st = shard_parse("shard", shard, &sel)) || (st = shards_key(keyfile, &key)))
        return sweep_fail(st);
    size_t *owner = NULL;
    char **ids = NULL;
    if ((st = owners(s, sel.n, &owner, &ids))) {
        free(owner);
        free_ids(ids, s->count);
        return sweep_fail(st);
    }
    json_t *params = json_pack("{s:s,s:O}", "claim", s->claim, "options", s->params);
    json_t *h = shards_header("scale", params, s->digest, sel, shards_precision());
    run_ctx_t c = { s, fn, ctx, ids };
    st = h ? shards_run(out, h, (const char *const *)ids, owner, s->count, sel, unit_fn, check_fn, &c, 1, key)
           : AR_ENOMEM;
    json_decref(h);
    free(owner);
    free_ids(ids, s->count);
    return st ? sweep_fail(st) : 0;
}

int scale_sweep_merging(void)
{
    return scale_merge_files != NULL;
}

int scale_sweep_start(const opt_t *o, size_t no, const char *help)
{
    if (scale_sweep_merging() &&
        (args_get(o, no, "shard") || args_get(o, no, "out") || args_get(o, no, "help") || args_get(o, no, "key"))) {
        ar_error_set("scale: a merge cannot run a shard, write a file or print help");   /* shards_options_allowed refuses these first */
        return sweep_fail(AR_EINVAL);
    }
    if (args_get(o, no, "help")) {
        fputs(help, stdout);
        return 0;
    }
    return -1;
}

ar_status scale_sweep_collect(scale_sweep_t *s)
{
    const shardfile_t *f = scale_merge_files;
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
        st = shardset_collect(f, scale_merge_nf, (const char *const *)ids, owner, s->count, s->rec);
    free(owner);
    free_ids(ids, s->count);
    return st;
}

ar_status scale_sweep_record(const scale_sweep_t *s, size_t t, law_point_t *lp, size_t *sphere)
{
    char where[600];
    shardset_where(scale_merge_files, scale_merge_nf, s->rec[t], where, sizeof where);
    return parse_rec(s, t, s->rec[t], where, lp, sphere);
}

/* `attnrank merge` of scale shards: the command itself, run on the shards'
 * options with the points taken from the records. */
int sweep_merge_scale(const shardfile_t *files, size_t nf, const char *format)
{
    const json_t *pa = json_object_get(files[0].header, "params");
    const json_t *cl = json_object_get(pa, "claim"), *op = json_object_get(pa, "options");
    if (!json_is_object(pa) || json_object_size(pa) != 2 || !json_is_string(cl) || !json_is_object(op)) {
        ar_error_set("%s: header: 'params' must be {\"claim\":C,\"options\":{...}} of attnrank scale", files[0].what);
        return sweep_fail(AR_EINVAL);
    }
    const char *claim = json_string_value(cl);
    if (strcmp(claim, "S") && strcmp(claim, "B")) {
        ar_error_set("%s: header: scale of claim '%s'", files[0].what, claim);
        return sweep_fail(AR_EINVAL);
    }
    const json_t *oc = json_object_get(op, "claim");
    if (!json_is_string(oc) || strcmp(json_string_value(oc), claim)) {
        ar_error_set("%s: header: 'params.options.claim' is not the sweep's claim '%s'", files[0].what, claim);
        return sweep_fail(AR_EINVAL);
    }
    ar_status st = !strcmp(claim, "S")
                       ? shards_options_allowed(op, allowed_S, sizeof allowed_S / sizeof allowed_S[0], files[0].what)
                       : shards_options_allowed(op, allowed_B, sizeof allowed_B / sizeof allowed_B[0], files[0].what);
    if (st)
        return sweep_fail(st);
    shards_argv_t a;
    if ((st = shards_options_argv(op, "scale", files[0].what, 2, &a)))
        return sweep_fail(st);
    int rc;
    a.argv[a.argc++] = "--format";
    a.argv[a.argc++] = (char *)(!format || !strcmp(format, "text") ? "md" : format);
    {
        scale_merge_files = files;
        scale_merge_nf = nf;
        rc = sweep_scale(a.argc, a.argv);
        scale_merge_files = NULL;
        scale_merge_nf = 0;
    }
    shards_argv_free(&a);
    return rc;
}

const char *scale_prov_json(void)
{
    static char *buf;
    if (!scale_merge_files)
        return version_json_fields();
    free(buf);
    buf = shards_prov_text(scale_merge_files[0].header);
    return buf ? buf : "";
}

const char *scale_prov_line(void)
{
    static char buf[512];
    if (!scale_merge_files)
        return version_line();
    const json_t *p = json_object_get(scale_merge_files[0].header, "provenance");
#define F(k) (json_is_string(json_object_get(p, k)) ? json_string_value(json_object_get(p, k)) : "?")
    snprintf(buf, sizeof buf, "attnrank %s (commit %s; MPFR %s, GMP %s, FLINT %s, Arb %s, BLAS core %s)", F("attnrank"),
             F("commit"), F("mpfr"), F("gmp"), F("flint"), F("arb"), F("blas_core"));
#undef F
    return buf;
}
