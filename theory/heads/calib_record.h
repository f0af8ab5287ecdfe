/* SPDX-License-Identifier: GPL-3.0-or-later */
/* calib_record.h -- one calibration setting as a shard-file record
 * (constructions/formats/shardfile.h), for `attnrank calib --shard K/N`
 * and its merge: every number that the setting's summaries, the
 * associations and the printed tables are computed from, so that nothing
 * needs recomputing.
 *
 * Members: "layer", "head", "dh", "nsent" (integers), "scale", "beta"
 * (numbers, exact round trip), per input "ntok", "r", "lower", "upper",
 * "un_rank", "un_rank_eps" (integer arrays), "r_tau" (nsent x ntau integers,
 * input-major), "un_stable", "un_eff" (number arrays); "ncertified";
 * weights-only: "has_weights" (bool), "radius", "radius_emp" (number or
 * null), "rw", "rw_tau", "rw_tau_emp" (integer or null for VISIBLE_NONE);
 * "seconds".  The summaries are not stored: the reader recomputes them
 * (calib_setting_summarise). */
#ifndef ATTNRANK_THEORY_CALIB_RECORD_H
#define ATTNRANK_THEORY_CALIB_RECORD_H

#include <jansson.h>
#include "base/status.h"
#include "theory/heads/calib.h"

/* Add the members of S (ntau taus) to the object o.  Non-zero when out of memory. */
int calib_record_put(json_t *o, const calib_setting_t *S, size_t ntau);

/* Fill S (allocated by calib_alloc: its identity is the expected one) from
 * the record o and summarise it.  Every member is checked strictly: the
 * identity must equal S's (layer, head, dh, nsent; scale and beta
 * bit-for-bit), arrays must have their lengths, integers lie in [0, 2^53],
 * ntok[s] = positions[s] (the plan's token count of input s), 1 <= lower <=
 * upper <= ntok, ncertified <= nsent, r and r_tau <= min(ntok, dh), the
 * uncertified ranks <= ntok, stable and effective ranks finite in [0, ntok],
 * the weights-only members present (radius finite) only with has_weights;
 * one line starting with `where` (file and line) otherwise. */
ar_status calib_record_get(const json_t *o, const char *where, const calib_opts_t *opts, const size_t *positions,
                           calib_setting_t *S);

#endif
