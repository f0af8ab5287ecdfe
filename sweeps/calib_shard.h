/* SPDX-License-Identifier: GPL-3.0-or-later */
/* calib_shard.h -- `attnrank calib --shard K/N --out FILE` and its merge.
 *
 * The point list of a calibration is its settings: for each model (in the
 * order loaded: --manifest, USE lite, PP-OCRv4) each (layer, head, scale)
 * in calib's stored order, id "MODEL:L<l>:H<h>:s<scale>", with the a-priori
 * cost calib_setting_cost (sum over inputs of n^2 (n + dh)).  The header's
 * params are {"spec": the sweep's spec (sweeps/sweep_spec.h, calib_spec_json),
 * "models": [{"name",
 * "digest" (model_heads_digest of the loaded heads: every Q, K, weight),
 * "positions" (tokens per input), "layers": [{"heads", "dh", "scale"}]}]}; the
 * plan digest covers params and ids, so shards that loaded other data, other
 * inputs or other options never merge.  A record is one setting's
 * calib_record (theory/heads/calib_record.h) with "point" and "model" (its
 * index).  The merge rebuilds every result from the header and the records
 * and prints with calib's own code; nothing is recomputed and no model data
 * are read.  It reads the spec back (calib_spec_from_json: exactly the
 * spec's members, typed and validated), bounds the plan's size and compares
 * its digest before building it.  Headers of the older format
 * (params.options, a command line) are refused (shards_old_header). */
#ifndef ATTNRANK_SWEEPS_CALIB_SHARD_H
#define ATTNRANK_SWEEPS_CALIB_SHARD_H

#include <stddef.h>
#include <jansson.h>
#include "numerics/shard.h"
#include "sweeps/shards.h"
#include "sweeps/sweeps.h"
#include "constructions/formats/shardfile.h"
#include "constructions/pointsets/model_heads.h"
#include "theory/heads/calib.h"

#define CALIB_SHARD_MAX_MODELS 2
#define CALIB_SHARD_MAX_SETTINGS (1 << 20)   /* layers x heads x scales of all models, bounded before the plan is built */

/* --shard: compute the settings of shard sel of the models D[0..nd) with
 * options co (spec: the sweep's spec, for the header) into `out`
 * (sweeps/shards.h: resumable) under key (NULL: none); exit code. */
int calib_shard_run(const model_heads_t *D, size_t nd, const calib_opts_t *co, const calib_spec_t *spec,
                    shard_sel_t sel, const char *out, const shardfile_key_t *key, const shards_notice_t *nt);

/* Under merge: the results R[0..*nd) rebuilt from the shard files f[0..nf)
 * for options co, every setting from its record, then summarised and
 * associated (calib_finish); each result's seconds is the sum of its
 * settings'.  One line naming the file otherwise. */
ar_status calib_shard_collect(const calib_opts_t *co, const shardfile_t *f, size_t nf, calib_result_t *R, size_t *nd);

/* calib's options of a spec (sweep_calib.c). */
void calib_spec_opts(const calib_spec_t *s, calib_opts_t *co);

/* calib computing (files NULL) or merging the shard files files[0..nf) (sweep_calib.c). */
int sweep_calib_exec(const calib_spec_t *spec, const sweep_run_t *r, const shardfile_t *files, size_t nf,
                     calib_results_t *out);

/* `attnrank merge` of calib shards: the spec read from the header, the results from the records. */
int sweep_merge_calib(const shardfile_t *files, size_t nf, const sweep_run_t *r, calib_results_t *out);

#endif
