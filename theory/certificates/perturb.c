/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perturb.c -- softmax perturbation bound 2 tanh(osc/4) (THEORY 3.3). */
#include "theory/certificates/perturb.h"
#include "numerics/fround.h"

#include <math.h>
#include <mpfr.h>
#include <arb.h>

double perturb_softmax_l1_bound(double osc)
{
    if (isnan(osc) || osc < 0)
        return NAN;
    if (isinf(osc))
        return 2.0;
    mpfr_t x;
    mpfr_init2(x, 128);
    mpfr_set_d(x, osc, MPFR_RNDN);          /* exact: 128 >= 53 bits */
    mpfr_div_2ui(x, x, 2, MPFR_RNDN);       /* exact (no underflow at 128-bit exponent range) */
    mpfr_tanh(x, x, MPFR_RNDU);             /* upper bound of tanh(osc/4) */
    mpfr_mul_2ui(x, x, 1, MPFR_RNDN);       /* exact */
    double r = mpfr_get_d(x, MPFR_RNDU);    /* rounded up to double */
    mpfr_clear(x);
    return r;
}

double perturb_softmax_l1_exact(const double *l, const double *delta, size_t n)
{
    if (n == 0)
        return NAN;
    for (size_t j = 0; j < n; j++)
        if (!isfinite(l[j]) || !isfinite(delta[j]))
            return NAN;
    const slong prec = 256;
    arb_ptr p = _arb_vec_init((slong)n), q = _arb_vec_init((slong)n);
    arb_t s0, s1, t, u, tot;
    arb_init(s0); arb_init(s1); arb_init(t); arb_init(u); arb_init(tot);
    /* shift by l_0 and l_0 + delta_0 (no change to softmax, keeps exp moderate) */
    arb_t sh0, sh1;
    arb_init(sh0); arb_init(sh1);
    arb_set_d(sh0, l[0]);
    arb_set_d(sh1, delta[0]);
    arb_add(sh1, sh1, sh0, ARF_PREC_EXACT);
    for (size_t j = 0; j < n; j++) {
        arb_set_d(t, l[j]);
        arb_sub(t, t, sh0, ARF_PREC_EXACT);
        arb_exp(p + j, t, prec);
        arb_add(s0, s0, p + j, prec);
        arb_set_d(t, delta[j]);
        arb_set_d(u, l[j]);
        arb_add(t, t, u, ARF_PREC_EXACT);
        arb_sub(t, t, sh1, ARF_PREC_EXACT);
        arb_exp(q + j, t, prec);
        arb_add(s1, s1, q + j, prec);
    }
    for (size_t j = 0; j < n; j++) {
        arb_div(p + j, p + j, s0, prec);
        arb_div(q + j, q + j, s1, prec);
        arb_sub(t, q + j, p + j, prec);
        arb_abs(t, t);
        arb_add(tot, tot, t, prec);
    }
    double r = arf_get_d(arb_midref(tot), ARF_RND_NEAR);
    arb_clear(sh0); arb_clear(sh1);
    arb_clear(s0); arb_clear(s1); arb_clear(t); arb_clear(u); arb_clear(tot);
    _arb_vec_clear(p, (slong)n); _arb_vec_clear(q, (slong)n);
    return r;
}

double perturb_row_osc(const double *r, size_t n)
{
    if (n == 0)
        return NAN;
    double lo = r[0], hi = r[0];
    for (size_t j = 0; j < n; j++) {
        if (isnan(r[j]))
            return NAN;
        if (r[j] < lo) lo = r[j];
        if (r[j] > hi) hi = r[j];
    }
    if (isinf(lo) || isinf(hi))
        return INFINITY;
    return fround_sub_up(hi, lo);
}
