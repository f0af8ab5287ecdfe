/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_ball_d45.c -- claim B's instruments in d = 4 and d = 5 (issue 22,
 * part 2): the certified lower ends of the ball's lower instances and the
 * certified upper end of its shells continuum over a wide beta range, with
 * the time of every point and the load average.
 *
 * Usage: bench_ball_d45 lower D BETA ...   one TSV line per (beta, construction, scale):
 *                                          certified lower end, certificate, distinct
 *                                          points, max R, seconds
 *        bench_ball_d45 upper D BETA ...   one line per beta: continuum rank, spheres,
 *                                          degree L, error, seconds
 *        bench_ball_d45 route D BETA SCALE ...  the D_d lattice at SCALE x its default
 *                                          spacing through the route chooser (dense test
 *                                          matrices with a verified inverse norm; at most a
 *                                          few thousand points): certified bracket
 *        bench_ball_d45 point D BETA ...   one line per beta: claim_b_point as a law row
 *                                          would run it (BENCH_LATTICE = 0, 1, 2: its
 *                                          lower_lattice; BENCH_ROUTE = 1: lower_route;
 *                                          BENCH_CONT = 0: no continuum end), with the
 *                                          lower end's method and set size, the continuum
 *                                          end, upper/lower and the seconds
 * eps = 0.1, full ball (rho0 = 0), Gaussian multiplicities. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "constructions/pointsets/ball.h"
#include "constructions/pointsets/ball_shells.h"
#include "numerics/clock.h"
#include "theory/certificates/cert_ball.h"
#include "theory/certificates/cert_ball_harmonic.h"
#include "theory/brackets/route.h"
#include "theory/claims/claim_b.h"

static double load1(void)
{
    double l = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1)
            l = -1;
        fclose(f);
    }
    return l;
}

static const double scales[] = { 1.12, 1.06, 1.0, 0.95, 0.9 };

static const double lattice_scales[] = { 1.02, 1.0, 0.99, 0.98 };

static int lower(int d, double beta, ball_family_t fam, uint64_t seed)
{
    size_t ns = fam == BALL_PACKED ? sizeof lattice_scales / sizeof lattice_scales[0] : sizeof scales / sizeof scales[0];
    for (size_t k = 0; k < ns; k++) {
        double sck = fam == BALL_PACKED ? lattice_scales[k] : scales[k];
        ball_spec_t s;
        ball_spec_default(&s, fam, (size_t)d, beta);
        s.rho0 = 0.0;
        s.c_radial *= sck;
        s.c_angular *= sck;
        s.c_lattice *= sck;
        if (fam == BALL_PACKED)
            s.seed = seed;
        pointset_t P;
        memset(&P, 0, sizeof P);
        double t0 = clock_now();
        if (ball_generate(&P, &s)) {
            fprintf(stderr, "ball_generate: %s\n", ar_error_get());
            return 1;
        }
        double tg = clock_now() - t0;
        ball_lower_t c;
        ar_status st = fam == BALL_PACKED ? ball_cluster_lower(&P, beta, 0.1, 0.0, &c) : ball_lower_search(&P, beta, 0.1, &c);
        if (st) {
            fprintf(stderr, "ball_lower_search: %s\n", ar_error_get());
            pointset_clear(&P);
            return 1;
        }
        printf("%d\t%g\t%s%s\t%.2f\t%zu\t%zu\t%s\t%.4f\t%.2f\t%.2f\t%.2f\n", d, beta, ball_family_name(fam),
               fam == BALL_PACKED ? (seed ? "/hole" : "/point") : "", sck,
               c.certified, P.n, ar_method_name(c.method), c.max_R, tg, clock_now() - t0, load1());
        fflush(stdout);
        pointset_clear(&P);
    }
    return 0;
}

static int upper(int d, double beta)
{
    ball_shells_t S;
    double t0 = clock_now();
    if (ball_shells_make(&S, d, beta, 0.0, 0.5, 1)) {
        fprintf(stderr, "ball_shells_make: %s\n", ar_error_get());
        return 1;
    }
    ball_harmonic_cert_t c;
    ar_status st = ball_harmonic_upper(&S, 0.1, NULL, &c);
    double secs = clock_now() - t0;
    if (st) {
        fprintf(stderr, "ball_harmonic_upper: %s\n", ar_error_get());
        ball_shells_clear(&S);
        return 1;
    }
    printf("%d\t%g\t%zu\t%.3f\t%zu\t%lu\t%lu\t%.4f\t%u\t%.2f\t%.2f\n", d, beta, c.certified ? c.rank : 0,
           c.h_sqrt_beta, c.Q, c.L, c.Lp, c.err, c.evals, secs, load1());
    fflush(stdout);
    ball_harmonic_cert_clear(&c);
    ball_shells_clear(&S);
    return 0;
}

