/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_ball_harmonic.h -- upper certificate for Gaussian-weighted
 * self-attention on the shells continuum of the ball (claim B;
 * proofs-notes/claim-B.md section 8).
 *
 * Object (constructions/pointsets/ball_shells.h): Q concentric spheres of
 * radii r_q carrying the uniform measure with column weights g_q; the
 * attention kernel A(x, dy) = g(y) K(x, y) dy / Z(x), K = e^{-beta|x-y|^2/2}.
 * By rotation invariance (theory/spectra/funkhecke.h),
 *     K(x, y) = sum_l N(d,l) C^l_{qq'} P_l(u.v),   x = r_q u, y = r_q' v,
 *     C^l_{qq'} = e^{-beta (r_q - r_q')^2 / 2} e^{-z} lambda_l(z),  z = beta r_q r_q'.
 * Approximant: B(x, y) = sum_{l <= L} N(d,l) (X_l Y_l^T)_{qq'} P_l(u.v), with
 * X_l, Y_l of Q x R_l doubles (a weighted truncated SVD of C^l), of rank
 * sum_l N(d,l) R_l as a kernel (addition theorem).  Row error, the same for
 * every point of sphere q:
 *     E_q = (1/Z_q) sum_q' g_q' int |K - B|(r_q u, r_q' v) dnu(v),
 * bounded rigorously by a piecewise Cauchy-Schwarz inequality on angular
 * pieces J_i, int_J |F| dnu <= sqrt(nu(J) int_J F^2 dnu), where int_J F^2 is
 * an exact quadratic form in F's trigonometric coefficients
 * (numerics/trig_gram.h), plus the coefficient errors and the tail
 * l > L' (sum_l N C^l = e^{-beta (r - r')^2/2} at u.v = 1).
 * Rounding: Arb for every kernel value, a-priori dgemm bounds, upward
 * rounding for the sums (numerics/fround.h).  Dimensions d = 2, 3, 4, 5. */
#ifndef ATTNRANK_THEORY_CERT_BALL_HARMONIC_H
#define ATTNRANK_THEORY_CERT_BALL_HARMONIC_H

#include <stddef.h>
#include "base/status.h"
#include "constructions/pointsets/ball_shells.h"

typedef struct {
    int reweight;          /* rounds of row reweighting after the first search (0..4; default 2) */
    size_t pieces_near;    /* angular pieces of width ~ 1/(2 sqrt(z_max)) near u.v = 1 (0: default 16) */
    double tail_rel;       /* degree cutoff L': tail <= tail_rel * eps of the row sums (0: default 1e-6) */
    int keep_factors;      /* 1: keep X_l, Y_l in the result (tests) */
} ball_harmonic_opts_t;

void ball_harmonic_opts_default(ball_harmonic_opts_t *o);

typedef struct {
    int d;
    size_t Q;              /* spheres of the object */
    double beta, eps, h_sqrt_beta;
    size_t rank;           /* sum_l N(d,l) R_l: rank_eps of the object <= rank (certified) */
    unsigned long L;       /* largest degree with R_l > 0 */
    unsigned long Lp;      /* degrees of the kernel treated exactly in the error bound */
    size_t *R;             /* R_l for l = 0..Lp (owned) */
    double err;            /* certified max_q E_q <= err (<= eps when certified) */
    double *row_err;       /* Q certified row errors (owned) */
    double tail_max;       /* largest tail contribution to a row error */
    double tau;            /* threshold of the weighted singular values that was kept */
    size_t pieces;         /* angular pieces of the bound */
    unsigned evals;        /* certified error evaluations */
    int certified;         /* 1: err <= eps */
    double seconds;
    /* keep_factors: X[l], Y[l] are Q x R[l], column-major (owned) */
    double **X, **Y;
} ball_harmonic_cert_t;

/* The smallest certified rank found by a search over the threshold tau of
 * the weighted singular values (bisection in log tau; every probe's error is
 * certified), then `reweight` rounds that re-weight the rows by their
 * certified errors and search again; the best certified candidate is kept.
 * S from ball_shells_make (d = 2, 3, 4 or 5), 0 < eps < 1.  o may be NULL.
 * out->certified = 0 (and AR_OK) only if no candidate met eps, which the
 * full-rank candidate always should: then err is the best bound found.
 * AR_EINVAL for bad input (one line), AR_ENOMEM, AR_ENUMERIC. */
ar_status ball_harmonic_upper(const ball_shells_t *S, double eps, const ball_harmonic_opts_t *o,
                              ball_harmonic_cert_t *out);

void ball_harmonic_cert_clear(ball_harmonic_cert_t *c);

#endif
