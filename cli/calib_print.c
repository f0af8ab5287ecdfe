/* SPDX-License-Identifier: GPL-3.0-or-later */
/* calib_print.c -- text, TSV and JSON output of `attnrank calib` (see
 * calib_print.h).  Uncertified measures are always labelled as such. */
#include "cli/calib_print.h"

#include <math.h>
#include <stdio.h>
#include "numerics/textout.h"

static void json_num(double x)
{
    if (isfinite(x))
        printf("%s", real_str(x));
    else
        printf("null");
}

static void json_sz(size_t v)
{
    if (v == VISIBLE_NONE)
        printf("null");
    else
        printf("%zu", v);
}

/* "KEY":{"tau":v,...} of doubles */
static void json_taus(const char *key, const calib_opts_t *o, const double *v, int first)
{
    printf("%s\"%s\":{", first ? "" : ",", key);
    for (size_t t = 0; t < o->ntau; t++) {
        printf("%s\"%g\":", t ? "," : "", o->taus[t]);
        json_num(v[t]);
    }
    printf("}");
}

static void json_taus_sz(const char *key, const calib_opts_t *o, const size_t *v)
{
    printf(",\"%s\":{", key);
    for (size_t t = 0; t < o->ntau; t++) {
        printf("%s\"%g\":", t ? "," : "", o->taus[t]);
        json_sz(v[t]);
    }
    printf("}");
}

static void print_inputs(const calib_result_t *R)
{
    const calib_opts_t *o = &R->opts;
    for (size_t i = 0; i < R->nset; i++) {
        const calib_setting_t *S = &R->set[i];
        for (size_t s = 0; s < S->nsent; s++) {
            printf("{\"model\":");
            out_json_string(stdout, R->model);
            printf(",\"layer\":%zu,\"head\":%zu,\"scale\":%s,\"input\":%zu,\"n\":%zu,\"r\":%zu,"
                   "\"r_tau\":{", S->layer, S->head, real_str(S->scale), s, S->ntok[s], S->r[s]);
            for (size_t t = 0; t < o->ntau; t++)
                printf("%s\"%g\":%zu", t ? "," : "", o->taus[t], S->r_tau[s * o->ntau + t]);
            printf("},\"lower\":%zu,\"upper\":%zu,\"uncertified\":{\"numrank\":%zu,\"numrank_eps\":%zu,"
                   "\"stable_rank\":%s,\"effective_rank\":%s}}\n", S->lower[s], S->upper[s], S->un_rank[s],
                   S->un_rank_eps[s], real_str(S->un_stable[s]), real_str(S->un_eff[s]));
        }
    }
}

static void json_assoc_rest(const calib_assoc_t *A, const calib_opts_t *o)
{
    json_num(A->rho);
    printf(",\"ci\":[");
    json_num(A->lo);
    printf(",");
    json_num(A->hi);
    printf("],\"level\":%g,\"p_value\":", o->level);
    json_num(A->p_value);
    printf(",\"p_value_t\":");
    json_num(A->p_value_t);
    printf(",\"x\":\"mean reduction 1-r(tau)/dh\",\"y\":\"mean certified upper\",\"tau\":%g,\"perms\":%zu,"
           "\"boot\":%zu,\"boot_defined\":%zu,\"seed\":%llu}\n", o->taus[o->tau_main], o->nperm, o->nboot,
           A->nboot_ok, (unsigned long long)o->seed);
}

static void json_assoc(const char *model, const char *layer, const calib_assoc_t *A, const calib_opts_t *o)
{
    printf("{\"summary\":\"association\",\"model\":");
    out_json_string(stdout, model);
    printf(",\"layer\":%s,\"settings\":%zu,\"spearman\":", layer, A->nset);
    json_assoc_rest(A, o);
}

static void json_assoc_scale(const char *model, double scale, const calib_assoc_t *A, const calib_opts_t *o)
{
    printf("{\"summary\":\"association_at_scale\",\"model\":");
    out_json_string(stdout, model);
    printf(",\"layer\":\"all\",\"scale\":%s,\"settings\":%zu,\"spearman\":", real_str(scale), A->nset);
    json_assoc_rest(A, o);
}

