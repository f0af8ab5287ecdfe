/* SPDX-License-Identifier: GPL-3.0-or-later */
/* calib_shard.c -- shards of `attnrank calib` (see calib_shard.h). */
#include "sweeps/calib_shard.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweeps/sweeps.h"
#include "sweeps/shards.h"
#include "constructions/formats/json.h"
#include "base/sha256.h"
#include "numerics/shard.h"
#include "theory/heads/calib_record.h"

/* The point list of the models in params (R allocated, one per model). */
typedef struct {
    size_t nd;
    calib_result_t R[CALIB_SHARD_MAX_MODELS];
    size_t *pos[CALIB_SHARD_MAX_MODELS];   /* tokens per input of each model */
    size_t nunits;
    char **ids;
    size_t *model_of, *set_of;
    double *cost;
    char digest[65];
} calib_plan_t;

static void plan_clear(calib_plan_t *p)
{
    for (size_t m = 0; m < p->nd; m++)
        calib_result_clear(&p->R[m]);   /* nd = 0 once the results were handed over */
    for (size_t m = 0; m < CALIB_SHARD_MAX_MODELS; m++)
        free(p->pos[m]);
    for (size_t u = 0; p->ids && u < p->nunits; u++)
        free(p->ids[u]);
    free(p->ids);
    free(p->model_of);
    free(p->set_of);
    free(p->cost);
    memset(p, 0, sizeof *p);
}

/* params {"options", "models"} of the loaded heads */
static json_t *params_of(const model_heads_t *D, size_t nd, const calib_spec_t *spec)
{
    json_t *models = json_array(), *pa = NULL;
    int bad = !models;
    for (size_t m = 0; !bad && m < nd; m++) {
        char hex[65];
        model_heads_digest(&D[m], hex);
        json_t *pos = json_array(), *lay = json_array();
        bad |= !pos || !lay;
        for (size_t i = 0; !bad && i < D[m].ninputs; i++)
            bad |= json_array_append_new(pos, json_integer((json_int_t)D[m].n[i]));
        for (size_t l = 0; !bad && l < D[m].nlayers; l++) {
            json_t *L = json_object();
            bad |= !L || json_object_set_new(L, "heads", json_integer((json_int_t)D[m].layer[l].nheads)) ||
                   json_object_set_new(L, "dh", json_integer((json_int_t)D[m].layer[l].dh)) ||
                   shardrec_set_real(L, "scale", D[m].layer[l].scale) || json_array_append_new(lay, L);
        }
        json_t *M = bad ? NULL : json_pack("{s:s,s:s,s:o,s:o}", "name", D[m].name, "digest", hex, "positions", pos,
                                           "layers", lay);
        if (!M) {
            json_decref(pos);
            json_decref(lay);
            bad = 1;
        }
        bad |= !M || json_array_append_new(models, M);
    }
    json_t *op = bad ? NULL : calib_spec_json(spec);
    if (op)
        pa = json_pack("{s:o,s:o}", "spec", op, "models", models);
    else
        json_decref(models);
    return pa;
}

/* The id of setting (layer l, head h, scale s) of model `name`. */
static void setting_id(char *id, size_t cap, const char *name, size_t l, size_t h, double s)
{
    snprintf(id, cap, "%s:L%zu:H%zu:s%.17g", name, l, h, s);
}

/* 1 if s is a model name as attnrank writes it: [A-Za-z0-9._-] (the
 * manifest's rule, constructions/formats/heads_manifest.h). */
static int model_name_ok(const char *s)
{
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '.' ||
              *s == '_' || *s == '-'))
            return 0;
    return 1;
}

/* Phase 1 of plan_of: every member of params checked and the plan's size
 * bounded (at most CALIB_SHARD_MAX_SETTINGS settings) without any
 * allocation that scales with the header, and the digest of params and the
 * ids computed (streamed). */
