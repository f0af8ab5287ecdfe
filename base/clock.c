/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clock.c -- monotonic wall clock. */
#include "base/clock.h"

#include <time.h>

double clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
