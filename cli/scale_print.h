/* SPDX-License-Identifier: GPL-3.0-or-later */
/* scale_print.h -- the output of `attnrank scale` (and of `attnrank merge`
 * of its shards): the table of a scale result (sweeps/sweep_result.h) as
 * markdown, TSV or JSON lines with its fitted exponents, on stdout, and
 * the progress bar on stderr. */
#ifndef ATTNRANK_CLI_SCALE_PRINT_H
#define ATTNRANK_CLI_SCALE_PRINT_H

#include <stddef.h>
#include "sweeps/sweeps.h"

/* The table of r in format (text: markdown). */
void scale_print(const scale_result_t *r, sweep_format_t format);

/* sweep_events_t.point: the progress bar before point `done` of `total`;
 * done == total clears it. */
void scale_print_progress(void *ctx, size_t done, size_t total, double beta);

#endif
