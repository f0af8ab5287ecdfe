/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lp_l1.h -- weighted least-absolute-deviations fit by linear programming
 * (GLPK simplex).  Numerics only.
 *
 *      minimise over c in R^k:   sum_{i<m} w_i | f_i - (F c)_i |
 *
 * Solved through the dual LP  max f^T y  s.t.  F^T y = 0, |y_i| <= w_i
 * (k equality rows, m bounded columns: a small basis when k << m); the
 * optimal c is the vector of row duals.  Solver chain: the dual simplex
 * (on the unscaled problem first when some w_i |f_i| is below 2^-1022 of
 * the largest, else on the automatically scaled one; an optimum counts only
 * if it satisfies F^T y = 0 to 1e-6 relative), primal simplex, dual simplex
 * from the standard basis, interior point, and finally
 * iteratively reweighted least squares (lp_l1_irls; approximate) when
 * GLPK fails on a badly scaled problem.  The result is a floating-point
 * candidate, not a rigorous optimum. */
#ifndef ATTNRANK_NUMERICS_LP_L1_H
#define ATTNRANK_NUMERICS_LP_L1_H

#include <stddef.h>
#include "base/status.h"

/* F: m x k, column-major (F[i + j*m]); f: m values; w: m positive weights
 * (NULL = all ones).  1 <= k <= m, all inputs finite.
 * Outputs: c[0..k-1], and if obj != NULL, *obj = sum_i w_i |f_i - (F c)_i|
 * recomputed in double from the returned c (not rigorous).
 * Errors: AR_EINVAL (bad sizes, non-finite input, w_i <= 0), AR_ENOMEM,
 * AR_ENUMERIC (every method failed, or the fit is not finite). */
ar_status lp_l1_solve(size_t m, size_t k, const double *F, const double *f, const double *w,
                      double *c, double *obj);

/* The same problem, approximately, by iteratively reweighted least squares:
 * iters weighted least-squares solves (LAPACK dgels), the weights of step
 * t+1 being w_i / max(|f_i - (F c_t)_i|, 1e-14 max|f|).  Cheap (no simplex):
 * O(iters m k^2).  *obj is the objective of the returned c; after about
 * 30 steps it is close to the optimum (for the fits of cert_poly_fit.c
 * within 0.1% of lp_l1_solve's).  Same arguments, outputs and errors as
 * lp_l1_solve; iters >= 1.  Not rigorous. */
ar_status lp_l1_irls(size_t m, size_t k, const double *F, const double *f, const double *w,
                     int iters, double *c, double *obj);

#endif
