/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_nearpairs.c -- the diagonal-dominance certificate of one zonal
 * packing (the packing lower end's unit of work, issue 36): the k-d tree's
 * near-pair search and the row bounds, timed.
 * Usage: bench_nearpairs D BETA N [EPS]  builds the zonal code on S^{D-1}
 * whose size is the largest <= N (theta by bisection on sphere_zonal_count),
 * certifies it at BETA (automatic threshold, no early stop) and prints one
 * TSV row: d beta eps theta m certified max_R near_pairs seconds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "base/clock.h"
#include "constructions/pointsets/sphere_code.h"
#include "theory/certificates/cert_packing.h"

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bench_nearpairs D BETA N [EPS]\n");
        return 2;
    }
    size_t d = strtoul(argv[1], NULL, 10), N = strtoul(argv[3], NULL, 10);
    double beta = atof(argv[2]), eps = argc > 4 ? atof(argv[4]) : 0.1;
    if (d < 3 || d > 16 || !(beta > 0) || N < 2 || !(eps > 0 && eps < 1)) {
        fprintf(stderr, "bench_nearpairs: need 3 <= D <= 16, BETA > 0, N >= 2, 0 < EPS < 1\n");
        return 2;
    }
    double lo = 1e-4, hi = 3.0;      /* count(lo) > N >= count(hi) */
    for (int it = 0; it < 60; it++) {
        double mid = sqrt(lo * hi);
        size_t c = 0;
        if (sphere_zonal_count(d, mid, N + 1, &c) != AR_OK)
            return 1;
        if (c > N)
            lo = mid;
        else
            hi = mid;
    }
    pointset_t P = { 0 };
    if (sphere_zonal(&P, d, hi, N) != AR_OK)
        return 1;
    pack_cert_t c;
    double t0 = clock_now();
    ar_status st = pack_diagdom(&P, beta, eps, &c);
    double t = clock_now() - t0;
    if (st != AR_OK)
        return 1;
    printf("%zu\t%g\t%g\t%.6f\t%zu\t%zu\t%.17g\t%zu\t%.2f\n", d, beta, eps, hi, P.n, c.certified,
           c.max_R, c.near_pairs, t);
    pointset_clear(&P);
    return 0;
}
