/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_head.c -- `attnrank head`: the visible dimension of one attention head,
 * r(tau) with certified output errors, and the certified eps-rank bracket
 * (directly and through the visible subspace). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/args.h"
#include "cli/commands.h"
#include "numerics/textout.h"
#include "include/attnrank.h"
#include "base/version.h"

#define HEAD_MAX_TAUS ATTNRANK_HEAD_MAX_TAUS
#define VISIBLE_NONE ATTNRANK_NONE

static const char help[] =
    "Usage: attnrank head --queries Q.npy --keys K.npy [--multiplicities W.txt]\n"
    "                     [--beta B] [--eps E] [--tau T1,T2,...] [--exact-max N] [--format text|json]\n"
    "       attnrank head --wq WQ.npy --wk WK.npy --radius R [--beta B] [--tau T1,...] [--format text|json]\n"
    "Instance mode: Q is m x dh, K is n x dh (float64/float32 .npy); multiplicities are\n"
    "positive integers on the keys.  Prints\n"
    "  r        the visible dimension: numerical rank of the row-centred logits\n"
    "           beta Q K^T (I - 11^T/n), singular values above the stated tolerance\n"
    "           (8 u (max(m,n) sigma_1 + (dh+2) beta |Q|_F |K - mean|_F), u = 2^-53)\n"
    "  r_exact  the exact rank of the stored doubles (FLINT), when m*n*dh <= --exact-max\n"
    "           (default 2^24; 0 = never); can exceed r for rounded rotated data\n"
    "  r(tau)   for each tau: least k whose rank-k truncated logits change the attention\n"
    "           by at most tau in max-row-l1 (certified eta(k) = max_i 2 tanh(osc_i/4))\n"
    "  lower, upper  certified bracket of rank_eps(A), A = rowsoftmax(beta Q K^T): the\n"
    "           best of the direct bracket and the bracket through the rank-r logits\n"
    "           (lower at eps + eta, upper at eps - eta), and for each tau the upper\n"
    "           bound through the r(tau) logits at eps - eta(tau).\n"
    "Defaults: beta = 1/sqrt(dh) (as in a transformer), eps = 0.1, tau = 0.05.\n"
    "Weights-only mode: the bilinear form M = WQ WK^T (WQ, WK: dmodel x dh) for inputs of\n"
    "norm <= R: r, r_exact of M and r(tau) with eta(k) = 2 tanh(beta R^2 B_k / 2),\n"
    "B_k a certified bound on ||M - M_k||_2.  Each tau must satisfy 0 < tau < 2.\n";

static ar_status parse_taus(const char *s, double *taus, size_t *ntau)
{
    *ntau = 0;
    if (!s) {
        taus[0] = 0.05;
        *ntau = 1;
        return AR_OK;
    }
    double x[HEAD_MAX_TAUS];
    size_t k;
    ar_status st = args_double_list("tau", s, x, HEAD_MAX_TAUS, &k);
    if (st)
        return st;
    for (size_t t = 0; t < k; t++) {
        if (!(x[t] > 0 && x[t] < 2)) {
            ar_error_set("--tau: each value must satisfy 0 < tau < 2 (got %g)", x[t]);
            return AR_EINVAL;
        }
        taus[t] = x[t];
    }
    *ntau = k;
    return AR_OK;
}

static void print_size_or_null(size_t v)
{
    if (v == VISIBLE_NONE)
        printf("null");
    else
        printf("%zu", v);
}

static void print_double_or_null(double x)
{
    if (isfinite(x))
        printf("%s", real_str(x));
    else
        printf("null");
}

