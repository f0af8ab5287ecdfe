/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_head.c -- issue #8 figures: a 64-dimensional head whose queries and
 * keys live in a rotated 3-dimensional subspace, plus a common key offset
 * and query parts that no key difference sees (r = 3); the same with 1e-4
 * noise in ten more key directions (r > 3, r(0.05) = 3).  Writes the two
 * instances as .npy (Q, K) into OUTDIR for the `attnrank head` timing.
 * Usage: bench_head OUTDIR [m n] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "constructions/pointsets/head.h"
#include "constructions/formats/npy.h"
#include "base/clock.h"
#include "theory/heads/visible.h"

static int one(const char *dir, const char *name, size_t m, size_t n, double delta)
{
    pointset_t Q, K, Qh, Kh;
    if (head_random_ball(&Q, &K, 3, m, n, 2026))
        return 1;
    for (size_t t = 0; t < m * 3; t++) Q.x[t] *= 4.0;      /* |q|, |k| <= 4: logits up to 2 at beta = 1/8 */
    for (size_t t = 0; t < n * 3; t++) K.x[t] *= 4.0;
    head_embed_t e = { .dh = 64, .key_offset = 2.0, .query_invisible = 1.0, .nnoise = delta > 0 ? 10 : 0,
                       .delta = delta, .rotate = HEAD_ROT_RANDOM, .seed = 64 };
    if (head_embed(&Q, &K, &e, &Qh, &Kh))
        return 1;
    char pq[512], pk[512];
    snprintf(pq, sizeof pq, "%s/%s_Q.npy", dir, name);
    snprintf(pk, sizeof pk, "%s/%s_K.npy", dir, name);
    if (npy_write(pq, Qh.x, m, 64) || npy_write(pk, Kh.x, n, 64))
        return 1;
    double t0 = clock_now();
    visible_t v;
    if (visible_compute(Qh.x, m, Kh.x, n, 64, 0.125, NULL, &v))
        return 1;
    double taus[1] = { 0.05 };
    size_t rt;
    double et;
    visible_rtau(&v, taus, 1, &rt, &et);
    double e3;
    visible_eta(&v, 3, &e3);
    printf("%s\t%zu\t%zu\t64\t%g\t%zu\t%ld\t%.3g\t%.4g\t%.4g\t%zu\t%.4g\t%.3f\n", name, m, n, delta, v.r,
           v.r_exact, v.tol, v.sigma[2], v.sigma[3], rt, et, clock_now() - t0);
    visible_clear(&v);
    pointset_clear(&Q); pointset_clear(&K); pointset_clear(&Qh); pointset_clear(&Kh);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_head OUTDIR [m n]\n");
        return 2;
    }
    size_t m = argc > 3 ? (size_t)atol(argv[2]) : 512, n = argc > 3 ? (size_t)atol(argv[3]) : 512;
    printf("instance\tm\tn\thead_dim\tnoise\tr\tr_exact\ttol\tsigma_3\tsigma_4\tr(0.05)\teta(r(0.05))\tseconds\n");
    if (one(argv[1], "head3", m, n, 0.0) || one(argv[1], "head3_noise", m, n, 1e-4)) {
        fprintf(stderr, "bench_head: failed\n");
        return 1;
    }
    return 0;
}
