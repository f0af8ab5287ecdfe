/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_print.c -- the verdict table (see verify_print.h). */
#include "cli/verify_print.h"

#include <math.h>
#include <string.h>
#include "numerics/textout.h"
#include "base/version.h"

void verify_print_header(FILE *f)
{
    fprintf(f, "claim d   predicted                                   rank/law band               verdict      time\n");
}

void verify_print_untested(FILE *f, const verify_row_result_t *it, int json)
{
    if (it->kind == VERIFY_ITEM_ELSEWHERE) {
        if (json) {
            fprintf(f, "{\"claim\":\"%s\",\"law_row\":false,\"implemented\":true,\"checked_by\":", it->claim);
            out_json_string(f, it->note);
            fprintf(f, "}\n");
        } else {
            fprintf(f, "%-5s no law row; its own suite asserts it: %s\n", it->claim, it->note);
        }
        return;
    }
    if (json) {
        fprintf(f, "{\"claim\":\"%s\",\"d\":null,\"predicted\":null,\"fit_lower\":null,\"fit_upper\":null,"
                   "\"band\":null,\"verdict\":\"inconclusive\",\"implemented\":false,\"reason\":", it->claim);
        out_json_string(f, it->note);
        fprintf(f, "}\n");
    } else {
        fprintf(f, "%-5s inconclusive (no check in this version): %s\n", it->claim, it->note);
    }
}

static int is_saturation(const law_t *L)
{
    return L->kind == LAW_SATURATION;
}

/* The verdict column: rows that are never asserted say so. */
static const char *shown_verdict(const verify_row_result_t *it, char *buf, size_t len)
{
    const verify_row_t *r = it->row;
    if (it->asserted)
        return verify_verdict_name(r->verdict);
    snprintf(buf, len, "report:%s", verify_verdict_name(r->verdict));
    return buf;
}

void verify_print_json(FILE *f, const verify_row_result_t *it)
{
    const verify_row_t *r = it->row;
    const law_t *L = r->law;
    const char *prov = it->prov;
    fprintf(f, "{\"claim\":\"%s\",\"kind\":\"%s\",\"d\":%d,\"variable\":\"%s\",\"predicted\":%.6g,\"tol\":%.6g,\"eps\":%.6g,"
           "\"fit_lower\":%.4f,\"fit_lower_se\":%.4f,\"fit_upper\":%.4f,\"fit_upper_se\":%.4f,"
           "\"band\":[%.6g,%.6g],\"observed_band\":[%.6g,%.6g],\"verdict\":\"%s\",\"asserted\":%s,\"reason\":",
           L->claim, law_kind_name(L->kind), L->dim, law_variable_name(L->variable), L->predicted, L->tol, L->eps,
           r->fit_lower.slope,
           r->fit_lower.slope_se, r->fit_upper.slope, r->fit_upper.slope_se, L->band_lo, L->band_hi,
           r->band_min, r->band_max, verify_verdict_name(r->verdict), it->asserted ? "true" : "false");
    out_json_string(f, r->reason);
    fprintf(f, ",\"points\":[");
    for (size_t i = 0; i < r->npts; i++) {
        const verify_point_t *p = &r->pts[i];
        /* the strings may come from shard files: out_json_string */
        /* 0 = not computed: null (an instance size, an end, the continuum) */
        fprintf(f, "%s{\"beta\":%s,\"n\":", i ? "," : "", real_str(p->beta));
        out_json_count(f, p->p.n);
        fprintf(f, ",\"lower\":%zu,\"lower_points\":%zu,\"lower_bounds\":\"%s\",\"upper\":", p->p.lower,
                p->p.lower_points, p->p.lower_on_instance ? "instance" : "other set");
        out_json_count(f, p->p.upper);
        fprintf(f, ",\"continuum\":");
        out_json_count(f, p->p.continuum);
        fprintf(f, ",\"upper_fitted\":");
        out_json_count(f, p->upper_fitted);
        fprintf(f, ",\"status\":\"%s\",\"lower_certificate\":", ar_cert_status_name(p->p.status));
        out_json_string(f, p->p.lower_method);
        fprintf(f, ",\"upper_certificate\":");
        out_json_string(f, p->p.upper_method);
        fprintf(f, ",\"continuum_certificate\":");
        out_json_string(f, p->p.continuum_method);
        fprintf(f, ",\"log10_n\":%.6g,\"seconds\":%.3f,\"upper_over_lower\":", p->p.log10_n, p->p.seconds);
        out_json_number(f, p->ratio);
        fprintf(f, ",\"local_lower\":");
        out_json_number(f, p->local_lower);
        fprintf(f, ",\"local_upper\":");
        out_json_number(f, p->local_upper);
        fprintf(f, ",\"note\":");
        out_json_string(f, p->p.note);
        fprintf(f, "}");
    }
    fprintf(f, "],\"upper_over_lower\":{\"min\":");
    out_json_number(f, r->npts && !is_saturation(L) ? r->ratio_min : NAN);
    fprintf(f, ",\"max\":");
    out_json_number(f, r->npts && !is_saturation(L) ? r->ratio_max : NAN);
    fprintf(f, ",\"first\":");
    out_json_number(f, r->npts && !is_saturation(L) ? r->ratio_first : NAN);
    fprintf(f, ",\"last\":");
    out_json_number(f, r->npts && !is_saturation(L) ? r->ratio_last : NAN);
    fprintf(f, ",\"trend\":");
    out_json_number(f, r->fit_ratio.npts >= 2 ? r->fit_ratio.slope : NAN);
    fprintf(f, ",\"trend_se\":");
    out_json_number(f, r->fit_ratio.npts >= 3 ? r->fit_ratio.slope_se : NAN);
    fprintf(f, "},\"family\":\"%s\",\"engine\":\"%s\",\"upper_source\":\"%s\",\"scope\":", L->family,
           L->engine ? "scale" : "dense", law_upper_name(L->upper_source));
    out_json_string(f, L->scope);
    fprintf(f, ",\"seconds\":%.2f,%s}\n", r->seconds, prov ? prov : version_json_fields());
}

