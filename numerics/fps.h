/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fps.h -- farthest-point ordering of a point cloud (Euclidean, R^d).
 * order[0] = start; order[t] maximises the distance to {order[0..t-1]}
 * (ties: smallest index).  Every prefix of the order is a greedy
 * well-separated subset.  O(n^2 d) time, O(n) memory.  mindist (optional,
 * n doubles) receives for each t the distance from order[t] to the earlier
 * points (mindist[0] = +INFINITY). */
#ifndef ATTNRANK_NUMERICS_FPS_H
#define ATTNRANK_NUMERICS_FPS_H

#include <stddef.h>
#include "base/status.h"

ar_status fps_order(const double *x, size_t n, size_t d, size_t start, size_t *order, double *mindist);

/* The first len entries (1 <= len <= n) of fps_order's order (and of mindist, when not NULL),
 * the same numbers, in O(n len d) time: the greedy choice of order[t] reads only the choices
 * before it, so a prefix is computed without the rest.  fps_order is fps_prefix with len = n. */
ar_status fps_prefix(const double *x, size_t n, size_t d, size_t start, size_t len, size_t *order,
                     double *mindist);

#endif
