/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_packing.h -- rigorous lower bounds for the spherical eps-rank from cap
 * packings at scale (issue #3 part 3), without an m x m matrix.
 *
 * Self-attention on m points x_1..x_m (unit multiplicities), rows S = all
 * points, columns t(i) = i (THEORY 3.4(a)).  With
 *      R_i = sum_{j != i} exp(beta (x_i.x_j - x_i.x_i))
 * (exact for the stored doubles; no unit norm is assumed) one has
 * A_ii = 1/(1+R_i) and sum_{j!=i} A_ij = R_i/(1+R_i), so the diagonal
 * dominance certificate holds iff R_i < (1-eps)/(1+eps) for every i, and
 * then rank_eps(A) = m (full rank).  R_i is bounded above in
 * O(m * neighbours): pairs at chord^2 < phi2 (found with a k-d tree,
 * numerics/kdtree.h) are bounded one by one (downward-rounded distances,
 * expd with its proven error, upward sums), all other pairs by a rigorous
 * tail: the smaller of (m - 1 - neighbours) e^{-beta phi2/2} and a packing
 * count over annuli at the proven minimal separation.
 * What this proves about the worst case over n-point sets: see
 * proofs-notes/packing-lower-bounds.md. */
#ifndef ATTNRANK_THEORY_CERT_PACKING_H
#define ATTNRANK_THEORY_CERT_PACKING_H

#include <stddef.h>
#include <stdint.h>
#include "numerics/status.h"
#include "theory/certificates/cert_method.h"
#include "constructions/pointsets/pointset.h"
#include <arb.h>

typedef struct {
    size_t d;
    double beta, eps, theta;   /* theta: packing separation (NaN when the set was given) */
    size_t m;                  /* number of points of the instance */
    size_t certified;          /* m if rank_eps(A) >= m is certified, else 0 */
    double max_R;              /* rigorous upper bound of max_i R_i (NaN for "invnorm") */
    double seconds;            /* wall time (pack_lower_search*: of the whole search) */
    ar_method_t method;        /* diagdom, invnorm, invnorm-varah or trivial */
    double max_tail;           /* largest tail bound (pairs not evaluated) included in max_R */
    double phi2;               /* chord^2 threshold used for the evaluated pairs */
    size_t near_pairs;         /* unordered pairs evaluated one by one */
    double min_chord;          /* proven lower bound of every |x_i - x_j| (0 if none) */
} pack_cert_t;

typedef enum { PACK_DIAGDOM = 0, PACK_INVNORM = 1 } pack_method_t;

/* The packings pack_lower_search probes: the recursive zonal code
 * (sphere_zonal, deterministic), the greedy random caps of sphere_packing
 * (the construction before issue 22, kept for comparison), or the saturated
 * greedy over the zonal code at theta/2 (sphere_packing_pool).  PACK_GEN_AUTO
 * (the default) takes the pool wherever its candidates number at most
 * PACK_POOL_MAX, else the zonal code: a saturated random packing has a
 * density relative to the densest packing that does not depend on its size,
 * so its certified sizes grow with the law's exponent from small beta on,
 * while the zonal code's relative density grows with n (pre-asymptotic
 * slopes up to 0.12 above the law in d = 4 on beta 20..200); the zonal code
 * reaches millions of points (proofs-notes/packing-lower-bounds.md,
 * section 6).  d = 2 is the regular polygon in every case. */
typedef enum { PACK_GEN_ZONAL = 0, PACK_GEN_GREEDY = 1, PACK_GEN_POOL = 2, PACK_GEN_AUTO = 3 } pack_gen_t;

#define PACK_POOL_MAX 4000000   /* candidates of the pooled greedy (about 300 MB in d = 8) */

/* The diagonal-dominance inequality (THEORY 3.4(a)) in its row-sum form: 1 iff
 * (1 - R)/(1 + R) > eps is proven for the ball R (Arb at 96 bits; an
 * uncertain comparison gives 0).  R bounds sum_{j != i} A_ij / A_ii of a row;
 * shared by the packing and the weighted-cluster (ball) certificates. */
int pack_dominance_holds(const arb_t R, double eps);

/* Diagonal dominance of the self-attention matrix of P (unit
 * multiplicities: P->w NULL or all ones; 1 <= d <= 16; every coordinate in
 * [-1.5, 1.5]).  beta >= 0 finite, 0 < eps < 1.  out->max_R is a rigorous
 * upper bound of max_i R_i; out->certified = m iff (1 - max_R)/(1 + max_R)
 * > eps is verified (then rank_eps(A) >= m is proven), else 0.  Cost
 * O(m log m + pairs within chord sqrt(phi2)), memory O(m d); phi2 is chosen
 * so that the tail is <= 1e-3 (1-eps)/(1+eps) at the separation estimated
 * from 64 rows' nearest neighbours (at most the crude choice of 1e-4), and
 * enlarged (up to twice) if the tail alone decides a failure.  AR_EINVAL on
 * bad input. */
ar_status pack_diagdom(const pointset_t *P, double beta, double eps, pack_cert_t *out);

/* Same with an explicit chord^2 threshold phi2 > 0 for the evaluated pairs
 * (phi2 = 0: automatic, as pack_diagdom).  Any phi2 gives a rigorous
 * bound; a small one gives a large tail.  Exposed for tests. */
ar_status pack_diagdom_phi(const pointset_t *P, double beta, double eps, double phi2,
                           pack_cert_t *out);

/* Block inverse-norm certificate (lower_blocks_rows with rows = all points)
 * on the dense enclosure smx_compute of the same instance: O(m^2) memory,
 * O(m^3) time; refused (AR_EINVAL) for m > 6000.  certified = m or 0;
 * max_R = NaN; method "invnorm" or "diagdom" (the Varah path of the blocks). */
ar_status pack_invnorm(const pointset_t *P, double beta, double eps, pack_cert_t *out);

/* Largest certified greedy packing: sphere_packing(d, theta, max_points,
 * seed, patience) probed over theta (patience = max(2000, size estimated
 * from the previous probe), so that large packings are as saturated as
 * small ones), galloping by factors 1.25 from the hint
 * sphere_packing_theta(beta), then geometric bisection (until the bracket
 * ratio is < 1.003 or 24 probes).  The packing size is not monotone in
 * theta, so the result is the largest packing among the probes that was
 * actually certified.  If none is, the result is the trivial certificate
 * of one point (m = certified = 1, method "trivial", theta = pi).
 * 2 <= d <= 16, beta >= 0 finite, 0 < eps < 1, max_points >= 1. */
ar_status pack_lower_search(size_t d, double beta, double eps, uint64_t seed,
                            size_t max_points, pack_cert_t *out);

/* pack_lower_search with the certificate chosen by `method` (PACK_INVNORM
 * needs max_points <= 6000). */
ar_status pack_lower_search_with(size_t d, double beta, double eps, uint64_t seed,
                                 size_t max_points, pack_method_t method, pack_cert_t *out);

/* pack_lower_search_with on the packings of `gen` (seed and the greedy
 * patience only matter for PACK_GEN_GREEDY). */
ar_status pack_lower_search_gen(size_t d, double beta, double eps, uint64_t seed, size_t max_points,
                                pack_method_t method, pack_gen_t gen, pack_cert_t *out);

/* What a certificate c proves about n-point multisets (point sets with
 * repetitions; by THEORY 3.2 the compressed weighted matrix has the same
 * eps-rank): returns k such that some n-point multiset supported on the
 * certified packing has rank_eps >= k.
 *   n <= c->m: k = n (any n-point subset of a diagonally dominant packing is
 *              diagonally dominant: R_i only loses terms).
 *   n >  c->m: the largest m' <= m such that the subset of m' points with
 *              weights floor(n/m') or floor(n/m')+1 (summing to n) is
 *              certified: needs rho max_R < (1-eps)/(1+eps) with
 *              rho = 1 if m' divides n, else (q+1)/q, q = floor(n/m')
 *              (checked rigorously).
 * For method "invnorm"/"invnorm-varah" (no max_R; subsets are not
 * covered): k = m iff m divides n (equal weights leave A unchanged), else 1.
 * Uncertified c, or k not found: 1 (rank_eps >= 1 for eps < 1).  n >= 1. */
size_t pack_multiset_lower(const pack_cert_t *c, size_t n);

#endif