/* The two ends of one point, each naming the object it bounds: the lower
 * end is a certificate of some set (the upper end's instance, or another set
 * such as a packing, whose rank also bounds the worst case over sets of that
 * size); the upper end bounds the instance of n points, or the continuum. */
static void point_ends_text(const law_point_t *p, char *lo, size_t nlo, char *up, size_t nup)
{
    if (p->lower_on_instance && p->upper)
        snprintf(lo, nlo, "lower %zu (same instance: %s)", p->lower, p->lower_method);
    else
        snprintf(lo, nlo, "lower %zu (a %zu-point set: %s)", p->lower, p->lower_points, p->lower_method);
    if (p->upper)
        snprintf(up, nup, "upper %zu (instance of n = %zu points: %s)", p->upper, p->n, p->upper_method);
    else if (p->continuum)
        snprintf(up, nup, "upper %zu (continuum, uniform measure: %s)", p->continuum, p->continuum_method);
    else
        snprintf(up, nup, "no upper end");
}

void verify_print_text(FILE *f, const verify_row_result_t *it)
{
    const verify_row_t *r = it->row;
    const law_t *L = r->law;
    char vb[32];
    if (is_saturation(L)) {
        fprintf(f, "%-5s %-3d saturation in n at beta = %-8g                                %-12s %6.1fs\n", L->claim,
               L->dim, L->betas[0], shown_verdict(it, vb, sizeof vb), r->seconds);
        fprintf(f, "      %s\n", L->scope);
        for (size_t i = 0; i < r->npts; i++) {
            const verify_point_t *p = &r->pts[i];
            char lo[96], up[112];
            point_ends_text(&p->p, lo, sizeof lo, up, sizeof up);
            fprintf(f, "      n %-7zu ", p->p.n);
            out_text(f, lo, 0);
            fputs("   ", f);
            out_text(f, up, 0);
            fputc('\n', f);
        }
        fprintf(f, "      %s\n", r->reason);
        return;
    }
    fprintf(f, "%-5s %-3d %-9.3g %-16s %-16s [%5.2f, %5.2f] in [%g, %g]  %-12s %6.1fs\n", L->claim, L->dim,
           L->predicted, law_variable_name(L->variable), "", r->band_min, r->band_max, L->band_lo, L->band_hi,
            shown_verdict(it, vb, sizeof vb), r->seconds);
    fprintf(f, "      fit_lower %.3f +- %.3f   fit_upper %.3f +- %.3f   (tol %.2g, eps %g, %s engine, upper: %s)\n",
           r->fit_lower.slope, r->fit_lower.slope_se, r->fit_upper.slope, r->fit_upper.slope_se, L->tol,
           L->eps, strcmp(L->claim, "S") ? "claim's own" : L->engine ? "scale" : "dense",
           law_upper_name(L->upper_source));
    fprintf(f, "      %s\n", L->scope);
    for (size_t i = 0; i < r->npts; i++) {
        const verify_point_t *p = &r->pts[i];
        char lo[96], up[112];
        point_ends_text(&p->p, lo, sizeof lo, up, sizeof up);
        fprintf(f, "      beta %-8g ", p->beta);   /* methods and notes may come from shard files: out_text */
        out_text(f, lo, 0);
        fputs("   ", f);
        out_text(f, up, 0);
        fprintf(f, "   %.2fs\n", p->p.seconds);
        if (!isnan(p->ratio)) {
            fprintf(f, "        upper/lower %.3g", p->ratio);
            if (!isnan(p->local_lower) || !isnan(p->local_upper))
                fprintf(f, "; local exponents from the previous point: lower %.3f, upper %.3f", p->local_lower,
                        p->local_upper);
            fputc('\n', f);
        }
        if (p->p.note[0]) {
            fputs("        ", f);
            out_text(f, p->p.note, 0);
            fputc('\n', f);
        }
    }
    if (!isnan(r->ratio_first) && r->npts)
        fprintf(f, "      upper/lower %.3g at the first point, %.3g at the last (min %.3g, max %.3g); trend "
                   "(upper/lower) ~ (%s)^%.3f +- %.3f\n", r->ratio_first, r->ratio_last, r->ratio_min, r->ratio_max,
                law_variable_name(L->variable), r->fit_ratio.slope, r->fit_ratio.slope_se);
    fprintf(f, "      %s\n", r->reason);
}