static ar_status plan_digest(const json_t *params, const calib_opts_t *co, const char *what, char digest[65])
{
    const json_t *models = json_object_get(params, "models");
    if (!json_is_array(models) || json_array_size(models) < 1 || json_array_size(models) > CALIB_SHARD_MAX_MODELS) {
        ar_error_set("%s: 'params.models' must be an array of 1..%d models", what, CALIB_SHARD_MAX_MODELS);
        return AR_EINVAL;
    }
    size_t total = 0;
    ar_status st;
    for (size_t m = 0; m < json_array_size(models); m++) {
        const json_t *M = json_array_get(models, m), *pos = json_object_get(M, "positions"),
                     *lay = json_object_get(M, "layers"), *nm = json_object_get(M, "name"),
                     *dg = json_object_get(M, "digest");
        size_t nl = json_array_size(lay), ni = json_array_size(pos);
        if (!json_is_object(M) || json_object_size(M) != 4 || !json_is_string(nm) || json_string_length(nm) < 1 ||
            json_string_length(nm) >= MODEL_HEADS_NAME_LEN || !model_name_ok(json_string_value(nm)) || !json_is_string(dg) || !sha256_is_hex(json_string_value(dg)) ||
            !json_is_array(pos) || ni < 1 || ni > ((size_t)1 << 24) || !json_is_array(lay) || nl < 1 || nl > 4096) {
            ar_error_set("%s: 'params.models[%zu]' must be {\"name\", \"digest\", \"positions\", \"layers\"} (a name "
                         "of letters, digits and \"._-\", 1..%zu inputs, 1..4096 layers)", what, m, (size_t)1 << 24);
            return AR_EINVAL;
        }
        char where[160];
        snprintf(where, sizeof where, "%s: params.models[%zu]", what, m);
        for (size_t i = 0; i < ni; i++) {
            const json_t *x = json_array_get(pos, i);
            double v = json_is_number(x) ? json_number_value(x) : 0;
            if (!(v >= 2 && v <= 1e9 && v == floor(v))) {
                ar_error_set("%s: positions[%zu] must be an integer in [2, 1e9]", where, i);
                return AR_EINVAL;
            }
        }
        for (size_t l = 0; l < nl; l++) {
            const json_t *L = json_array_get(lay, l);
            size_t nh, dh;
            double sc;
            if (!json_is_object(L) || json_object_size(L) != 3) {
                ar_error_set("%s: layers[%zu] must be {\"heads\", \"dh\", \"scale\"}", where, l);
                return AR_EINVAL;
            }
            if ((st = shardrec_size(L, "heads", 4096, where, &nh)) || (st = shardrec_size(L, "dh", 1 << 16, where, &dh)) ||
                (st = shardrec_real(L, "scale", 0, where, &sc)))
                return st;
            total += nh * co->nscales;
            if (total > CALIB_SHARD_MAX_SETTINGS) {
                ar_error_set("%s: more than %d settings (layers x heads x scales): not a calibration this attnrank "
                             "writes", where, CALIB_SHARD_MAX_SETTINGS);
                return AR_EINVAL;
            }
        }
    }
    char *ptxt = shardfile_dump(params);
    if (!ptxt) {
        ar_error_set("calib: out of memory for the point list");
        return AR_ENOMEM;
    }
    sha256_stream_t h;
    sha256_stream_init(&h);
    const char *head = "attnrank calib plan 2\n";
    sha256_stream_update(&h, head, strlen(head));
    sha256_stream_update(&h, ptxt, strlen(ptxt));
    free(ptxt);
    for (size_t m = 0; m < json_array_size(models); m++) {
        const json_t *M = json_array_get(models, m), *lay = json_object_get(M, "layers");
        const char *name = json_string_value(json_object_get(M, "name"));
        for (size_t l = 0; l < json_array_size(lay); l++) {
            size_t nh = (size_t)json_number_value(json_object_get(json_array_get(lay, l), "heads"));
            for (size_t hd = 0; hd < nh; hd++)
                for (size_t c = 0; c < co->nscales; c++) {
                    char id[160];
                    setting_id(id, sizeof id, name, l, hd, co->scales[c]);
                    sha256_stream_update(&h, "\n", 1);
                    sha256_stream_update(&h, id, strlen(id));
                }
        }
    }
    sha256_stream_hex(&h, digest);
    return AR_OK;
}

/* The plan of params (as written or as read back: every number may be a
 * double), for options co; `what` names the header in messages.  With
 * expect (a merge: the header's plan digest), the digest is compared before
 * anything that scales with the header is allocated. */
