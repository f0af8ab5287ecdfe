/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bessel.c -- e^{-x} I_nu(x) through Arb, with a rigorous double wrapper. */
#include "numerics/bessel.h"

#include <math.h>
#include <arb_hypgeom.h>

ar_status bessel_i_scaled(arb_t res, const arb_t nu, const arb_t x, long prec)
{
    if (!arb_is_finite(nu)) {
        ar_error_set("bessel_i_scaled: order nu is not finite");
        return AR_EINVAL;
    }
    if (!arb_is_positive(x) || !arb_is_finite(x)) {
        ar_error_set("bessel_i_scaled: argument x must be finite and certainly > 0");
        return AR_EINVAL;
    }
    if (prec < 2) {
        ar_error_set("bessel_i_scaled: precision %ld bits is too small", prec);
        return AR_EINVAL;
    }
    arb_hypgeom_bessel_i_scaled(res, nu, x, prec);
    if (!arb_is_finite(res)) {
        ar_error_set("bessel_i_scaled: no finite enclosure of e^-x I_nu(x) at %ld bits (nu~%g, x~%g)",
                     prec, arf_get_d(arb_midref(nu), ARF_RND_NEAR), arf_get_d(arb_midref(x), ARF_RND_NEAR));
        return AR_ENUMERIC;
    }
    return AR_OK;
}

/* Upper bound (as a double, rounded up) on |v - d| / |v| for the ball v and
 * the double d; INFINITY if v may contain zero. */
static double relerr_bound(const arb_t v, double d)
{
    arb_t diff;
    arf_t num, den;
    double r;
    arb_init(diff);
    arf_init(num);
    arf_init(den);
    arb_set_d(diff, d);                           /* exact: d is a double */
    arb_sub(diff, v, diff, 128);                  /* rounding goes into the radius */
    arb_get_abs_ubound_arf(num, diff, 64);
    arb_get_abs_lbound_arf(den, v, 64);
    if (arf_sgn(den) <= 0 || !arf_is_finite(num)) {
        r = INFINITY;
    } else {
        arf_div(num, num, den, 64, ARF_RND_UP);
        r = arf_get_d(num, ARF_RND_UP);
    }
    arb_clear(diff);
    arf_clear(num);
    arf_clear(den);
    return r;
}

double bessel_i_scaled_d(double nu, double x, double *relerr)
{
    if (relerr)
        *relerr = INFINITY;
    if (!isfinite(nu) || !isfinite(x) || !(x > 0)) {
        ar_error_set("bessel_i_scaled_d: need finite nu and finite x > 0 (nu=%g, x=%g)", nu, x);
        return NAN;
    }
    arb_t a_nu, a_x, v;
    arb_init(a_nu);
    arb_init(a_x);
    arb_init(v);
    arb_set_d(a_nu, nu);
    arb_set_d(a_x, x);
    double best = NAN, best_err = INFINITY;
    for (long prec = 64; prec <= 4096; prec *= 2) {
        if (bessel_i_scaled(v, a_nu, a_x, prec) != AR_OK)
            continue;
        double d = arf_get_d(arb_midref(v), ARF_RND_NEAR);
        double e = relerr_bound(v, d);
        if (e < best_err || isnan(best)) {
            best = d;
            best_err = e;
        }
        if (best_err <= 0x1p-52)
            break;
    }
    arb_clear(a_nu);
    arb_clear(a_x);
    arb_clear(v);
    if (relerr)
        *relerr = best_err;
    return best;
}
