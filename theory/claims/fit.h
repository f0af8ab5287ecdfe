/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fit.h -- power-law fits and the Theta band check (THEORY section 4).
 * These are statistics, not certificates: a fitted exponent summarises
 * certified brackets over a declared window. */
#ifndef ATTNRANK_THEORY_FIT_H
#define ATTNRANK_THEORY_FIT_H

#include <stddef.h>
#include "base/status.h"

typedef struct {
    double slope;       /* fitted exponent p in y ~ C x^p */
    double intercept;   /* log C (natural log) */
    double slope_se;    /* standard error of the slope (0 when npts == 2) */
    size_t npts;
} fit_t;

/* Least-squares fit of log y = intercept + slope log x.  Needs n >= 2
 * points with x, y > 0 and finite and at least two distinct x;
 * AR_EINVAL otherwise. */
ar_status fit_loglog(const double *x, const double *y, size_t n, fit_t *out);

/* 1 if every ratio[i] lies in [lo, hi], else 0. */
int fit_band_ok(const double *ratio, size_t n, double lo, double hi);

#endif