static int weights_mode(const opt_t *o, size_t no, out_format_t fmt, const double *taus, size_t ntau)
{
    ar_status st;
    double *WQ = NULL, *WK = NULL;
    size_t rq, cq, rk, ck;
    const char *pq = args_get(o, no, "wq"), *pk = args_get(o, no, "wk"), *pr = args_get(o, no, "radius");
    if (!pq || !pk || !pr) {
        ar_error_set("weights-only mode needs --wq, --wk and --radius");
        return cmd_fail(AR_EINVAL);
    }
    if (args_get(o, no, "eps") || args_get(o, no, "multiplicities") || args_get(o, no, "exact-max")) {
        ar_error_set("--eps, --multiplicities and --exact-max need an instance (--queries/--keys)");
        return cmd_fail(AR_EINVAL);
    }
    double radius;
    if ((st = args_double("radius", pr, &radius)))
        return cmd_fail(st);
    if (!(radius > 0)) {
        ar_error_set("--radius must be > 0 (got %s)", pr);
        return cmd_fail(AR_EINVAL);
    }
    if ((st = (ar_status)attnrank_npy_read(pq, &WQ, &rq, &cq)))
        return cmd_fail(st);
    if ((st = (ar_status)attnrank_npy_read(pk, &WK, &rk, &ck))) {
        attnrank_free(WQ);
        return cmd_fail(st);
    }
    if (rq != rk || cq != ck) {
        ar_error_set("--wq is %zu x %zu but --wk is %zu x %zu (both must be dmodel x dh)", rq, cq, rk, ck);
        attnrank_free(WQ); attnrank_free(WK);
        return cmd_fail(AR_EINVAL);
    }
    double beta = 1.0 / sqrt((double)cq);
    if (args_get(o, no, "beta") && (st = args_beta(args_get(o, no, "beta"), &beta))) {
        attnrank_free(WQ); attnrank_free(WK);
        return cmd_fail(st);
    }
    attnrank_head_result v;
    ATTNRANK_INIT(&v);
    st = (ar_status)attnrank_head_weights(WQ, WK, rq, cq, beta, radius, taus, ntau, NULL, &v);
    attnrank_free(WQ); attnrank_free(WK);
    if (st)
        return cmd_fail(st);
    const size_t *rt = v.r_tau;
    const double *et = v.eta;
    double secs = v.seconds;
    if (fmt == FMT_JSON) {
        printf("{\"mode\":\"weights\",\"r\":%zu,\"r_exact\":", v.r);
        if (v.r_exact < 0) printf("null"); else printf("%ld", v.r_exact);
        printf(",\"tol\":%.6g,\"r_tau\":", v.tol);
        print_size_or_null(rt[0]);
        printf(",\"eta\":");
        print_double_or_null(et[0]);
        printf(",\"head_dim\":%zu,\"model_dim\":%zu,\"beta\":%s,\"radius\":%s,\"taus\":[", v.head_dim,
               v.model_dim, real_str(beta), real_str(radius));
        for (size_t t = 0; t < ntau; t++) {
            printf("%s{\"tau\":%s,\"r\":", t ? "," : "", real_str(taus[t]));
            print_size_or_null(rt[t]);
            printf(",\"eta\":");
            print_double_or_null(et[t]);
            printf("}");
        }
        printf("],\"sigma\":[");
        for (size_t k = 0; k < v.nsigma; k++)
            printf("%s%.6g", k ? "," : "", v.sigma[k]);
        printf("],\"seconds\":%.3f,\"source\":", secs);
        char src[600];
        snprintf(src, sizeof src, "weights %s, %s", pq, pk);
        out_json_string(stdout, src);
        printf(",%s}\n", version_json_fields());
    } else {
        printf("weights    %s, %s: dmodel = %zu, head dim = %zu\n", pq, pk, v.model_dim, v.head_dim);
        printf("beta, R    %s, %s (inputs with norm <= R)\n", real_str(beta), real_str(radius));
        printf("r          %zu   (numerical rank of W_Q W_K^T, tolerance %.3g)\n", v.r, v.tol);
        if (v.r_exact >= 0)
            printf("r_exact    %ld   (exact rank of the stored doubles)\n", v.r_exact);
        for (size_t t = 0; t < ntau; t++) {
            printf("r(tau)     tau = %-8g r = ", taus[t]);
            if (rt[t] == VISIBLE_NONE)
                printf("none (no rank certified)\n");
            else
                printf("%zu   eta = %.6g\n", rt[t], et[t]);
        }
        printf("time       %.3f s\n", secs);
        printf("versions   %s\n", version_line());
    }
    attnrank_head_clear(&v);
    return 0;
}

