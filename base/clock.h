/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clock.h -- wall-clock timing for reports. */
#ifndef ATTNRANK_BASE_CLOCK_H
#define ATTNRANK_BASE_CLOCK_H

/* Seconds on the monotonic clock (for differences only). */
double clock_now(void);

#endif
