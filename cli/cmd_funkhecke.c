/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_funkhecke.c -- `attnrank funk-hecke`: spectrum of K/n on a sphere set
 * against the Funk-Hecke eigenvalues (THEORY 3.7).  A sanity check of the
 * harness's linear algebra, not a certificate. */
#include <stdio.h>
#include <string.h>
#include "cli/commands.h"
#include "numerics/textout.h"
#include "cli/source.h"
#include "base/version.h"
#include "include/attnrank.h"

static const char help[] =
    "Usage: attnrank funk-hecke --d D --beta B --n N [--family polygon|fibonacci|uniform]\n"
    "                           [--seed S] [--tau T] [--format text|json]\n"
    "Eigenvalues of K/n, K_ij = exp(beta (x_i.x_j - 1)), on a sphere point set (default:\n"
    "polygon for d = 2, fibonacci for d = 3, uniform otherwise), compared with the\n"
    "Funk-Hecke eigenvalues e^-beta Gamma(d/2) (2/beta)^(d/2-1) I_(k+d/2-1)(beta), with\n"
    "multiplicities, down to tau * lambda_0 (default tau = 1e-6).  Also prints the\n"
    "continuum count of eigenvalues >= tau lambda_0 (it grows like beta^((d-1)/2)).\n"
    "This is a spectral sanity check in double precision, not a certificate.\n";

int cmd_funkhecke(int argc, char **argv)
{
    opt_t o[] = { { "d", 1, NULL }, { "beta", 1, NULL }, { "n", 1, NULL }, { "family", 1, NULL },
                  { "seed", 1, NULL }, { "tau", 1, NULL }, { "format", 1, NULL }, { "help", 0, NULL } };
    size_t no = sizeof o / sizeof o[0];
    ar_status st;
    if ((st = args_parse(argc, argv, 2, o, no, "funk-hecke")))
        return cmd_fail(st);
    if (args_get(o, no, "help")) {
        fputs(help, stdout);
        return 0;
    }
    double beta, tau = 1e-6;
    size_t d, n;
    out_format_t fmt;
    if ((st = args_beta(args_get(o, no, "beta"), &beta)) || (st = args_format(args_get(o, no, "format"), &fmt)))
        return cmd_fail(st);
    if (!args_get(o, no, "d") || !args_get(o, no, "n")) {
        ar_error_set("funk-hecke: --d and --n are required");
        return cmd_fail(AR_EINVAL);
    }
    if ((st = args_size("d", args_get(o, no, "d"), 2, 64, &d)) ||
        (st = args_size("n", args_get(o, no, "n"), 1, 40000, &n)))
        return cmd_fail(st);
    if (args_get(o, no, "tau")) {
        if ((st = args_double("tau", args_get(o, no, "tau"), &tau)))
            return cmd_fail(st);
        if (!(tau > 0 && tau <= 1)) {
            ar_error_set("--tau: must be in (0, 1], got %s", args_get(o, no, "tau"));
            return cmd_fail(AR_EINVAL);
        }
    }
    const char *fam = args_get(o, no, "family");
    if (!fam)
        fam = d == 2 ? "polygon" : d == 3 ? "fibonacci" : "uniform";
    if (strcmp(fam, "packing") == 0) {
        ar_error_set("funk-hecke: --family packing is not a quadrature set; use polygon, fibonacci or uniform");
        return cmd_fail(AR_EINVAL);
    }
    char dbuf[32], nbuf[32];
    snprintf(dbuf, sizeof dbuf, "%zu", d);
    snprintf(nbuf, sizeof nbuf, "%zu", n);
    opt_t so[] = { SOURCE_OPTIONS };
    size_t nso = sizeof so / sizeof so[0];
    for (size_t i = 0; i < nso; i++) {
        if (!strcmp(so[i].name, "geometry")) so[i].value = "sphere";
        if (!strcmp(so[i].name, "family")) so[i].value = fam;
        if (!strcmp(so[i].name, "d")) so[i].value = dbuf;
        if (!strcmp(so[i].name, "n")) so[i].value = nbuf;
        if (!strcmp(so[i].name, "seed")) so[i].value = args_get(o, no, "seed");
    }
    source_t S;
    if ((st = source_load(so, nso, beta, &S)))
        return cmd_fail(st);
    attnrank_funk_hecke_result r;
    ATTNRANK_INIT(&r);
    st = (ar_status)attnrank_funk_hecke(S.Q, beta, tau, NULL, &r);
    double secs = r.seconds;
    if (st) {
        source_clear(&S);
        return cmd_fail(st);
    }
    if (fmt == FMT_JSON) {
        printf("{\"d\":%zu,\"beta\":%s,\"n\":%zu,\"tau\":%.6g,\"family\":\"%s\",\"count_pred\":%zu,"
               "\"count_num\":%zu,\"max_degree\":%lu,\"max_relerr\":%.6g,\"worst_index\":%zu,"
               "\"lambda0_pred\":%s,\"lambda0_num\":%s,\"seconds\":%.3f,\"source\":",
               d, real_str(beta), n, tau, fam, r.count_pred, r.count_num, r.max_degree, r.max_relerr, r.worst_index,
               real_str(r.lambda0_pred), real_str(r.lambda0_num), secs);
        out_json_string(stdout, S.description);
        printf(",%s}\n", version_json_fields());
    } else if (fmt == FMT_TSV) {
        printf("d\tbeta\tn\ttau\tcount_pred\tcount_num\tmax_degree\tmax_relerr\n");
        printf("%zu\t%s\t%zu\t%g\t%zu\t%zu\t%lu\t%.6g\n", d, real_str(beta), n, tau, r.count_pred, r.count_num,
               r.max_degree, r.max_relerr);
    } else {
        printf("instance     %s\n", S.description);
        printf("beta, tau    %s, %g\n", real_str(beta), tau);
        printf("eigenvalues  %zu predicted >= tau*lambda_0 (degrees 0..%lu), %zu computed\n", r.count_pred,
               r.max_degree, r.count_num);
        printf("lambda_0     predicted %.12g, computed %.12g (scaled by e^-beta)\n", r.lambda0_pred, r.lambda0_num);
        printf("max rel err  %.3g (at eigenvalue #%zu, descending)\n", r.max_relerr, r.worst_index);
        printf("time         %.3f s   (spectral check in double precision, not a certificate)\n", secs);
    }
    source_clear(&S);
    return 0;
}
