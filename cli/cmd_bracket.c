/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_bracket.c -- `attnrank bracket`: certified eps-rank bracket of one instance. */
#include <stdio.h>
#include <string.h>
#include <jansson.h>
#include "cli/commands.h"
#include "numerics/textout.h"
#include "cli/source.h"
#include "cli/progress.h"
#include "include/attnrank.h"
#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include "base/clock.h"
#include "base/envvar.h"
#include "base/version.h"

static const char help[] =
    "Usage: attnrank bracket SOURCE --beta B --eps E [--format text|tsv|json]\n"
    "                        [--prec BITS] [--threads T] [--upper svd,symeig,pchol,rsvd]\n"
    "                        [--engine auto|dense|scale] [--progress] [--seed-sketch S]\n"
    "SOURCE is one of\n"
    "  --points X.npy [--multiplicities W.txt]      self-attention on the rows of X\n"
    "  --queries Q.npy --keys K.npy [--multiplicities W.txt]\n"
    "  --geometry sphere --family polygon|fibonacci|packing|uniform --d D --n N\n"
    "                    [--seed S] [--theta T]      (packing: separation T, at most N points)\n"
    "  --geometry ball --family shells|dense|uniform --d D --beta B   (claim B's instances;\n"
    "                    `attnrank bracket --geometry ball --help`)\n"
    "With --points or --queries/--keys, --logit-bias B.npy (m x n, float64/float32: 0, finite,\n"
    "or -inf for a masked entry, which is then exactly 0) brackets the attention a model\n"
    "computes with a mask or an additive bias: A_ij ~ w_j exp(beta q_i.k_j + b_ij) (a causal\n"
    "mask: -inf above the diagonal); only the dense route's certificates apply.\n"
    "Self-attention is decided by content: --queries X --keys X is --points X.\n"
    "Prints lower <= rank_eps(A) <= upper for A = rowsoftmax(beta Q K^T) with key\n"
    "multiplicities, in the max-row-l1 norm; both ends are rigorous certificates.\n"
    ".npy: float64/float32, n x d.  Multiplicities: one positive integer per line.\n"
    "Every certificate that applies to the instance and is affordable runs, and the\n"
    "best end of each is reported with its route (proofs-notes/routes.md):\n"
    "  circulant   a stored regular polygon (any n), exact n-gon at eps +- eta\n"
    "  packing     diagonal dominance on all points (above the dense size)\n"
    "  polynomial  harmonic polynomial upper certificate, points on the unit sphere\n"
    "  dense       enclosure of A, factorisations, block lower certificates\n"
    "              (max(m, n) <= 4000, or when nothing else applies; above 1 GiB of\n"
    "              matrix the enclosure is streamed in row blocks, never stored)\n"
    "  scale       lower end on farthest-point rows, sphere above the dense size\n"
    "--upper chooses the dense route's constructions.  Default: up to 500 distinct points\n"
    "the full factorisations (self-attention: symeig, pchol when symeig certifies nothing,\n"
    "the truncated SVD when symeig may not match it; svd for cross-attention); above,\n"
    "rsvd: a randomized range finder with power iterations, O(m n k), every rank verified\n"
    "by the same a-priori residual bound (for self-attention also rsym, its symmetric\n"
    "counterpart; --upper rsvd selects both).  --upper svd keeps the full SVD at any size.\n"
    "--seed-sketch S seeds rsvd's Gaussian sketch (default 20110217; reported).\n"
    "--engine dense|scale restricts to the dense or to the structured routes.\n"
    "--threads T: attnrank's own threads, 1..64 (default ATTNRANK_THREADS, else the CPUs this\n"
    "process may use: affinity mask, cgroup v2 quota); every number is the same for any T.\n"
    "Stages and timings go to stderr once a bracket runs longer than 2 s (ATTNRANK_PROGRESS_AFTER\n"
    "seconds), when stderr is a terminal or --progress is given (never under --format json\n"
    "without --progress).\n";

