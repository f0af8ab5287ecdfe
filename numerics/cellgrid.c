/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cellgrid.c -- uniform cell grid (see cellgrid.h). */
#include "numerics/cellgrid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)

static uint64_t hash_key(const int64_t *k, size_t d)
{
    uint64_t h = UINT64_C(0x9e3779b97f4a7c15);
    for (size_t c = 0; c < d; c++) {
        h ^= (uint64_t)k[c];
        h *= UINT64_C(0xff51afd7ed558ccd);
        h ^= h >> 29;
    }
    return h ^ (h >> 32);
}

typedef struct { const int64_t *k; size_t d; } keyctx_t;

static int cmp_idx(const void *a, const void *b, void *ctx)
{
    const keyctx_t *kc = ctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    const int64_t *ki = kc->k + i * kc->d, *kj = kc->k + j * kc->d;
    for (size_t c = 0; c < kc->d; c++)
        if (ki[c] != kj[c])
            return ki[c] < kj[c] ? -1 : 1;
    return i < j ? -1 : (i > j);
}

void cellgrid_free(cellgrid_t *g)
{
    free(g->key);
    free(g->perm);
    free(g->cstart);
    free(g->slot);
    free(g->tcell);
    free(g->tb);
    free(g->te);
    free(g->tkid);
    free(g->tlo);
    free(g->thi);
    memset(g, 0, sizeof *g);
}

/* The key of occupied cell c. */
static const int64_t *cell_key(const cellgrid_t *g, size_t c)
{
    return g->key + g->cstart[c] * g->d;
}

#define TREE_LEAF 8

typedef struct { const cellgrid_t *g; size_t dim; } splitctx_t;

static int cmp_cell_dim(const void *a, const void *b, void *ctx)
{
    const splitctx_t *sc = ctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    int64_t ki = cell_key(sc->g, i)[sc->dim], kj = cell_key(sc->g, j)[sc->dim];
    if (ki != kj)
        return ki < kj ? -1 : 1;
    return i < j ? -1 : (i > j);
}

/* Node k over tcell[b, e): its box, and children split at the median of the widest key
 * coordinate while more than TREE_LEAF cells remain.  Deterministic (ties by cell id). */
static void tree_node(cellgrid_t *g, size_t k, size_t b, size_t e)
{
    size_t d = g->d;
    int64_t *lo = g->tlo + k * d, *hi = g->thi + k * d;
    for (size_t c = 0; c < d; c++) {
        lo[c] = INT64_MAX;
        hi[c] = INT64_MIN;
    }
    for (size_t t = b; t < e; t++) {
        const int64_t *key = cell_key(g, g->tcell[t]);
        for (size_t c = 0; c < d; c++) {
            lo[c] = key[c] < lo[c] ? key[c] : lo[c];
            hi[c] = key[c] > hi[c] ? key[c] : hi[c];
        }
    }
    g->tb[k] = b;
    g->te[k] = e;
    g->tkid[2 * k] = g->tkid[2 * k + 1] = 0;
    size_t dim = 0;
    for (size_t c = 1; c < d; c++)
        if ((double)hi[c] - (double)lo[c] > (double)hi[dim] - (double)lo[dim])
            dim = c;
    if (e - b <= TREE_LEAF || hi[dim] == lo[dim])
        return;
    splitctx_t sc = { g, dim };
    qsort_r(g->tcell + b, e - b, sizeof(size_t), cmp_cell_dim, &sc);
    size_t mid = b + (e - b) / 2;
    size_t left = g->nnode++, right = g->nnode++;
    g->tkid[2 * k] = left;
    g->tkid[2 * k + 1] = right;
    tree_node(g, left, b, mid);
    tree_node(g, right, mid, e);
}

