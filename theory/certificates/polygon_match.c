/* SPDX-License-Identifier: GPL-3.0-or-later */
/* polygon_match.c -- see polygon_match.h. */
#include "theory/certificates/polygon_match.h"

#include <math.h>
#include <arb.h>
#include <flint/fmpq.h>
#include "theory/certificates/perturb.h"

#define MATCH_TOL 1e-9
#define MATCH_PREC 128

/* 1 if all multiplicities of P are equal (or absent). */
static int equal_weights(const pointset_t *P)
{
    if (!P->w)
        return 1;
    for (size_t j = 1; j < P->n; j++)
        if (!fmpz_equal(P->w + j, P->w))
            return 0;
    return 1;
}

int polygon_match(const pointset_t *P, double *delta)
{
    if (!P || P->d != 2 || P->n < 3 || !equal_weights(P))
        return 0;
    size_t n = P->n;
    arb_t c, s, t;
    fmpq_t q;
    mag_t m, worst;
    arb_init(c);
    arb_init(s);
    arb_init(t);
    fmpq_init(q);
    mag_init(m);
    mag_init(worst);
    int ok = 1;
    for (size_t j = 0; j < n && ok; j++) {
        double x = P->x[2 * j], y = P->x[2 * j + 1];
        if (!isfinite(x) || !isfinite(y)) {
            ok = 0;
            break;
        }
        fmpq_set_si(q, 2 * (slong)j, n);            /* angle 2 pi j/n = pi * (2j/n) */
        arb_sin_cos_pi_fmpq(s, c, q, MATCH_PREC);
        arb_set_d(t, x);
        arb_sub(c, c, t, MATCH_PREC);               /* v - x, enclosed (x exact) */
        arb_set_d(t, y);
        arb_sub(s, s, t, MATCH_PREC);
        arb_mul(t, c, c, MATCH_PREC);
        arb_addmul(t, s, s, MATCH_PREC);            /* |v - x|^2 */
        arb_sqrtpos(t, t, MATCH_PREC);
        arb_get_mag(m, t);                          /* upper bound of |x_j - v_j| */
        if (mag_cmp_2exp_si(m, 0) > 0 || mag_get_d(m) > MATCH_TOL)
            ok = 0;
        else if (mag_cmp(m, worst) > 0)
            mag_set(worst, m);
    }
    if (ok)
        *delta = mag_get_d(worst);                  /* mag_get_d rounds up */
    arb_clear(c);
    arb_clear(s);
    arb_clear(t);
    fmpq_clear(q);
    mag_clear(m);
    mag_clear(worst);
    return ok;
}

double polygon_eta(double beta, double delta)
{
    if (!(beta >= 0) || !isfinite(beta) || !(delta >= 0) || !isfinite(delta))
        return NAN;
    mag_t a, b;
    mag_init(a);
    mag_init(b);
    mag_set_d(a, delta);
    mag_mul(b, a, a);                 /* delta^2 */
    mag_mul_2exp_si(a, a, 1);         /* 2 delta */
    mag_add(a, a, b);
    mag_set_d(b, beta);
    mag_mul(a, a, b);
    mag_mul_2exp_si(a, a, 1);         /* osc = 2 beta (2 delta + delta^2), every step rounded up */
    double osc = mag_get_d(a);
    mag_clear(a);
    mag_clear(b);
    return perturb_softmax_l1_bound(osc);
}
