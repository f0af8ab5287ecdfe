/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cancel.h -- cooperative cancellation of a long computation.
 *
 * A caller (the public API, include/attnrank.h) installs a pointer to its
 * flag for the calling thread; the long loops below (passes over A in
 * numerics/amat.c, lower-certificate probes, polynomial passes, the stages
 * of the route chooser, sweep points) call cancel_check() and return its
 * AR_ECANCELED as any other failure once the flag is non-zero.  Thread-local:
 * two threads running two computations never see each other's flag.  With
 * no flag installed cancel_check() is AR_OK and costs one load. */
#ifndef ATTNRANK_BASE_CANCEL_H
#define ATTNRANK_BASE_CANCEL_H

#include "base/status.h"

/* Install flag (NULL: none) for the calling thread; returns the previous one. */
const volatile int *cancel_install(const volatile int *flag);

/* The flag installed in the calling thread (NULL: none), e.g. to hand to
 * worker threads, which check it with cancel_check_flag. */
const volatile int *cancel_current(void);

/* AR_ECANCELED with the message "cancelled" once the calling thread's flag
 * is non-zero, else AR_OK. */
ar_status cancel_check(void);

/* 1 if flag is non-NULL and non-zero (for worker threads; no message). */
int cancel_check_flag(const volatile int *flag);

#endif