void verify_print_t_text(FILE *f, const verify_row_result_t *it)
{
    const claim_t_record_t *t = it->t;
    fprintf(f, "T  r0=%zu dh=%-3zu delta=%-6g  r=%-3zu  eta_noise=%-10.4g eta(r0-1)=%-10.4g eta(r0)=%-10.4g "
               "eta(r0+1)=%-10.4g\n", t->r0, t->dh, t->delta, t->r, t->eta_noise, t->eta_below, t->eta_at,
            t->eta_above);
    fprintf(f, "   tau/eta_noise:");
    for (size_t k = 0; k < t->ntau; k++)
        fprintf(f, " %.3g", t->tau[k] / t->eta_noise);
    fprintf(f, "\n   r(tau):");
    for (size_t k = 0; k < t->ntau; k++) {
        if (t->rt[k] == VISIBLE_NONE)
            fprintf(f, "  tau=%-9.3g none", t->tau[k]);
        else
            fprintf(f, "  tau=%-9.3g r=%zu (eta %.3g)", t->tau[k], t->rt[k], t->et[k]);
    }
    fprintf(f, "\n");
    for (size_t q = 0; q < t->nchain; q++)
        if (t->chain_k[q] != VISIBLE_NONE)
        {
            fprintf(f, "   chain k=%zu: direct [%zu, %zu]  via A_k [%zu, %zu] (eta %.3g, ", t->chain_k[q], t->lower,
                    t->upper, t->chain_lo[q], t->chain_up[q], t->chain_eta[q]);
            out_text(f, t->chain_method[q], 0);
            fputs(")\n", f);
        }
}

