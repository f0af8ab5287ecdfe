/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_bracket.c -- the spine's figures (issues #2, #16), measured side by side:
 *   1. a 2000-point Fibonacci S^2 instance at beta = 20, eps = 0.1: wall time of
 *      the whole certified bracket (route chooser: every affordable route) vs one bare LAPACK SVD (dgesdd) of the same
 *      matrix, same BLAS, same process;
 *   2. instances up to n = 4000: wall time and peak memory (ru_maxrss).
 * The SVD is timed before and after the bracket (the machine is shared); the
 * ratio uses the faster of the two.
 * Usage: bench_bracket [n1 [n2 ...]]   (default: 2000 4000)
 * Output: one TSV row per measurement on stdout. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include "constructions/pointsets/sphere.h"
#include "numerics/blas_select.h"
#include "numerics/linalg.h"
#include "numerics/softmax.h"
#include "numerics/softmax_dbl.h"
#include "numerics/version.h"
#include "theory/brackets/bracket.h"
#include "theory/brackets/route.h"
#include <flint/flint.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static double peak_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0;
}

int main(int argc, char **argv)
{
    blas_select_kernel(argc, argv);
    size_t sizes[16] = { 2000, 4000 };
    int ns = 2;
    if (argc > 1) {
        ns = 0;
        for (int i = 1; i < argc && ns < 16; i++)
            sizes[ns++] = (size_t)strtoull(argv[i], NULL, 10);
    }
    double beta = 20, eps = 0.1;
    printf("# %s\n", version_line());
    printf("n\tbeta\teps\tsvd_seconds\tbracket_seconds\tratio\tenclose_seconds\tlower\tupper\tlower_cert\tupper_cert\tstatus\tpeak_MiB\tt_svd\tt_symeig\tt_pchol\tt_lower\troutes\tupper_route\tt_randomized\trandomized_rank\tsketch\tpasses\tt_polynomial\n");
    for (int t = 0; t < ns; t++) {
        size_t n = sizes[t];
        pointset_t P = { 0 };
        if (sphere_fibonacci(&P, n)) {
            fprintf(stderr, "bench: %s\n", ar_error_get());
            return 1;
        }
        /* bare SVD of the same double image (its enclosure is not timed) */
        smx_t A = { 0 };
        if (smx_compute_dbl(&A, P.x, n, P.x, n, 3, NULL, beta, 0)) {   /* the image the bracket uses */
            fprintf(stderr, "bench: %s\n", ar_error_get());
            return 1;
        }
        double *U, *s, *VT, tsvd2 = 0;
        double t0 = now();
        if (la_svd(n, n, A.a, &U, &s, &VT)) {
            fprintf(stderr, "bench: %s\n", ar_error_get());
            return 1;
        }
        double tsvd = now() - t0;
        free(U); free(s); free(VT);
        route_result_t rr;
        t0 = now();
        if (route_bracket(&P, &P, beta, eps, NULL, &rr)) {
            fprintf(stderr, "bench: %s\n", ar_error_get());
            return 1;
        }
        double tbr = now() - t0;
        t0 = now();                              /* the same SVD again, after the bracket */
        if (la_svd(n, n, A.a, &U, &s, &VT)) {
            fprintf(stderr, "bench: %s\n", ar_error_get());
            return 1;
        }
        tsvd2 = now() - t0;
        free(U); free(s); free(VT);
        smx_clear(&A);
        if (tsvd2 < tsvd)
            tsvd = tsvd2;                        /* the faster of the two: the conservative ratio */
        const bracket_t b = rr.b;
        /* the randomized certificates (rsym for self-attention, rsvd when log t spreads): the better rank */
        size_t rand_rank = b.up_rsym.rank;
        if (b.up_rsvd.rank > 0 && (rand_rank == 0 || b.up_rsvd.rank < rand_rank))
            rand_rank = b.up_rsvd.rank;
        printf("%zu\t%g\t%g\t%.2f\t%.2f\t%.2f\t%.2f\t%zu\t%zu\t%s\t%s\t%s\t%.0f\t%.2f\t%.2f\t%.2f\t%.2f\t%s\t%s\t%.2f\t%zu\t%zu\t%zu\t%.2f\n", n, beta,
               eps, tsvd, tbr, tbr / tsvd, b.seconds_enclose, b.lower, b.upper, ar_method_name(b.lo.method),
               ar_method_name(b.up.method), ar_cert_status_name(b.status),
               peak_mib(), b.up_svd.seconds, b.up_symeig.seconds, b.up_pchol.seconds, b.seconds_lower, rr.routes,
               ar_route_name(rr.upper_route), b.up_rsvd.seconds + b.up_rsym.seconds, rand_rank, b.rsvd.sketch,
               b.rsvd.passes, rr.poly_seconds);
        fflush(stdout);
        pointset_clear(&P);
    }
    flint_cleanup_master();
    return 0;
}
