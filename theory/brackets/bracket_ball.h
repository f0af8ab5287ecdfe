/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bracket_ball.h -- certified eps-rank bracket of a (weighted) self-attention
 * instance in the unit ball (claim B; proofs-notes/claim-B.md).
 *
 *   lower: the cluster test-matrix certificate (theory/certificates/cert_ball.h) --
 *          weighted diagonal dominance on all points, else the largest
 *          certified delta-net -- in O(n * neighbours), no m x m matrix;
 *          plus the dense block certificates of bracket_compute when the
 *          number of distinct points is at most bracket_ball_dense_max();
 *   upper: the tensor-Chebyshev certificate of the Gaussian kernel (points
 *          in [-1, 1]^d), plus the dense svd/symeig/pchol certificates of
 *          bracket_compute under the same size limit.
 * The best certified end of each side is reported, naming its certificate
 * (lo.method "ball-diagdom", "ball-cluster", or the dense "invnorm",
 * "diagdom", "trivial"; up.method "tensor-cheb", or "symeig", "pchol",
 * "svd", "trivial").  status is bracket_status_decide's: a bracket whose
 * ends are trivial (nothing certified above the dense size) is
 * "inconclusive", never "certified".  Multiplicities of any size are used
 * exactly: every computation is on the distinct points. */
#ifndef ATTNRANK_THEORY_BRACKET_BALL_H
#define ATTNRANK_THEORY_BRACKET_BALL_H

#include "theory/brackets/bracket.h"
#include "theory/certificates/cert_ball.h"

typedef struct {
    ball_lower_t cluster;     /* the cluster lower certificate found */
    ball_upper_t tensor;      /* the tensor-Chebyshev upper certificate (p = 0: not applicable) */
    int dense_run;            /* 1 if bracket_compute ran */
    size_t dense_lower, dense_upper;
    double seconds_dense;
} ball_bracket_info_t;

/* Fill out (as bracket_compute: m = n = distinct points, lower, upper, lo,
 * up, status, seconds; maxerr/prec from the dense run or 0) for
 * self-attention on P.  beta > 0 finite, 0 < eps < 1, |x_c| <= 1.5 (the
 * tensor certificate needs |x_c| <= 1 and is skipped otherwise).  o may be
 * NULL.  AR_ENUMERIC if lower > upper were ever certified (a bug). */
ar_status bracket_compute_ball(const pointset_t *P, double beta, double eps, const bracket_opts_t *o,
                               bracket_t *out);

/* Same, also returning the details of each certificate (info may be NULL). */
ar_status bracket_compute_ball_ex(const pointset_t *P, double beta, double eps,
                                  const bracket_opts_t *o, bracket_t *out, ball_bracket_info_t *info);

/* Largest beta of the ball route: its cluster nets start at spacing
 * 1/sqrt(beta), which beyond 1e30 lies below the resolution of the doubles
 * (and beyond ~2.6e36 off the cell grid of numerics/cellgrid.h). */
#define BRACKET_BALL_BETA_MAX 1e30

/* Largest accepted value of ATTNRANK_BALL_DENSE_MAX. */
#define BRACKET_BALL_DENSE_MAX_MAX 5000000

/* Largest number of distinct points for the dense certificates: the
 * configuration's ball_dense_max (base/config.h; 3000 by default,
 * ATTNRANK_BALL_DENSE_MAX at the boundary; 0 disables them).  Always AR_OK. */
ar_status bracket_ball_dense_max(size_t *out);

#endif