void verify_print_t_json(FILE *f, const verify_row_result_t *it)
{
    const claim_t_record_t *t = it->t;
    /* numbers through out_json_number (null, never a bare nan), strings through out_json_string */
    fprintf(f, "{\"claim\":\"T\",\"kind\":\"instance\",\"r0\":%zu,\"dh\":%zu,\"delta\":", t->r0, t->dh);
    out_json_number(f, t->delta);
    const char *key[] = { ",\"beta\":", ",\"eps\":", NULL };
    const double val[] = { t->beta, t->eps };
    for (size_t k = 0; key[k]; k++) {
        fputs(key[k], f);
        out_json_number(f, val[k]);
    }
    fprintf(f, ",\"r\":%zu", t->r);
    const char *ek[] = { ",\"eta_noise\":", ",\"eta_below\":", ",\"eta_at\":", ",\"eta_above\":" };
    const double ev[] = { t->eta_noise, t->eta_below, t->eta_at, t->eta_above };
    for (size_t k = 0; k < 4; k++) {
        fputs(ek[k], f);
        out_json_number(f, ev[k]);
    }
    fprintf(f, ",\"tau\":[");
    for (size_t k = 0; k < t->ntau; k++) {
        fputs(k ? "," : "", f);
        out_json_number(f, t->tau[k]);
    }
    fprintf(f, "],\"r_tau\":[");
    for (size_t k = 0; k < t->ntau; k++) {
        if (t->rt[k] == VISIBLE_NONE)
            fprintf(f, "%snull", k ? "," : "");
        else
            fprintf(f, "%s%zu", k ? "," : "", t->rt[k]);
    }
    fprintf(f, "],\"lower\":%zu,\"upper\":%zu,\"status\":", t->lower, t->upper);
    out_json_string(f, ar_cert_status_name(t->status));
    fprintf(f, ",\"chain\":[");
    for (size_t q = 0; q < t->nchain; q++) {
        if (t->chain_k[q] == VISIBLE_NONE)
            fprintf(f, "%s{\"k\":null}", q ? "," : "");
        else {
            fprintf(f, "%s{\"k\":%zu,\"upper_via\":%zu,\"lower\":%zu,\"upper\":%zu,\"eta\":", q ? "," : "",
                    t->chain_k[q], t->chain_upper_via[q], t->chain_lo[q], t->chain_up[q]);
            out_json_number(f, t->chain_eta[q]);
            fprintf(f, ",\"method\":");
            out_json_string(f, t->chain_method[q]);
            fputc('}', f);
        }
    }
    fprintf(f, "],\"verdict\":\"%s\",\"asserted\":true,\"reason\":",
            verify_verdict_name(it->pass ? VERDICT_PASS : VERDICT_FAIL));
    out_json_string(f, it->reason);
    fprintf(f, ",\"seconds\":%.2f,%s}\n", t->seconds, it->prov ? it->prov : version_json_fields());
}

void verify_print_t_verdict(FILE *f, const verify_row_result_t *it)
{
    fprintf(f, "   %s: %s\n", it->pass ? "pass" : "FAIL", it->reason);
}

void verify_print_item(void *ctx, const verify_row_result_t *it)
{
    verify_printer_t *pr = ctx;
    FILE *f = pr->f;
    switch (it->kind) {
    case VERIFY_ITEM_T:
        if (pr->json)
            verify_print_t_json(f, it);
        else {
            verify_print_t_text(f, it);
            verify_print_t_verdict(f, it);
        }
        break;
    case VERIFY_ITEM_ROW:
        if (pr->json)
            verify_print_json(f, it);
        else {
            if (!pr->header++)
                verify_print_header(f);
            verify_print_text(f, it);
        }
        break;
    case VERIFY_ITEM_ELSEWHERE:
    case VERIFY_ITEM_UNTESTED:
        verify_print_untested(f, it, pr->json);
        break;
    }
    fflush(f);
}