static int route(int d, double beta, double scale)
{
    ball_spec_t s;
    ball_spec_default(&s, BALL_PACKED, (size_t)d, beta);
    s.rho0 = 0.0;
    s.c_lattice *= scale;
    pointset_t P;
    memset(&P, 0, sizeof P);
    double t0 = clock_now();
    if (ball_generate(&P, &s)) {
        fprintf(stderr, "ball_generate: %s\n", ar_error_get());
        return 1;
    }
    route_result_t rr;
    ar_status st = route_bracket(&P, &P, beta, 0.1, NULL, &rr);
    if (st) {
        fprintf(stderr, "route_bracket: %s\n", ar_error_get());
        pointset_clear(&P);
        return 1;
    }
    printf("%d\t%g\t%.3f\t%zu\t%zu\t%s\t%zu\t%s\t%s\t%.2f\t%.2f\n", d, beta, scale, P.n, rr.b.lower,
           ar_method_name(rr.b.lo.method), rr.b.upper, ar_method_name(rr.b.up.method), ar_cert_status_name(rr.b.status), clock_now() - t0, load1());
    fflush(stdout);
    pointset_clear(&P);
    return 0;
}

static int point(int d, double beta)
{
    claim_b_opts_t o;
    claim_b_opts_default(&o);
    o.rho0 = 0.0;
    o.lower = 1;
    o.hs = 0.5;
    o.continuum = getenv("BENCH_CONT") ? atoi(getenv("BENCH_CONT")) : 1;
    o.lower_route = getenv("BENCH_ROUTE") ? atoi(getenv("BENCH_ROUTE")) : 0;
    o.lower_lattice = getenv("BENCH_LATTICE") ? atoi(getenv("BENCH_LATTICE")) : 1;
    law_point_t p;
    double t0 = clock_now();
    if (claim_b_point((size_t)d, beta, 0.1, &o, &p)) {
        fprintf(stderr, "claim_b_point: %s\n", ar_error_get());
        return 1;
    }
    printf("%d\t%g\t%d\t%d\t%zu\t%s\t%zu\t%zu\t%s\t%.2f\t%.1f\t%.2f\t%.2f\n", d, beta, o.lower_lattice,
           o.lower_route, p.lower, p.lower_method, p.lower_points, p.continuum, p.continuum_method,
           p.continuum && p.lower ? (double)p.continuum / (double)p.lower : 0.0, p.log10_n, clock_now() - t0, load1());
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4 || (strcmp(argv[1], "lower") && strcmp(argv[1], "upper") && strcmp(argv[1], "point") &&
                     strcmp(argv[1], "route"))) {
        fprintf(stderr, "usage: bench_ball_d45 lower|upper|point|route D BETA ...\n");
        return 2;
    }
    int d = atoi(argv[2]);
    if (!strcmp(argv[1], "lower")) {
        printf("d\tbeta\tfamily\tscale\tlower\tdistinct\tcert\tmaxR\tgen_s\ttotal_s\tload\n");
        const char *fam = getenv("BENCH_FAMILY") ? getenv("BENCH_FAMILY") : "shells";
        for (int i = 3; i < argc; i++) {
            if (strstr(fam, "shells") && lower(d, atof(argv[i]), BALL_SHELLS, 1))
                return 1;
            if (strstr(fam, "packed") && lower(d, atof(argv[i]), BALL_PACKED, 0))
                return 1;
            if (strstr(fam, "hole") && lower(d, atof(argv[i]), BALL_PACKED, 1))
                return 1;
        }
    } else if (!strcmp(argv[1], "route")) {
        printf("d\tbeta\tscale\tdistinct\tlower\tlower_method\tupper\tupper_method\tstatus\tseconds\tload\n");
        for (int i = 4; i < argc; i++)
            if (route(d, atof(argv[3]), atof(argv[i])))
                return 1;
    } else if (!strcmp(argv[1], "point")) {
        printf("d\tbeta\tlattice\troute\tlower\tlower_method\tlower_points\tcontinuum\tcontinuum_method\t"
               "upper/lower\tlog10_N\tseconds\tload\n");
        for (int i = 3; i < argc; i++)
            if (point(d, atof(argv[i])))
                return 1;
    } else {
        printf("d\tbeta\tupper\th_sqrt_beta\tspheres\tL\tLp\terr\tevals\tseconds\tload\n");
        for (int i = 3; i < argc; i++)
            if (upper(d, atof(argv[i])))
                return 1;
    }
    return 0;
}