static void print_json(const calib_result_t *R, size_t nr, const calib_assoc_t *pooled)
{
    for (size_t m = 0; m < nr; m++) {
        const calib_opts_t *o = &R[m].opts;
        for (size_t i = 0; i < R[m].nset; i++) {
            const calib_setting_t *S = &R[m].set[i];
            printf("{\"model\":");
            out_json_string(stdout, R[m].model);
            printf(",\"layer\":%zu,\"head\":%zu,\"scale\":%s,\"beta\":%s,\"dh\":%zu,\"inputs\":%zu,\"r\":%s,",
                   S->layer, S->head, real_str(S->scale), real_str(S->beta), S->dh, S->nsent, real_str(S->r_median));
            json_taus("r_tau", o, S->r_tau_median, 1);
            json_taus("reduction", o, S->reduction_mean, 0);
            json_taus("reduction_vis", o, S->reduction_vis_mean, 0);
            printf(",\"upper\":%s,\"lower\":%s,\"upper_median\":%s,\"lower_median\":%s,"
                   "\"upper_frac\":%s,\"certified\":%zu,\"eps\":%s,\"uncertified\":{\"numrank\":%s,"
                   "\"numrank_eps\":%s,\"stable_rank\":%s,\"effective_rank\":%s,"
                   "\"numrank_above_upper\":%zu,\"numrank_eps_below_lower\":%zu,\"numrank_eps_above_upper\":%zu,"
                   "\"stable_below_lower\":%zu,\"effective_below_lower\":%zu,\"effective_above_upper\":%zu},"
                   "\"weights\":%s,\"rw\":",
                   real_str(S->upper_mean), real_str(S->lower_mean), real_str(S->upper_median), real_str(S->lower_median), real_str(S->upper_frac_mean),
                   S->ncertified, real_str(o->eps), real_str(S->un_rank_mean), real_str(S->un_rank_eps_mean), real_str(S->un_stable_mean), real_str(S->un_eff_mean),
                   S->rank_above, S->rank_eps_below, S->rank_eps_above, S->stable_below, S->eff_below, S->eff_above,
                   S->has_weights ? "true" : "false");
            json_sz(S->rw);
            json_taus_sz("rw_tau", o, S->rw_tau);
            printf(",\"radius\":");
            json_num(S->radius);
            json_taus_sz("rw_tau_emp", o, S->rw_tau_emp);
            printf(",\"radius_emp\":");
            json_num(S->radius_emp);
            printf(",\"seconds\":%.3f}\n", S->seconds);
        }
        for (size_t l = 0; l < R[m].nlayers; l++) {
            char lay[32];
            snprintf(lay, sizeof lay, "%zu", l);
            json_assoc(R[m].model, lay, &R[m].layer[l], o);
        }
        json_assoc(R[m].model, "\"all\"", &R[m].all, o);
        for (size_t s = 0; s < o->nscales; s++)
            json_assoc_scale(R[m].model, o->scales[s], &R[m].at_scale[s], o);
        printf("{\"summary\":\"other\",\"model\":");
        out_json_string(stdout, R[m].model);
        printf(",\"spearman_rtau\":");
        json_num(R[m].spearman_rtau);
        printf(",\"p_value_rtau\":");
        json_num(R[m].p_value_rtau);
        printf(",\"p_value_rtau_t\":");
        json_num(R[m].p_value_rtau_t);
        printf(",\"spearman_vis\":");
        json_num(R[m].spearman_vis);
        printf(",\"p_value_vis\":");
        json_num(R[m].p_value_vis);
        printf(",\"p_value_vis_t\":");
        json_num(R[m].p_value_vis_t);
        printf(",\"settings\":%zu,\"inputs\":%zu,\"seconds\":%.3f}\n", R[m].nset, R[m].nsent, R[m].seconds);
    }
    if (pooled)
        json_assoc("all", "\"all\"", pooled, &R[0].opts);
}

static void tsv_sz(size_t v, const char *end)
{
    if (v == VISIBLE_NONE)
        printf("-%s", end);
    else
        printf("%zu%s", v, end);
}

/* v in printf format fmt, or "undefined" (not a bare nan) */
static void tsv_num(const char *fmt, double v)
{
    if (isfinite(v))
        printf(fmt, v);
    else
        printf("undefined");
}