/* Build the k-d tree over the occupied cells when 3^d > CELLGRID_TREE_RATIO * ncell. */
static ar_status tree_build(cellgrid_t *g)
{
    double walk = pow(3.0, (double)g->d);
    if (!(walk > (double)CELLGRID_TREE_RATIO * (double)g->ncell))
        return AR_OK;
    size_t nc = g->ncell, maxn = 2 * nc + 1, d = g->d;
    g->tcell = ar_calloc(nc, sizeof(size_t), "cell tree");
    g->tb = ar_calloc(maxn, sizeof(size_t), "cell tree");
    g->te = ar_calloc(maxn, sizeof(size_t), "cell tree");
    g->tkid = ar_calloc(2 * maxn, sizeof(size_t), "cell tree");
    g->tlo = ar_calloc(maxn * d, sizeof(int64_t), "cell tree boxes");
    g->thi = ar_calloc(maxn * d, sizeof(int64_t), "cell tree boxes");
    if (!g->tcell || !g->tb || !g->te || !g->tkid || !g->tlo || !g->thi)
        return AR_ENOMEM;
    for (size_t c = 0; c < nc; c++)
        g->tcell[c] = c;
    g->nnode = 1;
    tree_node(g, 0, 0, nc);
    return AR_OK;
}

static void cell_of(double h, const double *x, size_t d, int64_t *k)
{
    for (size_t c = 0; c < d; c++)
        k[c] = (int64_t)floor((x[c] + 1.0) / h);
}

ar_status cellgrid_build(cellgrid_t *g, const double *x, size_t m, size_t d, double h)
{
    memset(g, 0, sizeof *g);
    if (!x || m == 0 || d == 0 || d > CELLGRID_MAXD || !(h > 0) || !isfinite(h)) {
        ar_error_set("cellgrid: need m >= 1, 1 <= d <= %d and a finite cell size h > 0", CELLGRID_MAXD);
        return AR_EINVAL;
    }
    for (size_t i = 0; i < m * d; i++)
        if (!isfinite(x[i]) || fabs((x[i] + 1.0) / h) > 4e18) {
            ar_error_set("cellgrid: coordinate %zu out of range for cell size %g", i, h);
            return AR_EINVAL;
        }
    g->m = m;
    g->d = d;
    g->h = h;
    int64_t *k0 = ar_calloc(m * d, sizeof(int64_t), "cell keys");
    g->key = ar_calloc(m * d, sizeof(int64_t), "cell keys");
    g->perm = ar_calloc(m, sizeof(size_t), "cell permutation");
    g->cstart = ar_calloc(m + 1, sizeof(size_t), "cells");
    size_t nslot = 16;
    while (nslot < 2 * m)
        nslot *= 2;
    g->nslot = nslot;
    g->slot = ar_calloc(nslot, sizeof(size_t), "cell hash");
    if (!k0 || !g->key || !g->perm || !g->cstart || !g->slot) {
        free(k0);
        cellgrid_free(g);
        return AR_ENOMEM;
    }
    for (size_t i = 0; i < m; i++) {
        g->perm[i] = i;
        cell_of(h, x + i * d, d, k0 + i * d);
    }
    keyctx_t kc = { k0, d };
    qsort_r(g->perm, m, sizeof(size_t), cmp_idx, &kc);
    for (size_t p = 0; p < m; p++)
        memcpy(g->key + p * d, k0 + g->perm[p] * d, d * sizeof(int64_t));
    free(k0);
    for (size_t s = 0; s < nslot; s++)
        g->slot[s] = NONE;
    g->ncell = 0;
    for (size_t p = 0; p < m; p++) {
        if (p > 0 && memcmp(g->key + p * d, g->key + (p - 1) * d, d * sizeof(int64_t)) == 0)
            continue;
        size_t c = g->ncell++;
        g->cstart[c] = p;
        size_t s = (size_t)hash_key(g->key + p * d, d) & (nslot - 1);
        while (g->slot[s] != NONE)
            s = (s + 1) & (nslot - 1);
        g->slot[s] = c;
    }
    g->cstart[g->ncell] = m;
    ar_status st = tree_build(g);
    if (st)
        cellgrid_free(g);
    return st;
}

size_t cellgrid_lookup(const cellgrid_t *g, const int64_t *k)
{
    size_t mask = g->nslot - 1, s = (size_t)hash_key(k, g->d) & mask;
    for (;;) {
        size_t c = g->slot[s];
        if (c == NONE)
            return NONE;
        if (memcmp(g->key + g->cstart[c] * g->d, k, g->d * sizeof(int64_t)) == 0)
            return c;
        s = (s + 1) & mask;
    }
}

