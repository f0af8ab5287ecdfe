/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweeps.h -- the sweep commands below the public API: verify, scale (claim
 * S and the ball sweeps of claim B), calib and merge, each with its whole
 * option list, shard runs (--shard K/N --out FILE) and the merge of their
 * shard files.  Their option parsers live here, not in cli/, because a
 * merge re-reads the options recorded in shard headers (an allow-list,
 * shards_options_allowed) through the very parser of the sweep.
 *
 * Each takes argv as the CLI has it (argv[1] the command, options from
 * argv[2]), writes its report to stdout and returns the process exit code:
 * 0, 1 (runtime failure), 2 (bad input), 3 (verify --strict or a verify
 * merge: an asserted row did not pass).  On 1 and 2 the one-line reason is
 * in ar_error_get() (base/status.h): nothing is printed on stderr for
 * it (the caller prints it); progress and shard notices go to stderr as
 * before.  include/attnrank.h exposes them as attnrank_sweep_command. */
#ifndef ATTNRANK_SWEEPS_SWEEPS_H
#define ATTNRANK_SWEEPS_SWEEPS_H

#include "base/status.h"

int sweep_verify(int argc, char **argv);
int sweep_scale(int argc, char **argv);
/* `scale --claim B` (sweeps/sweep_scale_ball.c) and its detection in argv. */
int sweep_scale_ball(int argc, char **argv);
int sweep_scale_is_ball(int argc, char **argv);
int sweep_calib(int argc, char **argv);
int sweep_merge(int argc, char **argv);

/* The exit code for st (2 for AR_EINVAL, else 1), the message kept in
 * ar_error_get() (set to ar_status_str(st) when empty). */
int sweep_fail(int st);

#endif
