/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perturb.h -- softmax perturbation inequality (THEORY 3.3).
 *
 * For logit rows l and l + delta (finite reals),
 *     || softmax(l + delta) - softmax(l) ||_1 <= 2 tanh(osc(delta) / 4),
 * osc = max - min.  (Proof sketch: p' is proportional to p e^delta; the
 * l1 distance of two probability vectors with log-ratio oscillation t is at
 * most 2 tanh(t/4), attained by a two-valued delta at split mass
 * 1/(1 + e^{t/2}).)  A logit residual R therefore costs at most
 * max_i 2 tanh(osc(R_i)/4) in the row-l1 norm. */
#ifndef ATTNRANK_THEORY_PERTURB_H
#define ATTNRANK_THEORY_PERTURB_H

#include <stddef.h>

/* Rigorous upper bound on 2 tanh(osc/4): MPFR tanh rounded upward (osc/4 and
 * the doubling are exact), converted to double upward.  osc >= 0 (+INFINITY
 * gives 2); NaN or negative osc returns NaN. */
double perturb_softmax_l1_bound(double osc);

/* || softmax(l + delta) - softmax(l) ||_1 for n >= 1 doubles, computed in Arb
 * at 256 bits from the exact inputs (l + delta is formed exactly); returns
 * the midpoint of the resulting ball (error far below double precision;
 * intended for tests).  NaN on non-finite input or n = 0. */
double perturb_softmax_l1_exact(const double *l, const double *delta, size_t n);

/* Oscillation max_j r_j - min_j r_j of a row (n >= 1), the subtraction
 * rounded upward (so it is an upper bound of the exact oscillation).  NaN
 * if some entry is NaN or n = 0; +INFINITY for infinite entries. */
double perturb_row_osc(const double *r, size_t n);

#endif
