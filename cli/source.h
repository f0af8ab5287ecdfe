/* SPDX-License-Identifier: GPL-3.0-or-later */
/* source.h -- the instance a subcommand works on, from the common options:
 *   --points X.npy [--multiplicities W.txt]             self-attention
 *   --queries Q.npy --keys K.npy [--multiplicities W]   cross-attention (weights on keys)
 *   --geometry sphere --family F --d D --n N [--seed S] [--theta T]
 * Exactly one of the three forms must be given.  Built through the public
 * API (include/attnrank.h). */
#ifndef ATTNRANK_CLI_SOURCE_H
#define ATTNRANK_CLI_SOURCE_H

#include <stdint.h>
#include "cli/args.h"
#include "include/attnrank.h"

#define SOURCE_DESC_LEN 256

typedef struct {
    attnrank_points *Q, *K;   /* for self-attention only Q is set (self = 1) */
    int self;
    uint64_t seed;
    int has_seed;             /* 1 for generated instances */
    char description[SOURCE_DESC_LEN];
} source_t;

/* Load the instance described by the options; beta is used only for the
 * default packing separation.  AR_EINVAL / AR_EIO with a message. */
ar_status source_load(const opt_t *opts, size_t nopts, double beta, source_t *S);

void source_clear(source_t *S);

/* The option entries source_load reads (to splice into a command's table). */
#define SOURCE_OPTIONS \
    { "points", 1, NULL }, { "queries", 1, NULL }, { "keys", 1, NULL }, \
    { "multiplicities", 1, NULL }, { "geometry", 1, NULL }, { "family", 1, NULL }, \
    { "d", 1, NULL }, { "n", 1, NULL }, { "seed", 1, NULL }, { "theta", 1, NULL }

#endif