/* The order in which the 3^d walk below meets cells: the offset of coordinate 0 changes
 * fastest, so keys compare from the last coordinate to the first. */
static int cmp_walk(const void *a, const void *b, void *ctx)
{
    const cellgrid_t *g = ctx;
    const int64_t *ki = cell_key(g, *(const size_t *)a), *kj = cell_key(g, *(const size_t *)b);
    for (size_t c = g->d; c-- > 0;)
        if (ki[c] != kj[c])
            return ki[c] < kj[c] ? -1 : 1;
    return 0;
}

/* The cells whose keys differ from k0 by at most 1 in every coordinate, from the tree, in the
 * walk's order, then their points; the callback's value as cellgrid_visit.  *failed = 1 (nothing
 * visited) when its list cannot be allocated: the caller walks instead. */
static int tree_visit(const cellgrid_t *g, const int64_t *k0, int (*fn)(size_t j, void *ctx), void *ctx,
                      int *failed)
{
    *failed = 0;
    size_t d = g->d, cap = 64, cnt = 0, sp = 0;
    size_t stack[2 * 64 + 2];
    size_t local[64], *hit = local;
    stack[sp++] = 0;
    while (sp > 0) {
        size_t k = stack[--sp];
        const int64_t *lo = g->tlo + k * d, *hi = g->thi + k * d;
        int in = 1;
        for (size_t c = 0; c < d && in; c++)
            in = lo[c] <= k0[c] + 1 && hi[c] >= k0[c] - 1;
        if (!in)
            continue;
        if (g->tkid[2 * k]) {
            stack[sp++] = g->tkid[2 * k + 1];
            stack[sp++] = g->tkid[2 * k];
            continue;
        }
        for (size_t t = g->tb[k]; t < g->te[k]; t++) {
            size_t cell = g->tcell[t];
            const int64_t *key = cell_key(g, cell);
            int near = 1;
            for (size_t c = 0; c < d && near; c++)
                near = key[c] >= k0[c] - 1 && key[c] <= k0[c] + 1;
            if (!near)
                continue;
            if (cnt == cap) {
                size_t *nh = malloc(2 * cap * sizeof *nh);
                if (!nh) {
                    if (hit != local)
                        free(hit);
                    *failed = 1;
                    return 0;
                }
                memcpy(nh, hit, cnt * sizeof *nh);
                if (hit != local)
                    free(hit);
                hit = nh;
                cap *= 2;
            }
            hit[cnt++] = cell;
        }
    }
    qsort_r(hit, cnt, sizeof *hit, cmp_walk, (void *)g);
    int r = 0;
    for (size_t t = 0; t < cnt && !r; t++)
        for (size_t p = g->cstart[hit[t]]; p < g->cstart[hit[t] + 1] && !r; p++)
            r = fn(g->perm[p], ctx);
    if (hit != local)
        free(hit);
    return r;
}

int cellgrid_visit(const cellgrid_t *g, const double *y, int (*fn)(size_t j, void *ctx), void *ctx)
{
    size_t d = g->d;
    int64_t k0[CELLGRID_MAXD], kn[CELLGRID_MAXD];
    int off[CELLGRID_MAXD];
    cell_of(g->h, y, d, k0);
    if (g->tcell) {
        int failed, r = tree_visit(g, k0, fn, ctx, &failed);
        if (!failed)
            return r;
    }
    for (size_t c = 0; c < d; c++)
        off[c] = -1;
    for (;;) {
        for (size_t c = 0; c < d; c++)
            kn[c] = k0[c] + off[c];
        size_t cell = cellgrid_lookup(g, kn);
        if (cell != NONE)
            for (size_t p = g->cstart[cell]; p < g->cstart[cell + 1]; p++) {
                int r = fn(g->perm[p], ctx);
                if (r)
                    return r;
            }
        size_t c = 0;
        while (c < d && off[c] == 1)
            off[c++] = -1;
        if (c == d)
            break;
        off[c]++;
    }
    return 0;
}
