/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cheb.h -- Chebyshev series p(x) = sum_{k=0}^{L} c_k T_k(x) (numerics only).
 *
 * Coefficients are doubles (exact dyadic rationals), so p is an exactly known
 * real polynomial.  Three tools:
 *   - cheb_clenshaw: Clenshaw in double precision with a rigorous a-posteriori
 *     bound on its rounding error for |x| <= 1 (any IEEE rounding mode);
 *   - cheb_eval_arb: Clenshaw in Arb ball arithmetic (rigorous, any real x);
 *   - cheb_deriv_arb: the Chebyshev coefficients of p' in Arb (exact up to
 *     the working precision, as balls).
 *
 * Error analysis of cheb_clenshaw (proofs-notes/polynomial-certificate.md):
 * with b_{L+1} = b_{L+2} = 0, b_k = c_k + 2x b_{k+1} - b_{k+2} and
 * p = c_0 + x b_1 - b_2, let xi_k be the local rounding error committed at
 * step k.  The propagated error of the result is exactly sum_k xi_k T_k(x),
 * hence bounded by sum_k |xi_k| for |x| <= 1 (no growth with L). */
#ifndef ATTNRANK_NUMERICS_CHEB_H
#define ATTNRANK_NUMERICS_CHEB_H

#include <stddef.h>
#include <arb.h>

/* Value of sum_{k<len} c[k] T_k(x) computed in double by Clenshaw, and
 * *err >= |returned value - exact value| (rigorous for every IEEE rounding
 * mode, gradual underflow included).  Requires |x| <= 1 and finite inputs;
 * otherwise returns NAN and *err = +INFINITY.  len = 0 gives 0 exactly.
 * The caller's rounding mode is preserved. */
double cheb_clenshaw(const double *c, size_t len, double x, double *err);

/* y = sum_{k<len} c[k] T_k(x) by Clenshaw in Arb at `prec` bits (rigorous
 * enclosure; for a wide ball x the radius grows quickly with len: intended
 * for points or very narrow balls). */
void cheb_eval_arb(arb_t y, const double *c, size_t len, const arb_t x, slong prec);

/* Same with Arb coefficients. */
void cheb_eval_arb_coeffs(arb_t y, arb_srcptr c, size_t len, const arb_t x, slong prec);

/* d[0..len-2] = Chebyshev coefficients of the derivative of
 * sum_{k<len} c[k] T_k (standard recurrence d_{k-1} = d_{k+1} + 2k c_k,
 * d_0 halved), in Arb at `prec` bits.  len >= 2 (for len <= 1 nothing is
 * written: the derivative is 0).  d must not alias c. */
void cheb_deriv_arb(arb_ptr d, arb_srcptr c, size_t len, slong prec);

/* Rigorous bound M >= max_{|x|<=1} |sum_k c_k T_k^{(j)}(x)| for j >= 0, by
 * the Markov-brothers fact |T_k^{(j)}| <= T_k^{(j)}(1) = prod_{i<j}
 * (k^2-i^2)/(2i+1) on [-1,1].  Written into the Arb ball M (upper endpoint
 * is the bound). */
void cheb_deriv_sup_bound(arb_t M, const double *c, size_t len, unsigned j, slong prec);

#endif
