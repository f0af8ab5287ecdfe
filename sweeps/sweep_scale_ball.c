/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweep_scale_ball.c -- `attnrank scale --claim B`: a beta sweep of claim B
 * (ball instances with Gaussian multiplicities), one claim_b_point per beta,
 * with the sphere packing at the same beta as a contrast column and the
 * fitted exponents.  Called from sweep_scale when --claim B is given. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "numerics/args.h"
#include "sweeps/sweeps.h"
#include "numerics/textout.h"
#include "sweeps/scale_shard.h"
#include "numerics/version.h"
#include "theory/certificates/cert_packing.h"
#include "theory/claims/claim_b.h"
#include "theory/claims/fit.h"

#define SCALE_B_MAX 64

static const char help[] =
    "Usage: attnrank scale --claim B --d D --beta LO:HI:COUNT --eps E [--rho0 R] [--unweighted]\n"
    "                      [--upper] [--n N] [--continuum] [--hs H] [--no-sphere]\n"
    "                      [--format md|tsv|json] [--shard K/N --out FILE]\n"
    "Per beta (COUNT geometric values, <= 64): the certified lower end on radial shells\n"
    "with Gaussian multiplicities (rho0 default sqrt(3)/2; 0 = full ball), its exact\n"
    "total point count log10 n and the condition n >= e^{beta/8}; with --upper the\n"
    "certified upper end of a dense weighted lattice of about N distinct points\n"
    "(default 2000); with --continuum (d = 2, 3, 4) the certified rank of the shells\n"
    "continuum of the same ball (radial spacing H kernel widths, 0 < H <= 0.5, default\n"
    "0.5: a coarser object no longer measures the ball; the uniform measure on each\n"
    "sphere; its certificate names the spacing) and the lower end also from the route chooser\n"
    "on the default shells instance; the certified sphere cap packing at the same\n"
    "beta (contrast, unless --no-sphere); the law beta^{d/2}; and the fitted exponents.\n"
    "--shard K/N --out FILE [--key KEYFILE]: compute only shard K of N of the grid's\n"
    "points into the shard file FILE (resumable; 'attnrank merge FILES...' prints the\n"
    "table; --key or ATTNRANK_SHARD_KEY adds an HMAC, see 'attnrank verify --help').\n";

/* 1 if argv asks for --claim B. */
int sweep_scale_is_ball(int argc, char **argv)
{
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--claim=B") == 0)
            return 1;
        if (strcmp(argv[i], "--claim") == 0 && i + 1 < argc && strcmp(argv[i + 1], "B") == 0)
            return 1;
    }
    return 0;
}

/* The claim-B grid: args_beta_grid with LO > 0 (beta = 0 has no ball law). */
static ar_status grid_b(const char *s, double *lo, double *hi, size_t *count)
{
    ar_status st = args_beta_grid(s, SCALE_B_MAX, lo, hi, count);
    if (st == AR_OK && !(*lo > 0)) {
        ar_error_set("--beta: need 0 < LO <= HI");
        return AR_EINVAL;
    }
    return st;
}

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

