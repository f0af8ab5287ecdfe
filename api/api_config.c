/* SPDX-License-Identifier: GPL-3.0-or-later */
/* api_config.c -- the environment, read at the boundary (see base/config.h).
 *
 * The only place in the library where attnrank's environment variables are
 * read: each public entry reads them once into an ar_config_t and installs it
 * for the duration of the call.  A value outside its range is AR_EINVAL with
 * one line naming the variable, its value and the range (base/envvar.h). */
#include "api/api_impl.h"

#include <stdlib.h>
#include <string.h>
#include "base/envvar.h"
#include "theory/brackets/bracket.h"
#include "theory/brackets/bracket_ball.h"
#include "theory/brackets/bracket_scale.h"

ar_status api_config_from_env(ar_config_t *c)
{
    ar_config_default(c);
    double gb;
    int set;
    size_t v;
    ar_status st;
    if ((st = env_real("ATTNRANK_MAX_ALLOC_GB", AR_MAX_ALLOC_GB_MIN, AR_MAX_ALLOC_GB_MAX, 16.0, &gb)))
        return st;
    c->max_alloc_bytes = (size_t)(gb * 1073741824.0);   /* <= 2^50: in range */
    if ((st = env_size("ATTNRANK_BALL_DENSE_MAX", 0, BRACKET_BALL_DENSE_MAX_MAX, AR_CONFIG_BALL_DENSE_MAX,
                       &c->ball_dense_max)) ||
        (st = env_size("ATTNRANK_MAX_SCALE_N", 1, BRACKET_SCALE_MAX_N_MAX, AR_CONFIG_SCALE_MAX_N, &c->scale_max_n)) ||
        (st = env_size("ATTNRANK_FLINT_THREADS", 1, 256, 1, &c->flint_threads)) ||
        (st = env_size_opt("ATTNRANK_STREAM_MIB", 1, BRACKET_STREAM_MIB_MAX, &set, &v)))
        return st;
    c->stream_mib = set ? v : 0;
    if ((st = env_size("ATTNRANK_MAX_STREAM_N", 1, BRACKET_STREAM_MAX_N_MAX, AR_CONFIG_STREAM_MAX_N,
                       &c->stream_max_n)) ||
        (st = env_size_opt("OPENBLAS_NUM_THREADS", 1, 1024, &set, &v)))
        return st;
    c->openblas_threads = set ? v : 0;
    if ((st = env_size_opt("ATTNRANK_THREADS", 1, AR_CONFIG_MAX_THREADS, &set, &v)))
        return st;
    c->threads = set ? v : api_cpu_count();     /* default: the CPUs this process may use */
    const char *key = getenv("ATTNRANK_SHARD_KEY");
    if (key && strlen(key) >= sizeof c->shard_key) {
        ar_error_set("ATTNRANK_SHARD_KEY: the shard key file name must be 1..%zu bytes", sizeof c->shard_key - 1);
        return AR_EINVAL;
    }
    if (key)
        memcpy(c->shard_key, key, strlen(key) + 1);
    return AR_OK;
}

ar_status api_config_enter(api_config_scope_t *s)
{
    ar_status st = api_config_from_env(&s->cfg);
    if (st == AR_OK)
        s->prev = ar_config_install(&s->cfg);
    return st;
}

void api_config_leave(api_config_scope_t *s)
{
    ar_config_install(s->prev);
}
