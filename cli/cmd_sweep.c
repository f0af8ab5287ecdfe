/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_sweep.c -- `attnrank verify|scale|calib|merge`: the sweep commands,
 * run through the public API (attnrank_sweep_command); a failure's one line
 * is printed here. */
#include <stdio.h>
#include "cli/commands.h"
#include "include/attnrank.h"

static int run_sweep(int argc, char **argv)
{
    int rc = attnrank_sweep_command(argc, argv);
    if ((rc == 1 || rc == 2) && *attnrank_error_message())
        fprintf(stderr, "attnrank: %s\n", attnrank_error_message());
    return rc;
}

int cmd_verify(int argc, char **argv)
{
    return run_sweep(argc, argv);
}

int cmd_scale(int argc, char **argv)
{
    return run_sweep(argc, argv);
}

int cmd_calib(int argc, char **argv)
{
    return run_sweep(argc, argv);
}

int cmd_merge(int argc, char **argv)
{
    return run_sweep(argc, argv);
}
