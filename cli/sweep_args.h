/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweep_args.h -- the command lines of `attnrank verify|scale|calib|merge`
 * parsed into typed specs (sweeps/sweep_spec.h) and runs (sweeps/sweeps.h).
 *
 * Each takes argv as main has it (argv[1] the command, options from
 * argv[2]).  AR_OK with *help set: --help was given, *help is the text to
 * print (nothing else was checked).  AR_OK with *help NULL: *s and *r are
 * filled and checked as the command always checked its options; r->key is
 * --key only (the caller adds the configuration's ATTNRANK_SHARD_KEY).
 * AR_EINVAL (AR_ENOMEM) with one line in ar_error_get() otherwise. */
#ifndef ATTNRANK_CLI_SWEEP_ARGS_H
#define ATTNRANK_CLI_SWEEP_ARGS_H

#include <stddef.h>
#include "base/status.h"
#include "sweeps/sweep_spec.h"
#include "sweeps/sweeps.h"

ar_status sweep_args_verify(int argc, char **argv, verify_spec_t *s, sweep_run_t *r, const char **help);
/* scale --claim S and scale --claim B (chosen by --claim B in argv). */
ar_status sweep_args_scale(int argc, char **argv, scale_spec_t *s, sweep_run_t *r, const char **help);
ar_status sweep_args_calib(int argc, char **argv, calib_spec_t *s, sweep_run_t *r, const char **help);
/* merge: *paths (allocated, argc entries; the caller frees it even on
 * failure) holds the *nf file names, pointers into argv. */
ar_status sweep_args_merge(int argc, char **argv, char ***paths, size_t *nf, sweep_run_t *r, const char **help);

#endif
