/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweep_scale.c -- `attnrank scale`: a sweep over beta for one claim and
 * dimension, its points and the fitted exponents of each column (printed
 * by the caller: cli/scale_print.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweeps/sweeps.h"
#include "sweeps/scale_shard.h"
#include "base/version.h"
#include "theory/claims/claim_s.h"
#include "theory/claims/fit.h"

#define SCALE_MAX SWEEP_SCALE_MAX_COUNT

typedef struct {
    int d;
    double eps;
    const claim_s_opts_t *co;
    const double *betas;
} s_ctx_t;

static ar_status s_point(void *ctx, size_t t, law_point_t *lp, size_t *sphere)
{
    const s_ctx_t *c = ctx;
    *sphere = 0;
    return claim_s_point(c->d, c->betas[t], c->eps, c->co, lp);
}

int sweep_scale_exec(const scale_spec_t *spec, const sweep_run_t *r, const shardfile_t *files, size_t nf,
                     scale_result_t *out)
{
    ar_status st;
    memset(out, 0, sizeof *out);
    if (spec->claim == SCALE_CLAIM_B)           /* claim B: ball sweeps */
        return sweep_scale_ball_exec(spec, r, files, nf, out);
    if ((st = scale_spec_validate(spec)))
        return sweep_fail(st);
    size_t d = spec->d, count = spec->beta_count;
    double lo = spec->beta_lo, hi = spec->beta_hi, eps = spec->eps;
    claim_s_opts_t co;
    claim_s_opts_default(&co);
    co.family = scale_family_name(spec->family);
    if (spec->n)
        co.n = spec->n;
    if (spec->n_max)
        co.n_max = spec->n_max;
    co.seed = spec->seed;
    co.continuum = spec->continuum;
    co.instance = spec->instance;
    co.engine = spec->engine == SCALE_ENGINE_DENSE ? CLAIM_S_DENSE : CLAIM_S_SCALE;
    co.packing = spec->packing;

    claim_s_point_t *pts = calloc(count, sizeof *pts);
    double *betas = calloc(count, sizeof *betas);
    if (!pts || !betas) {
        free(pts);
        free(betas);
        ar_error_set("scale: out of memory");
        return sweep_fail(AR_ENOMEM);
    }
    for (size_t t = 0; t < count; t++)
        betas[t] = count == 1 ? lo : lo * pow(hi / lo, (double)t / (double)(count - 1));
    s_ctx_t sc = { (int)d, eps, &co, betas };
    scale_sweep_t sw;
    if ((st = scale_sweep_init(&sw, spec, betas, count, 0.5 * (double)(d - 1), files, nf))) {
        free(pts);
        free(betas);
        return sweep_fail(st);
    }
    if (r->shard && !files) {
        int rc = scale_sweep_shard(&sw, r, s_point, &sc);
        scale_sweep_clear(&sw);
        free(pts);
        free(betas);
        return rc;
    }
    int merging = files != NULL;
    st = merging ? scale_sweep_collect(&sw) : AR_OK;
    int tty = r->progress && !merging && r->ev.point;
    for (size_t t = 0; st == AR_OK && t < count; t++) {
        size_t sph;
        if (tty)
            r->ev.point(r->ev.ctx, t, count, betas[t]);
        st = merging ? scale_sweep_record(&sw, t, &pts[t], &sph) : s_point(&sc, t, &pts[t], &sph);
    }
    if (tty)
        r->ev.point(r->ev.ctx, count, count, 0);
    char prov_line[512];
    char *prov_json = NULL;
    if (st == AR_OK && !(prov_json = scale_prov_json(&sw)))
        st = AR_ENOMEM;
    scale_prov_line(&sw, prov_line, sizeof prov_line);
    scale_sweep_clear(&sw);
    free(betas);
    if (st) {
        free(prov_json);
        free(pts);
        return sweep_fail(st);
    }

    /* fits of each column against 1+beta */
    double x[SCALE_MAX], yl[SCALE_MAX], yu[SCALE_MAX], yc[SCALE_MAX];
    size_t nu = 0, nc = 0;
    for (size_t t = 0; t < count; t++) {
        x[t] = 1 + pts[t].beta;
        yl[t] = (double)pts[t].lower;
        if (pts[t].upper)
            yu[nu++] = (double)pts[t].upper;
        if (pts[t].continuum)
            yc[nc++] = (double)pts[t].continuum;
    }
    fit_t fl = { 0 }, fu = { 0 }, fc = { 0 };
    int hl = count >= 2 && fit_loglog(x, yl, count, &fl) == AR_OK;
    int hu = nu == count && count >= 2 && fit_loglog(x, yu, count, &fu) == AR_OK;
    int hc = nc == count && count >= 2 && fit_loglog(x, yc, count, &fc) == AR_OK;
    double pred = 0.5 * (double)(d - 1);
    double *law = calloc(count, sizeof *law);
    if (!law) {
        free(prov_json);
        free(pts);
        ar_error_set("scale: out of memory");
        return sweep_fail(AR_ENOMEM);
    }
    for (size_t t = 0; t < count; t++)
        law[t] = claim_s_law((int)d, pts[t].beta);

    out->spec = *spec;
    out->count = count;
    out->pts = pts;
    out->law = law;
    out->sphere = NULL;
    out->law_exponent = pred;
    out->fit_lower = fl;
    out->fit_upper = fu;
    out->fit_continuum = fc;
    out->has_lower = hl;
    out->has_upper = hu;
    out->has_continuum = hc;
    out->has_fit = count >= 2;
    out->prov_json = prov_json;
    snprintf(out->prov_line, sizeof out->prov_line, "%s", prov_line);
    return 0;
}

int sweep_scale_run(const scale_spec_t *spec, const sweep_run_t *r, scale_result_t *out)
{
    return sweep_scale_exec(spec, r, NULL, 0, out);
}

void scale_result_clear(scale_result_t *r)
{
    free(r->pts);
    free(r->sphere);
    free(r->law);
    free(r->prov_json);
    memset(r, 0, sizeof *r);
}
