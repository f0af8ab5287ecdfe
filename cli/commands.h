/* SPDX-License-Identifier: GPL-3.0-or-later */
/* commands.h -- the attnrank subcommands.  Each parses its own options
 * (argv[2..]), calls the public API (include/attnrank.h; the sweeps: their
 * typed specs, api/api_sweeps.h) and prints; returns the process exit code
 * (0 ok, 1 runtime failure, 2 usage error).  Errors go to stderr as one line
 * "attnrank: <message>" and nothing is printed on stdout. */
#ifndef ATTNRANK_CLI_COMMANDS_H
#define ATTNRANK_CLI_COMMANDS_H

#include "base/status.h"

int cmd_bracket(int argc, char **argv);
/* `bracket --geometry ball` (cli/cmd_bracket_ball.c) and its detection in argv. */
int cmd_bracket_ball(int argc, char **argv);
int cmd_bracket_is_ball(int argc, char **argv);
int cmd_generate(int argc, char **argv);
int cmd_funkhecke(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_head(int argc, char **argv);
/* The sweeps (cli/cmd_sweep.c): options parsed into typed specs (cli/sweep_args.c), run at the boundary (api/api_sweeps.h). */
int cmd_verify(int argc, char **argv);
int cmd_scale(int argc, char **argv);
int cmd_calib(int argc, char **argv);
int cmd_merge(int argc, char **argv);

/* *seconds = ATTNRANK_PROGRESS_AFTER, the seconds after which `bracket`
 * prints its stages: a number in [0, 1e6] (0: every stage), 2 when unset;
 * any other value is AR_EINVAL with one line naming the variable and the
 * range (base/envvar.h).  Checked once at start-up (cli/main.c). */
ar_status cmd_bracket_progress_after(double *seconds);

/* Print "attnrank: <ar_error_get()>" on stderr and return the exit code for st. */
int cmd_fail(int st);

#endif
