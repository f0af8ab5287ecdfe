/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_ball_radial.c -- the radial-rank profile of claim B's upper end (issue 36): the shells
 * continuum's certificate (theory/certificates/cert_ball_harmonic.h) is a truncated radial SVD per
 * harmonic degree l, of rank R_l, and its certified rank is sum_l N(d, l) R_l.  How R_l falls with
 * l decides how the certificate's rank grows with beta, so a bias model of the claim-B upper end
 * needs it (proofs-notes/claim-B.md, "The far window of issue 36 for d = 5").
 *
 * Usage: bench_ball_radial D BETA...  the full ball (rho0 = 0), weighted, radial spacing
 * h sqrt(beta) = 0.5 (the law rows' object), eps = 0.1.  Per beta one line
 *   # d beta Q L rank err seconds
 * then one TSV line per degree l <= L: d beta l N(d,l) R_l. */
#include <stdio.h>
#include <stdlib.h>
#include <flint/fmpz.h>
#include "base/clock.h"
#include "constructions/pointsets/ball_shells.h"
#include "theory/certificates/cert_ball_harmonic.h"
#include "theory/spectra/funkhecke.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_ball_radial D BETA...\n");
        return 2;
    }
    int d = atoi(argv[1]);
    if (d < 2 || d > 5) {
        fprintf(stderr, "bench_ball_radial: D must be 2..5\n");
        return 2;
    }
    printf("d\tbeta\tl\tN_l\tR_l\n");
    fmpz_t N;
    fmpz_init(N);
    for (int a = 2; a < argc; a++) {
        double beta = atof(argv[a]);
        ball_shells_t S;
        double t0 = clock_now();
        if (!(beta > 0) || ball_shells_make(&S, d, beta, 0.0, 0.5, 1)) {
            fprintf(stderr, "bench_ball_radial: beta %s: %s\n", argv[a], ar_error_get());
            return 1;
        }
        ball_harmonic_cert_t C;
        if (ball_harmonic_upper(&S, 0.1, NULL, &C)) {
            fprintf(stderr, "bench_ball_radial: beta %g: %s\n", beta, ar_error_get());
            return 1;
        }
        printf("# d %d beta %g Q %zu L %lu rank %zu err %.4g certified %d seconds %.1f\n", d, beta, C.Q, C.L, C.rank,
               C.err, C.certified, clock_now() - t0);
        for (unsigned long l = 0; l <= C.L; l++) {
            fh_multiplicity(N, d, l);
            printf("%d\t%g\t%lu\t%lu\t%zu\n", d, beta, l, (unsigned long)fmpz_get_ui(N), C.R[l]);
        }
        fflush(stdout);
        ball_harmonic_cert_clear(&C);
        ball_shells_clear(&S);
    }
    fmpz_clear(N);
    return 0;
}
