/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sphere_code.h -- a structured spherical code with a proven separation:
 * the recursive zonal code on S^{d-1}.
 *
 * S^{d-1} is cut into latitudes phi_j = pi j / M (j = 0..M) about the first
 * axis; the latitude at phi_j is a sphere S^{d-2} of radius sin(phi_j),
 * coded recursively with the same absolute chord; S^1 (a circle of radius
 * rho) carries n equally spaced points with a deterministic phase.  M and n
 * are the largest counts whose spacing is proven (in Arb) to give chords >=
 * c (1 + 2^-26), c = 2 sin(theta/2).  Points are listed in lexicographic
 * order of their latitude indices.  Lemma (proofs-notes/packing-lower-
 * bounds.md, section 6): every two stored points have |x_i - x_j| >=
 * 2 sin(theta/2), and every stored coordinate is within 2^-52 of the exact
 * point's, so | |x_i| - 1 | <= 2^-49.  Deterministic; O(n d) time and memory
 * (plus O(d) per latitude for the counts). */
#ifndef ATTNRANK_CONSTRUCTIONS_SPHERE_CODE_H
#define ATTNRANK_CONSTRUCTIONS_SPHERE_CODE_H

#include <stddef.h>
#include "constructions/pointsets/pointset.h"

/* Smallest angular separation sphere_zonal accepts (the rounding margin
 * 2^-26 c must cover 2^-51 of stored-coordinate error). */
#define SPHERE_ZONAL_THETA_MIN 0x1p-20

/* The zonal code on S^{d-1} with angular separation theta (chord >=
 * 2 sin(theta/2) between any two stored points), its first max_points
 * points in generation order when it has more (a subset keeps the
 * separation).  2 <= d <= 16, SPHERE_ZONAL_THETA_MIN <= theta <= pi,
 * max_points >= 1; AR_EINVAL (one line) otherwise, AR_ENOMEM beyond the
 * allocation limit (checked before the coordinates are allocated). */
ar_status sphere_zonal(pointset_t *P, size_t d, double theta, size_t max_points);

/* Number of points sphere_zonal(d, theta, max_points) returns, without
 * storing them (O(number of latitudes)).  Same argument checks; *count = 0
 * on error. */
ar_status sphere_zonal_count(size_t d, double theta, size_t max_points, size_t *count);

#endif
