/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_poly_impl.h -- private to the polynomial certificate
 * (theory/certificates/cert_poly*.c): the per-cell Taylor data of the error
 * e = g - q of a fitted polynomial, the a-priori constants of an instance,
 * and the O(n^2) instance pass.  Not part of the public interface
 * (cert_poly.h).
 *
 * Conventions.  g(s) = exp(beta (s - 1)); q = the scaled polynomial (Chebyshev
 * coefficients), e = g - q.  Everything labelled "up" or "In FE_UPWARD mode"
 * is computed with the FPU in FE_UPWARD mode, inside fround bodies
 * (numerics/fround.h: the compiler cannot move their arithmetic out of the
 * mode); lower bounds are obtained as negated upper bounds (dn_* helpers). */
#ifndef ATTNRANK_THEORY_CERT_POLY_IMPL_H
#define ATTNRANK_THEORY_CERT_POLY_IMPL_H

#include <math.h>
#include <stddef.h>
#include <arb.h>
#include "numerics/arbd.h"
#include "base/status.h"
#include "constructions/pointsets/pointset.h"
#include "theory/certificates/cert_poly.h"

#define CP_MAXDER 6          /* Taylor data q^{(j)}(a)/j!, j <= 6, per cell */
#define CP_MAXL 4000UL       /* largest degree fitted */
#define CP_MAXK 4            /* polynomials per O(n^2) pass */
#define CP_NORM_TOL 1e-12    /* accepted | |x_i| - 1 | */
#define CP_THREADS 2
#define CP_PREC 128
#define POLY_ESTIMATE_ITERS 30   /* IRLS steps of poly_fit_estimate */

/* In FE_UPWARD mode: lower bounds by negation (GCC keeps these with
 * -frounding-math: sign-dependent rounding is honoured). */
static inline double dn_mul(double a, double b) { return -((-a) * b); }
static inline double dn_sub(double a, double b) { return -(b - a); }

static inline int cp_beta_ok(double beta) { return isfinite(beta) && beta >= 0 && beta <= POLY_BETA_MAX; }


/* Enclosure [lo, up] of g(a) = exp(beta (a - 1)), lo >= 0. */
void cp_g(double beta, double a, double *lo, double *up);

/* An upper bound of exp(beta * h). */
double cp_exp_up(double beta, double h);

/* Taylor data of the error of one polynomial (coefficients coef[0..len)) on
 * cells of radius Hs: Chebyshev series of q^(j)/j! for j <= m with rigorous
 * coefficient errors R[j], and a Markov-brothers bound on the tail. */
typedef struct {
    size_t len;                    /* L + 1 */
    int m;                         /* highest stored Taylor order */
    double *ser[CP_MAXDER + 1];    /* Chebyshev coefficients of q^{(j)}/j! (len - j entries) */
    double R[CP_MAXDER + 1];       /* sum_k |ser[j][k] - exact| <= R[j] */
    double tail;                   /* >= sum_{j>m} max|q^{(j)}|/j! Hs^{j-2} */
    double Hs;                     /* Taylor radius */
} taylor_t;

ar_status taylor_init(taylor_t *T, const double *coef, size_t len, double Hs);
void taylor_clear(taylor_t *T);

/* The error e = g - q on one cell anchored at a, from the Taylor data. */
typedef struct {
    double E, errE;    /* |E - e(a)| <= errE */
    double E1, errE1;  /* |E1 - e'(a)| <= errE1 */
    double S2h;        /* |e(a+x) - e(a) - x e'(a)| <= x^2 S2h for |x| <= Hs */
    double gmax;       /* >= g(a + Hs) */
} cell_t;

/* In FE_UPWARD mode.  [glo, gup] encloses g(a); ebHs >= exp(beta Hs); a in [-1, 1]. */
void cell_eval(const taylor_t *T, double beta, double a, double glo, double gup,
               double ebHs, cell_t *o);

/* Cell exponent h (cells of width H = 2^-h) fine enough for degree Lmax and
 * beta: the least h in [hmin, hmax] with H 4 (Lmax^2 + 1) <= 1 and H kb beta <= 1. */
int cp_cell_exp(double beta, unsigned long Lmax, double kb, int hmin, int hmax);

/* The a-priori constants of an instance: |x| - 1 <= nu for every point;
 * |t^ - t| <= r (rounding of the computed inner product t^), |t - th| <= delta
 * (gap to the normalised points), rho, pad2; scaled multiplicities. */
typedef struct {
    size_t n, d;
    double nu, r, delta, rho, pad2;
    double *wu, *wd;      /* scaled multiplicities (NULL: all one) */
} inst_t;

/* Validate P (finite, on the unit sphere to CP_NORM_TOL) and fill I (rigorous). */
ar_status inst_prepare(const pointset_t *P, double beta, inst_t *I);
void inst_clear(inst_t *I);

/* The O(n^2 d) pass: errs[q] >= ||A - B_q||_r1 for K <= CP_MAXK polynomials
 * (coefficients coefs[q], degree Ls[q]) on the prepared instance. */
ar_status inst_errors(const inst_t *I, const pointset_t *P, double beta, int K,
                      const double *const *coefs, const unsigned long *Ls, double *errs);

#endif
