/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweep_scale_ball.c -- `attnrank scale --claim B`: a beta sweep of claim B
 * (ball instances with Gaussian multiplicities), one claim_b_point per beta,
 * with the sphere packing at the same beta as a contrast column and the
 * fitted exponents.  Called from sweep_scale when --claim B is given. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweeps/sweeps.h"
#include "numerics/textout.h"
#include "sweeps/scale_shard.h"
#include "numerics/version.h"
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

int sweep_scale_ball_exec(const scale_spec_t *spec, const sweep_run_t *r, const shardfile_t *files, size_t nf)
{
    ar_status st;
    if ((st = scale_spec_validate(spec)))
        return sweep_fail(st);
    size_t d = spec->d, count = spec->beta_count;
    double lo = spec->beta_lo, hi = spec->beta_hi, eps = spec->eps;
    int fmt = r->format == SWEEP_FORMAT_TSV ? 1 : r->format == SWEEP_FORMAT_JSON ? 2 : 0;   /* 0 md, 1 tsv, 2 json */
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
    if (fmt == 1)
        printf("# attnrank scale --claim B --d %zu --eps %g --rho0 %g%s; %s\n"
               "beta\tlower\tupper\tsphere\tlaw\tlog10_n\tlower_certificate\tupper_certificate\tn\tseconds"
               "\tcontinuum\tcontinuum_certificate\n",
               d, eps, co.rho0, co.unweighted ? " --unweighted" : "", prov_line);
    else if (fmt == 0)
        printf("claim B, d = %zu, eps = %g, rho0 = %g%s (law beta^%g)\n\n"
               "| beta | lower | upper | continuum | sphere | beta^(d/2) | log10 n | n >= e^(beta/8) | lower cert | upper cert |\n"
               "|---|---|---|---|---|---|---|---|---|---|\n",
               d, eps, co.rho0, co.unweighted ? ", unweighted" : "", ex);
    for (size_t t = 0; t < count; t++) {
        const law_point_t *p = &pts[t];
        double law = pow(p->beta, ex);
        int cond = p->log10_n >= p->beta / 8.0 / log(10.0);
        char ub[32] = "-";
        if (p->upper)
            snprintf(ub, sizeof ub, "%zu%s", p->upper, p->upper_capped ? " (= n)" : "");
        const char *um = p->upper_method[0] ? p->upper_method : "-";
        const char *cm = p->continuum_method[0] ? p->continuum_method : "-";
        if (fmt == 1) {   /* the strings may come from shard files: out_text, out_json_string */
            printf("%.6g\t%zu\t%zu\t%zu\t%.6g\t%.3f\t", p->beta, p->lower, p->upper, sph[t], law, p->log10_n);
            out_text(stdout, p->lower_method, 0);
            fputc('\t', stdout);
            out_text(stdout, um, 0);
            printf("\t%zu\t%.3f\t%zu\t", p->n, p->seconds, p->continuum);
            out_text(stdout, cm, 0);
            fputc('\n', stdout);
        } else if (fmt == 0) {
            char cb[32] = "-";
            if (p->continuum)
                snprintf(cb, sizeof cb, "%zu", p->continuum);
            printf("| %g | %zu | %s | %s | %zu | %.4g | %.1f | %s | ", p->beta, p->lower, ub, cb, sph[t], law,
                   p->log10_n, cond ? "yes" : "no");
            out_text(stdout, p->lower_method, 1);
            printf(" | ");
            out_text(stdout, um, 1);
            printf(" |\n");
        } else {
            printf("{\"claim\":\"B\",\"d\":%zu,\"beta\":%s,\"eps\":%s,\"rho0\":%s,\"weighted\":%s,"
                   "\"lower\":%zu,\"lower_points\":%zu,\"lower_certificate\":", d, real_str(p->beta), real_str(eps), real_str(co.rho0),
                   co.unweighted ? "false" : "true", p->lower, p->lower_points);
            out_json_string(stdout, p->lower_method);
            printf(",\"upper\":");
            out_json_count(stdout, p->upper);
            printf(",\"upper_capped\":%s,\"upper_certificate\":", p->upper_capped ? "true" : "false");
            out_json_string(stdout, p->upper_method);
            printf(",\"n\":");
            out_json_count(stdout, p->n);
            printf(",\"log10_n\":%.6f,\"n_condition_holds\":%s,\"sphere_lower\":", p->log10_n,
                   cond ? "true" : "false");
            out_json_count(stdout, sph[t]);
            printf(",\"law\":%s,\"status\":\"%s\",\"seconds\":%.3f,\"continuum\":", real_str(law), p->status,
                   p->seconds);
            out_json_count(stdout, p->continuum);
            printf(",\"continuum_certificate\":");
            out_json_string(stdout, p->continuum_method);
            printf(",\"note\":");
            out_json_string(stdout, p->note);
            printf("}\n");
        }
    }
    if (fmt == 0 && have_fit) {
        printf("\nfitted exponents (log-log least squares): lower %.3f", fl.slope);
        if (co.upper)
            printf(", upper %.3f", fu.slope);
        if (co.continuum)
            printf(", continuum %.3f", fc.slope);
        if (sphere)
            printf(", sphere packing %.3f (ball/sphere: %.3f)", fsph.slope, fl.slope - fsph.slope);
        printf("; law %g\n", ex);
    } else if (fmt == 1 && have_fit) {
        printf("# fit lower %.4f upper %.4f sphere %.4f continuum %.4f law %g\n", fl.slope, fu.slope, fsph.slope,
               fc.slope, ex);
    }
done:
    scale_sweep_clear(&sw);
    free(betas);
    free(pts); free(sph); free(xs); free(yl); free(yu); free(ys); free(yc);
    return rc;
}
