/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweep_scale.c -- `attnrank scale`: a sweep over beta for one claim and
 * dimension, as a table (markdown, TSV or JSON lines), with the fitted
 * exponents of each column. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "numerics/args.h"
#include "sweeps/sweeps.h"
#include "numerics/textout.h"
#include "sweeps/scale_shard.h"
#include "numerics/version.h"
#include "theory/claims/claim_s.h"
#include "theory/claims/fit.h"

#define SCALE_MAX 64

static const char help[] =
    "Usage: attnrank scale --claim S --d D --beta LO:HI:COUNT --eps E\n"
    "                      [--family polygon|fibonacci|uniform] [--n N] [--n-max N]\n"
    "                      [--engine scale|dense] [--continuum] [--no-packing] [--no-instance]\n"
    "                      [--seed S] [--format md|tsv|json]\n"
    "Sweeps beta over COUNT geometrically spaced values in [LO, HI] (COUNT <= 64) and\n"
    "prints, per beta: the certified lower bound (worst case over point sets of the\n"
    "size that certifies it), the certified upper bound of the dense instance of\n"
    "size n, optionally the certified continuum upper bound, the law\n"
    "(1+beta)^((d-1)/2) and the ratios.  Ends with the fitted exponents.\n"
    "Engines: scale (default) uses structured certificates: the circulant path for\n"
    "d = 2 (dense 20160-gon), cap packings for lower bounds and the polynomial\n"
    "certificate on Fibonacci (d = 3) or uniform sets for upper bounds (d >= 3);\n"
    "dense brackets one O(n^3) instance (n <= 2000 by default).\n"
    "A progress bar goes to stderr when it is a terminal.\n"
    "--shard K/N --out FILE [--key KEYFILE]: compute only shard K of N of the grid's\n"
    "points into the shard file FILE (resumable; 'attnrank merge FILES...' prints the\n"
    "table; --key or ATTNRANK_SHARD_KEY adds an HMAC, see 'attnrank verify --help').\n"
    "Claim B (ball instances with multiplicities) has its own sweep: see\n"
    "'attnrank scale --claim B --help'.\n";

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

