/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_scaling.c -- the dense route at size (issue 16): one instance per run,
 * n queries and n keys uniform in the unit 3-ball (seeded), beta 20, eps 0.1,
 * self-attention (keys = queries) or cross-attention (independent keys).
 * Prints one TSV row: wall time and peak resident memory after each stage
 * of bracket_compute (enclosure, lower, upper, total; the peak is the
 * process's ru_maxrss when the stage ended, so it is cumulative), the
 * bracket and the sketch, and, when asked, one bare dgesdd of the same
 * double image in the same process (after the bracket) and the ratio.
 * Usage: bench_scaling self|cross N [svd]       (header: bench_scaling header) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "constructions/pointsets/ball.h"
#include "numerics/blas_select.h"
#include "numerics/clock.h"
#include "numerics/linalg.h"
#include "numerics/softmax_dbl.h"
#include "numerics/version.h"
#include "theory/brackets/bracket.h"
#include <flint/flint.h>

static double peak_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0;
}

typedef struct {
    double t0, t_lower_start, t_upper_start, mib_enclose, mib_lower;
    int stage;
} watch_t;

/* progress messages mark the stage boundaries: "lower: ..." then "rsvd: ..." */
static void watch(void *ctx, const char *msg)
{
    watch_t *w = ctx;
    if (w->stage == 0 && !strncmp(msg, "lower:", 6)) {
        w->stage = 1;
        w->mib_enclose = peak_mib();
    } else if (w->stage == 1 && (!strncmp(msg, "rsvd:", 5) || !strncmp(msg, "upper:", 6))) {
        w->stage = 2;
        w->mib_lower = peak_mib();
    }
}

static int make_ball(pointset_t *P, size_t n, uint64_t seed)
{
    ball_spec_t bs;
    ball_spec_default(&bs, BALL_UNIFORM, 3, 1.0);
    bs.rho0 = 0.0;
    bs.npoints = n;
    bs.seed = seed;
    bs.unweighted = 1;
    return ball_generate(P, &bs);
}

int main(int argc, char **argv)
{
    blas_select_kernel(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "header")) {
        printf("# %s\n", version_line());
        printf("kind\tn\tbeta\teps\tlower\tupper\tupper_cert\tstatus\tstreamed\tsketch\tpasses\t"
               "t_enclose\tt_lower\tt_upper\tt_total\tMiB_enclose\tMiB_lower\tMiB_total\tt_dgesdd\tratio\tMiB_dgesdd\n");
        return 0;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: bench_scaling self|cross N [svd] | header\n");
        return 2;
    }
    int cross = !strcmp(argv[1], "cross");
    size_t n = (size_t)strtoull(argv[2], NULL, 10);
    int svd = argc > 3 && !strcmp(argv[3], "svd");
    double beta = 20, eps = 0.1;
    pointset_t Q = { 0 }, K = { 0 };
    if (make_ball(&Q, n, 1) || (cross && make_ball(&K, n, 2))) {
        fprintf(stderr, "bench: %s\n", ar_error_get());
        return 1;
    }
    const pointset_t *Kp = cross ? &K : &Q;
    bracket_opts_t o;
    bracket_opts_default(&o);
    watch_t w = { 0 };
    o.progress = watch;
    o.progress_ctx = &w;
    bracket_t b;
    if (bracket_compute(&Q, Kp, beta, eps, &o, &b)) {
        fprintf(stderr, "bench: %s\n", ar_error_get());
        return 1;
    }
    double mib_total = peak_mib();
    double tsvd = 0, mib_svd = 0;
    if (svd) {
        smx_t A;
        if (smx_compute_dbl(&A, Q.x, n, Kp->x, n, 3, NULL, beta, 0)) {
            fprintf(stderr, "bench: %s\n", ar_error_get());
            return 1;
        }
        double *U, *s, *VT;
        double t0 = clock_now();
        if (la_svd(n, n, A.a, &U, &s, &VT)) {
            fprintf(stderr, "bench: %s\n", ar_error_get());
            return 1;
        }
        tsvd = clock_now() - t0;
        mib_svd = peak_mib();
        free(U); free(s); free(VT);
        smx_clear(&A);
    }
    printf("%s\t%zu\t%g\t%g\t%zu\t%zu\t%s\t%s\t%d\t%zu\t%zu\t%.2f\t%.2f\t%.2f\t%.2f\t%.0f\t%.0f\t%.0f\t", cross ? "cross" : "self",
           n, beta, eps, b.lower, b.upper, ar_method_name(b.up.method), ar_cert_status_name(b.status), b.streamed,
           b.rsvd.sketch, b.rsvd.passes,
           b.seconds_enclose, b.seconds_lower, b.seconds_upper, b.seconds, w.mib_enclose, w.mib_lower, mib_total);
    if (svd)
        printf("%.2f\t%.2f\t%.0f\n", tsvd, b.seconds / tsvd, mib_svd);
    else
        printf("-\t-\t-\n");
    pointset_clear(&Q);
    pointset_clear(&K);
    flint_cleanup_master();
    return 0;
}
