/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_dense.c -- the dense route against its physical limit and an uncertified baseline
 * (issue 24 item 4), one instance per run, everything in one process on one BLAS core:
 * n queries x n keys uniform in the unit 3-ball (seeds 1, 2; self-attention with "self"),
 * beta 20, eps 0.1.
 *   - the certified bracket (bracket_compute, default options: the memory rule decides whether
 *     the image is held or streamed), its ends, upper/lower and time;
 *   - the measured dgemm rate (n x n times n x 256, best of three) and the time to form A once
 *     (the double enclosure, smx_compute_dbl);
 *   - the physical-limit estimate t_form + 2 n^2 (4 (k + 16) + k) / rate, k the certified upper
 *     end (a sketch of k + 16 columns with one power iteration, one residual at rank k);
 *   - an uncertified randomized SVD given the rank k, written in C on the same LAPACK/BLAS calls
 *     (sketch 1.2 k + 10, two power iterations with dgeqrf/dorgqr between products, dgesdd of
 *     the small factor, one error check: max row l1 of A - U_k V_k^T by one dgemm), after
 *     forming A once; the ratio bracket / (form + baseline).
 * Usage: bench_dense N [self]     (header: bench_dense header) */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "constructions/pointsets/ball.h"
#include "numerics/blas_select.h"
#include "numerics/clock.h"
#include "numerics/linalg.h"
#include "numerics/rng.h"
#include "numerics/softmax_dbl.h"
#include "numerics/version.h"
#include "theory/brackets/bracket.h"
#include <flint/flint.h>

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

static void die(void)
{
    fprintf(stderr, "bench_dense: %s\n", ar_error_get());
    exit(1);
}

/* Flop rate of dgemm on the product shape of the sketch (n x n times n x 256), best of three. */
static double dgemm_rate(const double *a, size_t n)
{
    size_t l = 256;
    double *X = calloc(n * l, sizeof *X), *Y = calloc(n * l, sizeof *Y), best = 0;
    for (size_t i = 0; i < n * l; i++)
        X[i] = (double)(i % 7) - 3.0;
    for (int r = 0; r < 3; r++) {
        double t0 = clock_now();
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)l, (int)n, 1.0, a, (int)n, X, (int)n, 0.0,
                    Y, (int)n);
        double rate = 2.0 * (double)n * (double)n * (double)l / (clock_now() - t0);
        if (rate > best)
            best = rate;
    }
    free(X);
    free(Y);
    return best;
}

/* The uncertified randomized SVD given the rank k on the held image a (n x n): returns the
 * seconds, *err the (uncertified) max row l1 error of its rank-k truncation. */
static double baseline_rsvd(const double *a, size_t n, size_t k, double *err)
{
    double t0 = clock_now();
    size_t l = (size_t)(1.2 * (double)k) + 10;
    if (l > n)
        l = n;
    double *Om = calloc(n * l, sizeof *Om), *Y = calloc(n * l, sizeof *Y);
    rng_t r;
    rng_init(&r, 1);
    for (size_t i = 0; i < n * l; i++)
        Om[i] = rng_normal(&r);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)l, (int)n, 1.0, a, (int)n, Om, (int)n, 0.0, Y,
                (int)n);
    for (int it = 0; it < 2; it++) {
        if (la_orth(n, l, Y))
            die();
        cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)n, (int)l, (int)n, 1.0, a, (int)n, Y, (int)n, 0.0,
                    Om, (int)n);
        if (la_orth(n, l, Om))
            die();
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)l, (int)n, 1.0, a, (int)n, Om, (int)n, 0.0,
                    Y, (int)n);
    }
    if (la_orth(n, l, Y))
        die();
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)n, (int)l, (int)n, 1.0, a, (int)n, Y, (int)n, 0.0, Om,
                (int)n);                                        /* B^T = A^T Q */
    double *Uz, *s, *WT;
    if (la_svd(n, l, Om, &Uz, &s, &WT))
        die();
    double *U = calloc(n * k, sizeof *U), *C = malloc(n * n * sizeof *C);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, (int)n, (int)k, (int)l, 1.0, Y, (int)n, WT, (int)l, 0.0, U,
                (int)n);
    for (size_t c = 0; c < k; c++)
        for (size_t i = 0; i < n; i++)
            U[i + c * n] *= s[c];
    memcpy(C, a, n * n * sizeof *C);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, (int)n, (int)n, (int)k, -1.0, U, (int)n, Uz, (int)n, 1.0, C,
                (int)n);                                        /* the one error check */
    double *rs = calloc(n, sizeof *rs), mx = 0;
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < n; i++)
            rs[i] += fabs(C[i + j * n]);
    for (size_t i = 0; i < n; i++)
        mx = rs[i] > mx ? rs[i] : mx;
    *err = mx;
    free(Om); free(Y); free(Uz); free(s); free(WT); free(U); free(C); free(rs);
    return clock_now() - t0;
}

static double load1(void)
{
    double l = 0;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1)
            l = 0;
        fclose(f);
    }
    return l;
}

int main(int argc, char **argv)
{
    blas_select_kernel(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "header")) {
        printf("# %s\n", version_line());
        printf("kind\tn\tlower\tupper\tupper/lower\tlower_cert\tstreamed\tsketch\tpasses\tt_bracket\tt_lower\tt_upper\t"
               "GFlops\tt_form\tt_limit\tbracket/limit\tt_baseline\tbaseline_err\tbracket/(form+baseline)\tload_start\tload_end\n");
        return 0;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: bench_dense N [self] | header\n");
        return 2;
    }
    size_t n = (size_t)strtoull(argv[1], NULL, 10);
    int self = argc > 2 && !strcmp(argv[2], "self");
    double beta = 20, eps = 0.1, l0 = load1();
    pointset_t Q = { 0 }, K = { 0 };
    if (make_ball(&Q, n, 1) || (!self && make_ball(&K, n, 2)))
        die();
    const pointset_t *Kp = self ? &Q : &K;
    bracket_t b;
    if (bracket_compute(&Q, Kp, beta, eps, NULL, &b))
        die();
    /* the same image, formed once, for the rate, the limit and the baseline */
    smx_t A;
    double t0 = clock_now();
    if (smx_compute_dbl(&A, Q.x, n, Kp->x, n, 3, NULL, beta, 0))
        die();
    double tform = clock_now() - t0;
    double rate = dgemm_rate(A.a, n);
    size_t k = b.upper;
    double tlimit = tform + 2.0 * (double)n * (double)n * (4.0 * (double)(k + 16) + (double)k) / rate;
    double berr, tbase = baseline_rsvd(A.a, n, k, &berr);
    smx_clear(&A);
    printf("%s\t%zu\t%zu\t%zu\t%.2f\t%s\t%d\t%zu\t%zu\t%.2f\t%.2f\t%.2f\t%.1f\t%.2f\t%.2f\t%.2f\t%.2f\t%.4f\t%.2f\t%.2f\t%.2f\n",
           self ? "self" : "cross", n, b.lower, b.upper, (double)b.upper / (double)b.lower,
           ar_method_name(b.lo.method), b.streamed,
           b.rsvd.sketch, b.rsvd.passes, b.seconds, b.seconds_lower, b.seconds_upper, rate * 1e-9, tform, tlimit,
           b.seconds / tlimit, tbase, berr, b.seconds / (tform + tbase), l0, load1());
    pointset_clear(&Q);
    pointset_clear(&K);
    flint_cleanup_master();
    return 0;
}
