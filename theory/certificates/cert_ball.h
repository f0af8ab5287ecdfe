/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_ball.h -- certificates for weighted self-attention in the ball
 * (claim B; proofs-notes/claim-B.md), without an m x m matrix.
 *
 * A = compressed weighted self-attention matrix of P (THEORY 3.2): rows and
 * columns are the distinct points x_1..x_n, A_ij = w_j e^{beta x_i.x_j} / Z'_i.
 * With g_j = w_j e^{beta |x_j|^2 / 2} (any weights, no Gaussian assumption),
 *      A_ij = g_j K_ij / Z_i,   K_ij = e^{-beta |x_i - x_j|^2 / 2},
 *      Z_i = sum_l g_l K_il          (the Gaussian identity).
 * For Gaussian multiplicities g_j ~ M0 e^{beta/2} is nearly constant, so A is a
 * row-normalised Gaussian kernel.
 *
 * Lower (cluster test matrix, THEORY 3.4): centres s_1..s_m (a greedy
 * delta-net of the points; delta = 0: every point), every column j in the
 * block of its nearest centre, M_ab = sum_{j in block b} A_{s_a j}.  Rows of
 * M sum to 1, so Varah's bound certifies rank_eps(A) >= m as soon as
 *      R_a = Out_a / In_a < (1 - eps)/(1 + eps)   for every a,
 * In_a / Out_a the unnormalised mass of row s_a inside / outside its block.
 * Pairs with |s_a - x_j|^2 < phi2 are evaluated in Arb; the others are
 * bounded by (#others) e^{Lmax - L_a - beta Dlow/2}, L = log g.
 *
 * Upper (tensor Chebyshev): K_ij ~ prod_c q(x_ic, x_jc), q(s, .) the degree
 * p-1 Chebyshev interpolant of t -> e^{-beta (s-t)^2/2} on [-1, 1]; rank
 * p^d.  |q - f| <= e1 := 4 e^{beta b^2/2} rho^{-(p-1)} / (rho - 1)
 * (Bernstein ellipse rho, b = (rho - 1/rho)/2), so
 *      ||A - B||_r1 <= ((1 + e1)^d - 1) max_i (sum_j g_j) / Z_i,
 * Z_i bounded below by its evaluated (near) part. */
#ifndef ATTNRANK_THEORY_CERT_BALL_H
#define ATTNRANK_THEORY_CERT_BALL_H

#include <stddef.h>
#include "numerics/status.h"
#include "theory/certificates/cert_method.h"
#include "constructions/pointsets/pointset.h"
#include "theory/certificates/cert_lower.h"

typedef struct {
    size_t m;            /* number of centres (rows of the test matrix) */
    size_t certified;    /* m if rank_eps(A) >= m is certified, else 0 */
    double delta;        /* net separation (0: every point is a centre) */
    double max_R;        /* rigorous upper bound of max_a R_a */
    double max_tail;     /* largest tail bound included in max_R */
    double phi2;         /* squared radius of the evaluated pairs */
    size_t near_pairs;   /* (centre, point) pairs evaluated in Arb */
    double seconds;
    ar_method_t method;  /* diagdom (delta = 0), cluster or trivial */
} ball_lower_t;

/* Cluster certificate with the greedy delta-net (in index order) of P as
 * centres (delta = 0: all points, i.e. weighted diagonal dominance).
 * P: n >= 1 points, 1 <= d <= 16, |x_c| <= 1.5, any multiplicities.
 * beta > 0 finite, 0 < eps < 1, delta >= 0.  out->certified = m iff the
 * inequality above is proven for every centre. */
ar_status ball_cluster_lower(const pointset_t *P, double beta, double eps, double delta,
                             ball_lower_t *out);

/* Largest certified cluster certificate: delta = 0 first; if it fails,
 * galloping over delta (factor 1.25 from 1/sqrt(beta)) to a certified net,
 * then bisection (ratio < 1.01 or 24 probes) towards smaller delta.  The
 * result is the largest m among certified probes (trivial m = 1 if none). */
ar_status ball_lower_search(const pointset_t *P, double beta, double eps, ball_lower_t *out);

/* ball_lower_search with progress (ctl->progress, or NULL): a message per net probed and at least
 * once a second inside a probe (issue 32: 17.8 s of a ball bracket printed nothing); cancellation
 * is checked per probe.  The budget fields of ctl are not used. */
ar_status ball_lower_search_ctl(const pointset_t *P, double beta, double eps, const lower_ctl_t *ctl,
                                ball_lower_t *out);

typedef struct {
    size_t p;            /* Chebyshev points per axis */
    size_t rank;         /* min(p^d, n): rank_eps(A) <= rank certified */
    int capped;          /* 1 if p^d >= n (the trivial bound n is reported) */
    double e1;           /* certified one-dimensional interpolation error */
    double ratio;        /* certified upper bound of max_i (sum_j g_j) / Z_i */
    double err;          /* certified ||A - B||_r1 <= err (<= eps unless capped) */
    double seconds;
} ball_upper_t;

/* Tensor Chebyshev upper certificate on the instance (every |x_c| <= 1
 * required: AR_EINVAL otherwise).  Smallest p with err < eps, p <= 4096.
 * Cost O(n * neighbours) + O(p) per probe. */
ar_status ball_upper_tensor(const pointset_t *P, double beta, double eps, ball_upper_t *out);

/* The cost model of the ball route (issue 32; theory/brackets/route.h): its work is Arb
 * evaluations of the kernel on near pairs, counted here on a sample of rows without evaluating
 * any.  Typical searches (ball_lower_search) make about BALL_COST_PROBES passes. */
#define BALL_COST_PROBES 12
typedef struct {
    double cluster_visits;   /* pair visits of one pass of the cluster certificate (delta = 0) */
    double tensor_visits;    /* pair visits of the tensor certificate's pass (0: not useful) */
    int tensor_useful;       /* 1: coordinates in [-1, 1]^d and 2^d < n (its rank is at least 2^d) */
    double visits;           /* BALL_COST_PROBES cluster passes and the tensor pass */
} ball_route_cost_t;

/* Estimate the ball route's pair visits on P (the sizes of ball_cluster_lower's and
 * ball_upper_tensor's passes, sampled on up to 64 rows): O(n d log n + 64 neighbours).
 * Not a certificate; deterministic. */
ar_status ball_route_cost(const pointset_t *P, double beta, double eps, ball_route_cost_t *out);

/* Rigorous upper bound of the uniform error of the degree p-1 Chebyshev
 * interpolant (p points of the second kind) of t -> e^{-beta (s-t)^2/2} on
 * [-1, 1], any real s.  p >= 2, beta >= 0. */
double ball_cheb_error(double beta, size_t p);

#endif
