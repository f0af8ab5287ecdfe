/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shard.h -- which points of a sweep one shard computes.
 *
 * A sweep (attnrank verify, scale, calib) knows its whole point list
 * before anything runs, each point with an a-priori cost estimate.  Shard
 * K of N computes exactly the points that shard_assign gives to K: the
 * points in decreasing estimated cost (ties: list order), each to the shard
 * whose estimated load is then smallest (ties: the lowest shard index) --
 * the longest-processing-time-first rule, deterministic for given costs.
 * The estimates only balance the shards; no result depends on them. */
#ifndef ATTNRANK_NUMERICS_SHARD_H
#define ATTNRANK_NUMERICS_SHARD_H

#include <stddef.h>
#include "base/status.h"

/* Most shards of one sweep. */
#define SHARD_MAX 100000

typedef struct {
    size_t k, n;     /* shard k of n, 0 <= k < n */
} shard_sel_t;

/* Parse "K/N" strictly (decimal digits only, 0 <= K < N <= SHARD_MAX);
 * `opt` names the option in the one-line message (AR_EINVAL). */
ar_status shard_parse(const char *opt, const char *s, shard_sel_t *out);

/* owner[i] = the shard of point i among nshards (1..SHARD_MAX), by the rule
 * above; every cost must be finite and >= 0.  AR_EINVAL on bad input,
 * AR_ENOMEM. */
ar_status shard_assign(const double *cost, size_t npoints, size_t nshards, size_t *owner);

#endif