/* Parse the comma-separated --upper list into the API's mask. */
static ar_status parse_upper(const char *s, unsigned *mask)
{
    *mask = 0;
    char buf[128], *items[4];
    size_t k;
    if (strlen(s) >= sizeof buf) {
        ar_error_set("--upper: expected a comma-separated list of svd, symeig, pchol, rsvd");
        return AR_EINVAL;
    }
    strcpy(buf, s);
    ar_status st = args_split("upper", buf, items, 4, &k);
    if (st)
        return st;
    for (size_t i = 0; i < k; i++) {
        const char *t = items[i];
        if (!strcmp(t, "svd"))
            *mask |= ATTNRANK_UPPER_SVD;
        else if (!strcmp(t, "rsvd"))
            *mask |= ATTNRANK_UPPER_RSVD;
        else if (!strcmp(t, "symeig") || !strcmp(t, "pchol"))   /* self-attention only: the library decides */
            *mask |= !strcmp(t, "symeig") ? ATTNRANK_UPPER_SYMEIG : ATTNRANK_UPPER_PCHOL;
        else {
            ar_error_set("--upper: unknown construction '%s' (svd, symeig, pchol, rsvd)", t);
            return AR_EINVAL;
        }
    }
    if (!*mask) {
        ar_error_set("--upper: empty list");
        return AR_EINVAL;
    }
    return AR_OK;
}

/* Stage messages on stderr, from PROGRESS_AFTER seconds on, at least once a second (cli/progress.h). */
#define PROGRESS_AFTER 2.0
#define PROGRESS_AFTER_MAX 1e6

ar_status cmd_bracket_progress_after(double *seconds)
{
    return env_real("ATTNRANK_PROGRESS_AFTER", 0, PROGRESS_AFTER_MAX, PROGRESS_AFTER, seconds);
}

/* The route plan (the library's JSON array) as text: every route that applies, its decision and
 * estimate, and the reason of each one skipped or cut short. */
static void print_plan(const char *plan)
{
    json_t *a = plan ? json_loads(plan, 0, NULL) : NULL;
    size_t i;
    json_t *e;
    json_array_foreach(a, i, e) {
        const char *route = json_string_value(json_object_get(e, "route")),
                   *dec = json_string_value(json_object_get(e, "decision")),
                   *why = json_string_value(json_object_get(e, "reason"));
        json_t *pred = json_object_get(e, "predicted_seconds"), *sec = json_object_get(e, "seconds");
        if (!route || !dec || !strcmp(dec, "not applicable"))
            continue;
        printf("plan       %-10s %s", route, dec);
        if (json_is_number(pred))
            printf(", estimated %.3g s", json_number_value(pred));
        if (json_is_number(sec))
            printf(", took %.3f s", json_number_value(sec));
        if (why && *why)
            printf(": %s", why);
        printf("\n");
    }
    json_decref(a);
}

/* --engine (auto, dense or scale; NULL: auto) and --seed-sketch (a positive integer; NULL: keep the
 * default) into ao's engine and sketch_seed. */
static ar_status parse_engine_seed(const char *eng, const char *ss, attnrank_options *ao)
{
    if (eng && strcmp(eng, "auto") && strcmp(eng, "dense") && strcmp(eng, "scale")) {
        ar_error_set("--engine: expected auto, dense or scale, got '%s'", eng);
        return AR_EINVAL;
    }
    ao->engine = !eng || !strcmp(eng, "auto") ? ATTNRANK_ENGINE_AUTO
               : !strcmp(eng, "dense") ? ATTNRANK_ENGINE_DENSE : ATTNRANK_ENGINE_SCALE;
    if (ss) {
        char *end;
        unsigned long long v = strtoull(ss, &end, 10);
        if (end == ss || *end || v == 0 || ss[0] == '-') {
            ar_error_set("--seed-sketch: expected a positive integer, got '%s'", ss);
            return AR_EINVAL;
        }
        ao->sketch_seed = (uint64_t)v;
    }
    return AR_OK;
}

