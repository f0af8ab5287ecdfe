/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweep_scale_ball.c -- `attnrank scale --claim B`: a beta sweep of claim B
 * (ball instances with Gaussian multiplicities), one claim_b_point per beta,
 * with the sphere packing at the same beta as a contrast column and the
 * fitted exponents (printed by the caller: cli/scale_print.c).  Called from
 * sweep_scale_exec for claim B. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweeps/sweeps.h"
#include "sweeps/scale_shard.h"
#include "base/version.h"
#include "theory/certificates/cert_packing.h"
#include "theory/claims/claim_b.h"
#include "theory/claims/fit.h"

typedef struct {
    size_t d;
    double eps;
    const claim_b_opts_t *co;
    int sphere;
    const double *betas;
} b_ctx_t;

/* Point t: claim_b_point and the sphere packing at the same beta (contrast). */
static ar_status b_point(void *ctx, size_t t, law_point_t *lp, size_t *sph)
{
    const b_ctx_t *c = ctx;
    ar_status st = claim_b_point(c->d, c->betas[t], c->eps, c->co, lp);
    *sph = 0;
    if (st == AR_OK && c->sphere) {
        pack_cert_t pk;
        if ((st = pack_lower_search(c->d, c->betas[t], c->eps, 1, 200000, &pk)))
            return st;
        *sph = pk.certified ? pk.certified : 1;
    }
    return st;
}

int sweep_scale_ball_exec(const scale_spec_t *spec, const sweep_run_t *r, const shardfile_t *files, size_t nf,
                          scale_result_t *out)
{
    ar_status st;
    if ((st = scale_spec_validate(spec)))
        return sweep_fail(st);
    size_t d = spec->d, count = spec->beta_count;
    double lo = spec->beta_lo, hi = spec->beta_hi, eps = spec->eps;
    claim_b_opts_t co;
    claim_b_opts_default(&co);
    co.rho0 = spec->rho0;
    co.unweighted = spec->unweighted;
    co.upper = spec->upper;
    co.npoints = spec->npoints;
    if (spec->continuum) {
        co.continuum = 1;
        co.lower_route = 1;
    }
    if (spec->hs != 0)
        co.hs = spec->hs;
    int sphere = spec->sphere;
    law_point_t *pts = calloc(count, sizeof *pts);
    size_t *sph = calloc(count, sizeof *sph);
    double *xs = calloc(count, sizeof *xs), *yl = calloc(count, sizeof *yl), *yu = calloc(count, sizeof *yu),
           *ys = calloc(count, sizeof *ys), *yc = calloc(count, sizeof *yc);
    if (!pts || !sph || !xs || !yl || !yu || !ys || !yc) {
        free(pts); free(sph); free(xs); free(yl); free(yu); free(ys); free(yc);
        ar_error_set("scale: out of memory");
        return sweep_fail(AR_ENOMEM);
    }
    int rc = 0;
    scale_sweep_t sw;
    int merging = files != NULL;
    char prov_line[512] = "";
    memset(&sw, 0, sizeof sw);
    double *betas = calloc(count, sizeof *betas);
    if (!betas) {
        ar_error_set("scale: out of memory");
        rc = sweep_fail(AR_ENOMEM);
        goto done;
    }
    for (size_t t = 0; t < count; t++)
        betas[t] = count == 1 ? lo : lo * pow(hi / lo, (double)t / (double)(count - 1));
    b_ctx_t bc = { d, eps, &co, sphere, betas };
    if ((st = scale_sweep_init(&sw, spec, betas, count, 0.5 * (double)d, files, nf))) {
        rc = sweep_fail(st);
        goto done;
    }
    if (r->shard && !files) {
        rc = scale_sweep_shard(&sw, r, b_point, &bc);
        goto done;
    }
    if (merging && (st = scale_sweep_collect(&sw))) {
        rc = sweep_fail(st);
        goto done;
    }
    for (size_t t = 0; t < count; t++) {
        double beta = betas[t];
        if ((st = merging ? scale_sweep_record(&sw, t, &pts[t], &sph[t]) : b_point(&bc, t, &pts[t], &sph[t]))) {
            rc = sweep_fail(st);
            goto done;
        }
        xs[t] = beta;
        yl[t] = (double)pts[t].lower;
        yu[t] = (double)pts[t].upper;
        ys[t] = (double)sph[t];
        yc[t] = (double)pts[t].continuum;
    }
    scale_prov_line(&sw, prov_line, sizeof prov_line);
    fit_t fl, fu, fsph, fc;
    memset(&fc, 0, sizeof fc);
    memset(&fl, 0, sizeof fl);
    memset(&fu, 0, sizeof fu);
    memset(&fsph, 0, sizeof fsph);
    int have_fit = count >= 2;
    if (have_fit) {
        fit_loglog(xs, yl, count, &fl);
        if (co.upper)
            fit_loglog(xs, yu, count, &fu);
        if (sphere)
            fit_loglog(xs, ys, count, &fsph);
        if (co.continuum)
            fit_loglog(xs, yc, count, &fc);
    }
    double ex = 0.5 * (double)d;
    double *law = calloc(count, sizeof *law);
    if (!law) {
        ar_error_set("scale: out of memory");
        rc = sweep_fail(AR_ENOMEM);
        goto done;
    }
    for (size_t t = 0; t < count; t++)
        law[t] = pow(pts[t].beta, ex);
    out->spec = *spec;
    out->count = count;
    out->pts = pts;
    out->sphere = sph;
    out->law = law;
    out->law_exponent = ex;
    out->fit_lower = fl;
    out->fit_upper = fu;
    out->fit_sphere = fsph;
    out->fit_continuum = fc;
    out->has_fit = have_fit;
    out->prov_json = NULL;
    snprintf(out->prov_line, sizeof out->prov_line, "%s", prov_line);
    pts = NULL;
    sph = NULL;
done:
    scale_sweep_clear(&sw);
    free(betas);
    free(pts); free(sph); free(xs); free(yl); free(yu); free(ys); free(yc);
    return rc;
}
