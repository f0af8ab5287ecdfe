/* SPDX-License-Identifier: GPL-3.0-or-later */
/* packutil.h -- what the packing certificate's tests (tests/theory/certificates/test_cert_packing*.c)
 * share: the truth max_i R_i over all pairs in 256-bit MPFR, and tau(eps).  Header-only (static
 * inline), like testutil.h, because the Makefile builds only tests/<dir>/test_*.c and tests/<dir>/<dir>/test_*.c. */
#ifndef ATTNRANK_TESTS_PACKUTIL_H
#define ATTNRANK_TESTS_PACKUTIL_H

#include <mpfr.h>
#include "constructions/pointsets/pointset.h"

/* max_i R_i in 256-bit MPFR over all pairs (rounded to nearest double). */
static inline double true_max_R(const pointset_t *P, double beta)
{
    size_t m = P->n, d = P->d;
    mpfr_t s, t, dot, nrm, best;
    mpfr_inits2(256, s, t, dot, nrm, best, (mpfr_ptr)0);
    mpfr_set_zero(best, 1);
    for (size_t i = 0; i < m; i++) {
        const double *xi = P->x + i * d;
        mpfr_set_zero(nrm, 1);
        for (size_t c = 0; c < d; c++) {
            mpfr_set_d(t, xi[c], MPFR_RNDN);
            mpfr_mul_d(t, t, xi[c], MPFR_RNDN);
            mpfr_add(nrm, nrm, t, MPFR_RNDN);
        }
        mpfr_set_zero(s, 1);
        for (size_t j = 0; j < m; j++) {
            if (j == i)
                continue;
            const double *xj = P->x + j * d;
            mpfr_set_zero(dot, 1);
            for (size_t c = 0; c < d; c++) {
                mpfr_set_d(t, xi[c], MPFR_RNDN);
                mpfr_mul_d(t, t, xj[c], MPFR_RNDN);
                mpfr_add(dot, dot, t, MPFR_RNDN);
            }
            mpfr_sub(t, dot, nrm, MPFR_RNDN);
            mpfr_mul_d(t, t, beta, MPFR_RNDN);
            mpfr_exp(t, t, MPFR_RNDN);
            mpfr_add(s, s, t, MPFR_RNDN);
        }
        if (mpfr_cmp(s, best) > 0)
            mpfr_set(best, s, MPFR_RNDN);
    }
    double r = mpfr_get_d(best, MPFR_RNDN);
    mpfr_clears(s, t, dot, nrm, best, (mpfr_ptr)0);
    return r;
}

static inline double tau_of(double eps)
{
    return (1.0 - eps) / (1.0 + eps);
}

#endif
