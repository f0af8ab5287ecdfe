/* SPDX-License-Identifier: GPL-3.0-or-later */
/* scale_shard.h -- `attnrank scale --shard K/N --out FILE` and its merge.
 *
 * The point list of a scale sweep is its beta grid, point t at beta_t (id
 * "beta[t]=B"), with the a-priori cost law(beta_t)^1.5 (the law's value,
 * normalised to the largest); a record is the point's law_point_t members
 * (theory/claims/vplan.h) and, for claim B, the sphere-packing contrast.
 * The header's params are {"claim": C, "spec": the sweep's spec
 * (sweeps/sweep_spec.h, scale_spec_json)}, so that `attnrank merge` reads
 * the spec back (scale_spec_from_json: exactly the spec's members, typed
 * and validated) and prints with the sweep's own code, taking each point
 * from its record instead of computing it.  A header cannot make a merge
 * run a shard, write a file or print help: a spec holds none of those.
 * Headers of the older format (params.options, a command line) are refused
 * with one line (shards_old_header). */
#ifndef ATTNRANK_SWEEPS_SCALE_SHARD_H
#define ATTNRANK_SWEEPS_SCALE_SHARD_H

#include <stddef.h>
#include <jansson.h>
#include "sweeps/sweeps.h"
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
    json_t *params;            /* owned: {"claim", "spec"} */
    char digest[65];
    const shardfile_t *files;  /* merge: the shard files (NULL: a computing run) */
    size_t nf;
    const json_t **rec;        /* merge: the record of each point */
} scale_sweep_t;

/* Set up the sweep of spec over the grid betas[0..count); files (nf): the
 * shards of a merge, NULL for a computing run. */
ar_status scale_sweep_init(scale_sweep_t *s, const scale_spec_t *spec, const double *betas, size_t count,
                           double law_exponent, const shardfile_t *files, size_t nf);
void scale_sweep_clear(scale_sweep_t *s);

/* Run shard r->sel into r->out (sweeps/shards.h) under the key r->key; exit code. */
int scale_sweep_shard(scale_sweep_t *s, const sweep_run_t *r, scale_point_fn fn, void *ctx);

/* Under merge: check the files against this sweep and collect the records. */
ar_status scale_sweep_collect(scale_sweep_t *s);
/* Under merge: point t from its record. */
ar_status scale_sweep_record(const scale_sweep_t *s, size_t t, law_point_t *lp, size_t *sphere);

/* The provenance printed with the table: the shards' under merge, else this
 * binary's (version_json_fields, version_line).  scale_prov_json: JSON
 * members without braces, allocated (NULL when out of memory). */
char *scale_prov_json(const scale_sweep_t *s);
void scale_prov_line(const scale_sweep_t *s, char *buf, size_t cap);

/* The sweeps of claim S (sweep_scale.c) and claim B (sweep_scale_ball.c),
 * computing (files NULL) or merging the shard files files[0..nf). */
int sweep_scale_exec(const scale_spec_t *spec, const sweep_run_t *r, const shardfile_t *files, size_t nf,
                     scale_result_t *out);
int sweep_scale_ball_exec(const scale_spec_t *spec, const sweep_run_t *r, const shardfile_t *files, size_t nf,
                          scale_result_t *out);

/* `attnrank merge` of scale shards: the spec read from the header, the sweep rebuilt from the records into *out. */
int sweep_merge_scale(const shardfile_t *files, size_t nf, const sweep_run_t *r, scale_result_t *out);

#endif
