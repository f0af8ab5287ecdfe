/* SPDX-License-Identifier: GPL-3.0-or-later */
/* circulant.h -- rigorous tools for real circulant matrices.
 *
 * A circulant C of order m with first row c has C_ij = c_{(j-i) mod m}.
 * Every row of C is a cyclic shift of c, so ||C||_inf = sum_k |c_k| and
 * C v_f = lambda_f v_f with v_f(j) = e^{2 pi i f j/m},
 * lambda_f = sum_k c_k e^{2 pi i f k/m}.
 *
 * A *symmetric* vector of length n (a_k = a_{n-k}) is stored by its half
 * a_0 .. a_{floor(n/2)} ("half array", circ_half_len(n) entries); in a sum
 * over all n indices the half entry k counts circ_half_weight(n, k) times
 * (1 for k = 0 and for k = n/2 when n is even, 2 otherwise).
 *
 * Band functions: for coefficients c_0..c_K (doubles, exact dyadics),
 *     b_k = c_0 + 2 sum_{f=1..K} c_f cos(2 pi f k / n),   k = 0..n-1,
 * a symmetric vector whose circulant has symbol supported on the
 * frequencies |f| <= K (so rank <= 2K+1).
 *
 * Nothing here knows about attention; the certificates are in
 * theory/certificates/cert_circulant.h. */
#ifndef ATTNRANK_NUMERICS_CIRCULANT_H
#define ATTNRANK_NUMERICS_CIRCULANT_H

#include <stddef.h>
#include <arb.h>
#include <acb.h>
#include "base/status.h"

/* floor(n/2) + 1 (n >= 1). */
size_t circ_half_len(size_t n);

/* Multiplicity of half index k (0 <= k <= n/2) in a full sum over Z/n. */
unsigned circ_half_weight(size_t n, size_t k);

/* Index k mod n folded into the half range: min(k mod n, n - k mod n). */
size_t circ_fold(size_t k, size_t n);

/* C[j] = cos(2 pi j / n) for j = 0..floor(n/2), as Arb balls containing the
 * exact values (arb_cos_pi_fmpq on the exact rational 2j/n). C must hold
 * circ_half_len(n) initialised arb_t.  n >= 1. */
void circ_cos_table(arb_ptr C, size_t n, long prec);

/* Symbol of the circulant with first row c (length m, real balls):
 * W_f = sum_k c_k e^{-2 pi i f k/m}, f = 0..m-1 (acb_dft convention; for
 * real c, W_f = lambda_{-f} = conj(lambda_f), so {W_f} = {lambda_f} as a
 * multiset).  Every W_f contains the exact value.  W: m initialised acb_t. */
void circ_symbol(acb_ptr W, arb_srcptr c, size_t m, long prec);

/* Rigorous upper bound on ||C^{-1}||_inf for the circulant C with first
 * row c (m real balls containing the exact entries).  Method: W = DFT(c)
 * in Arb; if no W_f contains 0, C is invertible and C^{-1} is the
 * circulant with first row nu = DFT^{-1}(1/W); ||C^{-1}||_inf =
 * sum_k |nu_k| is bounded above (arb_get_abs_ubound_arf, rounded up to a
 * double).  Returns +INFINITY when some symbol ball contains 0 (singular
 * or precision too low) or on a non-finite input.  Cost O(m log m) Arb ops
 * (O(m^2) for lengths with a large prime factor). */
double circ_inv_norm_ubound(arb_srcptr c, size_t m, long prec);

/* Rigorous upper bound on sum_{k=0}^{n-1} |a_k - b_k|, where a is the
 * symmetric vector with half array ahalf (balls containing the exact
 * values) and b the band function of c_0..c_K (any finite doubles).
 * C: the cosine table of circ_cos_table(n).  Method: the balls of a and of
 * the cosines are widened to double intervals [lo, hi] (directed rounding
 * of the Arb bounds); b_k is bounded below by the sum evaluated in
 * FE_DOWNWARD with each product taking the cosine end that makes it
 * smallest, and above likewise in FE_UPWARD (directed rounding of every
 * product and sum gives true bounds, subnormals included); then
 * |a_k - b_k| <= max(ahi - blo, bhi - alo), summed with the half weights in
 * FE_UPWARD.  +INFINITY on a non-finite coefficient, an entry outside the
 * double range, or allocation failure.  O(n K / 2) flops, single thread. */
double circ_band_l1_ubound(arb_srcptr ahalf, size_t n, const double *c, size_t K, arb_srcptr C);

/* Candidate: orthogonal projection onto the band (truncated Fourier series):
 * c_f = (1/n) sum_{k=0}^{n-1} a_k cos(2 pi f k/n), f = 0..K, from the
 * double half array ahalf.  Floating point, not rigorous (a candidate only;
 * its error is certified by circ_band_l1_ubound).  c: K+1 doubles. */
void circ_band_project(double *c, const double *ahalf, size_t n, size_t K);

/* Candidate: l1-optimal band fit, min_c sum_k |a_k - b_k| over the samples
 * k = 0, s, 2s, ... <= n/2 (s = stride >= 1; s = 1 is the full row; the
 * half weights w_k are kept), solved with GLPK as the dual LP
 *     max sum_k a_k y_k  s.t.  sum_k y_k cos(2 pi f k/n) = 0 (f = 0..K),
 *     |y_k| <= w_k,
 * whose row duals d_f give the primal fit b = sum_f d_f cos(2 pi f k/n),
 * i.e. c_0 = d_0, c_f = d_f / 2.  Floating point, not rigorous: the result
 * is a candidate for circ_band_l1_ubound.  *lpval (if non-NULL) receives
 * stride * the LP optimum (an estimate of the fit error on the full row).
 * GLPK runs its dual simplex with the bound-flipping ratio test from the
 * dual-feasible start y_k = w_k sign(a_k).  AR_ENUMERIC if GLPK fails,
 * AR_ENOMEM on allocation failure. */
ar_status circ_band_l1_fit(double *c, double *lpval, const double *ahalf, size_t n, size_t K,
                           size_t stride);

/* The same LP kept alive so that the band can grow with a warm start: a
 * new frequency row enters the basis and the old basis stays dual
 * feasible, so the dual simplex resumes from the previous optimum. */
typedef struct circ_lp circ_lp_t;

/* LP with no rows yet for the samples of stride `stride` (copies ahalf). */
ar_status circ_lp_init(circ_lp_t **lp, const double *ahalf, size_t n, size_t stride);

/* Deep copy (problem and basis), to branch a search. */
ar_status circ_lp_copy(circ_lp_t **dst, const circ_lp_t *src);

/* Grow the band to K (K >= the current band; AR_EINVAL otherwise), solve,
 * return the K+1 coefficients and the estimate as circ_band_l1_fit. */
ar_status circ_lp_solve(circ_lp_t *lp, size_t K, double *c, double *lpval);

/* Current band K (SIZE_MAX before the first solve). */
size_t circ_lp_band(const circ_lp_t *lp);

void circ_lp_free(circ_lp_t *lp);

#endif
