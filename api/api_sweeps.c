/* api_sweeps.c -- the sweep commands (sweeps/sweeps.h) behind the public API. */
#include "api/api_impl.h"

#include <string.h>
#include "sweeps/sweeps.h"

int attnrank_sweep_command(int argc, char **argv)
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
