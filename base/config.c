/* SPDX-License-Identifier: GPL-3.0-or-later */
/* config.c -- the settings in effect per thread (see config.h). */
#include "base/config.h"

#include <string.h>

static const ar_config_t ar_config_builtin = {
    .max_alloc_bytes = AR_CONFIG_MAX_ALLOC_BYTES,
    .stream_mib = 0,
    .stream_max_n = AR_CONFIG_STREAM_MAX_N,
    .ball_dense_max = AR_CONFIG_BALL_DENSE_MAX,
    .scale_max_n = AR_CONFIG_SCALE_MAX_N,
    .flint_threads = 1,
    .openblas_threads = 0,
    .threads = AR_CONFIG_THREADS,
    .shard_key = "",
};

static _Thread_local const ar_config_t *ar_config_thread;

void ar_config_default(ar_config_t *c)
{
    memcpy(c, &ar_config_builtin, sizeof *c);
}

const ar_config_t *ar_config(void)
{
    return ar_config_thread ? ar_config_thread : &ar_config_builtin;
}

const ar_config_t *ar_config_install(const ar_config_t *c)
{
    const ar_config_t *old = ar_config_thread;
    ar_config_thread = c;
    return old;
}

const ar_config_t *ar_config_installed(void)
{
    return ar_config_thread;
}