static ar_status plan_of(const json_t *params, const calib_opts_t *co, const char *what, const char *expect,
                         calib_plan_t *p)
{
    memset(p, 0, sizeof *p);
    ar_status st = plan_digest(params, co, what, p->digest);
    if (st)
        return st;
    if (expect && strcmp(expect, p->digest)) {
        ar_error_set("%s: shard of another point list than its parameters give (plan %.12s..., here %.12s...)", what,
                     expect, p->digest);
        return AR_EINVAL;
    }
    const json_t *models = json_object_get(params, "models");
    for (size_t m = 0; !st && m < json_array_size(models); m++) {
        const json_t *M = json_array_get(models, m), *pos = json_object_get(M, "positions"),
                     *lay = json_object_get(M, "layers"), *nm = json_object_get(M, "name");
        size_t nl = json_array_size(lay), ni = json_array_size(pos);
        size_t *nh = calloc(nl, sizeof *nh), *dh = calloc(nl, sizeof *dh);
        double *sc = calloc(nl, sizeof *sc);
        st = nh && dh && sc ? AR_OK : AR_ENOMEM;
        char where[160];
        snprintf(where, sizeof where, "%s: params.models[%zu]", what, m);
        for (size_t l = 0; !st && l < nl; l++) {
            const json_t *L = json_array_get(lay, l);
            if ((st = shardrec_size(L, "heads", 4096, where, &nh[l])) || (st = shardrec_size(L, "dh", 1 << 16, where, &dh[l])) ||
                (st = shardrec_real(L, "scale", 0, where, &sc[l])))
                break;
        }
        if (!st)
            st = calib_alloc(&p->R[m], co, json_string_value(nm), nl, nh, dh, sc, ni);
        free(nh);
        free(dh);
        free(sc);
        if (st)
            break;
        p->nd = m + 1;
        p->pos[m] = calloc(ni, sizeof *p->pos[m]);
        st = p->pos[m] ? shardrec_sizes(M, "positions", ni, 1000000000, 0, where, p->pos[m]) : AR_ENOMEM;
        p->nunits += p->R[m].nset;
    }
    if (st) {
        plan_clear(p);
        return st;
    }
    char digest[65];
    memcpy(digest, p->digest, sizeof digest);
    p->ids = calloc(p->nunits, sizeof *p->ids);
    p->model_of = calloc(p->nunits, sizeof *p->model_of);
    p->set_of = calloc(p->nunits, sizeof *p->set_of);
    p->cost = calloc(p->nunits, sizeof *p->cost);
    if (!p->ids || !p->model_of || !p->set_of || !p->cost) {
        plan_clear(p);
        ar_error_set("calib: out of memory for the point list");
        return AR_ENOMEM;
    }
    size_t u = 0;
    for (size_t m = 0; m < p->nd; m++) {
        for (size_t i = 0; i < p->R[m].nset; i++, u++) {
            const calib_setting_t *S = &p->R[m].set[i];
            char id[160];
            setting_id(id, sizeof id, p->R[m].model, S->layer, S->head, S->scale);
            p->ids[u] = strdup(id);
            if (!p->ids[u]) {
                plan_clear(p);
                ar_error_set("calib: out of memory for the point list");
                return AR_ENOMEM;
            }
            p->model_of[u] = m;
            p->set_of[u] = i;
            p->cost[u] = calib_setting_cost(p->pos[m], p->R[m].nsent, S->dh);
        }
    }
    memcpy(p->digest, digest, sizeof digest);
    return AR_OK;
}

typedef struct {
    const model_heads_t *D;
    const calib_opts_t *co;
    calib_plan_t *p;
} run_ctx_t;

static ar_status unit_fn(size_t u, void *vctx, json_t **rec)
{
    run_ctx_t *c = vctx;
    size_t m = c->p->model_of[u];
    calib_setting_t *S = &c->p->R[m].set[c->p->set_of[u]];
    ar_status st = calib_setting_run(&c->D[m], c->co, S);
    if (st)
        return st;
    json_t *o = json_object();
    if (!o || json_object_set_new(o, "point", json_string(c->p->ids[u])) ||
        json_object_set_new(o, "model", json_integer((json_int_t)m)) || calib_record_put(o, S, c->co->ntau)) {
        json_decref(o);
        ar_error_set("calib: out of memory for a record");
        return AR_ENOMEM;
    }
    *rec = o;
    return AR_OK;
}

static ar_status get_rec(calib_plan_t *p, const calib_opts_t *co, size_t u, const json_t *rec, const char *where)
{
    size_t m;
    ar_status st = shardrec_size(rec, "model", CALIB_SHARD_MAX_MODELS, where, &m);
    if (!st && m != p->model_of[u]) {
        ar_error_set("%s: point '%s' is of model %zu, its record says %zu", where, p->ids[u], p->model_of[u], m);
        st = AR_EINVAL;
    }
    if (!st)
        st = calib_record_get(rec, where, co, p->pos[m], &p->R[m].set[p->set_of[u]]);
    return st;
}

