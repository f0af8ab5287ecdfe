/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_bracket_ball.c -- `attnrank bracket --geometry ball ...`: certified
 * eps-rank bracket of a ball instance with Gaussian multiplicities (claim B).
 * Called from cmd_bracket when --geometry ball is given; parses its own
 * options and calls attnrank_bracket_ball (include/attnrank.h), which runs the
 * route chooser on the generated instance. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "numerics/textout.h"
#include "include/attnrank.h"
#include "base/version.h"

static const char help[] =
    "Usage: attnrank bracket --geometry ball --family shells|dense|uniform --d D --beta B --eps E\n"
    "                        [--rho0 R] [--unweighted] [--n N] [--seed S] [--m0 M0]\n"
    "                        [--prec BITS] [--threads T] [--format text|tsv|json] [--progress]\n"
    "Self-attention on points of the unit ball B^d with multiplicities\n"
    "round(M0 exp(beta (1 - |x|^2)/2)) (exact integers of any size; --unweighted: none):\n"
    "  shells   radial shells in [rho0, 1] spaced ~ 1/sqrt(beta), cap packings on each\n"
    "  dense    cubic lattice in rho0 <= |x| <= 1 with about N points (default 2000)\n"
    "  uniform  N uniform samples (seeded)\n"
    "rho0 defaults to sqrt(3)/2 (largest multiplicity e^{beta/8}); 0 is the full ball.\n"
    "Both ends are rigorous certificates computed on the distinct points only:\n"
    "lower = cluster test matrix (weighted diagonal dominance or a delta-net), upper =\n"
    "tensor Chebyshev expansion of the Gaussian kernel; the dense certificates are added\n"
    "when there are at most 3000 distinct points (ATTNRANK_BALL_DENSE_MAX).\n"
    "An instance whose generation cannot finish (more than 5000000 distinct points,\n"
    "more than 2e9 steps of lattice walk, rejection sampling or cap packing, or\n"
    "multiplicities beyond 2^22 bits) is refused before any work, naming what to change.\n";

/* 1 if argv asks for --geometry ball. */
int cmd_bracket_is_ball(int argc, char **argv)
{
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--geometry=ball") == 0)
            return 1;
        if (strcmp(argv[i], "--geometry") == 0 && i + 1 < argc && strcmp(argv[i + 1], "ball") == 0)
            return 1;
    }
    return 0;
}

/* The ball instance's spec from the options o: the family's defaults in dimension d at beta, then
 * --unweighted, --rho0 (in [0, 1)), --n or its deprecated spelling --npoints (dense and uniform only;
 * --npoints warns on stderr), --seed and --m0 (>= 1), checked in that order. */
static ar_status parse_spec(const opt_t *o, size_t no, size_t d, double beta, attnrank_ball_spec *s)
{
    ar_status st;
    const char *fam = args_get(o, no, "family");
    attnrank_ball_spec_default(s, fam, d, beta);
    s->unweighted = args_get(o, no, "unweighted") != NULL;
    if (args_get(o, no, "rho0")) {
        if ((st = args_double("rho0", args_get(o, no, "rho0"), &s->rho0)))
            return st;
        if (!(s->rho0 >= 0 && s->rho0 < 1)) {
            ar_error_set("--rho0 must be in [0, 1), got %g", s->rho0);
            return AR_EINVAL;
        }
    }
    /* --n, as every command names the number of points; --npoints is its old spelling (deprecated) */
    const char *ns = args_get(o, no, "n"), *nps = args_get(o, no, "npoints");
    if (ns && nps) {
        ar_error_set("give --n only (--npoints is its deprecated spelling)");
        return AR_EINVAL;
    }
    if (nps)
        fprintf(stderr, "attnrank: warning: --npoints is deprecated and will be removed; use --n\n");
    if (ns || nps) {
        if (!strcmp(s->family, "shells")) {
            ar_error_set("--n applies to the dense and uniform families (shells are set by beta)");
            return AR_EINVAL;
        }
        if ((st = args_size(ns ? "n" : "npoints", ns ? ns : nps, 1, 5000000, &s->npoints)))
            return st;
    }
    if (args_get(o, no, "seed") && (st = args_u64("seed", args_get(o, no, "seed"), &s->seed)))
        return st;
    if (args_get(o, no, "m0")) {
        if ((st = args_double("m0", args_get(o, no, "m0"), &s->m0)))
            return st;
        if (!(s->m0 >= 1)) {
            ar_error_set("--m0 must be >= 1, got %g", s->m0);
            return AR_EINVAL;
        }
    }
    return AR_OK;
}

