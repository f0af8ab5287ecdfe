/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweep_fail.c -- the exit code of a failed sweep, its message kept for the caller. */
#include "sweeps/sweeps.h"

int sweep_fail(int st)
{
    if (!*ar_error_get())
        ar_error_set("%s", ar_status_str((ar_status)st));
    return st == AR_EINVAL ? 2 : 1;
}