static void tsv_assoc(const char *model, const char *layer, const calib_assoc_t *A, const calib_opts_t *o)
{
    printf("# association %s layer %s settings %zu spearman ", model, layer, A->nset);
    tsv_num("%.4f", A->rho);
    printf(" ci ");
    tsv_num("%.4f", A->lo);
    printf(" ");
    tsv_num("%.4f", A->hi);
    printf(" (%g bootstrap, %zu of %zu replicates defined) p ", o->level, A->nboot_ok, o->nboot);
    tsv_num("%.4g", A->p_value);
    printf(" p_t ");
    tsv_num("%.4g", A->p_value_t);
    printf("\n");
}

static void print_tsv(const calib_result_t *R, size_t nr, const calib_assoc_t *pooled)
{
    printf("model\tlayer\thead\tdh\tscale\tbeta\tinputs\tr_median\tr_tau_median\treduction\treduction_vis\t"
           "lower_mean\tupper_mean\tupper_median\tupper_frac\tcertified\trw_tau\trw_tau_emp\t"
           "uncert_numrank\tuncert_numrank_eps\tuncert_stable\tuncert_effective\tnumrank_eps_below_lower\t"
           "numrank_above_upper\tseconds\n");
    for (size_t m = 0; m < nr; m++) {
        const calib_opts_t *o = &R[m].opts;
        for (size_t i = 0; i < R[m].nset; i++) {
            const calib_setting_t *S = &R[m].set[i];
            printf("%s\t%zu\t%zu\t%zu\t%g\t%.9g\t%zu\t%g\t%g\t%.4f\t%.4f\t%.3f\t%.3f\t%g\t%.4f\t%zu\t", R[m].model,
                   S->layer, S->head, S->dh, S->scale, S->beta, S->nsent, S->r_median, S->r_tau_median[o->tau_main],
                   S->reduction_mean[o->tau_main], S->reduction_vis_mean[o->tau_main], S->lower_mean, S->upper_mean,
                   S->upper_median, S->upper_frac_mean, S->ncertified);
            tsv_sz(S->rw_tau[o->tau_main], "\t");
            tsv_sz(S->rw_tau_emp[o->tau_main], "\t");
            printf("%.3f\t%.3f\t%.3f\t%.3f\t%zu\t%zu\t%.3f\n", S->un_rank_mean, S->un_rank_eps_mean, S->un_stable_mean,
                   S->un_eff_mean, S->rank_eps_below, S->rank_above, S->seconds);
        }
    }
    for (size_t m = 0; m < nr; m++) {
        const calib_opts_t *o = &R[m].opts;
        printf("# model %s tau %g eps %g inputs %zu settings %zu perms %zu seed %llu\n", R[m].model,
               o->taus[o->tau_main], o->eps, R[m].nsent, R[m].nset, o->nperm, (unsigned long long)o->seed);
        for (size_t l = 0; l < R[m].nlayers; l++) {
            char lay[32];
            snprintf(lay, sizeof lay, "%zu", l);
            tsv_assoc(R[m].model, lay, &R[m].layer[l], o);
        }
        tsv_assoc(R[m].model, "all", &R[m].all, o);
        for (size_t s = 0; s < o->nscales; s++) {
            char lay[48];
            snprintf(lay, sizeof lay, "all, at scale %g", o->scales[s]);
            tsv_assoc(R[m].model, lay, &R[m].at_scale[s], o);
        }
        printf("# model %s spearman(r_tau_median, upper_mean) ", R[m].model);
        tsv_num("%.4f", R[m].spearman_rtau);
        printf(" p ");
        tsv_num("%.4g", R[m].p_value_rtau);
        printf(" p_t ");
        tsv_num("%.4g", R[m].p_value_rtau_t);
        printf("\n# model %s spearman(reduction_vis, upper_mean) ", R[m].model);
        tsv_num("%.4f", R[m].spearman_vis);
        printf(" p ");
        tsv_num("%.4g", R[m].p_value_vis);
        printf(" p_t ");
        tsv_num("%.4g", R[m].p_value_vis_t);
        printf("\n");
        printf("# model %s seconds %.1f\n", R[m].model, R[m].seconds);
    }
    if (pooled)
        tsv_assoc("all", "all", pooled, &R[0].opts);
}

