/* SPDX-License-Identifier: GPL-3.0-or-later */
/* route_cost.h -- the route chooser's cost model (issue 32; proofs-notes/routes.md "Costs").
 *
 * Each route's work is estimated before it runs, from the instance's sizes (and, for the ball
 * route, a count of near pairs on sampled rows), in seconds of one core at nominal rates measured
 * on the 2-core machine of bench/results/.  The estimates are deterministic (functions of the
 * instance, never of the clock) and only decide which routes run: no certificate depends on
 * them. */
#ifndef ATTNRANK_THEORY_ROUTE_COST_H
#define ATTNRANK_THEORY_ROUTE_COST_H

#include <stddef.h>
#include "constructions/pointsets/pointset.h"

/* Nominal rates: dense BLAS-3 and LAPACK work on one core (dgemm measures 46 GFlop/s, dsyevd
 * and dgesdd 25-40 at 2048-4096), and one Arb evaluation of the Gaussian kernel on a near pair
 * in the ball route's passes (0.3-0.5 us measured at d = 8..16). */
#define ROUTE_FLOPS_PER_S 3e10
#define ROUTE_BALL_VISIT_S 4e-7

/* The ball route runs on an unweighted instance only when its estimate is at most this many
 * times the dense route's (or the dense route cannot hold the image in memory). */
#define ROUTE_BALL_FACTOR 1.0

/* Estimated seconds of the dense route on an m x n image of d-dimensional points: the enclosure
 * (m n (2 d + 40) flops), and at most a full factorisation with its certifying passes (self:
 * symeig, 15 n^3, and the SVD, 28 n^3, up to BRACKET_SVD_SELF_MAX_N; cross: the SVD, 28 m n r)
 * with the lower searches' budget as much again.  An upper estimate: low-rank images certify
 * with randomized factors in a fraction of it. */
double route_cost_dense(size_t m, size_t n, size_t d, int self);

/* Estimated seconds of the polynomial certificate on n sphere points in dimension d at beta:
 * O(n^2) passes over the degrees L ~ 3.5 sqrt(beta) + 8. */
double route_cost_polynomial(size_t n, size_t d, double beta);

/* Estimated seconds of the packing route's diagonal dominance (n points, a k-d tree, about 64
 * neighbours each). */
double route_cost_packing(size_t n, size_t d);

/* Estimated seconds of the scale route's block lower certificate (at most 2048 farthest-point
 * rows against n columns) on n sphere points. */
double route_cost_scale(size_t n, size_t d);

/* Estimated seconds of the circulant route (O(n) Arb and a small LP). */
double route_cost_circulant(size_t n);

/* Estimated seconds of the ball route from its pair visits (theory/certificates/cert_ball.h
 * ball_route_cost). */
double route_cost_ball(double visits);

#endif
