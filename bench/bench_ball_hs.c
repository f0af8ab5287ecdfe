/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_ball_hs.c -- how the certified rank of the ball's shells continuum
 * (claim B's upper end; theory/certificates/cert_ball_harmonic.h) moves with
 * the radial spacing h sqrt(beta) of the shells, at every point of the
 * claim-B law rows (issue 22, part 3): the object converges to the full
 * ball as the spacing shrinks, and the law rows must use a spacing at which
 * the certified rank has converged.
 *
 * Usage: bench_ball_hs [D [BETA ...]]   (default: d = 2 at 100, 200, 500,
 * 1000 and d = 3 at 100, 160, 250, 400, 600).  One TSV line per (d, beta,
 * hs): d, beta, hs, spheres Q, certified rank, certified error, the change
 * from the previous spacing, seconds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "constructions/pointsets/ball_shells.h"
#include "base/clock.h"
#include "theory/certificates/cert_ball_harmonic.h"

static const double spacings[] = { 0.5, 0.35, 0.25, 0.18, 0.125, 0.09, 0.0625 };

static int run(int d, double beta, double max_seconds)
{
    double prev = 0, spent = 0;
    for (size_t k = 0; k < sizeof spacings / sizeof spacings[0]; k++) {
        double hs = spacings[k];
        ball_shells_t S;
        double t0 = clock_now();
        if (ball_shells_make(&S, d, beta, 0.0, hs, 1)) {
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
        char change[32] = "-";
        if (c.certified && prev > 0)
            snprintf(change, sizeof change, "%+.2f%%", 100.0 * ((double)c.rank / prev - 1.0));
        printf("%d\t%g\t%g\t%zu\t%zu\t%.4f\t%s\t%.2f\n", d, beta, hs, c.Q, c.certified ? c.rank : 0, c.err, change,
               secs);
        fflush(stdout);
        prev = c.certified ? (double)c.rank : 0;
        ball_harmonic_cert_clear(&c);
        ball_shells_clear(&S);
        spent += secs;
        if (spent > max_seconds)
            break;
    }
    return 0;
}

int main(int argc, char **argv)
{
    double budget = getenv("BENCH_HS_SECONDS") ? atof(getenv("BENCH_HS_SECONDS")) : 600;
    printf("d\tbeta\ths\tspheres\trank\terr\tchange\tseconds\n");
    if (argc >= 3) {
        int d = atoi(argv[1]);
        for (int i = 2; i < argc; i++)
            if (run(d, atof(argv[i]), budget))
                return 1;
        return 0;
    }
    const double b2[] = { 100, 200, 500, 1000 }, b3[] = { 100, 160, 250, 400, 600 };
    for (size_t i = 0; i < 4; i++)
        if (run(2, b2[i], budget))
            return 1;
    for (size_t i = 0; i < 5; i++)
        if (run(3, b3[i], budget))
            return 1;
    return 0;
}