/* The result r of the instance spec s (its points P) as one JSON line on stdout. */
static void print_json(const attnrank_bracket_result *r, const attnrank_ball_spec *s, const attnrank_points *P,
                       size_t d, double beta, double eps)
{
    double l10 = r->log10_n, l10w = r->log10_max_multiplicity;
    double need = beta / 8.0 / log(10.0);
    double total = r->seconds;
    printf("{\"lower\":%zu,\"upper\":%zu,\"status\":\"%s\",\"routes\":\"%s\",\"lower_route\":\"%s\","
           "\"upper_route\":\"%s\",\"n\":", r->lower, r->upper, r->status, r->routes, r->lower_route, r->upper_route);
    out_json_decimal(stdout, r->n);
    printf(",\"log10_n\":%.6f,\"distinct_points\":%zu,\"log10_max_multiplicity\":%.6f,"
           "\"log10_e_beta_over_8\":%.6f,\"n_condition_holds\":%s,\"d\":%zu,\"beta\":%s,\"eps\":%s,"
           "\"geometry\":\"ball\",\"family\":\"%s\",\"rho0\":%s,\"weighted\":%s,\"m0\":%s,"
           "\"lower_certificate\":\"%s\",\"lower_invnorm_bound\":%s,\"cluster_centres\":%zu,"
           "\"cluster_delta\":%.6g,\"cluster_max_R\":%.6g,"
           "\"upper_certificate\":\"%s\",\"upper_err_bound\":%s,\"tensor_points_per_axis\":%zu,"
           "\"tensor_rank\":%zu,\"tensor_capped\":%s,\"tensor_ratio\":%.6g,\"dense_run\":%s,"
           "\"seconds\":%.3f,\"seconds_generate\":%.3f,\"route_plan\":%s,\"source\":",
           l10, r->distinct_keys, l10w, need, l10 >= need ? "true" : "false", d, real_str(beta), real_str(eps), s->family, real_str(s->rho0),
           s->unweighted ? "false" : "true", real_str(s->m0), r->lower_certificate, real_str(r->lower_invnorm_bound), r->cluster_centres,
           r->cluster_delta, r->cluster_max_r, r->upper_certificate, real_str(r->upper_err_bound), r->tensor_points_per_axis,
           r->tensor_rank, r->tensor_capped ? "true" : "false", r->tensor_ratio, r->dense_run ? "true" : "false",
           total, r->seconds_generate, r->route_plan ? r->route_plan : "[]");
    out_json_string(stdout, attnrank_points_provenance(P));
    printf(",%s}\n", version_json_fields());
}

/* The result r as a TSV header line and one row on stdout. */
static void print_tsv(const attnrank_bracket_result *r, size_t d, double beta, double eps)
{
    double l10 = r->log10_n;
    double total = r->seconds;
    printf("lower\tupper\tstatus\tlog10_n\tdistinct\td\tbeta\teps\tlower_certificate\tupper_certificate\tupper_err\tseconds\n");
    printf("%zu\t%zu\t%s\t%.6f\t%zu\t%zu\t%s\t%s\t%s\t%s\t%.6g\t%.3f\n", r->lower, r->upper, r->status, l10,
           r->distinct_keys, d, real_str(beta), real_str(eps), r->lower_certificate, r->upper_certificate, r->upper_err_bound, total);
}

