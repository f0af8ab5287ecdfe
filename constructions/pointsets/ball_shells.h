/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ball_shells.h -- the continuum of the full ball on concentric spheres
 * (claim B; proofs-notes/claim-B.md section 8).
 *
 * The shell interval [rho0, 1] is cut into Q equal radial cells, Q the least
 * integer with (1 - rho0) sqrt(beta) / Q <= hs (radial spacing at most hs
 * kernel widths, the kernel being e^{-beta |x - y|^2 / 2}).  Cell q (edges
 * a_q < b_q) is lumped onto the sphere of radius r_q = (a_q + b_q) / 2
 * carrying the rotation-invariant (uniform) measure of total mass
 * proportional to the cell's volume, (b_q^d - a_q^d) / d, times the Gaussian
 * multiplicity density w(r) = e^{beta (1 - r^2) / 2} (weighted) or 1.  In
 * the Gaussian identity A(x, dy) = g(y) K(x, y) dy / Z(x) with
 * g(y) = w(|y|) e^{beta |y|^2 / 2}, the weighted object has g constant, so
 * the column weights are the cell volumes themselves; unweighted,
 * g_q = volume_q e^{beta r_q^2 / 2} (stored relative to the largest).
 *
 * The stored doubles ARE the object: radii r_q and column weights g_q as
 * doubles (any positive weights define a valid object; the certificate is
 * for these numbers).  The rows are the points of the Q spheres (all points
 * of one sphere are equivalent under rotations). */
#ifndef ATTNRANK_CONSTRUCTIONS_BALL_SHELLS_H
#define ATTNRANK_CONSTRUCTIONS_BALL_SHELLS_H

#include <stddef.h>
#include "base/status.h"

typedef struct {
    int d;               /* 2 <= d <= 16 */
    double beta;         /* > 0 */
    double rho0;         /* inner radius in [0, 1) */
    double hs;           /* requested radial spacing in kernel widths (spacing * sqrt(beta)) */
    double h_sqrt_beta;  /* actual (1 - rho0) sqrt(beta) / Q <= hs */
    int weighted;        /* 1: Gaussian multiplicities (g constant per volume) */
    size_t Q;            /* number of spheres */
    double *radius;      /* Q radii, increasing */
    double *weight;      /* Q column weights g_q > 0 (largest = 1) */
} ball_shells_t;

/* Build the object for d, beta, rho0, hs (> 0), weighted or not.
 * AR_EINVAL (one line naming the value and what to change) for bad input
 * or Q above 100000 (hs too small for this beta). */
ar_status ball_shells_make(ball_shells_t *S, int d, double beta, double rho0, double hs, int weighted);

void ball_shells_clear(ball_shells_t *S);

#endif
