/* SPDX-License-Identifier: GPL-3.0-or-later */
/* arbd.c -- outward-rounded doubles from Arb balls (see arbd.h). */
#include "numerics/arbd.h"

#include <math.h>

#define ARBD_PREC 64

double arbd_ub(const arb_t x)
{
    if (!arb_is_finite(x))
        return INFINITY;
    arf_t u;
    arf_init(u);
    arb_get_ubound_arf(u, x, ARBD_PREC);
    double r = arf_get_d(u, ARF_RND_CEIL);
    arf_clear(u);
    return r;
}

double arbd_lb(const arb_t x)
{
    if (!arb_is_finite(x))
        return -INFINITY;
    arf_t u;
    arf_init(u);
    arb_get_lbound_arf(u, x, ARBD_PREC);
    double r = arf_get_d(u, ARF_RND_FLOOR);
    arf_clear(u);
    return r;
}

double arbd_abs_ub(const arb_t x)
{
    if (!arb_is_finite(x))
        return INFINITY;
    arf_t u;
    arf_init(u);
    arb_get_abs_ubound_arf(u, x, ARBD_PREC);
    double r = arf_get_d(u, ARF_RND_CEIL);
    arf_clear(u);
    return r;
}

void arbd_mid_rad(const arb_t x, double *mid, double *rad)
{
    if (!arb_is_finite(x)) {
        *mid = NAN;
        *rad = INFINITY;
        return;
    }
    *mid = arf_get_d(arb_midref(x), ARF_RND_NEAR);
    arb_t t;
    arb_init(t);
    arb_set_d(t, *mid);
    arb_sub(t, x, t, 2 * ARBD_PREC);
    *rad = arbd_abs_ub(t);
    arb_clear(t);
}