/* The result r (its points P) as text on stdout. */
static void print_text(const attnrank_bracket_result *r, const attnrank_points *P, double beta, double eps)
{
    double l10 = r->log10_n, l10w = r->log10_max_multiplicity;
    double need = beta / 8.0 / log(10.0);
    double total = r->seconds;
    printf("instance   %s\n", attnrank_points_provenance(P));
    printf("           %zu distinct points, n = 10^%.2f with multiplicity (largest 10^%.2f)\n", r->distinct_keys,
           l10, l10w);
    printf("condition  n >= e^{beta/8} = 10^%.2f: %s\n", need, l10 >= need ? "holds" : "does not hold");
    printf("beta, eps  %s, %s\n", real_str(beta), real_str(eps));
    printf("rank_eps   in [%zu, %zu]   (%s)\n", r->lower, r->upper, r->status);
    printf("lower      %zu by %s route, %s", r->lower, r->lower_route, r->lower_certificate);
    if (strcmp(r->lower_certificate, "trivial") != 0)
        printf(": ||M^-1||_inf <= %.6g, eps * bound < 1", r->lower_invnorm_bound);
    if (strncmp(r->lower_certificate, "ball-", 5) == 0)
        printf(" (%zu centres, delta %.4g, max R %.4g)", r->cluster_centres, r->cluster_delta, r->cluster_max_r);
    printf("\nupper      %zu by %s route, %s: ||A - B||_r1 <= %.6g <= eps\n", r->upper, r->upper_route,
           r->upper_certificate, r->upper_err_bound);
    printf("routes     %s\n", r->routes);
    if (r->tensor_points_per_axis)
        printf("tensor     %zu Chebyshev points per axis (rank %zu%s), max_i G/Z_i <= %.4g\n",
               r->tensor_points_per_axis, r->tensor_rank, r->tensor_capped ? ", not below n" : "", r->tensor_ratio);
    printf("time       %.3f s\n", total);
    printf("versions   %s\n", version_line());
}

int cmd_bracket_ball(int argc, char **argv)
{
    opt_t o[] = { { "geometry", 1, NULL }, { "family", 1, NULL }, { "d", 1, NULL }, { "beta", 1, NULL },
                  { "eps", 1, NULL }, { "rho0", 1, NULL }, { "unweighted", 0, NULL }, { "n", 1, NULL },
                  { "npoints", 1, NULL },
                  { "seed", 1, NULL }, { "m0", 1, NULL }, { "prec", 1, NULL }, { "threads", 1, NULL },
                  { "format", 1, NULL }, { "progress", 0, NULL }, { "help", 0, NULL } };
    size_t no = sizeof o / sizeof o[0];
    ar_status st;
    if ((st = args_parse(argc, argv, 2, o, no, "bracket --geometry ball")))
        return cmd_fail(st);
    if (args_get(o, no, "help")) {
        fputs(help, stdout);
        return 0;
    }
    double beta, eps;
    out_format_t fmt;
    size_t d;
    if (!args_get(o, no, "family") || !args_get(o, no, "d")) {
        ar_error_set("--geometry ball needs --family shells|dense|uniform and --d");
        return cmd_fail(AR_EINVAL);
    }
    attnrank_ball_spec s;
    if ((st = args_beta(args_get(o, no, "beta"), &beta)) || (st = args_eps(args_get(o, no, "eps"), &eps)) ||
        (st = args_format(args_get(o, no, "format"), &fmt)) ||
        (st = (ar_status)attnrank_ball_spec_default(&s, args_get(o, no, "family"), 2, 1.0)) ||
        (st = args_size("d", args_get(o, no, "d"), 2, 16, &d)))
        return cmd_fail(st);
    if (!(beta > 0)) {
        ar_error_set("--geometry ball needs beta > 0");
        return cmd_fail(AR_EINVAL);
    }
    if ((st = parse_spec(o, no, d, beta, &s)))
        return cmd_fail(st);
    attnrank_options ao;
    attnrank_options_default(&ao);
    if ((st = args_prec_threads(o, no, &ao.prec, &ao.threads)))
        return cmd_fail(st);
    double after;
    if ((st = cmd_bracket_progress_after(&after)))
        return cmd_fail(st);
    cli_progress_t prog;
    int reporting = args_get(o, no, "progress") || (fmt != FMT_JSON && isatty(2));
    if (reporting) {
        cli_progress_start(&prog, "bracket", after);
        ao.progress = cli_progress_message;
        ao.progress_ctx = &prog;
    }
    attnrank_bracket_result r;
    ATTNRANK_INIT(&r);
    attnrank_points *P = NULL;
    st = (ar_status)attnrank_bracket_ball(&s, eps, &ao, &r, &P);
    if (reporting)
        cli_progress_stop(&prog);
    if (st)
        return cmd_fail(st);
    if (fmt == FMT_JSON)
        print_json(&r, &s, P, d, beta, eps);
    else if (fmt == FMT_TSV)
        print_tsv(&r, d, beta, eps);
    else
        print_text(&r, P, beta, eps);
    attnrank_bracket_clear(&r);
    attnrank_points_free(P);
    return 0;
}
