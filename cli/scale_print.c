/* SPDX-License-Identifier: GPL-3.0-or-later */
/* scale_print.c -- the output of `attnrank scale` and of a merge of its
 * shards (see scale_print.h): moved here from sweeps/sweep_scale.c and
 * sweeps/sweep_scale_ball.c, every format string as it was. */
#include "cli/scale_print.h"

#include <math.h>
#include <stdio.h>
#include "numerics/textout.h"

void scale_print_progress(void *ctx, size_t done, size_t total, double beta)
{
    (void)ctx;
    if (done == total) {
        fprintf(stderr, "\r\033[K");
        return;
    }
    int w = 30, f = (int)(w * done / (total ? total : 1));
    fprintf(stderr, "\r\033[K[");
    for (int i = 0; i < w; i++)
        fputc(i < f ? '#' : '.', stderr);
    fprintf(stderr, "] %zu/%zu  beta=%g", done, total, beta);
    fflush(stderr);
}

/* claim S: the table (markdown, TSV or JSON lines) and the fitted exponents of (1+beta). */
static void print_s(const scale_result_t *r, sweep_format_t format)
{
    typedef enum { SF_MD, SF_TSV, SF_JSON } scale_fmt_t;
    scale_fmt_t fmt = format == SWEEP_FORMAT_TSV ? SF_TSV : format == SWEEP_FORMAT_JSON ? SF_JSON : SF_MD;
    size_t d = r->spec.d, count = r->count;
    double eps = r->spec.eps, pred = r->law_exponent;
    const char *prov_line = r->prov_line, *prov_json = r->prov_json ? r->prov_json : "";
    fit_t fl = r->fit_lower, fu = r->fit_upper, fc = r->fit_continuum;
    int hl = r->has_lower, hu = r->has_upper, hc = r->has_continuum;
    if (fmt == SF_MD) {
        printf("| d | beta | n | lower | lower points | lower certificate | upper | upper certificate | continuum | law (1+beta)^%.3g | lower/law | upper/law | seconds |\n", pred);
        printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    } else if (fmt == SF_TSV) {
        printf("# attnrank scale --claim S --d %zu --eps %g; %s\n", d, eps, prov_line);
        printf("d\tbeta\tn\tlower\tlower_points\tlower_certificate\tupper\tupper_err\tupper_certificate\tcontinuum\tcontinuum_certificate\tlaw\tlower_over_law\tupper_over_law\tstatus\tseconds\n");
    }
    for (size_t t = 0; t < count; t++) {
        const law_point_t *p = &r->pts[t];
        double law = r->law[t];
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
                   ar_cert_status_name(p->status), p->seconds,
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
}

/* claim B: the table (markdown, TSV or JSON lines) with the sphere-packing
 * contrast and the fitted exponents of beta. */
static void print_b(const scale_result_t *r, sweep_format_t format)
{
    int fmt = format == SWEEP_FORMAT_TSV ? 1 : format == SWEEP_FORMAT_JSON ? 2 : 0;   /* 0 md, 1 tsv, 2 json */
    size_t d = r->spec.d, count = r->count;
    double eps = r->spec.eps, ex = r->law_exponent;
    const char *prov_line = r->prov_line;
    struct {
        double rho0;
        int unweighted, upper, continuum;
    } co = { r->spec.rho0, r->spec.unweighted, r->spec.upper, r->spec.continuum };
    int sphere = r->spec.sphere, have_fit = r->has_fit;
    fit_t fl = r->fit_lower, fu = r->fit_upper, fsph = r->fit_sphere, fc = r->fit_continuum;
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
        const law_point_t *p = &r->pts[t];
        double law = r->law[t];
        int cond = p->log10_n >= p->beta / 8.0 / log(10.0);
        char ub[32] = "-";
        if (p->upper)
            snprintf(ub, sizeof ub, "%zu%s", p->upper, p->upper_capped ? " (= n)" : "");
        const char *um = p->upper_method[0] ? p->upper_method : "-";
        const char *cm = p->continuum_method[0] ? p->continuum_method : "-";
        if (fmt == 1) {   /* the strings may come from shard files: out_text, out_json_string */
            printf("%.6g\t%zu\t%zu\t%zu\t%.6g\t%.3f\t", p->beta, p->lower, p->upper, r->sphere[t], law, p->log10_n);
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
            printf("| %g | %zu | %s | %s | %zu | %.4g | %.1f | %s | ", p->beta, p->lower, ub, cb, r->sphere[t], law,
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
            out_json_count(stdout, r->sphere[t]);
            printf(",\"law\":%s,\"status\":\"%s\",\"seconds\":%.3f,\"continuum\":", real_str(law),
                   ar_cert_status_name(p->status),
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
}

void scale_print(const scale_result_t *r, sweep_format_t format)
{
    if (r->spec.claim == SCALE_CLAIM_B)
        print_b(r, format);
    else
        print_s(r, format);
}
