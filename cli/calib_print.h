/* SPDX-License-Identifier: GPL-3.0-or-later */
/* calib_print.h -- the output of `attnrank calib` (text, TSV, JSON lines)
 * for the results of one or more models and their pooled association
 * (sweeps/sweep_result.h, calib_results_t). */
#ifndef ATTNRANK_CLI_CALIB_PRINT_H
#define ATTNRANK_CLI_CALIB_PRINT_H

#include <stddef.h>
#include "sweeps/sweeps.h"

/* Print R[0..nr) in format fmt; `pooled` (NULL when nr == 1) is the
 * association over every setting of every model.  per_input (JSON only)
 * first prints one line per (model, layer, head, scale, input). */
void calib_print(const calib_result_t *R, size_t nr, const calib_assoc_t *pooled, sweep_format_t fmt, int per_input);

/* sweep_events_t.instances: "calib: DONE/TOTAL instances" on stderr every 16 and at the end. */
void calib_print_progress(void *ctx, size_t done, size_t total);

#endif
