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
    memset(g, 0, sizeof *g);
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
    return AR_OK;
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

int cellgrid_visit(const cellgrid_t *g, const double *y, int (*fn)(size_t j, void *ctx), void *ctx)
{
    size_t d = g->d;
    int64_t k0[CELLGRID_MAXD], kn[CELLGRID_MAXD];
    int off[CELLGRID_MAXD];
    cell_of(g->h, y, d, k0);
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
