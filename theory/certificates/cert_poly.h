/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_poly.h -- the polynomial (zonal, harmonic-space) upper certificate for
 * self-attention on the sphere S^{d-1}, and its continuum counterpart
 * (issue 3, parts 2 and 6; proofs-notes/polynomial-certificate.md).
 *
 * Instance.  Points x_i (the stored doubles, |x_i| = 1 up to ~1e-12),
 * A_ij = w_j exp(beta x_i.x_j) / Z_i.  With xh_i = x_i/|x_i| (exact real
 * unit vectors) and a real polynomial q of degree L (Chebyshev coefficients,
 * scaled: q ~ g(s) = exp(beta (s - 1))),
 *
 *      B_ij = w_j e^{beta} q(xh_i.xh_j) / Z_i,
 *      rank B <= dim P_L(S^{d-1}) = C(L+d-1, d-1) + C(L+d-2, d-1),
 *
 * and the error ||A - B||_r1 is bounded rigorously in O(n^2 d) (table of
 * per-cell Taylor data built in Arb / directed rounding, upward-rounded
 * accumulation in two threads).  No O(n^3) step, no n x n storage.
 *
 * Continuum.  For the uniform measure on S^{d-1} the operator
 * (A f)(x) = int e^{beta x.y} f(y) dsigma(y) / int e^{beta x.y} dsigma(y)
 * and its polynomial counterpart differ in "row l1" by
 *      E(q) = int |g - q| dmu_d / int g dmu_d,  dmu_d = c_d (1-s^2)^{(d-3)/2} ds,
 * independent of x; E(q) is bounded rigorously (cell-wise Taylor bounds,
 * denominator from fh_eigenvalue_scaled with k = 0).
 *
 * The polynomial is a candidate (weighted l1 fit by linear programming on a
 * theta-uniform grid, GLPK); all rigour lies in the error bounds. */
#ifndef ATTNRANK_THEORY_CERT_POLY_H
#define ATTNRANK_THEORY_CERT_POLY_H

#include <stddef.h>
#include "base/status.h"
#include "constructions/pointsets/pointset.h"

/* Largest beta of the polynomial certificates (instance and continuum): the
 * Chebyshev fit of exp(beta (s - 1)) needs degree ~ sqrt(2 beta log(1/eps)),
 * and CP_MAXL = 4000 covers beta up to about this. */
#define POLY_BETA_MAX 1e7

typedef struct {
    int d;               /* sphere S^{d-1} in R^d */
    double beta, eps;    /* inputs */
    size_t n;            /* number of points (0 for the continuum) */
    unsigned long L;     /* degree of the certified polynomial */
    size_t rank;         /* rank_eps <= rank is certified (instance: min(dim P_L, n)) */
    size_t dim;          /* dim P_L(S^{d-1}) (SIZE_MAX if it overflows) */
    double err;          /* rigorous error bound of the certificate (<= eps) */
    double err_below;    /* certified bound found for L - 1 (> eps), or NAN if L - 1 was not evaluated */
    double seconds;      /* wall time */
    int capped;          /* 1 if the trivial bound rank <= n binds (err = 0: B = A) */
    unsigned evals;      /* number of degrees whose error was bounded */
} poly_cert_t;

/* dim P_L(S^{d-1}) = C(L+d-1, d-1) + C(L+d-2, d-1) (d = 2: 2L+1, d = 3:
 * (L+1)^2); exact, SIZE_MAX if it does not fit.  d >= 2. */
size_t poly_dim(int d, unsigned long L);

/* Candidate polynomial: coef[0..L] = Chebyshev coefficients of q minimising
 * the discretised int |g(s) - q(s)| (1 - s^2)^{(d-3)/2} ds, g(s) = exp(beta (s-1))
 * (nodes s = cos theta, theta uniform; weight sin^{d-2} theta d theta).
 * If est != NULL, *est = the discretised E(q) (NOT rigorous).
 * d >= 2, beta >= 0 finite, L <= 4000.  AR_ENUMERIC if the LP fails. */
ar_status poly_fit(int d, double beta, unsigned long L, double *coef, double *est);

/* A cheap stand-in for poly_fit's estimate, used only to place the degree
 * search: the same discretised problem solved approximately by iteratively
 * reweighted least squares (lp_l1_irls, 30 steps, one BLAS thread; no
 * simplex).  Measured within 0.05% of poly_fit's *est at the degrees the
 * d = 6 searches visit at beta = 640, 1280.  NOT rigorous; no polynomial is
 * returned.  Same arguments and errors as poly_fit. */
ar_status poly_fit_estimate(int d, double beta, unsigned long L, double *est);

/* Rigorous bound *err_bound >= ||A - B||_r1 for the instance P (self-
 * attention, multiplicities allowed) and the polynomial coef[0..L] (scaled as
 * above).  Requirements: P->d >= 2, every | |x_i| - 1 | <= 1e-12 (checked
 * rigorously), beta >= 0 finite.  Cost O(n^2 (d + 1)) in 2 threads plus
 * O(cells * L) for the table. */
ar_status poly_instance_error(const pointset_t *P, double beta, const double *coef, unsigned long L,
                              double *err_bound);

/* Same for k <= 4 polynomials in one O(n^2) pass: coefs[t] has Ls[t] + 1
 * entries, errs[t] receives the bound. */
ar_status poly_instance_errors(const pointset_t *P, double beta, int k, const double *const *coefs,
                               const unsigned long *Ls, double *errs);

/* Rigorous bound *err_bound >= E(q) (continuum, uniform measure on S^{d-1}). */
ar_status poly_continuum_error(int d, double beta, const double *coef, unsigned long L,
                               double *err_bound);

/* Least-degree search (galloping from the LP estimate, then bisection; the
 * certified error need not be monotone in L, so minimality is heuristic,
 * soundness is not): the certificate (L, err <= eps, rank).  Instance: if no
 * L with dim P_L < n certifies, the trivial certificate rank n (B = A,
 * err = 0, capped = 1).  0 < eps < 1, beta >= 0 finite. */
ar_status poly_upper_instance(const pointset_t *P, double beta, double eps, poly_cert_t *out);
ar_status poly_upper_continuum(int d, double beta, double eps, poly_cert_t *out);

#endif
