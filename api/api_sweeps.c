/* SPDX-License-Identifier: GPL-3.0-or-later */
/* api_sweeps.c -- the sweep commands (sweeps/sweeps.h) behind the public API. */
#include "base/blas.h"
#include "api/api_impl.h"

#include <string.h>
#include "sweeps/sweeps.h"

static int sweep_command_impl(int argc, char **argv)
{
    ar_error_set("%s", "");
    if (argc < 2 || !argv || !argv[1]) {
        ar_error_set("sweep: no command (verify, scale, calib or merge)");
        return 2;
    }
    const char *c = argv[1];
    if (!strcmp(c, "verify"))
        return sweep_verify(argc, argv);
    if (!strcmp(c, "scale"))
        return sweep_scale(argc, argv);
    if (!strcmp(c, "calib"))
        return sweep_calib(argc, argv);
    if (!strcmp(c, "merge"))
        return sweep_merge(argc, argv);
    ar_error_set("sweep: unknown command '%s' (verify, scale, calib or merge)", c);
    return 2;
}

/* The public entry: the environment read once into the call's configuration
 * (api/api_config.c; a bad variable is bad input, 2), and the whole call in one
 * BLAS region (base/blas.h): its numbers do not depend on
 * OPENBLAS_NUM_THREADS or on calls in other threads. */
int attnrank_sweep_command(int argc, char **argv)
{
    api_config_scope_t sc;
    ar_error_set("%s", "");
    if (api_config_enter(&sc) != AR_OK)
        return 2;
    blas_single_begin();
    int st = sweep_command_impl(argc, argv);
    blas_single_end();
    api_config_leave(&sc);
    return st;
}
