/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kdtree.h -- a k-d tree over points in R^d, all pairs within a threshold,
 * and rigorous sums of exp(-L) over those pairs.
 *
 * The tree splits at the median of the widest coordinate until a node holds
 * at most KDTREE_LEAF points; every node keeps the exact bounding box of its
 * points (min and max of the stored doubles), and the points of a node are
 * contiguous in tree order.  Build O(m log m) time, O(m d) memory.
 *
 * kdtree_gauss_pairs enumerates, for a scale s >= 0 and a threshold T, the
 * unordered pairs whose downward-rounded L = (s/2)|x_p - x_q|^2 is < T,
 * pruning a node when the downward-rounded (s/2) dist^2 from the query point
 * to the node's box is >= T.  Every operation that decides a pair runs
 * toward -infinity (numerics/fround), so L <= the exact value and a pruned
 * or rejected pair has EXACT (s/2)|x_p - x_q|^2 >= T: no pair with exact
 * value < T is missed (proofs-notes/packing-lower-bounds.md, section 6). */
#ifndef ATTNRANK_NUMERICS_KDTREE_H
#define ATTNRANK_NUMERICS_KDTREE_H

#include <stddef.h>
#include <stdint.h>
#include "base/status.h"

#define KDTREE_LEAF 8
#define KDTREE_MAXD 16

typedef struct {
    size_t m, d;
    double *x;         /* m*d coordinates in tree order */
    size_t *perm;      /* tree position -> original index */
    size_t nnode;
    size_t *nb, *ne;   /* points [nb[k], ne[k]) of node k, in tree order */
    size_t *kid;       /* 2 per node: children (0 for a leaf; node 0 is the root) */
    double *lo, *hi;   /* nnode*d: exact bounding box of node k's points */
} kdtree_t;

/* Build the tree of the m points x (m x d row-major, finite), 1 <= d <=
 * KDTREE_MAXD, m >= 1.  Deterministic.  AR_EINVAL / AR_ENOMEM (one line). */
ar_status kdtree_build(kdtree_t *t, const double *x, size_t m, size_t d);

/* Free (safe on a zeroed tree). */
void kdtree_free(kdtree_t *t);

/* What kdtree_gauss_pairs found. */
typedef struct {
    uint64_t pairs;     /* unordered pairs with L < T */
    double min_L;       /* smallest L of those pairs (+inf if none): a lower bound of
                           the exact (s/2)|x_p - x_q|^2 of every counted pair */
    int stopped;        /* 1: stopped early (some S[p] > stop), S and cnt incomplete */
} kdtree_gauss_t;

/* For every unordered pair p < q of tree positions with L_pq < T, where L_pq
 * <= (s/2)|x_p - x_q|^2 is the downward-rounded value: adds e_pq w[q] to S[p]
 * and e_pq w[p] to S[q] (products and sums rounded up; w NULL: all ones; w
 * indexed by tree position, finite >= 0) and 1 to cnt[p] and cnt[q], where e_pq = expd(-L_pq)
 * (numerics/expd.h: exp(-L_pq) <= e_pq / (1 - 2^-48)) for L_pq <= 700 and
 * e_pq = 2^-1000 >= exp(-L_pq) above.  S and cnt (m entries each, indexed by
 * tree position) are zeroed first.  Guarantee: every pair not counted has
 * exact (s/2)|x_p - x_q|^2 >= T (when not stopped).  s >= 0 and T finite.
 * stop: when some S[p] exceeds it after a leaf is done, the enumeration
 * stops (out->stopped = 1; S, cnt and the guarantee are void): +inf for a
 * complete pass.  Leaves against nodes: O(leaves * visited nodes + pairs
 * examined). */
ar_status kdtree_gauss_pairs(const kdtree_t *t, double s, double T, double stop, const double *w,
                             double *S, uint32_t *cnt, kdtree_gauss_t *out);

/* The number of parts of kdtree_gauss_pairs' fixed partition for m points
 * (a function of m and the allocation limit only, never of the thread
 * count): 1 below 4096 points, 2 below 2^21 points, else 8 when their rows
 * fit ar_max_alloc(), else 2.  The parts run on any number of threads
 * (base/parallel.h); their rows are added in part order, so S and cnt are
 * the same for every thread count. */
size_t kdtree_pair_parts(size_t m);

/* kdtree_gauss_pairs on np parts (1 <= np <= 8; 1 below 4096 points) instead
 * of kdtree_pair_parts(m): for tests of the partition at small sizes. */
ar_status kdtree_gauss_pairs_parts(const kdtree_t *t, double s, double T, double stop, const double *w,
                                   double *S, uint32_t *cnt, size_t np, kdtree_gauss_t *out);

/* Single rows: for each k < nrows and p = rows[k] (a tree position < m), over every q != p
 * whose downward-rounded L_pq = (s/2)|x_p - x_q|^2 (formed as kdtree_gauss_pairs forms it) is
 * < T: S[k] = the upward sum of e_pq (expd(-L_pq), 2^-1000 above 700: exp(-L_pq) <= e_pq /
 * (1 - 2^-48)), cnt[k] = their number; *min_L = the smallest such L over all rows (+inf if none).
 * Guarantee: every q != p not counted has exact (s/2)|x_p - x_q|^2 >= T.  Each row is summed by
 * itself in the tree's depth-first order, so S is the same for every thread count (rows run side
 * by side in blocks of 64, base/parallel.h).  Cost O(nrows (log m + neighbours)).  AR_EINVAL /
 * AR_ENOMEM (one line). */
ar_status kdtree_gauss_rows(const kdtree_t *t, double s, double T, const size_t *rows, size_t nrows, double *S,
                            uint32_t *cnt, double *min_L);

/* Squared distance (round to nearest, an estimate: no rigour) from the point
 * at tree position p to its nearest other point; +inf when m = 1. */
double kdtree_nn_sqdist(const kdtree_t *t, size_t p);

/* For tests: call fn(p, q, ctx) for every unordered pair of tree positions
 * p < q with downward-rounded (s/2)|x_p - x_q|^2 < T (the pairs
 * kdtree_gauss_pairs counts); stops early when fn returns non-zero. */
void kdtree_pairs_visit(const kdtree_t *t, double s, double T,
                        int (*fn)(size_t p, size_t q, void *ctx), void *ctx);

#endif
