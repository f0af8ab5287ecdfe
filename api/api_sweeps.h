/* SPDX-License-Identifier: GPL-3.0-or-later */
/* api_sweeps.h -- the typed sweeps (sweeps/sweeps.h) run at the boundary,
 * for the CLI: each reads the environment once into the call's
 * configuration (api/api_config.c; a bad variable is bad input, exit code
 * 2), takes the configuration's shard key (ATTNRANK_SHARD_KEY) when r has
 * no --key, and runs the whole sweep in one BLAS region
 * (base/blas.h).  Returns the sweep's exit code; the results
 * as sweeps/sweeps.h says (the caller prints and clears them). */
#ifndef ATTNRANK_API_API_SWEEPS_H
#define ATTNRANK_API_API_SWEEPS_H

#include <stddef.h>
#include "sweeps/sweeps.h"

int api_sweep_verify(const verify_spec_t *s, const sweep_run_t *r);
int api_sweep_scale(const scale_spec_t *s, const sweep_run_t *r, scale_result_t *out);
int api_sweep_calib(const calib_spec_t *s, const sweep_run_t *r, calib_results_t *out);
int api_sweep_merge(char *const *paths, size_t nf, const sweep_run_t *r, sweep_merged_t *out);

#endif
