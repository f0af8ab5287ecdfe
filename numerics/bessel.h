/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bessel.h -- exponentially scaled modified Bessel function of the first kind.
 *
 *   bessel_i_scaled(nu, x) = e^{-x} I_nu(x),   x > 0, nu real.
 *
 * Evaluated by Arb (arb_hypgeom_bessel_i_scaled), so the ball result is a
 * rigorous enclosure.  The scaling keeps the value representable for large x
 * (e^{-x} I_nu(x) ~ 1/sqrt(2 pi x) for fixed nu). */
#ifndef ATTNRANK_NUMERICS_BESSEL_H
#define ATTNRANK_NUMERICS_BESSEL_H

#include <arb.h>
#include "base/status.h"

/* res = an Arb ball containing e^{-x} I_nu(x), evaluated at `prec` bits.
 * nu and x are balls (exact values are allowed); x must be certainly > 0
 * and nu finite, else AR_EINVAL.  AR_ENUMERIC if Arb returns a non-finite
 * ball (precision far too low); res is then indeterminate. */
ar_status bessel_i_scaled(arb_t res, const arb_t nu, const arb_t x, long prec);

/* Double convenience: returns the double nearest to the midpoint of an
 * enclosure of e^{-x} I_nu(x) (nu, x exact doubles, x > 0, both finite) and
 * stores in *relerr (if not NULL) a rigorous upper bound on
 * |returned - e^{-x} I_nu(x)| / |e^{-x} I_nu(x)|.  The precision is raised
 * (64 .. 4096 bits) until that bound is <= 2^-52; if this is impossible
 * (e.g. underflow of the double, bad input) the best value found is returned
 * and *relerr is the bound actually achieved (INFINITY when no enclosure
 * excludes zero, NAN returned for bad input). */
double bessel_i_scaled_d(double nu, double x, double *relerr);

#endif
