/* SPDX-License-Identifier: GPL-3.0-or-later */
/* upper_cert.h -- the result of an upper certificate (THEORY 3.5): a rank
 * whose eps-rank bound is certified, the rigorous error of the approximant
 * found, and the method.  Shared by the deterministic factorisations
 * (cert_upper.h) and the randomized ones (cert_rsvd.h), which cert_upper.c
 * also searches; kept apart so that neither header includes the other. */
#ifndef ATTNRANK_THEORY_UPPER_CERT_H
#define ATTNRANK_THEORY_UPPER_CERT_H

#include <stddef.h>
#include "theory/certificates/cert_method.h"

typedef struct {
    size_t rank;        /* rank_eps(A) <= rank is certified */
    double err;         /* rigorous bound on ||A - B||_r1 for the B found (<= eps) */
    ar_method_t method; /* svd, symeig, pchol, rsvd, rsym, ... or trivial (none: not run) */
    double seconds;     /* wall time spent */
} upper_cert_t;

#endif