int sweep_scale_ball(int argc, char **argv)
{
    opt_t o[] = { { "claim", 1, NULL }, { "d", 1, NULL }, { "beta", 1, NULL }, { "eps", 1, NULL },
                  { "rho0", 1, NULL }, { "unweighted", 0, NULL }, { "upper", 0, NULL }, { "n", 1, NULL },
                  { "npoints", 1, NULL },
                  { "no-sphere", 0, NULL }, { "format", 1, NULL }, { "help", 0, NULL }, { "continuum", 0, NULL },
                  { "hs", 1, NULL }, { "shard", 1, NULL }, { "out", 1, NULL }, { "key", 1, NULL } };
    size_t no = sizeof o / sizeof o[0];
    ar_status st;
    if ((st = args_parse(argc, argv, 2, o, no, "scale --claim B")))
        return sweep_fail(st);
    int rc0 = scale_sweep_start(o, no, help);
    if (rc0 >= 0)
        return rc0;
    size_t d, count;
    double lo, hi, eps;
    if (!args_get(o, no, "d")) {
        ar_error_set("scale --claim B needs --d");
        return sweep_fail(AR_EINVAL);
    }
    if ((st = args_size("d", args_get(o, no, "d"), 2, 16, &d)) || (st = grid_b(args_get(o, no, "beta"), &lo, &hi, &count)) ||
        (st = args_eps(args_get(o, no, "eps"), &eps)))
        return sweep_fail(st);
    const char *fs = args_get(o, no, "format");
    int fmt = 0;   /* 0 md, 1 tsv, 2 json */
    if (fs && !strcmp(fs, "tsv"))
        fmt = 1;
    else if (fs && !strcmp(fs, "json"))
        fmt = 2;
    else if (fs && strcmp(fs, "md")) {
        ar_error_set("--format: expected md, tsv or json, got '%s'", fs);
        return sweep_fail(AR_EINVAL);
    }
    claim_b_opts_t co;
    claim_b_opts_default(&co);
    if (args_get(o, no, "rho0")) {
        if ((st = args_double("rho0", args_get(o, no, "rho0"), &co.rho0)))
            return sweep_fail(st);
        if (!(co.rho0 >= 0 && co.rho0 < 1)) {
            ar_error_set("--rho0 must be in [0, 1), got %g", co.rho0);
            return sweep_fail(AR_EINVAL);
        }
    }
    co.unweighted = args_get(o, no, "unweighted") != NULL;
    co.upper = args_get(o, no, "upper") != NULL;
    /* --n, as every command names the number of points; --npoints is its old spelling (deprecated) */
    const char *ns = args_get(o, no, "n"), *nps = args_get(o, no, "npoints");
    if (ns && nps) {
        ar_error_set("give --n only (--npoints is its deprecated spelling)");
        return sweep_fail(AR_EINVAL);
    }
    if (nps)
        fprintf(stderr, "attnrank: --npoints is deprecated and will be removed; use --n\n");
    if ((ns || nps) && (st = args_size(ns ? "n" : "npoints", ns ? ns : nps, 1, 100000, &co.npoints)))
        return sweep_fail(st);
    if (args_get(o, no, "continuum")) {
        if (d > 4) {
            ar_error_set("--continuum: the shells-continuum certificate covers d = 2, 3, 4 (got --d %zu)", d);
            return sweep_fail(AR_EINVAL);
        }
        co.continuum = 1;
        co.lower_route = 1;
    }
    if (args_get(o, no, "hs")) {
        if ((st = args_double("hs", args_get(o, no, "hs"), &co.hs)))
            return sweep_fail(st);
        if (!(co.hs > 0 && co.hs <= CLAIM_B_HS_MAX) || !co.continuum) {
            ar_error_set("--hs needs --continuum and a value in (0, %g] (radial spacing in kernel widths: a coarser "
                         "shells continuum no longer measures the ball), got %s", CLAIM_B_HS_MAX, args_get(o, no, "hs"));
            return sweep_fail(AR_EINVAL);
        }
    }
    int sphere = args_get(o, no, "no-sphere") == NULL;
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
    int merging = scale_sweep_merging();
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
    if ((st = scale_sweep_init(&sw, "B", (int)d, eps, o, no, betas, count, 0.5 * (double)d))) {
        rc = sweep_fail(st);
        goto done;
    }
    if (!args_get(o, no, "shard") != !args_get(o, no, "out") || (args_get(o, no, "key") && !args_get(o, no, "shard"))) {
        ar_error_set(args_get(o, no, "key") && !args_get(o, no, "shard") ? "scale: --key is for --shard K/N --out FILE"
                                                                          : "scale: --shard K/N and --out FILE go together");
        rc = sweep_fail(AR_EINVAL);
        goto done;
    }
    if (args_get(o, no, "shard")) {
        rc = scale_sweep_shard(&sw, args_get(o, no, "shard"), args_get(o, no, "out"), args_get(o, no, "key"), b_point,
                               &bc);
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
               d, eps, co.rho0, co.unweighted ? " --unweighted" : "", scale_prov_line());
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
            printf(",\"law\":%s,\"status\":\"%s\",\"seconds\":%.3f,\"continuum\":", real_str(law),
                   ar_cert_status_name(p->status), p->seconds);
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
