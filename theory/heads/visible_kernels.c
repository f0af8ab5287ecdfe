/* SPDX-License-Identifier: GPL-3.0-or-later */
/* visible_kernels.c -- the directed-rounding kernels of the visible-dimension module:
 * enclosed Gram and rank-one products, row extremes, oscillations, norms
 * (THEORY 3.1, 3.3; proofs-notes/claim-T.md). */
#include "theory/heads/visible.h"
#include "theory/heads/visible_impl.h"

#include <math.h>
#include <stdlib.h>


/* ---------------------------------------------------------------------
 * Directed-rounding kernels.  Each is a body for fround_run
 * (numerics/fround.h): it runs entirely in the rounding mode fround_run
 * sets and exchanges data only through its context, so no arithmetic can
 * move out of the directed-rounding region.
 * --------------------------------------------------------------------- */

/* out[i + j*m] = beta * sum_c A[i*d + c] B[j*d + c], every operation rounded
 * in the current mode.  Upward (downward) the result is an upper (lower)
 * bound of the exact value: each partial sum and product is a bound in that
 * direction, and beta >= 0 preserves the direction. */
FROUND_BODY void dir_gram(void *ctx)
{
    gram_ctx_t *g = ctx;
    for (size_t i = 0; i < g->m; i++) {
        const double *a = g->A + i * g->d;
        for (size_t j = 0; j < g->n; j++) {
            const double *b = g->B + j * g->d;
            double s = 0.0;
            for (size_t c = 0; c < g->d; c++)
                s += a[c] * b[c];
            g->out[i + j * g->m] = g->beta * s;
        }
    }
}

/* P[i + j*m] += a[i] * b[j] in the current mode (a bound in that direction
 * of P + a b^T if P already was one). */
FROUND_BODY void dir_rank1(void *ctx)
{
    rank1_ctx_t *r = ctx;
    for (size_t j = 0; j < r->n; j++) {
        double bj = r->b[j];
        double *p = r->P + j * r->m;
        for (size_t i = 0; i < r->m; i++)
            p[i] += r->a[i] * bj;
    }
}

/* out[i] = max_j (X - Y)[i + j*m] (sign = +1) or min_j (sign = -1), the
 * subtractions rounded in the current mode; NaN counts as +inf (max) or
 * -inf (min), the conservative side. */
FROUND_BODY void dir_row_extreme(void *ctx)
{
    extreme_ctx_t *e = ctx;
    for (size_t i = 0; i < e->m; i++)
        e->out[i] = e->sign > 0 ? -INFINITY : INFINITY;
    for (size_t j = 0; j < e->n; j++) {
        const double *x = e->X + j * e->m, *y = e->Y + j * e->m;
        for (size_t i = 0; i < e->m; i++) {
            double t = x[i] - y[i];
            if (isnan(t))
                t = e->sign > 0 ? INFINITY : -INFINITY;
            if (e->sign > 0 ? t > e->out[i] : t < e->out[i])
                e->out[i] = t;
        }
    }
}

/* hi[i] -= lo[i] in the current mode (upward: an upper bound). */
FROUND_BODY void dir_diff(void *ctx)
{
    diff_ctx_t *d = ctx;
    for (size_t i = 0; i < d->m; i++)
        d->hi[i] = d->hi[i] - d->lo[i];
}

/* Upward (caller's mode): upper bounds of the Frobenius norm, the max row
 * sum, the max column sum and sqrt(rowmax * colmax) of a matrix E known
 * only as lo <= E <= hi entrywise (N x N, column-major). */
FROUND_BODY void dir_norms(void *ctx)
{
    norms_ctx_t *c = ctx;
    size_t N = c->N;
    double f = 0.0, cm = 0.0;
    for (size_t i = 0; i < N; i++)
        c->rowsum[i] = 0.0;
    for (size_t j = 0; j < N; j++) {
        double cs = 0.0;
        for (size_t i = 0; i < N; i++) {
            double a = fabs(c->lo[i + j * N]), b = fabs(c->hi[i + j * N]);
            double e = a > b ? a : b;
            if (isnan(e))
                e = INFINITY;
            f += e * e;
            cs += e;
            c->rowsum[i] += e;
        }
        if (cs > cm)
            cm = cs;
    }
    double rm = 0.0;
    for (size_t i = 0; i < N; i++)
        if (c->rowsum[i] > rm)
            rm = c->rowsum[i];
    c->fro = sqrt(f);
    c->rowmax = rm;
    c->colmax = cm;
    c->mixed = sqrt(rm * cm);
}
