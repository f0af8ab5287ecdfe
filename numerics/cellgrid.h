/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cellgrid.h -- a uniform cell grid over points in R^d for neighbour queries.
 *
 * Cells are k_c = floor((x_c + 1) / h) (any real coordinates), points sorted
 * by cell, cells found by open addressing.  Two points at Euclidean
 * distance < h lie in cells whose keys differ by at most 1 in every
 * coordinate, so scanning the 3^d neighbouring cells of a point finds every
 * point within distance h (the caller filters the exact distance).  With
 * the rounding of the cell computation (coordinates |x_c| <= 2, h >= 2^-30):
 * every point at true distance < h (1 - 2^-40) - 2^-40 is visited; this is
 * the bound a rigorous caller uses for the pairs it never sees.
 *
 * Cost: when 3^d exceeds the number of occupied cells several times over
 * (high d, issue 32: d = 16 walked 43 million cells per point), the
 * neighbouring cells are found by a k-d tree over the occupied cells' keys
 * (an L-infinity box query of radius 1) instead of the 3^d walk: a query
 * costs O(log cells + matched cells) on spread points and never more than
 * O(cells d).  Both ways visit the same points in the same order. */
#ifndef ATTNRANK_NUMERICS_CELLGRID_H
#define ATTNRANK_NUMERICS_CELLGRID_H

#include <stddef.h>
#include <stdint.h>
#include "base/status.h"

#define CELLGRID_MAXD 16

typedef struct {
    size_t m, d;
    double h;
    int64_t *key;      /* m*d cell coordinates in sorted order */
    size_t *perm;      /* sorted position -> original index */
    size_t ncell;
    size_t *cstart;    /* ncell + 1 starts in sorted order */
    size_t nslot;
    size_t *slot;      /* open addressing: cell id or (size_t)-1 */
    /* k-d tree over the occupied cells (used when 3^d > CELLGRID_TREE_RATIO * ncell; else NULL) */
    size_t nnode;
    size_t *tcell;     /* cell ids in tree order */
    size_t *tb, *te;   /* node k holds tcell[tb[k] .. te[k]) */
    size_t *tkid;      /* 2 per node: children (0: leaf; node 0 is the root) */
    int64_t *tlo, *thi;   /* nnode*d: bounding box of node k's cell keys */
} cellgrid_t;

/* The tree replaces the 3^d walk when 3^d exceeds this many times the occupied cells. */
#define CELLGRID_TREE_RATIO 4

/* Build the grid of the m points x (m x d row-major), cell size h > 0
 * finite, 1 <= d <= CELLGRID_MAXD, m >= 1.  AR_EINVAL / AR_ENOMEM. */
ar_status cellgrid_build(cellgrid_t *g, const double *x, size_t m, size_t d, double h);

/* Free (safe on a zeroed grid). */
void cellgrid_free(cellgrid_t *g);

/* No such cell (cellgrid_lookup). */
#define CELLGRID_NONE ((size_t)-1)

/* The cell id of the integer cell coordinates k (d entries, as stored in
 * g->key: points g->perm[g->cstart[id] .. g->cstart[id + 1]) lie in it), or
 * CELLGRID_NONE when no point does.  For callers that enumerate neighbour
 * cells themselves (pairs p < q in sorted order). */
size_t cellgrid_lookup(const cellgrid_t *g, const int64_t *k);

/* Call fn(j, ctx) for every point j (original index) in the 3^d cells
 * around the cell of the point y (d coordinates).  Returns early (with the
 * callback's value) when fn returns non-zero; else 0. */
int cellgrid_visit(const cellgrid_t *g, const double *y, int (*fn)(size_t j, void *ctx), void *ctx);

#endif
