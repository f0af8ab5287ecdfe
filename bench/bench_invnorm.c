/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_invnorm.c -- the verified inverse-norm bound (numerics/invnorm.h) of one m x m matrix, timed
 * at several thread counts (issue 35): the lower end of a ball bracket at beta 600 in d = 3 is one
 * such bound of m = 6762.
 * Usage: bench_invnorm M [THREADS...]  builds M = 2 I + a Gaussian kernel of M points spread on
 * [0, 1] (width 1/M, rows scaled by a fixed pseudo-random factor) and prints one TSV row per thread
 * count: m threads bound(%a) seconds.  The bound must be the same bits on every row. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "base/clock.h"
#include "base/config.h"
#include "numerics/invnorm.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_invnorm M [THREADS...]\n");
        return 2;
    }
    size_t m = strtoul(argv[1], NULL, 10);
    if (m < 1 || m > 40000) {
        fprintf(stderr, "bench_invnorm: need 1 <= M <= 40000\n");
        return 2;
    }
    double *M = malloc(m * m * sizeof(double));
    if (!M) {
        fprintf(stderr, "bench_invnorm: out of memory\n");
        return 1;
    }
    unsigned long long s = 88172645463325252ull;
    for (size_t i = 0; i < m; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        double sc = 0.5 + (double)(s >> 11) * 0x1p-53;
        for (size_t j = 0; j < m; j++) {
            double t = ((double)i - (double)j) / 2.0;
            M[i + j * m] = sc * exp(-t * t) + (i == j ? 1.0 : 0.0);
        }
    }
    printf("m\tthreads\tbound\tseconds\n");
    for (int a = argc > 2 ? 2 : 1; a < argc || a == 1; a++) {
        int T = a == 1 ? 1 : atoi(argv[a]);
        ar_config_t cfg;
        ar_config_default(&cfg);
        cfg.threads = T;
        const ar_config_t *prev = ar_config_install(&cfg);
        double t0 = clock_now();
        double b = invnorm_inf_bound(m, M, 0.0);
        double dt = clock_now() - t0;
        ar_config_install(prev);
        printf("%zu\t%d\t%a\t%.2f\n", m, T, b, dt);
        fflush(stdout);
        if (a == 1)
            break;
    }
    free(M);
    return 0;
}