static ar_status check_fn(size_t u, void *vctx, const json_t *rec, const char *where)
{
    run_ctx_t *c = vctx;
    return get_rec(c->p, c->co, u, rec, where);
}

int calib_shard_run(const model_heads_t *D, size_t nd, const calib_opts_t *co, const calib_spec_t *spec,
                    shard_sel_t sel, const char *out, const shardfile_key_t *key, const shards_notice_t *nt)
{
    ar_status st;
    json_t *params = params_of(D, nd, spec);
    if (!params) {
        ar_error_set("calib: out of memory for the shard header");
        return sweep_fail(AR_ENOMEM);
    }
    /* the plan from the params as the reader will see them */
    char *ptxt = shardfile_dump(params);
    json_t *pr = NULL;
    calib_plan_t p;
    memset(&p, 0, sizeof p);
    st = ptxt ? json_read_buffer(ptxt, strlen(ptxt), "shard header", &pr) : AR_ENOMEM;
    free(ptxt);
    if (!st)
        st = plan_of(pr, co, "calib", NULL, &p);
    json_decref(pr);
    size_t *owner = st ? NULL : calloc(p.nunits, sizeof *owner);
    if (!st && !owner)
        st = AR_ENOMEM;
    if (!st)
        st = shard_assign(p.cost, p.nunits, sel.n, owner);
    json_t *h = st ? NULL : shards_header("calib", params, p.digest, sel, shards_precision());
    if (st)
        json_decref(params);
    else if (!h)
        st = AR_ENOMEM;
    if (!st) {
        run_ctx_t c = { D, co, &p };
        st = shards_run(out, h, (const char *const *)p.ids, owner, p.nunits, sel, unit_fn, check_fn, &c, nt, key);
    }
    json_decref(h);
    free(owner);
    if (p.ids)
        plan_clear(&p);
    return st ? sweep_fail(st) : 0;
}

ar_status calib_shard_collect(const calib_opts_t *co, const shardfile_t *f, size_t nf, calib_result_t *R, size_t *nd)
{
    *nd = 0;
    const json_t *params = json_object_get(f[0].header, "params");
    calib_plan_t p;
    ar_status st = plan_of(params, co, f[0].what, f[0].plan, &p);
    if (st)
        return st;
    size_t *owner = calloc(p.nunits, sizeof *owner);
    const json_t **rec = calloc(p.nunits, sizeof *rec);
    st = owner && rec ? shard_assign(p.cost, p.nunits, f[0].shards, owner) : AR_ENOMEM;
    if (!st)
        st = shardset_collect(f, nf, (const char *const *)p.ids, owner, p.nunits, rec);
    for (size_t u = 0; !st && u < p.nunits; u++) {
        char where[600];
        shardset_where(f, nf, rec[u], where, sizeof where);
        st = get_rec(&p, co, u, rec[u], where);
    }
    for (size_t m = 0; !st && m < p.nd; m++) {
        st = calib_finish(&p.R[m]);
        p.R[m].seconds = 0;
        for (size_t i = 0; i < p.R[m].nset; i++)
            p.R[m].seconds += p.R[m].set[i].seconds;
    }
    free(owner);
    free(rec);
    if (!st) {   /* hand the results over */
        for (size_t m = 0; m < p.nd; m++)
            R[m] = p.R[m];
        *nd = p.nd;
        p.nd = 0;
    }
    plan_clear(&p);
    return st;
}

int sweep_merge_calib(const shardfile_t *files, size_t nf, const sweep_run_t *r, calib_results_t *out)
{
    ar_status st;
    if ((st = shards_old_header(files[0].header, files[0].what)))
        return sweep_fail(st);
    const json_t *pa = json_object_get(files[0].header, "params");
    const json_t *sp = json_object_get(pa, "spec");
    if (!json_is_object(pa) || json_object_size(pa) != 2 || !json_is_object(sp) ||
        !json_is_array(json_object_get(pa, "models"))) {
        ar_error_set("%s: header: 'params' must be {\"spec\":{...},\"models\":[...]} of attnrank calib",
                     files[0].what);
        return sweep_fail(AR_EINVAL);
    }
    char what[600];
    snprintf(what, sizeof what, "%s: header: params.spec", files[0].what);
    calib_spec_t spec;
    if ((st = calib_spec_from_json(sp, what, &spec)))
        return sweep_fail(st);
    return sweep_calib_exec(&spec, r, files, nf, out);
}
