/* SPDX-License-Identifier: GPL-3.0-or-later */
/* polygon_match.h -- recognise a stored point set as the regular n-gon and
 * bound, rigorously, how far its attention matrix is from the exact n-gon's
 * (proofs-notes/circulant.md, "Stored points and the exact polygon").
 *
 * The circulant certificates (theory/certificates/cert_circulant.h) are about the EXACT
 * vertices v_j = (cos 2 pi j/n, sin 2 pi j/n).  A stored instance x_j (the
 * doubles of a .npy file or of the polygon family) with |x_j - v_j| <= delta
 * for all j and equal multiplicities has, for every row,
 *     |beta x_i.x_j - beta v_i.v_j| <= beta (2 delta + delta^2),
 * so the logit rows differ by a perturbation of oscillation at most
 * osc = 2 beta (2 delta + delta^2), and by the softmax perturbation bound
 * (THEORY 3.3) ||A - A_exact||_r1 <= eta = 2 tanh(osc / 4).  Hence
 *     rank_{eps+eta}(A_exact) <= rank_eps(A) <= rank_{eps-eta}(A_exact). */
#ifndef ATTNRANK_THEORY_POLYGON_MATCH_H
#define ATTNRANK_THEORY_POLYGON_MATCH_H

#include "constructions/pointsets/pointset.h"

/* 1 if P (d = 2, n >= 3 points, all multiplicities equal) has every point
 * x_j within 1e-9 of the exact vertex v_j above (in index order, vertex 0 at
 * angle 0); then *delta receives a rigorous upper bound of max_j |x_j - v_j|
 * (Arb enclosures of the vertices, magnitudes rounded up).  0 otherwise
 * (*delta untouched).  O(n) Arb sin/cos at 128 bits. */
int polygon_match(const pointset_t *P, double *delta);

/* Rigorous upper bound on ||A - A_exact||_r1 for a matched instance at
 * inverse temperature beta >= 0 (finite) with vertex error delta >= 0:
 * 2 tanh(osc/4) with osc = 2 beta (2 delta + delta^2) rounded upward. */
double polygon_eta(double beta, double delta);

#endif