/* Instance mode's result v as one JSON line on stdout (the source names the files in o). */
static void instance_print_json(const opt_t *o, size_t no, const attnrank_head_result *v, size_t dh, double beta,
                                double eps, const double *taus, size_t ntau)
{
    const size_t *rt = v->r_tau, *up_tau = v->upper_via;
    const double *et = v->eta;
    size_t lower = v->lower, upper = v->upper, vlo = v->visible_lower, vup = v->visible_upper;
    const char *lo_route = v->lower_route, *up_route = v->upper_route, *status = v->status, *vstat = v->visible_status;
    double veta = v->visible_eta, secs = v->seconds;
    printf("{\"mode\":\"instance\",\"r\":%zu,\"r_exact\":", v->r);
    if (v->r_exact < 0) printf("null"); else printf("%ld", v->r_exact);
    printf(",\"tol\":%.6g,\"tol_safety\":%g,\"r_tau\":", v->tol, v->tol_safety);
    print_size_or_null(rt[0]);
    printf(",\"eta\":");
    print_double_or_null(et[0]);
    printf(",\"lower\":%zu,\"upper\":%zu,\"status\":\"%s\",\"lower_route\":\"%s\",\"upper_route\":\"%s\","
           "\"head_dim\":%zu,\"m\":%zu,\"distinct_keys\":%zu,\"n\":",
           lower, upper, status, lo_route, up_route, dh, v->m, v->distinct_keys);
    out_json_decimal(stdout, v->n);
    printf(",\"beta\":%s,\"eps\":%s,\"direct\":{\"lower\":%zu,\"upper\":%zu,\"status\":\"%s\","
           "\"lower_certificate\":\"%s\",\"upper_certificate\":\"%s\"},\"visible\":{\"k\":%zu,\"lower\":%zu,"
           "\"upper\":%zu,\"eta\":",
           real_str(beta), real_str(eps), v->direct_lower, v->direct_upper, v->direct_status, v->direct_lower_certificate,
           v->direct_upper_certificate, v->r, vlo, vup);
    print_double_or_null(veta);
    printf(",\"status\":\"%s\"},\"taus\":[", vstat);
    for (size_t t = 0; t < ntau; t++) {
        printf("%s{\"tau\":%s,\"r\":", t ? "," : "", real_str(taus[t]));
        print_size_or_null(rt[t]);
        printf(",\"eta\":");
        print_double_or_null(et[t]);
        printf(",\"upper_via\":");
        print_size_or_null(up_tau[t]);
        printf("}");
    }
    size_t ns = v->nsigma < v->r + 8 ? v->nsigma : v->r + 8;
    printf("],\"sigma\":[");
    for (size_t k = 0; k < ns; k++)
        printf("%s%.6g", k ? "," : "", v->sigma[k]);
    printf("],\"seconds\":%.3f,\"source\":", secs);
    char src[600];
    snprintf(src, sizeof src, "queries %s, keys %s%s%s", args_get(o, no, "queries"), args_get(o, no, "keys"),
             args_get(o, no, "multiplicities") ? ", multiplicities " : "",
             args_get(o, no, "multiplicities") ? args_get(o, no, "multiplicities") : "");
    out_json_string(stdout, src);
    printf(",%s}\n", version_json_fields());
}

/* Instance mode's result v as text on stdout. */
static void instance_print_text(const attnrank_head_result *v, size_t dh, double beta, double eps,
                                const double *taus, size_t ntau)
{
    const size_t *rt = v->r_tau, *up_tau = v->upper_via;
    const double *et = v->eta;
    size_t lower = v->lower, upper = v->upper, vlo = v->visible_lower, vup = v->visible_upper;
    const char *lo_route = v->lower_route, *up_route = v->upper_route, *status = v->status, *vstat = v->visible_status;
    double veta = v->visible_eta, secs = v->seconds;
    printf("head       %zu queries x %zu distinct keys (n = %s with multiplicity), head dim %zu\n", v->m,
           v->distinct_keys, v->n, dh);
    printf("beta, eps  %s, %s\n", real_str(beta), real_str(eps));
    printf("r          %zu   (singular values of the row-centred logits above tol = %.3g)\n", v->r, v->tol);
    if (v->r_exact >= 0)
        printf("r_exact    %ld   (exact rank of the stored doubles)\n", v->r_exact);
    else
        printf("r_exact    not computed (m*n*dh above --exact-max)\n");
    printf("sigma      ");
    size_t ns = v->nsigma < v->r + 3 ? v->nsigma : v->r + 3;
    for (size_t k = 0; k < ns; k++)
        printf("%s%.4g", k ? " " : "", v->sigma[k]);
    printf("\n");
    for (size_t t = 0; t < ntau; t++) {
        printf("r(tau)     tau = %-8g r = ", taus[t]);
        if (rt[t] == VISIBLE_NONE) {
            printf("none (no rank certified)\n");
            continue;
        }
        printf("%zu   eta = %.6g", rt[t], et[t]);
        if (up_tau[t] != VISIBLE_NONE)
            printf("   rank_eps <= %zu (via A_r at eps - eta)", up_tau[t]);
        printf("\n");
    }
    printf("rank_eps   in [%zu, %zu]   (%s; lower: %s, upper: %s)\n", lower, upper, status, lo_route,
           up_route);
    printf("direct     [%zu, %zu] (%s / %s)\n", v->direct_lower, v->direct_upper, v->direct_lower_certificate,
           v->direct_upper_certificate);
    if (v->r >= 1)
        printf("visible    [%zu, %zu] through the rank-%zu logits, eta = %.3g (%s)\n", vlo, vup, v->r, veta, vstat);
    printf("time       %.3f s\n", secs);
    printf("versions   %s\n", version_line());
}

