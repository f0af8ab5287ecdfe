/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rsvdutil.h -- what the randomized upper certificate's tests (tests/theory/certificates/
 * test_cert_rsvd*.c) share: uniform points in [-1, 1).  Header-only (static inline), like
 * testutil.h, because the Makefile builds only tests/<dir>/test_*.c and tests/<dir>/<dir>/test_*.c. */
#ifndef ATTNRANK_TESTS_RSVDUTIL_H
#define ATTNRANK_TESTS_RSVDUTIL_H

#include <stddef.h>
#include "testutil.h"

static inline void points(double *x, size_t len)
{
    for (size_t t = 0; t < len; t++)
        x[t] = 2 * test_unif() - 1;
}

#endif