int sweep_scale(int argc, char **argv)
{
    opt_t o[] = { { "claim", 1, NULL }, { "d", 1, NULL }, { "beta", 1, NULL }, { "eps", 1, NULL },
                  { "family", 1, NULL }, { "n", 1, NULL }, { "n-max", 1, NULL }, { "continuum", 0, NULL },
                  { "no-packing", 0, NULL }, { "seed", 1, NULL }, { "format", 1, NULL }, { "engine", 1, NULL },
                  { "no-instance", 0, NULL }, { "help", 0, NULL }, { "shard", 1, NULL }, { "out", 1, NULL },
                  { "key", 1, NULL } };
    size_t no = sizeof o / sizeof o[0];
    ar_status st;
    if (sweep_scale_is_ball(argc, argv))           /* claim B: ball sweeps */
        return sweep_scale_ball(argc, argv);
    if ((st = args_parse(argc, argv, 2, o, no, "scale")))
        return sweep_fail(st);
    int rc0 = scale_sweep_start(o, no, help);
    if (rc0 >= 0)
        return rc0;
    const char *claim = args_get(o, no, "claim");
    if (!claim || strcmp(claim, "S") != 0) {
        ar_error_set(claim ? "scale: --claim must be S or B, the claims with a sweep (got '%s')"
                           : "scale: --claim S or --claim B is required%s", claim ? claim : "");
        return sweep_fail(AR_EINVAL);
    }
    size_t d = 0, count = 0;
    double lo, hi, eps;
    if (!args_get(o, no, "d")) {
        ar_error_set("scale: --d is required");
        return sweep_fail(AR_EINVAL);
    }
    if ((st = args_size("d", args_get(o, no, "d"), 2, 16, &d)) ||
        (st = args_beta_grid(args_get(o, no, "beta"), SCALE_MAX, &lo, &hi, &count)) ||
        (st = args_eps(args_get(o, no, "eps"), &eps)))
        return sweep_fail(st);
    scale_fmt_t fmt = SF_MD;
    const char *fs = args_get(o, no, "format");
    if (fs && !strcmp(fs, "tsv"))
        fmt = SF_TSV;
    else if (fs && !strcmp(fs, "json"))
        fmt = SF_JSON;
    else if (fs && strcmp(fs, "md")) {
        ar_error_set("--format: expected md, tsv or json, got '%s'", fs);
        return sweep_fail(AR_EINVAL);
    }
    claim_s_opts_t co;
    claim_s_opts_default(&co);
    co.family = args_get(o, no, "family");
    if (co.family && strcmp(co.family, "polygon") && strcmp(co.family, "fibonacci") &&
        strcmp(co.family, "uniform")) {
        ar_error_set("--family: expected polygon, fibonacci or uniform, got '%s'", co.family);
        return sweep_fail(AR_EINVAL);
    }
    if (co.family && ((!strcmp(co.family, "polygon") && d != 2) || (!strcmp(co.family, "fibonacci") && d != 3))) {
        ar_error_set("--family %s does not exist in d = %zu", co.family, d);
        return sweep_fail(AR_EINVAL);
    }
    if (args_get(o, no, "n") && (st = args_size("n", args_get(o, no, "n"), 2, 1u << 24, &co.n)))
        return sweep_fail(st);
    if (args_get(o, no, "n-max") && (st = args_size("n-max", args_get(o, no, "n-max"), 2, 1u << 24, &co.n_max)))
        return sweep_fail(st);
    if (args_get(o, no, "seed") && (st = args_u64("seed", args_get(o, no, "seed"), &co.seed)))
        return sweep_fail(st);
    co.continuum = args_get(o, no, "continuum") != NULL;
    co.instance = args_get(o, no, "no-instance") == NULL;
    const char *eng = args_get(o, no, "engine");
    if (eng && !strcmp(eng, "dense"))
        co.engine = CLAIM_S_DENSE;
    else if (eng && strcmp(eng, "scale")) {
        ar_error_set("--engine: expected scale or dense, got '%s'", eng);
        return sweep_fail(AR_EINVAL);
    }
    co.packing = args_get(o, no, "no-packing") == NULL;

    if (!args_get(o, no, "shard") != !args_get(o, no, "out")) {
        ar_error_set("scale: --shard K/N and --out FILE go together");
        return sweep_fail(AR_EINVAL);
    }
    if (args_get(o, no, "key") && !args_get(o, no, "shard")) {
        ar_error_set("scale: --key is for --shard K/N --out FILE");
        return sweep_fail(AR_EINVAL);
    }
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
    if ((st = scale_sweep_init(&sw, "S", (int)d, eps, o, no, betas, count, 0.5 * (double)(d - 1)))) {
        free(pts);
        free(betas);
        return sweep_fail(st);
    }
    if (args_get(o, no, "shard")) {
        int rc = scale_sweep_shard(&sw, args_get(o, no, "shard"), args_get(o, no, "out"), args_get(o, no, "key"),
                                   s_point, &sc);
        scale_sweep_clear(&sw);
        free(pts);
        free(betas);
        return rc;
    }
    int merging = scale_sweep_merging();
    st = merging ? scale_sweep_collect(&sw) : AR_OK;
    int tty = isatty(2) && !merging;
    for (size_t t = 0; st == AR_OK && t < count; t++) {
        size_t sph;
        if (tty)
            progress_bar(t, count, betas[t]);
        st = merging ? scale_sweep_record(&sw, t, &pts[t], &sph) : s_point(&sc, t, &pts[t], &sph);
    }
    if (tty)
        fprintf(stderr, "\r\033[K");
    scale_sweep_clear(&sw);
    free(betas);
    if (st) {
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
        printf("# attnrank scale --claim S --d %zu --eps %g; %s\n", d, eps, scale_prov_line());
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
            printf("\t%.6g\t%.6g\t%.6g\t%s\t%.3f\n", law, p->lower / law, p->upper / law,
                   ar_cert_status_name(p->status), p->seconds);
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
            printf(",\"law\":%s,\"status\":\"%s\",\"seconds\":%.3f,%s}\n", real_str(law),
                   ar_cert_status_name(p->status), p->seconds, scale_prov_json());
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
    free(pts);
    return 0;
}
