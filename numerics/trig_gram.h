/* SPDX-License-Identifier: GPL-3.0-or-later */
/* trig_gram.h -- Gram matrices of trigonometric bases on sub-intervals of
 * [0, pi], enclosed in Arb and rounded to doubles with a rigorous bound.
 *
 * For a piece [theta_a, theta_b] = [pi a, pi b] (0 <= a < b <= 1, a and b
 * exact doubles) and M basis functions phi_0 .. phi_{M-1}, the Gram matrix
 *     G_jk = c * int_{theta_a}^{theta_b} phi_j(theta) phi_k(theta) w(theta) dtheta
 * is computed from closed forms (sums of sines and cosines of integer
 * multiples of the endpoints, Arb at `prec` bits), for three families:
 *
 *   TRIG_COS      phi_j = cos(j theta),        w = 1,          c = 1/pi
 *   TRIG_COS_SIN  phi_j = cos(j theta),        w = sin(theta), c = 1/2
 *   TRIG_SIN      phi_j = sin((j+1) theta),    w = 1,          c = 2/pi
 *   TRIG_COS_SIN3 phi_j = cos(j theta),        w = sin^3 theta, c = 3/4
 *
 * (the normalisations make sum_j f_j phi_j the angular profile of a zonal
 * function on S^1, S^2 and S^3 with the normalised surface measure, and on
 * S^4 for TRIG_COS_SIN3; see
 * proofs-notes/claim-B.md section 8).  G is symmetric positive semidefinite.
 * The piece's own mass nu = c * int w is returned too (for TRIG_SIN, the
 * S^3 measure of the piece, c * int sin^2). */
#ifndef ATTNRANK_NUMERICS_TRIG_GRAM_H
#define ATTNRANK_NUMERICS_TRIG_GRAM_H

#include <stddef.h>
#include "base/status.h"

typedef enum { TRIG_COS = 0, TRIG_COS_SIN = 1, TRIG_SIN = 2, TRIG_COS_SIN3 = 3 } trig_basis;

typedef struct {
    size_t M;          /* basis size */
    double *G;         /* M x M, column-major, doubles nearest the Arb midpoints */
    double rad;        /* |G_jk - exact G_jk| <= rad for every entry */
    double gmax;       /* >= max_jk |exact G_jk| */
    double nu_up;      /* >= the piece's mass nu (see above) */
} trig_gram_t;

/* The Gram matrix of `basis` with M >= 1 functions on [pi a, pi b],
 * 0 <= a < b <= 1.  AR_EINVAL on bad arguments, AR_ENOMEM. */
ar_status trig_gram(trig_basis basis, size_t M, double a, double b, trig_gram_t *out);

void trig_gram_clear(trig_gram_t *g);

#endif
