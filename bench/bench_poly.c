/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_poly.c -- polynomial (zonal) upper certificate on the sphere (issue 3,
 * parts 2 and 6).  Prints a TSV table:
 *   kind (instance|continuum), d, beta, n, L, rank, certified error,
 *   certified error at L-1, capped, seconds
 * Instance rows: Fibonacci sets on S^2 with n points (default 20000) at
 * beta = 50, 100, 200, 500.  Continuum rows (uniform measure, n -> infinity):
 * d = 3 and 4 up to beta = 500, d = 5 up to beta = 200.  eps = 0.1.
 * Usage: bench_poly [n] [max_beta]   (defaults 20000 and 500) */
#include <stdio.h>
#include <stdlib.h>
#include "constructions/pointsets/sphere.h"
#include "theory/certificates/cert_poly.h"

static void row(const char *kind, const poly_cert_t *c)
{
    printf("%s\t%d\t%g\t%zu\t%lu\t%zu\t%.6f\t%.6f\t%d\t%.2f\n", kind, c->d, c->beta, c->n, c->L, c->rank,
           c->err, c->err_below, c->capped, c->seconds);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 20000;
    double bmax = argc > 2 ? atof(argv[2]) : 500;
    double eps = 0.1;
    printf("# polynomial upper certificate, eps = %g (rank = min(dim P_L(S^{d-1}), n))\n", eps);
    printf("kind\td\tbeta\tn\tL\trank\terr\terr_L-1\tcapped\tseconds\n");
    pointset_t P = {0};
    if (sphere_fibonacci(&P, n) != AR_OK) {
        fprintf(stderr, "bench_poly: %s\n", ar_error_get());
        return 1;
    }
    double ib[4] = {50, 100, 200, 500};
    for (int t = 0; t < 4; t++) {
        if (ib[t] > bmax)
            continue;
        poly_cert_t c;
        if (poly_upper_instance(&P, ib[t], eps, &c) != AR_OK) {
            fprintf(stderr, "bench_poly: %s\n", ar_error_get());
            return 1;
        }
        row("instance", &c);
    }
    pointset_clear(&P);
    struct { int d; double beta; } cs[] = {
        {3, 10}, {3, 50}, {3, 100}, {3, 200}, {3, 500},
        {4, 10}, {4, 50}, {4, 100}, {4, 200}, {4, 500},
        {5, 10}, {5, 50}, {5, 100}, {5, 200},
    };
    for (size_t t = 0; t < sizeof cs / sizeof cs[0]; t++) {
        if (cs[t].beta > bmax)
            continue;
        poly_cert_t c;
        if (poly_upper_continuum(cs[t].d, cs[t].beta, eps, &c) != AR_OK) {
            fprintf(stderr, "bench_poly: %s\n", ar_error_get());
            return 1;
        }
        row("continuum", &c);
    }
    return 0;
}