/* The bracket of the loaded source S into r, through the logit bias in the .npy file bp when bp is
 * given (only for --points or --queries/--keys, and only of the instance's m x n shape). */
static ar_status bracket_run(const source_t *S, const char *bp, double beta, double eps, const attnrank_options *ao,
                             attnrank_bracket_result *r)
{
    if (!bp)
        return (ar_status)attnrank_bracket(S->Q, S->self ? NULL : S->K, beta, eps, ao, r);
    ar_status st;
    double *bias = NULL;
    size_t br, bc, m = attnrank_points_count(S->Q), n = attnrank_points_count(S->self ? S->Q : S->K);
    if (S->has_seed) {
        ar_error_set("--logit-bias applies to --points or --queries/--keys, not to --geometry");
        st = AR_EINVAL;
    } else if (!(st = (ar_status)attnrank_npy_read_bias(bp, &bias, &br, &bc)) && (br != m || bc != n)) {
        ar_error_set("--logit-bias: %s is %zu x %zu, the instance has %zu queries and %zu keys", bp, br, bc, m, n);
        st = AR_EINVAL;
    }
    if (st) {
        attnrank_free(bias);
        return st;
    }
    st = (ar_status)attnrank_bracket_biased(S->Q, S->self ? NULL : S->K, bias, beta, eps, ao, r);
    attnrank_free(bias);
    return st;
}

/* The result r as a TSV header line and one row on stdout. */
static void print_tsv(const attnrank_bracket_result *r, double beta, double eps)
{
    printf("lower\tupper\tstatus\tn\tm\td\tbeta\teps\tlower_certificate\tupper_certificate\tupper_err\tseconds\n");
    printf("%zu\t%zu\t%s\t%s\t%s", r->lower, r->upper, r->status, r->n, r->m);
    printf("\t%zu\t%s\t%s\t%s\t%s\t%.6g\t%.3f\n", r->d, real_str(beta), real_str(eps), r->lower_certificate,
           r->upper_certificate, r->upper_err_bound, r->seconds);
}

/* The result r as text on stdout: the instance (its description), the bracket, each end's route and
 * certificate, the route plan, the enclosure and the times. */
static void print_text(const attnrank_bracket_result *r, const char *description, double beta, double eps)
{
    printf("instance   %s\n", description);
    printf("           %s-attention%s, %zu x %zu distinct rows x keys, d = %zu, n = %s (with multiplicity)\n",
           r->self_attention ? "self" : "cross", r->logit_bias ? " with a logit bias (mask)" : "",
           r->distinct_queries, r->distinct_keys, r->d, r->n);
    printf("beta, eps  %s, %s\n", real_str(beta), real_str(eps));
    printf("rank_eps   in [%zu, %zu]   (%s)\n", r->lower, r->upper, r->status);
    printf("lower      %zu by %s route, %s", r->lower, r->lower_route, r->lower_certificate);
    if (strcmp(r->lower_certificate, "trivial") != 0 && r->lower_invnorm_bound >= 0)
        printf(": ||M^-1||_inf <= %.6g, eps * bound = %.6g < 1", r->lower_invnorm_bound,
               eps * r->lower_invnorm_bound);
    else if (!strcmp(r->lower_certificate, "packing-diagdom"))
        printf(": every row diagonally dominant (rank_eps = n)");
    printf("\nupper      %zu by %s route, %s: ||A - B||_r1 <= %.6g <= eps\n", r->upper, r->upper_route,
           r->upper_certificate, r->upper_err_bound);
    print_plan(r->route_plan);
    printf("routes     %s", r->routes);
    if (r->polygon_n)
        printf(" (regular %zu-gon recognised; stored points within eta = %.3g of it in ||.||_r1)", r->polygon_n,
               r->polygon_eta);
    printf("\n");
    if (!strcmp(r->enclosure, "double"))
        printf("enclosure  max row-l1 rounding of A <= %.3g (double arithmetic, a-priori bound%s)\n",
               r->enclosure_err, r->streamed ? "; streamed in row blocks" : "");
    else
        printf("enclosure  max row-l1 rounding of A <= %.3g (Arb, %ld bits)\n", r->enclosure_err, r->prec);
    if (r->rsvd_run)
        printf("sketch     rsvd %zu columns, %d power iterations, seed %llu, %zu passes over A\n", r->rsvd_sketch,
               r->rsvd_power, (unsigned long long)r->rsvd_seed, r->rsvd_passes);
    printf("time       %.3f s (enclosure %.3f s)\n", r->seconds, r->seconds_enclose);
    printf("versions   %s\n", version_line());
}

