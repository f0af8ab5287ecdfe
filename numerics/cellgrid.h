/* cellgrid.h -- a uniform cell grid over points in R^d for neighbour queries.
 *
 * Cells are k_c = floor((x_c + 1) / h) (any real coordinates), points sorted
 * by cell, cells found by open addressing.  Two points at Euclidean
 * distance < h lie in cells whose keys differ by at most 1 in every
 * coordinate, so scanning the 3^d neighbouring cells of a point finds every
 * point within distance h (the caller filters the exact distance).  With
 * the rounding of the cell computation (coordinates |x_c| <= 2, h >= 2^-30):
 * every point at true distance < h (1 - 2^-40) - 2^-40 is visited; this is
 * the bound a rigorous caller uses for the pairs it never sees. */
#ifndef ATTNRANK_NUMERICS_CELLGRID_H
#define ATTNRANK_NUMERICS_CELLGRID_H

#include <stddef.h>
#include <stdint.h>
#include "numerics/status.h"

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
} cellgrid_t;

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