static void text_assoc(const char *what, const calib_assoc_t *A, const calib_opts_t *o)
{
    if (isnan(A->rho)) {   /* fewer than 2 settings, or one side constant */
        printf("%-28s rho undefined (fewer than 2 settings, or the reduction or the upper end constant)  "
               "(%zu settings)\n", what, A->nset);
        return;
    }
    printf("%-28s rho = %7.4f  %g%% bootstrap interval [%7.4f, %7.4f]  permutation p = %.4g  t p = %.4g  "
           "(%zu settings)\n", what, A->rho, 100 * o->level, A->lo, A->hi, A->p_value, A->p_value_t, A->nset);
}

static void print_text(const calib_result_t *R, size_t nr, const calib_assoc_t *pooled)
{
    for (size_t m = 0; m < nr; m++) {
        const calib_opts_t *o = &R[m].opts;
        double tm = o->taus[o->tau_main];
        printf("claim E on %s: %zu inputs, eps = %g, main tau = %g, %zu settings\n\n", R[m].model, R[m].nsent, o->eps,
               tm, R[m].nset);
        printf("| layer | head | dh | scale | r (med) | r(%g) med | red(%g) | red/r(%g) | certified lower..upper "
               "(means) | rw(%g) | uncertified: numrank | numrank(eps) | stable | effective |\n"
               "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n", tm, tm, tm, tm);
        for (size_t i = 0; i < R[m].nset; i++) {
            const calib_setting_t *S = &R[m].set[i];
            printf("| %zu | %zu | %zu | %g | %g | %g | %.3f | %.3f | %.2f .. %.2f | ", S->layer, S->head, S->dh,
                   S->scale, S->r_median, S->r_tau_median[o->tau_main], S->reduction_mean[o->tau_main],
                   S->reduction_vis_mean[o->tau_main], S->lower_mean, S->upper_mean);
            if (!S->has_weights)
                printf("- | ");
            else
                tsv_sz(S->rw_tau[o->tau_main], " | ");
            printf("%.2f | %.2f | %.2f | %.2f |\n", S->un_rank_mean, S->un_rank_eps_mean, S->un_stable_mean,
                   S->un_eff_mean);
        }
        printf("\nassociation of the mean reduction 1 - r(%g)/dh with the mean certified upper end:\n", tm);
        for (size_t l = 0; l < R[m].nlayers; l++) {
            char what[64];
            snprintf(what, sizeof what, "%s layer %zu:", R[m].model, l);
            text_assoc(what, &R[m].layer[l], o);
        }
        char what[64];
        snprintf(what, sizeof what, "%s all layers:", R[m].model);
        text_assoc(what, &R[m].all, o);
        for (size_t s = 0; s < o->nscales; s++) {
            snprintf(what, sizeof what, "%s at scale %g only:", R[m].model, o->scales[s]);
            text_assoc(what, &R[m].at_scale[s], o);
        }
        printf("rho(median r(%g), mean upper) = %.4f, p = %.4g; rho(reduction relative to r, mean upper) = %.4f, "
               "p = %.4g\n", tm, R[m].spearman_rtau, R[m].p_value_rtau, R[m].spearman_vis, R[m].p_value_vis);
        printf("uncertified measures (numerical rank, stable rank, effective rank) are estimates, not certificates\n");
        printf("time: %.1f s\n\n", R[m].seconds);
    }
    if (pooled)
        text_assoc("pooled over the models:", pooled, &R[0].opts);
}

void calib_print(const calib_result_t *R, size_t nr, const calib_assoc_t *pooled, sweep_format_t fmt, int per_input)
{
    if (per_input)
        for (size_t m = 0; m < nr; m++)
            print_inputs(&R[m]);
    if (fmt == SWEEP_FORMAT_JSON)
        print_json(R, nr, pooled);
    else if (fmt == SWEEP_FORMAT_TSV)
        print_tsv(R, nr, pooled);
    else
        print_text(R, nr, pooled);
}

void calib_print_progress(void *ctx, size_t done, size_t total)
{
    (void)ctx;
    if (done % 16 == 0 || done == total) {
        fprintf(stderr, "\r\033[Kcalib: %zu/%zu instances", done, total);
        if (done == total)
            fputc('\n', stderr);
        fflush(stderr);
    }
}
