/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweep_scale.c -- `attnrank scale`: a sweep over beta for one claim and
 * dimension, as a table (markdown, TSV or JSON lines), with the fitted
 * exponents of each column. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweeps/sweeps.h"
#include "numerics/textout.h"
#include "sweeps/scale_shard.h"
#include "numerics/version.h"
#include "theory/claims/claim_s.h"
#include "theory/claims/fit.h"

#define SCALE_MAX SWEEP_SCALE_MAX_COUNT

typedef enum { SF_MD, SF_TSV, SF_JSON } scale_fmt_t;

static void progress_bar(size_t done, size_t total, double beta)
{
    int w = 30, f = (int)(w * done / (total ? total : 1));
    fprintf(stderr, "\r\033[K[");
    for (int i = 0; i < w; i++)
        fputc(i < f ? '#' : '.', stderr);
    fprintf(stderr, "] %zu/%zu  beta=%g", done, total, beta);
    fflush(stderr);
}

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

int sweep_scale_exec(const scale_spec_t *spec, const sweep_run_t *r, const shardfile_t *files, size_t nf)
{
    ar_status st;
    if (spec->claim == SCALE_CLAIM_B)           /* claim B: ball sweeps */
        return sweep_scale_ball_exec(spec, r, files, nf);
    if ((st = scale_spec_validate(spec)))
        return sweep_fail(st);
    size_t d = spec->d, count = spec->beta_count;
    double lo = spec->beta_lo, hi = spec->beta_hi, eps = spec->eps;
    scale_fmt_t fmt = r->format == SWEEP_FORMAT_TSV ? SF_TSV : r->format == SWEEP_FORMAT_JSON ? SF_JSON : SF_MD;
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
    int tty = r->progress && !merging;
    for (size_t t = 0; st == AR_OK && t < count; t++) {
        size_t sph;
        if (tty)
            progress_bar(t, count, betas[t]);
        st = merging ? scale_sweep_record(&sw, t, &pts[t], &sph) : s_point(&sc, t, &pts[t], &sph);
    }
    if (tty)
        fprintf(stderr, "\r\033[K");
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

    if (fmt == SF_MD) {
        printf("| d | beta | n | lower | lower points | lower certificate | upper | upper certificate | continuum | law (1+beta)^%.3g | lower/law | upper/law | seconds |\n", pred);
        printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    } else if (fmt == SF_TSV) {
        printf("# attnrank scale --claim S --d %zu --eps %g; %s\n", d, eps, prov_line);
        printf("d\tbeta\tn\tlower\tlower_points\tlower_certificate\tupper\tupper_err\tupper_certificate\tcontinuum\tcontinuum_certificate\tlaw\tlower_over_law\tupper_over_law\tstatus\tseconds\n");
    }
    for (size_t t = 0; t < count; t++) {
        const claim_s_point_t *p = &pts[t];
        double law = claim_s_law((int)d, p->beta);
        const char *um = p->upper_method[0] ? p->upper_method : "-";
        const char *cm = p->continuum_method[0] ? p->continuum_method : "-";
        if (fmt == SF_MD) {   /* the strings may come from shard files: out_text */
            printf("| %zu | %g | %zu | %zu | %zu | ", d, p->beta, p->n, p->lower, p->lower_points);
            out_text(stdout, p->lower_method, 1);
            printf(" | %zu | ", p->upper);
            out_text(stdout, um, 1);
            printf(" | %zu | %.4g | %.3f | %.3f | %.2f |\n", p->continuum, law, p->lower / law, p->upper / law,
                   p->seconds);
        } else if (fmt == SF_TSV) {
            printf("%zu\t%s\t%zu\t%zu\t%zu\t", d, real_str(p->beta), p->n, p->lower, p->lower_points);
            out_text(stdout, p->lower_method, 0);
            printf("\t%zu\t%.6g\t", p->upper, p->upper_err);
            out_text(stdout, um, 0);
            printf("\t%zu\t", p->continuum);
            out_text(stdout, cm, 0);
            printf("\t%.6g\t%.6g\t%.6g\t%s\t%.3f\n", law, p->lower / law, p->upper / law, p->status, p->seconds);
        } else {
            printf("{\"claim\":\"S\",\"d\":%zu,\"beta\":%s,\"eps\":%s,\"n\":%zu,\"lower\":%zu,\"lower_points\":%zu,"
                   "\"lower_certificate\":", d, real_str(p->beta), real_str(eps), p->n, p->lower, p->lower_points);
            out_json_string(stdout, p->lower_method);
            printf(",\"upper\":");
            out_json_count(stdout, p->upper);
            printf(",\"upper_err\":");
            out_json_number(stdout, p->upper_err);
            printf(",\"upper_certificate\":");
            out_json_string(stdout, p->upper_method);
            printf(",\"continuum\":");
            out_json_count(stdout, p->continuum);
            printf(",\"continuum_certificate\":");
            out_json_string(stdout, p->continuum_method);
            printf(",\"law\":%s,\"status\":\"%s\",\"seconds\":%.3f,%s}\n", real_str(law), p->status, p->seconds,
                   prov_json);
        }
    }
    if (fmt == SF_JSON) {
        printf("{\"fit\":{\"variable\":\"1+beta\",\"predicted\":%.6g", pred);
        if (hl) printf(",\"lower\":%.4f,\"lower_se\":%.4f", fl.slope, fl.slope_se);
        if (hu) printf(",\"upper\":%.4f,\"upper_se\":%.4f", fu.slope, fu.slope_se);
        if (hc) printf(",\"continuum\":%.4f,\"continuum_se\":%.4f", fc.slope, fc.slope_se);
        printf("}}\n");
    } else {
        const char *pre = fmt == SF_TSV ? "# " : "\n";
        printf("%sfitted exponent of (1+beta), predicted %.3g:", pre, pred);
        if (hl) printf(" lower %.3f +- %.3f;", fl.slope, fl.slope_se);
        if (hu) printf(" upper %.3f +- %.3f;", fu.slope, fu.slope_se);
        if (hc) printf(" continuum %.3f +- %.3f;", fc.slope, fc.slope_se);
        printf("\n");
    }
    free(prov_json);
    free(pts);
    return 0;
}

int sweep_scale_run(const scale_spec_t *spec, const sweep_run_t *r)
{
    return sweep_scale_exec(spec, r, NULL, 0);
}
