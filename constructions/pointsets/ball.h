/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ball.h -- point sets in the unit ball B^d with Gaussian multiplicities
 * (claim B, issue 7; proofs-notes/claim-B.md).
 *
 * Families (all deterministic; coordinates are computed in double precision
 * and the stored doubles ARE the instance):
 *   shells   K + 1 radial shells of radii 1 - k (1 - rho0)/K, k = 0..K (the
 *            innermost exactly rho0), K = floor((1 - rho0)/h_r) with
 *            h_r = c_radial / sqrt(beta) (K = 0: the unit sphere alone); on
 *            each shell of radius r a cap
 *            packing with nearest spacing ~ a = c_angular / sqrt(beta)
 *            (angular separation a / r): d = 2 evenly spaced points on the
 *            circle, staggered by half a step on alternate shells; d = 3 a
 *            Fibonacci spiral of ~ 4 pi r^2 / (a^2 sqrt(3)/2) points, rotated
 *            per shell; d >= 4 the greedy cap packing of sphere_packing.
 *            rho0 = 0: the innermost "shell" is the origin.
 *   dense    the cubic lattice of spacing h (offset h/2) intersected with the
 *            shell rho0 <= |x| <= 1, h chosen for about `npoints` points.
 *   uniform  `npoints` i.i.d. uniform points of the shell (rejection from the
 *            cube, seeded).
 *   packed   the checkerboard lattice D_d = { k in Z^d : k_1 + .. + k_d even }
 *            scaled to nearest spacing a = c_lattice / sqrt(beta) (the densest
 *            lattice packing known in d = 3, 4, 5: FCC, D4, D5), intersected with
 *            the shell rho0 <= |x| <= 1 (|x|^2 in double), origin at a lattice
 *            point (seed 0) or at the deep hole (a/sqrt(2)) (1, 0, .., 0)
 *            (seed 1); used as a lower-end instance (claim_b.h).
 * Multiplicities (unless unweighted):  w(x) = round(M0 exp(beta (1 - |x|^2) / 2))
 * computed rigorously (Arb ball of the exact value for the stored double x,
 * precision raised until the rounding is determined), as exact fmpz; w >= 1
 * whenever |x| <= 1 and M0 >= 1.  On the default shell rho0 = sqrt(3)/2 the
 * largest multiplicity is about M0 e^{beta/8} (the abstract's n >= C e^{beta/8}). */
#ifndef ATTNRANK_CONSTRUCTIONS_BALL_H
#define ATTNRANK_CONSTRUCTIONS_BALL_H

#include <stddef.h>
#include <stdint.h>
#include <flint/fmpz.h>
#include "constructions/pointsets/pointset.h"

typedef enum { BALL_SHELLS = 0, BALL_DENSE = 1, BALL_UNIFORM = 2, BALL_PACKED = 3 } ball_family_t;

typedef struct {
    ball_family_t family;
    size_t d;            /* 2 <= d <= 16 */
    double beta;         /* > 0: sets the spacings (shells) and the multiplicities */
    double rho0;         /* inner radius in [0, 1) (default sqrt(3)/2) */
    double c_radial;     /* shells: radial spacing h_r = c_radial / sqrt(beta) */
    double c_angular;    /* shells: in-shell spacing a = c_angular / sqrt(beta) */
    size_t npoints;      /* dense (approximate) and uniform (exact) sizes */
    uint64_t seed;       /* uniform, and shells for d >= 4; packed: 0 or 1 (the offset) */
    int unweighted;      /* 1: no multiplicities (w = NULL) */
    double M0;           /* multiplicity scale >= 1 (default 1) */
    double c_lattice;    /* packed: nearest spacing a = c_lattice / sqrt(beta) */
} ball_spec_t;

/* Defaults for family f in dimension d at beta: rho0 = sqrt(3)/2, the
 * shells spacings of the claim-B certificates (d = 2: c_radial 1.80,
 * c_angular 2.15; d = 3: 2.0 and 2.5; d >= 4: 2.2 and 2.7; chosen so that
 * weighted diagonal dominance holds with max R ~ 0.7 at eps = 0.1),
 * npoints 2000, seed 1, weighted, M0 = 1; packed: seed 0 and c_lattice
 * 1.92, 2.38, 2.65, 2.84 for d = 2, 3, 4, 5 (interior rows of D_d then have
 * R = sum_{v != 0} e^{-|v|^2 c^2 / 2} ~ 0.74 < 9/11, the eps = 0.1 threshold,
 * over D_d's theta series with nearest |v| = 1), 3.0 (untuned) for d >= 6. */
void ball_spec_default(ball_spec_t *s, ball_family_t f, size_t d, double beta);

/* Parse "shells", "dense" or "uniform" (the CLI's families; "packed" is
 * reached through the API only); AR_EINVAL otherwise.  ball_family_name
 * names all four. */
ar_status ball_family_parse(const char *name, ball_family_t *f);
const char *ball_family_name(ball_family_t f);

/* Limits of ball_generate: distinct points, and generation steps (one step:
 * one coordinate of a lattice cell, of a rejection draw, or of a distance
 * checked by the greedy cap packing of a shell, d >= 4). */
#define BALL_MAX_POINTS 5000000
#define BALL_MAX_WORK 2e9

typedef struct {
    double points;        /* distinct points: exact for shells in d = 2, 3 and for dense (about) /
                             uniform (npoints); for shells in d >= 4 the covering lower bound of each
                             shell's cap packing */
    double work;          /* generation steps (see BALL_MAX_WORK) */
    double weight_bits;   /* bits of the largest multiplicity (0 when unweighted) */
    double weight_bytes;  /* storage of the multiplicities (shells: per shell; else points x the largest) */
} ball_cost_t;

/* What generating spec s would take, computed in O(shells) without
 * generating.  AR_EINVAL with one line naming what the user can change
 * (--beta, --rho0, --d, --npoints, --unweighted) when it exceeds the limits:
 * more than BALL_MAX_POINTS points, more than BALL_MAX_WORK steps (a dense
 * lattice of a thin shell or in high d, rejection sampling of a shell that
 * fills a tiny part of the cube), multiplicities beyond the 2^22-bit
 * precision of ball_gaussian_weights, more than 4e9 bits of multiplicities
 * in all (hours of exact evaluation), or their storage beyond
 * ar_max_alloc(); also for bad specs. */
ar_status ball_cost(const ball_spec_t *s, ball_cost_t *c);

/* Generate the instance of spec s (points and multiplicities) into P.
 * AR_EINVAL (one-line message) for bad specs and for what ball_cost refuses,
 * checked before any work, so that every accepted spec finishes.
 * Provenance records every parameter. */
ar_status ball_generate(pointset_t *P, const ball_spec_t *s);

/* Replace the multiplicities of P by round(M0 exp(beta (1 - |x|^2) / 2))
 * (exact: Arb with a Ziv loop on the precision, starting at the bits of each
 * point's multiplicity; AR_EINVAL, before any work on that point, when a
 * multiplicity has more than 2^22 - 64 bits; AR_ENUMERIC if it cannot be
 * decided by 2^22 bits, AR_EINVAL if some multiplicity would be < 1 or
 * beta < 0 / M0 < 1 / non-finite). */
ar_status ball_gaussian_weights(pointset_t *P, double beta, double M0);

/* Exact total point count N = sum of multiplicities and log10 N. */
double ball_total_count(const pointset_t *P, fmpz_t N);

/* Largest multiplicity of P (1 when unweighted) and its log10. */
double ball_max_weight(const pointset_t *P, fmpz_t wmax);

#endif
