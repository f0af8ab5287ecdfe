/* cmd_head.c -- `attnrank head`: the visible dimension of one attention head,
 * r(tau) with certified output errors, and the certified eps-rank bracket
 * (directly and through the visible subspace). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "constructions/formats/npy.h"
#include "numerics/clock.h"
#include "numerics/version.h"
#include "theory/brackets/bracket.h"
#include "theory/heads/visible.h"

#define HEAD_MAX_TAUS 32

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
        printf("%.17g", x);
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
    if ((st = npy_read(pq, &WQ, &rq, &cq)))
        return cmd_fail(st);
    if ((st = npy_read(pk, &WK, &rk, &ck))) {
        free(WQ);
        return cmd_fail(st);
    }
    if (rq != rk || cq != ck) {
        ar_error_set("--wq is %zu x %zu but --wk is %zu x %zu (both must be dmodel x dh)", rq, cq, rk, ck);
        free(WQ); free(WK);
        return cmd_fail(AR_EINVAL);
    }
    double beta = 1.0 / sqrt((double)cq);
    if (args_get(o, no, "beta") && (st = args_beta(args_get(o, no, "beta"), &beta))) {
        free(WQ); free(WK);
        return cmd_fail(st);
    }
    double t0 = clock_now();
    visible_bilinear_t v;
    size_t rt[HEAD_MAX_TAUS];
    double et[HEAD_MAX_TAUS];
    st = visible_bilinear(WQ, WK, rq, cq, beta, radius, NULL, &v);
    free(WQ); free(WK);
    if (st)
        return cmd_fail(st);
    if ((st = visible_bilinear_rtau(&v, taus, ntau, rt, et))) {
        visible_bilinear_clear(&v);
        return cmd_fail(st);
    }
    double secs = clock_now() - t0;
    if (fmt == FMT_JSON) {
        printf("{\"mode\":\"weights\",\"r\":%zu,\"r_exact\":", v.r);
        if (v.r_exact < 0) printf("null"); else printf("%ld", v.r_exact);
        printf(",\"tol\":%.6g,\"r_tau\":", v.tol);
        print_size_or_null(rt[0]);
        printf(",\"eta\":");
        print_double_or_null(et[0]);
        printf(",\"head_dim\":%zu,\"model_dim\":%zu,\"beta\":%.17g,\"radius\":%.17g,\"taus\":[", v.dh, v.dmodel,
               beta, radius);
        for (size_t t = 0; t < ntau; t++) {
            printf("%s{\"tau\":%.17g,\"r\":", t ? "," : "", taus[t]);
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
        printf("weights    %s, %s: dmodel = %zu, head dim = %zu\n", pq, pk, v.dmodel, v.dh);
        printf("beta, R    %.17g, %.17g (inputs with norm <= R)\n", beta, radius);
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
    visible_bilinear_clear(&v);
    return 0;
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
    visible_opts_t vo;
    visible_opts_default(&vo);
    if (args_get(o, no, "exact-max")) {
        size_t x;
        if (!strcmp(args_get(o, no, "exact-max"), "0"))
            x = 1;                                  /* never */
        else if ((st = args_size("exact-max", args_get(o, no, "exact-max"), 1, (size_t)1 << 40, &x)))
            return cmd_fail(st);
        vo.exact_max = x;
    }
    pointset_t Q, K;
    memset(&Q, 0, sizeof Q);
    memset(&K, 0, sizeof K);
    if ((st = pointset_read(&Q, args_get(o, no, "queries"), NULL)) ||
        (st = pointset_read(&K, args_get(o, no, "keys"), args_get(o, no, "multiplicities")))) {
        pointset_clear(&Q);
        pointset_clear(&K);
        return cmd_fail(st);
    }
    int rc = 0;
    visible_t v;
    memset(&v, 0, sizeof v);
    if (Q.d != K.d) {
        ar_error_set("head: queries have dimension %zu but keys have %zu", Q.d, K.d);
        rc = cmd_fail(AR_EINVAL);
        goto out;
    }
    size_t dh = Q.d;
    double beta = 1.0 / sqrt((double)dh);
    if (args_get(o, no, "beta") && (st = args_beta(args_get(o, no, "beta"), &beta))) {
        rc = cmd_fail(st);
        goto out;
    }
    double t0 = clock_now();
    if ((st = visible_compute(Q.x, Q.n, K.x, K.n, dh, beta, &vo, &v))) {
        rc = cmd_fail(st);
        goto out;
    }
    size_t rt[HEAD_MAX_TAUS], up_tau[HEAD_MAX_TAUS];
    double et[HEAD_MAX_TAUS];
    if ((st = visible_rtau(&v, taus, ntau, rt, et))) {
        rc = cmd_fail(st);
        goto out;
    }
    /* direct bracket */
    bracket_t b;
    if ((st = bracket_compute(&Q, &K, beta, eps, NULL, &b))) {
        rc = cmd_fail(st);
        goto out;
    }
    size_t lower = b.lower, upper = b.upper;
    const char *lo_route = "direct", *up_route = "direct";
    /* through the rank-r visible logits */
    size_t vlo = 0, vup = 0;
    double veta = NAN;
    const char *vstat = "not run";
    if (v.r >= 1) {
        st = visible_bracket_via(&v, v.r, K.w, eps, NULL, &vlo, &vup, &veta, &vstat);
        if (st == AR_EINVAL) {
            vstat = "no slack (eta >= eps)";
            vlo = vup = 0;
        } else if (st) {
            rc = cmd_fail(st);
            goto out;
        } else {
            if (vlo > lower) { lower = vlo; lo_route = "visible"; }
            if (vup < upper) { upper = vup; up_route = "visible"; }
        }
    }
    /* upper through each r(tau) */
    for (size_t t = 0; t < ntau; t++) {
        up_tau[t] = VISIBLE_NONE;
        if (rt[t] == VISIBLE_NONE || !(et[t] < eps))
            continue;
        size_t u = VISIBLE_NONE;
        for (size_t p = 0; p < t; p++)              /* same rank as an earlier tau: same bound */
            if (rt[p] == rt[t])
                u = up_tau[p];
        if (rt[t] == v.r && vup > 0)
            u = vup;                                /* already computed through the rank-r logits */
        if (u != VISIBLE_NONE) {
            up_tau[t] = u;
            continue;
        }
        st = visible_upper_via(&v, rt[t], K.w, eps, NULL, &u, NULL, NULL);
        if (st == AR_OK) {
            up_tau[t] = u;
            if (u < upper) { upper = u; up_route = "r(tau)"; }
        } else if (st != AR_EINVAL) {
            rc = cmd_fail(st);
            goto out;
        }
    }
    if (lower > upper) {
        ar_error_set("head: BUG: certified lower %zu exceeds certified upper %zu", lower, upper);
        rc = cmd_fail(AR_ENUMERIC);
        goto out;
    }
    /* both ends are rigorous whatever their route; "certified" unless neither
     * the direct bracket nor the visible route could certify anything */
    const char *status = (!strcmp(b.status, "certified") || !strcmp(vstat, "certified")) ? "certified"
                                                                                         : "inconclusive";
    double secs = clock_now() - t0;
    fmpz_t nk;
    fmpz_init(nk);
    pointset_total_multiplicity(nk, &K);
    if (fmt == FMT_JSON) {
        printf("{\"mode\":\"instance\",\"r\":%zu,\"r_exact\":", v.r);
        if (v.r_exact < 0) printf("null"); else printf("%ld", v.r_exact);
        printf(",\"tol\":%.6g,\"tol_safety\":%g,\"r_tau\":", v.tol, v.tol_safety);
        print_size_or_null(rt[0]);
        printf(",\"eta\":");
        print_double_or_null(et[0]);
        printf(",\"lower\":%zu,\"upper\":%zu,\"status\":\"%s\",\"lower_route\":\"%s\",\"upper_route\":\"%s\","
               "\"head_dim\":%zu,\"m\":%zu,\"distinct_keys\":%zu,\"n\":",
               lower, upper, status, lo_route, up_route, dh, Q.n, K.n);
        out_json_fmpz(stdout, nk);
        printf(",\"beta\":%.17g,\"eps\":%.17g,\"direct\":{\"lower\":%zu,\"upper\":%zu,\"status\":\"%s\","
               "\"lower_certificate\":\"%s\",\"upper_certificate\":\"%s\"},\"visible\":{\"k\":%zu,\"lower\":%zu,"
               "\"upper\":%zu,\"eta\":",
               beta, eps, b.lower, b.upper, b.status, b.lo.method, b.up.method, v.r, vlo, vup);
        print_double_or_null(veta);
        printf(",\"status\":\"%s\"},\"taus\":[", vstat);
        for (size_t t = 0; t < ntau; t++) {
            printf("%s{\"tau\":%.17g,\"r\":", t ? "," : "", taus[t]);
            print_size_or_null(rt[t]);
            printf(",\"eta\":");
            print_double_or_null(et[t]);
            printf(",\"upper_via\":");
            print_size_or_null(up_tau[t]);
            printf("}");
        }
        size_t ns = v.nsigma < v.r + 8 ? v.nsigma : v.r + 8;
        printf("],\"sigma\":[");
        for (size_t k = 0; k < ns; k++)
            printf("%s%.6g", k ? "," : "", v.sigma[k]);
        printf("],\"seconds\":%.3f,\"source\":", secs);
        char src[600];
        snprintf(src, sizeof src, "queries %s, keys %s%s%s", args_get(o, no, "queries"), args_get(o, no, "keys"),
                 args_get(o, no, "multiplicities") ? ", multiplicities " : "",
                 args_get(o, no, "multiplicities") ? args_get(o, no, "multiplicities") : "");
        out_json_string(stdout, src);
        printf(",%s}\n", version_json_fields());
    } else {
        printf("head       %zu queries x %zu distinct keys (n = ", Q.n, K.n);
        fmpz_fprint(stdout, nk);
        printf(" with multiplicity), head dim %zu\n", dh);
        printf("beta, eps  %.17g, %.17g\n", beta, eps);
        printf("r          %zu   (singular values of the row-centred logits above tol = %.3g)\n", v.r, v.tol);
        if (v.r_exact >= 0)
            printf("r_exact    %ld   (exact rank of the stored doubles)\n", v.r_exact);
        else
            printf("r_exact    not computed (m*n*dh above --exact-max)\n");
        printf("sigma      ");
        size_t ns = v.nsigma < v.r + 3 ? v.nsigma : v.r + 3;
        for (size_t k = 0; k < ns; k++)
            printf("%s%.4g", k ? " " : "", v.sigma[k]);
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
        printf("direct     [%zu, %zu] (%s / %s)\n", b.lower, b.upper, b.lo.method, b.up.method);
        if (v.r >= 1)
            printf("visible    [%zu, %zu] through the rank-%zu logits, eta = %.3g (%s)\n", vlo, vup, v.r, veta, vstat);
        printf("time       %.3f s\n", secs);
        printf("versions   %s\n", version_line());
    }
    fmpz_clear(nk);
out:
    visible_clear(&v);
    pointset_clear(&Q);
    pointset_clear(&K);
    return rc;
}
