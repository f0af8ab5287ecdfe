/* SPDX-License-Identifier: GPL-3.0-or-later */
/* scale_shard.h -- `attnrank scale --shard K/N --out FILE` and its merge.
 *
 * The point list of a scale sweep is its beta grid, point t at beta_t (id
 * "beta[t]=B"), with the a-priori cost law(beta_t)^1.5 (the law's value,
 * normalised to the largest); a record is the point's law_point_t members
 * (theory/claims/vplan.h) and, for claim B, the sphere-packing contrast.
 * The header's params are the sweep's options as given (name -> value, in
 * the command's option order; --format, --shard, --out, --key excluded), so
 * that `attnrank merge` re-runs the command's own parser on them and then
 * prints with the command's own code, taking each point from its record
 * instead of computing it.  A merge reads only an explicit allow-list of
 * those options (the ones that define the grid and the points): a header
 * cannot make it run a shard, write a file or print help. */
#ifndef ATTNRANK_SWEEPS_SCALE_SHARD_H
#define ATTNRANK_SWEEPS_SCALE_SHARD_H

#include <stddef.h>
#include <jansson.h>
#include "numerics/args.h"
#include "constructions/formats/shardfile.h"
#include "theory/claims/law_point.h"

/* Computes point t: lp, and *sphere for claim B's contrast column (else 0). */
typedef ar_status (*scale_point_fn)(void *ctx, size_t t, law_point_t *lp, size_t *sphere);

typedef struct {
    const char *claim;         /* "S" or "B" */
    int d;                     /* the sweep's dimension and eps: every record must have them */
    double eps;
    const double *betas;
    size_t count;
    double law_exponent;       /* cost ~ beta^(law_exponent * 1.5) */
    json_t *params;            /* owned */
    char digest[65];
    const json_t **rec;        /* merge: the record of each point */
} scale_sweep_t;

/* Set up the sweep from the parsed options (o, no), its d and eps, and the grid. */
ar_status scale_sweep_init(scale_sweep_t *s, const char *claim, int d, double eps, const opt_t *o, size_t no,
                           const double *betas, size_t count, double law_exponent);
void scale_sweep_clear(scale_sweep_t *s);

/* --shard: run shard sel into out (sweeps/shards.h) under the key of keyfile
 * (--key; NULL: ATTNRANK_SHARD_KEY or none); exit code. */
int scale_sweep_shard(scale_sweep_t *s, const char *shard, const char *out, const char *keyfile, scale_point_fn fn,
                      void *ctx);

/* 1 when the command runs under `attnrank merge` (scale_merge_files set). */
int scale_sweep_merging(void);
/* The common start of `scale --claim S` and `scale --claim B` once their options o[0..no)
 * are parsed: under merge, --shard, --out, --help and --key are refused (one line, exit code
 * of AR_EINVAL); otherwise --help prints help to stdout (exit code 0).  -1: go on. */
int scale_sweep_start(const opt_t *o, size_t no, const char *help);
/* Under merge: check the files against this sweep and collect the records. */
ar_status scale_sweep_collect(scale_sweep_t *s);
/* Under merge: point t from its record. */
ar_status scale_sweep_record(const scale_sweep_t *s, size_t t, law_point_t *lp, size_t *sphere);

/* The provenance printed with the table: the shards' under merge, else this binary's
 * (version_json_fields, version_line). */
const char *scale_prov_json(void);
const char *scale_prov_line(void);

/* Set by sweep_merge for the duration of one sweep_scale call. */
extern const shardfile_t *scale_merge_files;
extern size_t scale_merge_nf;

#endif
