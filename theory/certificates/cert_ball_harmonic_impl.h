/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_ball_harmonic_impl.h -- private to the shells-continuum certificate
 * (theory/certificates/cert_ball_harmonic*.c): the enclosed kernel
 * coefficients of the object, the angular pieces, and the certified error
 * of one candidate.  Not part of the public interface
 * (cert_ball_harmonic.h). */
#ifndef ATTNRANK_THEORY_CERT_BALL_HARMONIC_IMPL_H
#define ATTNRANK_THEORY_CERT_BALL_HARMONIC_IMPL_H

#include <stddef.h>
#include "base/status.h"
#include "numerics/trig_gram.h"
#include "constructions/pointsets/ball_shells.h"

#define BH_U 0x1p-52          /* unit roundoff valid in every rounding mode */

static inline double bh_gamma(size_t k) { return (double)k * BH_U / (1.0 - (double)k * BH_U); }

/* Everything about the object that does not depend on the candidate. */
typedef struct {
    int d;
    size_t Q, QQ;            /* spheres, Q * Q pairs (pair p = q + Q q') */
    double beta;
    const double *r, *g;     /* radii and column weights of the object */
    unsigned long Lp;        /* degrees 0..Lp treated exactly */
    size_t M;                /* Lp + 1 */
    double *C;               /* (Lp+1) x QQ: C[l QQ + p] = double near C^l_p */
    double *Crad;            /* same layout: |C - exact| <= Crad */
    double *tail;            /* QQ: >= e^{-beta (r - r')^2/2} - sum_{l <= Lp} N_l C^l_p >= 0 */
    double *Zlo;             /* Q: lower bounds of Z_q = sum_q' g_q' C^0_{qq'} */
    double *Zmid;            /* Q: doubles near Z_q (for the candidate's weighting only) */
    double *Nl;              /* Lp + 1 multiplicities N(d, l) as doubles (exact) */
    trig_basis basis;        /* d = 2: TRIG_COS, 3: TRIG_COS_SIN, 4: TRIG_SIN, 5: TRIG_COS_SIN3 */
    double *Gam;             /* d = 3, 5: M x M, Gam[m + M l] = coefficient of cos(m theta) in P_l(cos theta) */
    double gam_colrad;       /* >= max_l sum_m |Gam - exact| */
    double cdelta;           /* int |f| dnu <= cdelta * sum |coefficients| (sup bound) */
    size_t npieces;
    trig_gram_t *pieces;
} bh_setup_t;

/* Enclose the coefficients of S's kernel at beta = S->beta for degrees up to
 * the least Lp whose tails add at most tail_rel * eps to every row error,
 * and build the angular pieces (pieces_near of width 1/(2 sqrt(z_max)), then
 * geometric to pi) with their Gram matrices. */
ar_status bh_setup_init(bh_setup_t *B, const ball_shells_t *S, double eps, double tail_rel, size_t pieces_near);
void bh_setup_clear(bh_setup_t *B);

/* One candidate: for each degree l <= Lp, factors X[l], Y[l] (Q x R[l],
 * column-major; R[l] = 0: no term).  Writes row_err[0..Q) (certified upper
 * bounds of E_q), *err = max, *tail_max = the largest row share of the
 * tails. */
ar_status bh_certify(const bh_setup_t *B, const size_t *R, double *const *X, double *const *Y, double *row_err,
                     double *err, double *tail_max);

#endif
