/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fail.c -- the one error line of a failed command. */
#include <stdio.h>
#include "cli/commands.h"
#include "base/status.h"

int cmd_fail(int st)
{
    fprintf(stderr, "attnrank: %s\n", *ar_error_get() ? ar_error_get() : ar_status_str(st));
    return st == AR_EINVAL ? 2 : 1;
}
