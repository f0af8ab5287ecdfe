/* SPDX-License-Identifier: GPL-3.0-or-later */
/* api_json.c -- the JSON text of a bracket result, one formatter for every door (issue 32:
 * the CLI, C and Python give the same JSON for the same matrix). */
#include "api/api_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "numerics/textout.h"


char *api_route_plan_json(const route_result_t *rr)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        ar_error_set("out of memory for the route plan");
        return NULL;
    }
    fputc('[', f);
    for (int r = 0; r < ROUTE_ID_COUNT; r++) {
        const route_plan_t *p = &rr->plan[r];
        fprintf(f, "%s{\"route\":\"%s\",\"decision\":\"%s\",\"predicted_seconds\":", r ? "," : "",
                route_id_name((route_id_t)r), route_decision_name(p->decision));
        if (isfinite(p->predicted))
            fprintf(f, "%.4g", p->predicted);
        else
            fputs("null", f);
        fputs(",\"seconds\":", f);
        if (p->decision == ROUTE_RAN || p->decision == ROUTE_CUT_SHORT)
            fprintf(f, "%.3f", p->seconds);
        else
            fputs("null", f);
        fputs(",\"reason\":", f);
        out_json_string(f, p->reason);
        fputc('}', f);
    }
    fputc(']', f);
    if (fclose(f) != 0 || !buf) {
        free(buf);
        ar_error_set("out of memory for the route plan");
        return NULL;
    }
    return buf;
}

attnrank_status attnrank_bracket_json(const attnrank_bracket_result *r_in, const char *source, const uint64_t *seed,
                                      char **out)
{
    ar_error_set("%s", "");
    if (out)
        *out = NULL;
    if (r_in && api_size_check(r_in->size, API_MIN_BRACKET, "attnrank_bracket_result"))
        return ATTNRANK_EINVAL;
    attnrank_bracket_result full, *const r = r_in ? &full : NULL;   /* fields past the caller's size: zero */
    if (r_in)
        api_size_in(&full, NULL, sizeof full, r_in);
    if (!r || !out || !r->n || !r->m) {
        ar_error_set("bracket_json: missing result (NULL, or not filled by attnrank_bracket)");
        return ATTNRANK_EINVAL;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        ar_error_set("bracket_json: out of memory");
        return ATTNRANK_ENOMEM;
    }
    fprintf(f, "{\"lower\":%zu,\"upper\":%zu,\"status\":", r->lower, r->upper);
    out_json_string(f, r->status);
    fputs(",\"n\":", f);
    out_json_decimal(f, r->n);
    fprintf(f, ",\"log10_n\":%.6f,\"m\":", r->log10_n);
    out_json_decimal(f, r->m);
    fprintf(f, ",\"distinct_keys\":%zu,\"distinct_queries\":%zu,\"d\":%zu,\"beta\":%s,\"eps\":%s,"
               "\"self_attention\":%s,\"engine\":",
            r->distinct_keys, r->distinct_queries, r->d, real_str(r->beta), real_str(r->eps),
            r->self_attention ? "true" : "false");
    out_json_string(f, r->engine[0] ? r->engine : "auto");
    fputs(",\"routes\":", f);
    out_json_string(f, r->routes);
    fputs(",\"lower_route\":", f);
    out_json_string(f, r->lower_route);
    fputs(",\"upper_route\":", f);
    out_json_string(f, r->upper_route);
    fprintf(f, ",\"seconds\":%.3f,\"seconds_enclose\":%.3f,\"lower_certificate\":", r->seconds, r->seconds_enclose);
    out_json_string(f, r->lower_certificate);
    fprintf(f, ",\"lower_invnorm_bound\":%s,\"upper_certificate\":", real_str(r->lower_invnorm_bound));
    out_json_string(f, r->upper_certificate);
    fprintf(f, ",\"upper_err_bound\":%s,\"enclosure_err\":%.3g,\"prec\":%ld,\"enclosure\":", real_str(r->upper_err_bound),
            r->enclosure_err, r->prec);
    out_json_string(f, r->enclosure);
    fprintf(f, ",\"streamed\":%s,\"seed\":", r->streamed ? "true" : "false");
    if (seed)
        fprintf(f, "%llu", (unsigned long long)*seed);
    else
        fputs("null", f);
    fputc(',', f);
    if (r->rsvd_run)
        fprintf(f, "\"rsvd_rank\":%zu,\"rsym_rank\":%zu,\"rsvd_sketch\":%zu,\"rsvd_power\":%d,\"rsvd_seed\":%llu,"
                   "\"rsvd_passes\":%zu,",
                r->rsvd_rank, r->rsym_rank, r->rsvd_sketch, r->rsvd_power, (unsigned long long)r->rsvd_seed,
                r->rsvd_passes);
    if (r->polygon_n)
        fprintf(f, "\"polygon_n\":%zu,\"polygon_eta\":%.3g,", r->polygon_n, r->polygon_eta);
    fputs("\"lower_budget_flops\":", f);
    out_json_number(f, r->lower_budget_flops);
    fputs(",\"lower_spent_flops\":", f);
    out_json_number(f, r->lower_spent_flops);
    fprintf(f, ",\"lower_cut\":%s,\"logit_bias\":%s,\"route_plan\":%s,\"source\":", r->lower_cut ? "true" : "false",
            r->logit_bias ? "true" : "false", r->route_plan ? r->route_plan : "[]");
    out_json_string(f, source ? source : "arrays");
    fprintf(f, ",%s}", attnrank_version_json());
    if (fclose(f) != 0 || !buf) {
        free(buf);
        ar_error_set("bracket_json: out of memory");
        return ATTNRANK_ENOMEM;
    }
    *out = buf;
    return ATTNRANK_OK;
}