int cmd_bracket(int argc, char **argv)
{
    opt_t o[] = { SOURCE_OPTIONS, { "beta", 1, NULL }, { "eps", 1, NULL }, { "format", 1, NULL },
                  { "prec", 1, NULL }, { "threads", 1, NULL }, { "upper", 1, NULL }, { "engine", 1, NULL },
                  { "progress", 0, NULL }, { "seed-sketch", 1, NULL }, { "logit-bias", 1, NULL },
                  { "help", 0, NULL } };
    size_t no = sizeof o / sizeof o[0];
    ar_status st;
    if (cmd_bracket_is_ball(argc, argv))          /* claim B: ball instances */
        return cmd_bracket_ball(argc, argv);
    if ((st = args_parse(argc, argv, 2, o, no, "bracket")))
        return cmd_fail(st);
    if (args_get(o, no, "help")) {
        fputs(help, stdout);
        return 0;
    }
    double beta, eps;
    out_format_t fmt;
    attnrank_options ao;
    attnrank_options_default(&ao);
    if ((st = args_beta(args_get(o, no, "beta"), &beta)) || (st = args_eps(args_get(o, no, "eps"), &eps)) ||
        (st = args_format(args_get(o, no, "format"), &fmt)))
        return cmd_fail(st);
    if ((st = args_prec_threads(o, no, &ao.prec, &ao.threads)))
        return cmd_fail(st);
    source_t S;
    if ((st = source_load(o, no, beta, &S)))
        return cmd_fail(st);
    if (args_get(o, no, "upper") && (st = parse_upper(args_get(o, no, "upper"), &ao.upper))) {
        source_clear(&S);
        return cmd_fail(st);
    }
    if ((st = parse_engine_seed(args_get(o, no, "engine"), args_get(o, no, "seed-sketch"), &ao))) {
        source_clear(&S);
        return cmd_fail(st);
    }
    double after;
    if ((st = cmd_bracket_progress_after(&after))) {   /* checked at start-up too (cli/main.c) */
        source_clear(&S);
        return cmd_fail(st);
    }
    cli_progress_t prog;
    int reporting = args_get(o, no, "progress") || (fmt != FMT_JSON && isatty(2));
    if (reporting) {
        cli_progress_start(&prog, "bracket", after);
        ao.progress = cli_progress_message;
        ao.progress_ctx = &prog;
    }
    attnrank_bracket_result r;
    ATTNRANK_INIT(&r);
    st = bracket_run(&S, args_get(o, no, "logit-bias"), beta, eps, &ao, &r);
    if (reporting)
        cli_progress_stop(&prog);
    if (st) {
        source_clear(&S);
        return cmd_fail(st);
    }
    if (fmt == FMT_JSON) {
        char *js = NULL;
        st = (ar_status)attnrank_bracket_json(&r, S.description, S.has_seed ? &S.seed : NULL, &js);
        if (st) {
            attnrank_bracket_clear(&r);
            source_clear(&S);
            return cmd_fail(st);
        }
        printf("%s\n", js);
        attnrank_free(js);
    } else if (fmt == FMT_TSV) {
        print_tsv(&r, beta, eps);
    } else {
        print_text(&r, S.description, beta, eps);
    }
    attnrank_bracket_clear(&r);
    source_clear(&S);
    return 0;
}
