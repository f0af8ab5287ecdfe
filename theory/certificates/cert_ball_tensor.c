/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_ball_tensor.c -- the tensor-Chebyshev upper certificate for weighted
 * self-attention in the ball
 * (see cert_ball.h; proofs in proofs-notes/claim-B.md). */
#include "theory/certificates/cert_ball.h"
#include "theory/certificates/cert_ball_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "numerics/cellgrid.h"
#include "base/clock.h"

/* ---- upper: tensor Chebyshev --------------------------------------------- */

double ball_cheb_error(double beta, size_t p)
{
    if (p < 2 || !(beta >= 0))
        return INFINITY;
    double nn = (double)(p - 1);
    /* choose a = log rho on a grid (double), then evaluate rigorously */
    double besta = 1.0, bestv = INFINITY;
    for (int k = 0; k <= 600; k++) {
        double a = 1e-6 * pow(10.0, 7.0 * k / 600.0);
        double sh = sinh(a);
        double v = beta * sh * sh / 2.0 - nn * a - log(expm1(a));
        if (v < bestv) {
            bestv = v;
            besta = a;
        }
    }
    arb_t A, rho, b, t, e;
    arb_init(A);
    arb_init(rho);
    arb_init(b);
    arb_init(t);
    arb_init(e);
    arb_set_d(A, besta);
    arb_exp(rho, A, BPREC);
    arb_sinh(b, A, BPREC);                    /* b = (rho - 1/rho)/2 */
    arb_sqr(t, b, BPREC);
    arb_mul_2exp_si(t, t, -1);
    arb_set_d(e, beta);
    arb_mul(t, t, e, BPREC);                  /* beta b^2 / 2 */
    arb_set_d(e, nn);
    arb_submul(t, e, A, BPREC);               /* - n log rho */
    arb_exp(t, t, BPREC);
    arb_mul_ui(t, t, 4, BPREC);
    arb_expm1(e, A, BPREC);                   /* rho - 1 */
    arb_div(t, t, e, BPREC);
    double r = arbd_ub(t);
    arb_clear(A);
    arb_clear(rho);
    arb_clear(b);
    arb_clear(t);
    arb_clear(e);
    return isfinite(r) ? r : INFINITY;
}

/* err = ((1 + e1)^d - 1) * ratio, rounded up (Arb). */
static double tensor_err(double e1, size_t d, double ratio)
{
    arb_t t, r;
    arb_init(t);
    arb_init(r);
    arb_set_d(t, e1);
    arb_log1p(t, t, BPREC);
    arb_mul_ui(t, t, (ulong)d, BPREC);
    arb_expm1(t, t, BPREC);
    arb_set_d(r, ratio);
    arb_mul(t, t, r, BPREC);
    double v = arbd_ub(t);
    arb_clear(t);
    arb_clear(r);
    return v;
}

ar_status ball_upper_tensor(const pointset_t *P, double beta, double eps, ball_upper_t *out)
{
    if (!out) {
        ar_error_set("ball_upper_tensor: out is NULL");
        return AR_EINVAL;
    }
    memset(out, 0, sizeof *out);
    double t0 = clock_now();
    prep_t p;
    ar_status st = ball_prep_init(&p, P, beta, eps, 1.0, "ball_upper_tensor");
    if (st)
        return st;
    size_t n = p.n, d = p.d;
    /* G / e^{Lmax} (upper) */
    arb_t G, t, Lm;
    arb_init(G);
    arb_init(t);
    arb_init(Lm);
    arb_set_d(Lm, p.Lmax);
    for (size_t j = 0; j < n; j++) {
        arb_sub(t, p.L + j, Lm, BPREC);
        arb_exp(t, t, BPREC);
        arb_add(G, G, t, BPREC);
    }
    /* Z_i / e^{Lmax} >= near part (lower) */
    double spread = p.Lmax - p.Lmin;
    double phi2 = fmin(fmax(2.0 * (log(1e6) + spread) / beta, PHI2_MIN), PHI2_ALL);
    cellgrid_t g;
    if ((st = cellgrid_build(&g, P->x, n, d, ball_cell_size(phi2)))) {
        arb_clear(G);
        arb_clear(t);
        arb_clear(Lm);
        ball_prep_clear(&p);
        return st;
    }
    visit_t v;
    ball_visit_init(&v, &p, phi2);
    v.rel_lmax = 1;
    double ratio = 0.0;
    for (size_t i = 0; i < n; i++) {
        v.row = i;
        arb_zero(v.in);
        cellgrid_visit(&g, P->x + i * d, ball_visit_fn, &v);
        arf_t lo;
        arf_init(lo);
        arb_get_lbound_arf(lo, v.in, BPREC);
        arb_set_arf(t, lo);
        arf_clear(lo);
        double r = INFINITY;
        if (arb_is_positive(t)) {
            arb_div(t, G, t, BPREC);
            r = arbd_ub(t);
        }
        if (!(r <= ratio))
            ratio = r;
    }
    ball_visit_clear(&v);
    cellgrid_free(&g);
    arb_clear(G);
    arb_clear(t);
    arb_clear(Lm);
    ball_prep_clear(&p);
    out->ratio = ratio;
    out->capped = 1;
    out->rank = n;
    out->err = 0.0;
    for (size_t q = 2; q <= P_MAX && isfinite(ratio); q++) {
        double e1 = ball_cheb_error(beta, q);
        double err = tensor_err(e1, d, ratio);
        if (err < eps) {
            out->p = q;
            out->e1 = e1;
            double r = pow((double)q, (double)d);
            if (r < (double)n) {
                out->rank = (size_t)r;
                out->capped = 0;
                out->err = err;
            }
            break;
        }
    }
    out->seconds = clock_now() - t0;
    return AR_OK;
}
