/* SPDX-License-Identifier: GPL-3.0-or-later */
/* claim_b.h -- one certified sweep point of claim B (the full-ball law
 * Theta(beta^{d/2}) with Gaussian multiplicities; proofs-notes/claim-B.md).
 *
 * lower end: the best certified cluster certificate (theory/certificates/cert_ball.h) on
 *            the shells instance of constructions/pointsets/ball.h, over the spacing
 *            scales {1.12, 1.06, 1, 0.95, 0.9} x the defaults (largest
 *            certified count wins); the instance's exact total point count
 *            N (with multiplicities) gives log10_n;
 * upper end: bracket_compute_ball on a dense lattice instance (or uniform
 *            sample) of `npoints` distinct points, when requested;
 *            the larger of the two lower ends is reported;
 *            with lower_lattice, also weighted diagonal dominance on the checkerboard
 *            lattice D_d in the ball (family "packed" of ball.h) for both offsets at
 *            0.99 x the default spacing, and at the default where that fails
 *            (largest certified count wins);
 * The note records the abstract's condition n >= C e^{beta/8} for the
 * lower instance: log10 N against beta/(8 ln 10).
 * continuum: the upper end bounds the shells continuum (radial spacing
 *            <= hs kernel widths, uniform measure on each sphere), certified
 *            by theory/certificates/cert_ball_harmonic.h; reported as the
 *            point's continuum end (the object it bounds is the continuum).
 * mode "sphere": the lower end is the certified cap packing on S^{d-1}
 * (pack_lower_search) and the note carries the ball/sphere ratio at the
 * same beta (the contrast row). */
#ifndef ATTNRANK_THEORY_CLAIM_B_H
#define ATTNRANK_THEORY_CLAIM_B_H

#include <stddef.h>
#include "base/status.h"
#include "theory/claims/law_point.h"
#include "theory/claims/law.h"

typedef struct {
    double rho0;            /* inner radius of the instances (default sqrt(3)/2) */
    int unweighted;         /* 1: no multiplicities (the law should not appear) */
    int lower;              /* 1: certify the lower end on shells (default 1) */
    int upper;              /* 1: bracket a dense/uniform instance for the upper end (default 0) */
    const char *upper_family; /* "dense" (default) or "uniform" */
    size_t npoints;         /* distinct points of the upper instance (default 2500) */
    int sphere_contrast;    /* 1: the contrast row (see above) */
    int continuum;          /* 1: the continuum upper end: the certified rank of the shells continuum of
                               the same ball (constructions/pointsets/ball_shells.h, same rho0 and
                               weighting), in out->continuum (default 0) */
    double hs;              /* continuum: radial spacing in kernel widths, in (0, CLAIM_B_HS_MAX]
                               (0: default CLAIM_B_HS_MAX) */
    int lower_route;        /* 1: also bracket the default shells instance through the route chooser
                               (dense test matrices with a verified inverse norm where affordable) and
                               keep the larger certified lower end (default 0) */
    int lower_lattice;      /* 1: also certify the D_d lattice instances (weighted diagonal dominance,
                               two to four probes) and keep the larger certified lower end; 2: the lattice only
                               (no shells instances; lower_route still applies); default 0 (shells only) */
} claim_b_opts_t;

/* The coarsest radial spacing, in kernel widths (h sqrt(beta)), at which the
 * shells continuum still stands for the ball: its certified rank sits within
 * about 10 % of the finest spacings measured (bench/results/claim_B_hs.md).
 * A coarser object no longer measures the ball (at h sqrt(beta) = 10 its
 * continuum end fell below the same ball's certified lower end), so larger
 * spacings are refused (proofs-notes/claim-B.md, section 8). */
#define CLAIM_B_HS_MAX 0.5

void claim_b_opts_default(claim_b_opts_t *o);

/* One point at (d, beta, eps): 2 <= d <= 16, beta > 0, 0 < eps < 1.
 * Fills every field of out (out->n: distinct points of the upper instance,
 * 0 if none; status "certified" unless a requested end could not be
 * certified beyond the trivial bound). */
ar_status claim_b_point(size_t d, double beta, double eps, const claim_b_opts_t *o, law_point_t *out);

/* law_point_fn for the laws table: options from L->opts (NULL: defaults). */
ar_status claim_b_law_point(const law_t *L, double beta, law_point_t *out);

#endif
