/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_lower_search.c -- one claim-S packing lower end (issue 35, 36): the
 * search over the packing angle (pool or zonal code, each probe certified by
 * diagonal dominance), timed in wall and CPU seconds.
 * Usage: bench_lower_search D BETA MAX_POINTS [SEED [EPS]]  prints one TSV
 * row: d beta eps seed theta certified max_R near_pairs wall_s cpu_s
 * cpu/wall.  The thread count is the library's default (every CPU the
 * process may use). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "base/clock.h"
#include "theory/certificates/cert_packing.h"

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bench_lower_search D BETA MAX_POINTS [SEED [EPS]]\n");
        return 2;
    }
    size_t d = strtoul(argv[1], NULL, 10), max = strtoul(argv[3], NULL, 10);
    double beta = atof(argv[2]);
    unsigned long long seed = argc > 4 ? strtoull(argv[4], NULL, 10) : 1;
    double eps = argc > 5 ? atof(argv[5]) : 0.1;
    pack_cert_t c;
    double t0 = clock_now();
    clock_t c0 = clock();
    if (pack_lower_search_gen(d, beta, eps, seed, max, PACK_DIAGDOM, PACK_GEN_AUTO, &c) != AR_OK) {
        fprintf(stderr, "bench_lower_search: %s\n", ar_error_get());
        return 1;
    }
    double wall = clock_now() - t0, cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
    printf("%zu\t%g\t%g\t%llu\t%.9f\t%zu\t%.17g\t%zu\t%.2f\t%.2f\t%.2f\n", d, beta, eps, seed, c.theta,
           c.certified, c.max_R, c.near_pairs, wall, cpu, cpu / wall);
    return 0;
}
