/* cmd_calib.c -- `attnrank calib`: claim E on a real pretrained transformer
 * (USE lite, fetched by `make calib-data`) over the committed license-text
 * corpus: per (layer, head, scale) visible dimension, r(tau), certified
 * rank_eps brackets, weights-only r(tau); Spearman association. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/args.h"
#include "cli/commands.h"
#include "constructions/formats/corpus.h"
#include "constructions/models/real_model.h"
#include "constructions/models/real_pins.h"
#include "numerics/path.h"
#include "theory/heads/calib.h"
#include "theory/heads/visible.h"

static const char help[] =
    "Usage: attnrank calib [--data DIR] [--licenses DIR] [--sentences N] [--eps E]\n"
    "                      [--scales S1,S2,..] [--taus T1,T2,..] [--tau-main T]\n"
    "                      [--perms P] [--seed S] [--threads T] [--format text|tsv|json]\n"
    "                      [--per-sentence]\n"
    "Claim E on Google's Universal Sentence Encoder lite (2 layers x 4 heads; run\n"
    "'make calib-data' first; DIR defaults to .cache/calib; every model file is\n"
    "checked against its pinned sha256 before it is read) over the committed\n"
    "corpus of license sentences (/usr/share/common-licenses, checked against\n"
    "its sha256 manifest; --sentences N keeps the first N).  For every layer,\n"
    "head and scale s (beta = s/sqrt(dh); defaults 0.5,1,2,4) and every sentence:\n"
    "the visible dimension r, the certified r(tau) (defaults 0.05,0.1,0.2), the\n"
    "certified bracket lower <= rank_eps(A) <= upper (eps 0.1); per head the\n"
    "weights-only r(tau) of [W_Q;b_Q][W_K;b_K]^T at the a priori input radius.\n"
    "Ends with Spearman's rho between the mean reduction 1 - r(tau)/dh at the main\n"
    "tau (default 0.1) and the mean certified upper bound across settings, with a\n"
    "permutation p-value (P = 10000 permutations, seed 1) and the asymptotic\n"
    "Student-t p-value (n - 2 degrees of freedom).\n"
    "TSV: one row per (layer, head, scale) under a header, then '#' comment lines\n"
    "with the Spearman results.\n"
    "JSON: one line per (layer, head, scale), then one line with spearman, p_value\n"
    "(permutation) and p_value_t (asymptotic t);\n"
    "--per-sentence (JSON only) first prints one line per (layer, head, scale,\n"
    "sentence) with \"sentence\", \"n\", \"r\", \"r_tau\", \"lower\", \"upper\".\n";

static void progress(size_t done, size_t total, void *ctx)
{
    (void)ctx;
    if (done % 16 == 0 || done == total) {
        fprintf(stderr, "\r\033[Kcalib: %zu/%zu instances", done, total);
        if (done == total)
            fputc('\n', stderr);
        fflush(stderr);
    }
}

static void print_sz(size_t v)
{
    if (v == VISIBLE_NONE)
        printf("null");
    else
        printf("%zu", v);
}

static void print_sentences(const calib_result_t *R)
{
    const calib_opts_t *o = &R->opts;
    for (size_t i = 0; i < R->nset; i++) {
        const calib_setting_t *S = &R->set[i];
        for (size_t s = 0; s < S->nsent; s++) {
            printf("{\"layer\":%zu,\"head\":%zu,\"scale\":%.17g,\"sentence\":%zu,\"n\":%zu,\"r\":%zu,\"r_tau\":{",
                   S->layer, S->head, S->scale, s, S->ntok[s], S->r[s]);
            for (size_t t = 0; t < o->ntau; t++)
                printf("%s\"%g\":%zu", t ? "," : "", o->taus[t], S->r_tau[s * o->ntau + t]);
            printf("},\"lower\":%zu,\"upper\":%zu}\n", S->lower[s], S->upper[s]);
        }
    }
}

static void print_json(const calib_result_t *R)
{
    const calib_opts_t *o = &R->opts;
    for (size_t i = 0; i < R->nset; i++) {
        const calib_setting_t *S = &R->set[i];
        printf("{\"layer\":%zu,\"head\":%zu,\"scale\":%.17g,\"beta\":%.17g,\"dh\":%zu,\"sentences\":%zu,"
               "\"r\":%.17g,\"r_tau\":{", S->layer, S->head, S->scale, S->beta, S->dh, S->nsent, S->r_median);
        for (size_t t = 0; t < o->ntau; t++)
            printf("%s\"%g\":%.17g", t ? "," : "", o->taus[t], S->r_tau_median[t]);
        printf("},\"reduction\":{");
        for (size_t t = 0; t < o->ntau; t++)
            printf("%s\"%g\":%.17g", t ? "," : "", o->taus[t], S->reduction_mean[t]);
        printf("},\"upper\":%.17g,\"lower\":%.17g,\"upper_median\":%.17g,\"lower_median\":%.17g,"
               "\"upper_frac\":%.17g,\"certified\":%zu,\"eps\":%.17g,\"rw\":%zu,\"rw_tau\":{",
               S->upper_mean, S->lower_mean, S->upper_median, S->lower_median, S->upper_frac_mean,
               S->ncertified, o->eps, S->rw);
        for (size_t t = 0; t < o->ntau; t++) {
            printf("%s\"%g\":", t ? "," : "", o->taus[t]);
            print_sz(S->rw_tau[t]);
        }
        printf("},\"radius\":%.17g,\"rw_tau_emp\":{", S->radius);
        for (size_t t = 0; t < o->ntau; t++) {
            printf("%s\"%g\":", t ? "," : "", o->taus[t]);
            print_sz(S->rw_tau_emp[t]);
        }
        printf("},\"radius_emp\":%.17g,\"reduction_vis\":{", S->radius_emp);
        for (size_t t = 0; t < o->ntau; t++)
            printf("%s\"%g\":%.17g", t ? "," : "", o->taus[t], S->reduction_vis_mean[t]);
        printf("},\"seconds\":%.3f}\n", S->seconds);
    }
    printf("{\"spearman\":%.17g,\"p_value\":%.17g,\"p_value_t\":%.17g,\"x\":\"mean reduction 1-r(tau)/dh\","
           "\"y\":\"mean upper\",\"tau\":%g,\"spearman_rtau\":%.17g,\"p_value_rtau\":%.17g,\"p_value_rtau_t\":%.17g,"
           "\"settings\":%zu,\"sentences\":%zu,\"spearman_vis\":%.17g,\"p_value_vis\":%.17g,\"p_value_vis_t\":%.17g,"
           "\"spearman_layer\":[",
           R->spearman, R->p_value, R->p_value_t, o->taus[o->tau_main], R->spearman_rtau, R->p_value_rtau,
           R->p_value_rtau_t, R->nset, R->nsent, R->spearman_vis, R->p_value_vis, R->p_value_vis_t);
    for (size_t l = 0; l < REAL_LAYERS; l++)
        printf("%s%.17g", l ? "," : "", R->spearman_layer[l]);
    printf("],\"p_value_layer\":[");
    for (size_t l = 0; l < REAL_LAYERS; l++)
        printf("%s%.17g", l ? "," : "", R->p_value_layer[l]);
    printf("],\"p_value_layer_t\":[");
    for (size_t l = 0; l < REAL_LAYERS; l++)
        printf("%s%.17g", l ? "," : "", R->p_value_layer_t[l]);
    printf("],\"perms\":%zu,\"seed\":%llu,\"seconds\":%.3f}\n", o->nperm, (unsigned long long)o->seed,
           R->seconds);
}

static void print_tsv(const calib_result_t *R)
{
    const calib_opts_t *o = &R->opts;
    double tm = o->taus[o->tau_main];
    printf("layer\thead\tdh\tscale\tbeta\tsentences\tr_median\tr_tau_median\treduction\treduction_vis\t"
           "lower_mean\tupper_mean\tupper_median\tupper_frac\tcertified\trw_tau\trw_tau_emp\tseconds\n");
    for (size_t i = 0; i < R->nset; i++) {
        const calib_setting_t *S = &R->set[i];
        printf("%zu\t%zu\t%zu\t%g\t%.9g\t%zu\t%g\t%g\t%.4f\t%.4f\t%.3f\t%.3f\t%g\t%.4f\t%zu\t", S->layer, S->head,
               S->dh, S->scale, S->beta, S->nsent, S->r_median, S->r_tau_median[o->tau_main],
               S->reduction_mean[o->tau_main], S->reduction_vis_mean[o->tau_main], S->lower_mean, S->upper_mean,
               S->upper_median, S->upper_frac_mean, S->ncertified);
        size_t a = S->rw_tau[o->tau_main], b = S->rw_tau_emp[o->tau_main];
        if (a == VISIBLE_NONE) printf("-\t"); else printf("%zu\t", a);
        if (b == VISIBLE_NONE) printf("-\t"); else printf("%zu\t", b);
        printf("%.3f\n", S->seconds);
    }
    printf("# tau %g eps %g sentences %zu settings %zu perms %zu seed %llu\n", tm, o->eps, R->nsent, R->nset,
           o->nperm, (unsigned long long)o->seed);
    printf("# spearman(reduction, upper_mean) %.4f p %.4g p_t %.4g\n", R->spearman, R->p_value, R->p_value_t);
    printf("# spearman(r_tau_median, upper_mean) %.4f p %.4g p_t %.4g\n", R->spearman_rtau, R->p_value_rtau,
           R->p_value_rtau_t);
    printf("# spearman(reduction_vis, upper_mean) %.4f p %.4g p_t %.4g\n", R->spearman_vis, R->p_value_vis,
           R->p_value_vis_t);
    for (size_t l = 0; l < REAL_LAYERS; l++)
        printf("# layer %zu spearman(reduction, upper_mean) %.4f p %.4g p_t %.4g\n", l, R->spearman_layer[l],
               R->p_value_layer[l], R->p_value_layer_t[l]);
    printf("# seconds %.1f\n", R->seconds);
}

static void print_text(const calib_result_t *R)
{
    const calib_opts_t *o = &R->opts;
    printf("claim E on USE lite: %zu sentences, eps = %g, main tau = %g, %zu settings\n\n", R->nsent, o->eps,
           o->taus[o->tau_main], R->nset);
    printf("| layer | head | dh | scale | r (med) |");
    for (size_t t = 0; t < o->ntau; t++)
        printf(" r(%g) med | red(%g) |", o->taus[t], o->taus[t]);
    printf(" red/r(%g) | lower mean | upper mean | upper/n | rw(%g) | rw_emp(%g) |\n|---|---|---|---|---|",
           o->taus[o->tau_main], o->taus[o->tau_main], o->taus[o->tau_main]);
    for (size_t t = 0; t < o->ntau; t++)
        printf("---|---|");
    printf("---|---|---|---|---|---|\n");
    for (size_t i = 0; i < R->nset; i++) {
        const calib_setting_t *S = &R->set[i];
        printf("| %zu | %zu | %zu | %g | %g |", S->layer, S->head, S->dh, S->scale, S->r_median);
        for (size_t t = 0; t < o->ntau; t++)
            printf(" %g | %.3f |", S->r_tau_median[t], S->reduction_mean[t]);
        printf(" %.3f | %.2f | %.2f | %.3f | ", S->reduction_vis_mean[o->tau_main], S->lower_mean, S->upper_mean,
               S->upper_frac_mean);
        size_t a = S->rw_tau[o->tau_main], b = S->rw_tau_emp[o->tau_main];
        if (a == VISIBLE_NONE) printf("none | "); else printf("%zu | ", a);
        if (b == VISIBLE_NONE) printf("none |\n"); else printf("%zu |\n", b);
    }
    printf("\nSpearman rho(mean reduction at tau %g, mean upper) = %.4f, permutation p = %.4g (%zu perms, seed %llu), "
           "asymptotic t p = %.4g\n",
           o->taus[o->tau_main], R->spearman, R->p_value, o->nperm, (unsigned long long)o->seed, R->p_value_t);
    printf("Spearman rho(median r(tau %g), mean upper) = %.4f, p = %.4g (t: %.4g)\n", o->taus[o->tau_main],
           R->spearman_rtau, R->p_value_rtau, R->p_value_rtau_t);
    printf("Spearman rho(mean reduction relative to r, mean upper) = %.4f, p = %.4g (t: %.4g)\n", R->spearman_vis,
           R->p_value_vis, R->p_value_vis_t);
    for (size_t l = 0; l < REAL_LAYERS; l++)
        printf("within layer %zu: rho(reduction, upper) = %.4f, p = %.4g (t: %.4g)\n", l, R->spearman_layer[l],
               R->p_value_layer[l], R->p_value_layer_t[l]);
    printf("time: %.1f s (forward passes %.2f s)\n", R->seconds, R->seconds_forward);
}

int cmd_calib(int argc, char **argv)
{
    opt_t o[] = { { "data", 1, NULL }, { "licenses", 1, NULL }, { "sentences", 1, NULL }, { "eps", 1, NULL },
                  { "scales", 1, NULL }, { "taus", 1, NULL }, { "tau-main", 1, NULL }, { "perms", 1, NULL },
                  { "seed", 1, NULL }, { "threads", 1, NULL }, { "format", 1, NULL }, { "per-sentence", 0, NULL },
                  { "help", 0, NULL } };
    size_t no = sizeof o / sizeof o[0];
    ar_status st;
    if ((st = args_parse(argc, argv, 2, o, no, "calib")))
        return cmd_fail(st);
    if (args_get(o, no, "help")) {
        fputs(help, stdout);
        return 0;
    }
    calib_opts_t co;
    calib_opts_default(&co);
    out_format_t fmt;
    const char *v;
    if ((st = args_format(args_get(o, no, "format"), &fmt)))
        return cmd_fail(st);
    int per_sentence = args_get(o, no, "per-sentence") != NULL;
    if (per_sentence && fmt != FMT_JSON) {
        ar_error_set("--per-sentence needs --format json");
        return cmd_fail(AR_EINVAL);
    }
    if ((v = args_get(o, no, "eps")) && (st = args_eps(v, &co.eps)))
        return cmd_fail(st);
    if ((v = args_get(o, no, "scales")) && (st = args_double_list("scales", v, co.scales, CALIB_MAX_SCALES, &co.nscales)))
        return cmd_fail(st);
    if ((v = args_get(o, no, "taus"))) {
        if ((st = args_double_list("taus", v, co.taus, CALIB_MAX_TAUS, &co.ntau)))
            return cmd_fail(st);
        co.tau_main = co.ntau / 2;
    }
    if ((v = args_get(o, no, "tau-main"))) {
        double tm;
        if ((st = args_double("tau-main", v, &tm)))
            return cmd_fail(st);
        size_t t = 0;
        while (t < co.ntau && co.taus[t] != tm)
            t++;
        if (t == co.ntau) {
            ar_error_set("--tau-main: %g is not one of the taus", tm);
            return cmd_fail(AR_EINVAL);
        }
        co.tau_main = t;
    }
    if ((v = args_get(o, no, "perms")) && (st = args_size("perms", v, 1, 10000000, &co.nperm)))
        return cmd_fail(st);
    if ((v = args_get(o, no, "seed")) && (st = args_u64("seed", v, &co.seed)))
        return cmd_fail(st);
    size_t thr = 0;
    if ((v = args_get(o, no, "threads")) && (st = args_size("threads", v, 1, 64, &thr)))
        return cmd_fail(st);
    co.threads = (int)thr;
    size_t m;
    const corpus_entry_t *man = corpus_manifest(&m);
    if ((v = args_get(o, no, "sentences")) && (st = args_size("sentences", v, 1, m, &m)))
        return cmd_fail(st);
    const char *data = args_get(o, no, "data");
    if (!data)
        data = ".cache/calib";
    char *dir;
    if ((st = path_join(data, REAL_PINS_MODEL_DIR, &dir)))
        return cmd_fail(st);
    if (access(dir, R_OK) != 0) {
        ar_error_set("calib: %s not found: run 'make calib-data' first (or pass --data DIR)", dir);
        free(dir);
        return cmd_fail(AR_EIO);
    }
    free(dir);
    corpus_t C;
    if ((st = corpus_load(man, m, args_get(o, no, "licenses"), &C)))
        return cmd_fail(st);
    real_model_t M;
    if ((st = real_pins_load(data, &M))) {   /* every file checked against its pinned sha256 first */
        corpus_clear(&C);
        return cmd_fail(st);
    }
    if (isatty(2))
        co.progress = progress;
    calib_result_t R;
    st = calib_run(&M, &C, &co, &R);
    real_model_clear(&M);
    corpus_clear(&C);
    if (st)
        return cmd_fail(st);
    if (per_sentence)
        print_sentences(&R);
    if (fmt == FMT_JSON)
        print_json(&R);
    else if (fmt == FMT_TSV)
        print_tsv(&R);
    else
        print_text(&R);
    calib_result_clear(&R);
    return 0;
}
