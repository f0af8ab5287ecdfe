/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sphere.h -- point sets on the unit sphere S^{d-1}.
 *
 * Points are computed with MPFR (correctly rounded trigonometric functions)
 * and rounded to the nearest double, so each stored point has norm within a
 * few units in the last place of 1; the stored doubles are the instance.
 * All families are deterministic (uniform and packing for a given seed). */
#ifndef ATTNRANK_CONSTRUCTIONS_SPHERE_H
#define ATTNRANK_CONSTRUCTIONS_SPHERE_H

#include <stddef.h>
#include <stdint.h>
#include "constructions/pointsets/pointset.h"

/* Regular n-gon on S^1 (d = 2): x_j = (cos 2 pi j/n, sin 2 pi j/n). n >= 1. */
ar_status sphere_polygon(pointset_t *P, size_t n);

/* Fibonacci (golden-angle spiral) set on S^2 (d = 3):
 * z_i = 1 - (2i+1)/n, phi_i = i * pi (3 - sqrt 5). n >= 1. */
ar_status sphere_fibonacci(pointset_t *P, size_t n);

/* n i.i.d. uniform points on S^{d-1} (normalised Gaussians), seeded. d >= 1. */
ar_status sphere_uniform(pointset_t *P, size_t n, size_t d, uint64_t seed);

/* Default angular separation of a cap packing for inverse temperature beta
 * >= 0 (THEORY 3.6): theta = min(pi, 3 / sqrt(1 + beta)), so that neighbours
 * have A_ij / A_ii = exp(-beta (1 - cos theta)) ~ exp(-4.5).  A starting
 * point for packing searches, not a certified quantity. */
double sphere_packing_theta(double beta);

/* Greedy cap packing on S^{d-1}: candidates are seeded uniform points
 * (d = 2: the regular polygon with the densest admissible count is
 * returned instead); a candidate is kept when its angle to every kept point
 * is >= theta (checked in double with a safety margin).  Stops after
 * max_points points or after `patience` consecutive rejections
 * (patience 0 = default 2000).  0 < theta <= pi. */
ar_status sphere_packing(pointset_t *P, size_t d, double theta, size_t max_points,
                         uint64_t seed, size_t patience);

/* Saturated greedy cap packing on S^{d-1} over a finite pool: the
 * candidates are the points of the zonal code at separation theta/2
 * (constructions/pointsets/sphere_code.h), taken in a seeded random order;
 * each is kept when its angle to every kept point is >= theta (the same
 * test as sphere_packing).  The result is maximal for the pool: every
 * candidate is kept or within theta of a kept point, so it is a saturated
 * random sequential packing whose density relative to the densest packing
 * does not depend on its size (unlike the zonal code's, which grows with n,
 * and unlike sphere_packing's, which stops at a patience).  Work O(pool
 * 3^d), pool ~ 2^{d-1} times the packing.  3 <= d <= 16, theta >= 2^-19,
 * max_points >= 1; AR_EINVAL when the pool would exceed max_pool points. */
ar_status sphere_packing_pool(pointset_t *P, size_t d, double theta, size_t max_points, uint64_t seed,
                              size_t max_pool);

#endif
