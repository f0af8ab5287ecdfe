/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_rsvd.h -- randomized upper certificates in O(m n l) (THEORY 3.5).
 *
 * Candidate: a randomized range finder with power iterations (Halko,
 * Martinsson, Tropp 2011, Algorithm 4.4): Omega Gaussian n x l from a fixed
 * seed, Y = (A A^T)^q A Omega with re-orthonormalisation between products,
 * Q = orth(Y), B = Q^T A, B = W S Z^T (thin SVD of an l x n matrix), and
 * the rank-k factors U_k = Q W_k S_k, V_k = Z_k for every k <= l (columns
 * used in order, so one sketch serves every k).
 * Certificate: exactly the dense one, ||A - U_k V_k^T||_r1 <= err <= eps by
 * the a-priori residual bound (numerics/resid.h), evaluated for several k in
 * one pass over the rows of A (resid_block_multi): how the factors were
 * found plays no part in it (proofs-notes/upper-certificates.md).
 * Search: a geometric ladder of k in one pass, then the integers between
 * the last failing and the first certified rung (further passes), so that
 * the certified rank k has k - 1 observed to fail (as upper_certify); when
 * k = l fails, the sketch is extended (new Gaussian columns, power-iterated
 * and kept orthogonal to the range already found; every product made so far
 * is kept) to the size the row sample predicts (up to min(m, n)).
 * A is visited through numerics/amat.h: held in memory or streamed in row
 * blocks, in O((m + n) l + block) memory. */
#ifndef ATTNRANK_THEORY_CERT_RSVD_H
#define ATTNRANK_THEORY_CERT_RSVD_H

#include <stddef.h>
#include <stdint.h>
#include "numerics/amat.h"
#include "base/status.h"
#include "theory/certificates/upper_cert.h"

#define RSVD_SEED 20110217u   /* default sketch seed (reported) */

typedef void (*rsvd_progress_fn)(void *ctx, const char *msg);

typedef struct {
    size_t l0;                  /* first sketch size (0 = 64); clamped to [1, min(m, n)] */
    int power;                  /* power iterations q (default 2) */
    uint64_t seed;              /* sketch seed (default RSVD_SEED); round r draws from seed + r */
    size_t cap;                 /* a certified upper end known to the caller (0 = none): only ranks below it
                                   are sought, and sketches never exceed cap + 16 columns */
    size_t max_sketch;          /* largest sketch (0 = min(m, n)); beyond it the result is trivial and
                                   info->exhausted is set (the caller may factor A fully instead) */
    size_t *row_order;          /* out, or NULL: when a rank k <= min(m, n) / 2 is certified, the rows of
                                   A in pivoted-QR order (dgeqp3) of the certified factor's rows U_k
                                   (m x k): the first min(m, k) pivots, candidates for the lower
                                   certificate (cert_lower.h, lower_grow); m entries.  Only when
                                   rsvd_pivots_worth(m, n, k); otherwise *row_order_len = 0 */
    size_t *row_order_len;      /* out with row_order: the entries written (0 when nothing certified) */
    int no_gap_fill;            /* 1: every gap between a refuted and a certified rank by a full pass
                                   (tests; 0 = default: from the per-row bounds when few rows need it) */
    rsvd_progress_fn progress;  /* stage messages, or NULL */
    void *progress_ctx;
} rsvd_opts_t;

void rsvd_opts_default(rsvd_opts_t *o);

/* Whether the pivoted QR of an m x k factor is worth its O(m k^2) cost as the lower end's
 * candidate order: k at most half of min(m, n), or m k^2 <= RSVD_PIVOTS_FREE (about a second of
 * dgeqp3, which runs near 4.5e9 m k^2 per second on one core).  Above half the full rank of a
 * large image the lower end starts from nearly every row anyway (issue 32: 15 s of dgeqp3 at
 * 4096 points, m k^2 = 6.7e10).  Below it the pivoted order is worth its cost: the weighted
 * 3-ball instance at beta 60 (2008 x 1058) certifies 223 rows over it against 191 over the peak
 * order (238 before the lower end had a budget). */
#define RSVD_PIVOTS_FREE 4e9
int rsvd_pivots_worth(size_t m, size_t n, size_t k);

typedef struct {
    size_t sketch;        /* columns of the last sketch */
    int power;            /* power iterations per sketch */
    int rounds;           /* sketches drawn */
    size_t passes;        /* passes over A (products and residual passes) */
    size_t probes;        /* ranks whose residual was certified or refuted */
    uint64_t seed;        /* seed of the first sketch */
    int exhausted;        /* 1: nothing certified up to o->max_sketch columns */
    int gap_fills;        /* gaps between a refuted and a certified rank decided from per-row bounds
                             (no full pass; cert_rsvd.c gap_fill) */
} rsvd_info_t;

/* Least certified rank found as described above, with method "rsvd";
 * the trivial certificate (min(m, n), err 0) when no k < min(m, n) is
 * certified.  0 < eps < 1; o and info may be NULL.  AR_ENOMEM /
 * AR_ENUMERIC from allocations and LAPACK. */
ar_status upper_rsvd(amat_t *M, double eps, const rsvd_opts_t *o, upper_cert_t *out, rsvd_info_t *info);

/* Self-attention (square A, upper-certificates.md section 3): the same
 * search over the randomized eigendecomposition of S = T A T^{-1}, t_i =
 * exp(logt_i - mean) (approximate logt is fine: only the candidate depends
 * on it): Y = S^{q+1} Omega, Q = orth(Y), Q^T S Q = W Lambda W^T, U =
 * T^{-1} Q W Lambda, V = T Q W (q + 2 passes per sketch instead of 2q + 2).
 * Method "rsym"; the trivial certificate when log t spans more than 600. */
ar_status upper_rsym(amat_t *M, const double *logt, double eps, const rsvd_opts_t *o, upper_cert_t *out,
                     rsvd_info_t *info);

/* The search of upper_rsvd on given factors U (m x l) and V (n x l) of every rank <= l (column c
 * of each does not depend on the rank): the ranks to certify guessed on sample rows, then
 * multi-rank passes (the ladder, the ranks in between, the gap from per-row bounds).  *rank = the
 * least rank k <= top (top <= l) certified with k - 1 observed above eps (or k = 1), *err its
 * certified error; *rank = 0 when no rank <= top is certified.  What the full factorisations use
 * instead of bisection (cert_upper.c: about 3 passes over A instead of 2 log2 min(m, n)).  info
 * (or NULL) accumulates passes and probes; o (or NULL) gives progress only. */
ar_status rsvd_search_factors(amat_t *M, const double *U, const double *V, size_t l, size_t top, double eps,
                              const rsvd_opts_t *o, size_t *rank, double *err, rsvd_info_t *info);

/* The certified errors of the ranks ks[0..nk) (strictly increasing, <= the
 * factors' columns) of U (m x kmax) V (n x kmax) against A, in one pass:
 * err[t] >= ||A - U_k V_k^T||_r1, k = ks[t] (+INFINITY when not finite). */
ar_status rsvd_certify_ranks(amat_t *M, const double *U, const double *V, size_t kmax, const size_t *ks,
                             size_t nk, double *err);

/* rsvd_certify_ranks, and rowbound (NULL, or m x nk, leading dimension m) receives each row's
 * certified bound: rowbound[t m + i] >= sum_j |A_ij - (U_k V_k^T)_ij|, k = ks[t], whose maximum
 * over i is err[t]. */
ar_status rsvd_certify_rows(amat_t *M, const double *U, const double *V, size_t kmax, const size_t *ks,
                            size_t nk, double *err, double *rowbound);

#endif