int cmd_head(int argc, char **argv)
{
    opt_t o[] = { { "queries", 1, NULL }, { "keys", 1, NULL }, { "multiplicities", 1, NULL },
                  { "wq", 1, NULL }, { "wk", 1, NULL }, { "radius", 1, NULL }, { "beta", 1, NULL },
                  { "eps", 1, NULL }, { "tau", 1, NULL }, { "exact-max", 1, NULL }, { "format", 1, NULL },
                  { "help", 0, NULL } };
    size_t no = sizeof o / sizeof o[0];
    ar_status st;
    if ((st = args_parse(argc, argv, 2, o, no, "head")))
        return cmd_fail(st);
    if (args_get(o, no, "help")) {
        fputs(help, stdout);
        return 0;
    }
    out_format_t fmt;
    double taus[HEAD_MAX_TAUS];
    size_t ntau;
    if ((st = args_format(args_get(o, no, "format"), &fmt)) || (st = parse_taus(args_get(o, no, "tau"), taus, &ntau)))
        return cmd_fail(st);
    if (fmt == FMT_TSV) {
        ar_error_set("head: --format must be text or json");
        return cmd_fail(AR_EINVAL);
    }
    int inst = args_get(o, no, "queries") || args_get(o, no, "keys");
    int wts = args_get(o, no, "wq") || args_get(o, no, "wk") || args_get(o, no, "radius");
    if (inst == wts) {
        ar_error_set("head: give either --queries and --keys, or --wq, --wk and --radius");
        return cmd_fail(AR_EINVAL);
    }
    if (wts)
        return weights_mode(o, no, fmt, taus, ntau);
    if (!args_get(o, no, "queries") || !args_get(o, no, "keys")) {
        ar_error_set("head: instance mode needs both --queries and --keys");
        return cmd_fail(AR_EINVAL);
    }
    double eps = 0.1;
    if (args_get(o, no, "eps") && (st = args_eps(args_get(o, no, "eps"), &eps)))
        return cmd_fail(st);
    size_t exact_max = 0;
    if (args_get(o, no, "exact-max")) {
        size_t x;
        if (!strcmp(args_get(o, no, "exact-max"), "0"))
            x = 1;                                  /* never */
        else if ((st = args_size("exact-max", args_get(o, no, "exact-max"), 1, (size_t)1 << 40, &x)))
            return cmd_fail(st);
        exact_max = x;
    }
    attnrank_points *Q = NULL, *K = NULL;
    if ((st = (ar_status)attnrank_points_read(args_get(o, no, "queries"), NULL, &Q)) ||
        (st = (ar_status)attnrank_points_read(args_get(o, no, "keys"), args_get(o, no, "multiplicities"), &K))) {
        attnrank_points_free(Q);
        attnrank_points_free(K);
        return cmd_fail(st);
    }
    int rc = 0;
    attnrank_head_result v;
    ATTNRANK_INIT(&v);
    if (attnrank_points_dim(Q) != attnrank_points_dim(K)) {
        ar_error_set("head: queries have dimension %zu but keys have %zu", attnrank_points_dim(Q),
                     attnrank_points_dim(K));
        rc = cmd_fail(AR_EINVAL);
        goto out;
    }
    size_t dh = attnrank_points_dim(Q);
    double beta = 1.0 / sqrt((double)dh);
    if (args_get(o, no, "beta") && (st = args_beta(args_get(o, no, "beta"), &beta))) {
        rc = cmd_fail(st);
        goto out;
    }
    if ((st = (ar_status)attnrank_head(Q, K, beta, eps, taus, ntau, exact_max, NULL, &v))) {
        rc = cmd_fail(st);
        goto out;
    }
    if (fmt == FMT_JSON)
        instance_print_json(o, no, &v, dh, beta, eps, taus, ntau);
    else
        instance_print_text(&v, dh, beta, eps, taus, ntau);
out:
    attnrank_head_clear(&v);
    attnrank_points_free(Q);
    attnrank_points_free(K);
    return rc;
}
