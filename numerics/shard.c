/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shard.c -- shard selection and the LPT assignment (see shard.h). */
#include "numerics/shard.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "base/parse.h"

ar_status shard_parse(const char *opt, const char *s, shard_sel_t *out)
{
    const char *slash = s ? strchr(s, '/') : NULL;
    uint64_t k = 0, n = 0;
    char kb[24];
    size_t kl = slash ? (size_t)(slash - s) : 0;
    if (slash && kl > 0 && kl < sizeof kb) {
        memcpy(kb, s, kl);
        kb[kl] = '\0';
    }
    if (!slash || kl == 0 || kl >= sizeof kb || !parse_digits(kb, &k) || !parse_digits(slash + 1, &n)) {
        ar_error_set("--%s: expected K/N with decimal integers 0 <= K < N, got '%s'", opt, s ? s : "");
        return AR_EINVAL;
    }
    if (n < 1 || n > SHARD_MAX || k >= n) {
        ar_error_set("--%s %s: need 0 <= K < N <= %d", opt, s, SHARD_MAX);
        return AR_EINVAL;
    }
    out->k = (size_t)k;
    out->n = (size_t)n;
    return AR_OK;
}

typedef struct {
    double cost;
    size_t i;
} item_t;

static int by_cost_desc(const void *pa, const void *pb)
{
    const item_t *a = pa, *b = pb;
    if (a->cost != b->cost)
        return a->cost > b->cost ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

ar_status shard_assign(const double *cost, size_t npoints, size_t nshards, size_t *owner)
{
    if (nshards < 1 || nshards > SHARD_MAX) {
        ar_error_set("shard_assign: %zu shards (need 1..%d)", nshards, SHARD_MAX);
        return AR_EINVAL;
    }
    for (size_t i = 0; i < npoints; i++)
        if (!(cost[i] >= 0) || !isfinite(cost[i])) {
            ar_error_set("shard_assign: cost estimate of point %zu is %g (need finite >= 0)", i, cost[i]);
            return AR_EINVAL;
        }
    if (npoints == 0)
        return AR_OK;
    item_t *it = ar_calloc(npoints, sizeof *it, "shard assignment");
    double *load = ar_calloc(nshards, sizeof *load, "shard loads");
    if (!it || !load) {
        free(it);
        free(load);
        return AR_ENOMEM;
    }
    for (size_t i = 0; i < npoints; i++)
        it[i] = (item_t){ cost[i], i };
    qsort(it, npoints, sizeof *it, by_cost_desc);
    for (size_t t = 0; t < npoints; t++) {
        size_t best = 0;
        for (size_t s = 1; s < nshards; s++)
            if (load[s] < load[best])
                best = s;
        owner[it[t].i] = best;
        load[best] += it[t].cost;
    }
    free(it);
    free(load);
    return AR_OK;
}
