/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_circulant.c -- certified eps-rank brackets of the regular n-gon by
 * the circulant path (theory/certificates/cert_circulant.h), beta = 1e1 .. 1e5.
 * Usage: bench_circulant [eps [n1 n2 ...]]   (default: eps 0.1, n = 20160 55440)
 * Output: one TSV row per (n, beta) on stdout.  The LP upper certificate is
 * skipped by circ_bracket when too large (lp_skipped = 1, beta ~ 1e5). */
#include <stdio.h>
#include <stdlib.h>
#include "theory/certificates/cert_circulant.h"

int main(int argc, char **argv)
{
    double eps = argc > 1 ? atof(argv[1]) : 0.1;
    size_t ns[16] = { 20160, 55440 };
    int nn = 2;
    if (argc > 2) {
        nn = 0;
        for (int i = 2; i < argc && nn < 16; i++)
            ns[nn++] = (size_t)atol(argv[i]);
    }
    const double betas[] = { 1e1, 1e2, 1e3, 1e4, 1e5 };
    printf("n\tbeta\teps\tstatus\tlower\tupper\tupper_lp\tupper_projection\tlower_step\t"
           "lower_invnorm\tupper_err\tlp_skipped\tseconds\ts_lower\ts_projection\ts_lp\n");
    for (int i = 0; i < nn; i++)
        for (size_t b = 0; b < sizeof betas / sizeof *betas; b++) {
            if (ns[i] != 20160 && betas[b] < 1e5)
                continue; /* the larger n is for beta = 1e5 only */
            circ_bracket_t r;
            ar_status st = circ_bracket(ns[i], betas[b], eps, 0, &r);
            if (st != AR_OK) {
                fprintf(stderr, "n=%zu beta=%g: %s\n", ns[i], betas[b], ar_error_get());
                return 1;
            }
            printf("%zu\t%g\t%g\t%s\t%zu\t%zu\t%zu\t%zu\t%zu\t%.6g\t%.6g\t%d\t%.2f\t%.2f\t%.2f\t%.2f\n",
                   r.n, r.beta, r.eps, ar_cert_status_name(r.status), r.lower, r.upper, r.upper_lp, r.upper_projection,
                   r.lower_m_step, r.lower_invnorm, r.upper_err, r.lp_skipped, r.seconds,
                   r.seconds_lower, r.seconds_projection, r.seconds_lp);
            fflush(stdout);
        }
    return 0;
}
