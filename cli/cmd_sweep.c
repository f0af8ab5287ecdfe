/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_sweep.c -- `attnrank verify|scale|calib|merge`: the options parsed
 * into a typed spec and a run (cli/sweep_args.c), the sweep run at the
 * boundary (api/api_sweeps.h); --help and a failure's one line are printed
 * here. */
#include <stdio.h>
#include <stdlib.h>
#include "cli/commands.h"
#include "cli/sweep_args.h"
#include "api/api_sweeps.h"

/* The exit code of a sweep that ran (its one line printed on 1 and 2). */
static int ran(int rc)
{
    if ((rc == 1 || rc == 2) && *ar_error_get())
        fprintf(stderr, "attnrank: %s\n", ar_error_get());
    return rc;
}

/* The exit code of a parse that stopped: --help printed, or the error's line. */
static int parsed(ar_status st, const char *help)
{
    if (st)
        return cmd_fail(st);
    fputs(help, stdout);
    return 0;
}

int cmd_verify(int argc, char **argv)
{
    verify_spec_t s;
    sweep_run_t r;
    const char *help;
    ar_error_set("%s", "");
    ar_status st = sweep_args_verify(argc, argv, &s, &r, &help);
    if (st || help)
        return parsed(st, help);
    return ran(api_sweep_verify(&s, &r));
}

int cmd_scale(int argc, char **argv)
{
    scale_spec_t s;
    sweep_run_t r;
    const char *help;
    ar_error_set("%s", "");
    ar_status st = sweep_args_scale(argc, argv, &s, &r, &help);
    if (st || help)
        return parsed(st, help);
    return ran(api_sweep_scale(&s, &r));
}

int cmd_calib(int argc, char **argv)
{
    calib_spec_t s;
    sweep_run_t r;
    const char *help;
    ar_error_set("%s", "");
    ar_status st = sweep_args_calib(argc, argv, &s, &r, &help);
    if (st || help)
        return parsed(st, help);
    return ran(api_sweep_calib(&s, &r));
}

int cmd_merge(int argc, char **argv)
{
    char **paths = NULL;
    size_t nf;
    sweep_run_t r;
    const char *help;
    ar_error_set("%s", "");
    ar_status st = sweep_args_merge(argc, argv, &paths, &nf, &r, &help);
    int rc = st || help ? parsed(st, help) : ran(api_sweep_merge(paths, nf, &r));
    free(paths);
    return rc;
}
