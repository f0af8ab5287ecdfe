/* SPDX-License-Identifier: GPL-3.0-or-later */
/* arbd.h -- doubles that bound an Arb ball.
 *
 * arbd_ub(x) >= every point of x, arbd_lb(x) <= every point of x,
 * arbd_abs_ub(x) >= |every point of x|; arbd_mid_rad gives the double m
 * nearest the midpoint and r >= the distance from m to every point of x.
 * The conversions round outward (ARF_RND_CEIL / ARF_RND_FLOOR), which is
 * right for either sign; non-finite balls give +inf (ub, abs_ub, rad) or
 * -inf (lb).  Underflow is safe: a bound below the smallest double becomes
 * 0 or the smallest subnormal on the right side. */
#ifndef ATTNRANK_NUMERICS_ARBD_H
#define ATTNRANK_NUMERICS_ARBD_H

#include <arb.h>

double arbd_ub(const arb_t x);
double arbd_lb(const arb_t x);
double arbd_abs_ub(const arb_t x);
void arbd_mid_rad(const arb_t x, double *mid, double *rad);

#endif
