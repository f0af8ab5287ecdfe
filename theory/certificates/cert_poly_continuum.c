/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_poly_continuum.c -- the continuum error bound of a zonal polynomial against
 * the uniform measure on S^{d-1} (Funk-Hecke normalisation)
 * (see cert_poly.h and proofs-notes/polynomial-certificate.md). */
#include "theory/certificates/cert_poly.h"
#include "theory/certificates/cert_poly_impl.h"

#include <fenv.h>
#include "numerics/fround.h"
#include "theory/spectra/funkhecke.h"

/* In FE_UPWARD mode: upper bound of |E + x E1|. */
static double cp_lin_abs(const cell_t *c, double x)
{
    return fmax(c->E + x * c->E1, (-c->E) + (-x) * c->E1);
}

/* In FE_UPWARD mode: sup of w(s) = c_d (1 - s^2)^{(d-3)/2} over [lo, hi]
 * (for d = 2 requires max(|lo|, |hi|) < 1). */
static double cp_wsup(int d, double cd, double lo, double hi)
{
    if (d == 3)
        return cd;
    if (d == 2) {
        double sf = fmax(fabs(lo), fabs(hi));
        double base = dn_sub(1.0, sf * sf);
        if (!(base > 0))
            return INFINITY;
        double sd = dn_mul(sqrt(base), 1.0 - 0x1p-51);
        return cd / sd;
    }
    double sn = (lo <= 0 && hi >= 0) ? 0.0 : fmin(fabs(lo), fabs(hi));
    double base = 1.0 - dn_mul(sn, sn);
    double pw = 1.0;
    for (int e2 = 0; e2 + 2 <= d - 3; e2 += 2)
        pw = pw * base;
    if ((d - 3) % 2)
        pw = pw * sqrt(base);
    return cd * pw;
}

/* In FE_UPWARD mode: upper bound of int_{a+x0}^{a+x1} |e(s)| w(s) ds for
 * 0 <= x0 < x1 <= H (cell data c at anchor a): sup w times the trapezoid of
 * the convex |E + x E1| plus the integrated error terms. */
static double cp_piece(const cell_t *c, int d, double cd, double a, double x0, double x1)
{
    double len = x1 - x0;
    double trap = len * (cp_lin_abs(c, x0) + cp_lin_abs(c, x1)) * 0.5;
    double x1s = x1 * x1, x0s = dn_mul(x0, x0);
    double x1c = x1s * x1, x0c = dn_mul(x0s, x0);
    double rem = len * c->errE + (x1s - x0s) * 0.5 * c->errE1 + (x1c - x0c) / 3.0 * c->S2h;
    double slo = -((-a) - x0), shi = a + x1;     /* outward-rounded piece */
    return cp_wsup(d, cd, slo, shi) * (trap + rem);
}

typedef struct {
    const taylor_t *T;
    int d;
    long k, ncell;
    double beta, a, glo, gup, ebH, cd, wend, H;
    double acc;         /* in/out: accumulated upper bound */
} cont_ctx;

/* Body, in FE_UPWARD: adds cell k's share of the continuum integral to acc. */
static FROUND_BODY void cont_cell(void *arg)
{
    cont_ctx *x = arg;
    const taylor_t *T = x->T;
    int d = x->d;
    long k = x->k, ncell = x->ncell;
    double beta = x->beta, a = x->a, glo = x->glo, gup = x->gup, ebH = x->ebH, cd = x->cd;
    double wend = x->wend, H = x->H, acc = x->acc;
    cell_t c;
    cell_eval(T, beta, a, glo, gup, ebH, &c);
    if (d == 2 && (k == 0 || k == ncell - 1)) {
        /* w unbounded at the end: a tiny end piece by sup|e| * mu(piece), the
         * rest in dyadic ranges, each split uniformly */
        double us = ldexp(H, -20);
        int left = (k == 0);                   /* singular end at x = 0 (s = -1) */
        double x0 = left ? 0.0 : H - us, x1 = left ? us : H;
        double sup = fmax(cp_lin_abs(&c, x0), cp_lin_abs(&c, x1)) + c.errE + H * c.errE1 + H * H * c.S2h;
        acc += sup * wend;
        for (int jd = 0; jd < 20; jd++) {
            double u0 = ldexp(H, -jd - 1), u1 = ldexp(H, -jd);   /* distance from the end */
            for (int q = 0; q < 512; q++) {
                double v0 = u0 + (u1 - u0) * q / 512.0, v1 = u0 + (u1 - u0) * (q + 1) / 512.0;
                if (q == 511)
                    v1 = u1;
                double y0 = left ? v0 : H - v1, y1 = left ? v1 : H - v0;
                acc += cp_piece(&c, d, cd, a, y0, y1);
            }
        }
    } else {
        /* split when the weight varies by more than ~5e-4 across the cell */
        double wa = cp_wsup(d, cd, a, a), wb = cp_wsup(d, cd, a + H, a + H);
        double wmn = fmin(wa, wb), wmx = fmax(wa, wb);
        long S = 1;
        if (d != 3) {
            if (!(wmn > 0))
                S = 4096;
            else if (wmx > wmn * (1 + 5e-4))
                S = (long)fmin(4096.0, ceil((wmx / wmn - 1.0) / 5e-4));
        }
        for (long q = 0; q < S; q++) {
            double y0 = H * (double)q / (double)S, y1 = q + 1 == S ? H : H * (double)(q + 1) / (double)S;
            acc += cp_piece(&c, d, cd, a, y0, y1);
        }
    }
    x->acc = acc;
}

/* ---------- continuum ---------- */

ar_status poly_continuum_error(int d, double beta, const double *coef, unsigned long L,
                               double *err_bound)
{
    if (d < 2 || d > 64 || !cp_beta_ok(beta) || L > CP_MAXL) {
        ar_error_set("poly_continuum_error: need 2 <= d <= 64, 0 <= beta <= 1e7, L <= %lu", CP_MAXL);
        return AR_EINVAL;
    }
    double kb = 256.0 * (d > 5 ? (double)(d - 3) / 2.0 : 1.0);
    int h = cp_cell_exp(beta, L, kb, 10, 21);
    long ncell = 2L << h;
    double H = ldexp(1.0, -h);
    taylor_t T;
    ar_status st = taylor_init(&T, coef, L + 1, H);
    if (st != AR_OK)
        return st;
    double ebH = cp_exp_up(beta, H);
    /* c_d = Gamma(d/2) / (sqrt(pi) Gamma((d-1)/2)); the end-cell mass for d = 2 */
    double cd, wend = 0, lam0;
    {
        arb_t a, b;
        arb_init(a);
        arb_init(b);
        arb_set_ui(a, (ulong)d);
        arb_mul_2exp_si(a, a, -1);
        arb_gamma(a, a, CP_PREC);
        arb_set_ui(b, (ulong)d - 1);
        arb_mul_2exp_si(b, b, -1);
        arb_gamma(b, b, CP_PREC);
        arb_div(a, a, b, CP_PREC);
        arb_const_sqrt_pi(b, CP_PREC);
        arb_div(a, a, b, CP_PREC);
        cd = arbd_ub(a);
        if (d == 2) {              /* mu_2([1-u, 1]) = acos(1 - u) / pi, u = H 2^-20 */
            arb_set_d(a, 1.0 - ldexp(H, -20));
            arb_acos(a, a, CP_PREC);
            arb_const_pi(b, CP_PREC);
            arb_div(a, a, b, CP_PREC);
            wend = arbd_ub(a);
        }
        st = fh_eigenvalue_scaled(a, d, 0, beta, CP_PREC);
        lam0 = arbd_lb(a);
        arb_clear(a);
        arb_clear(b);
        if (st != AR_OK) {
            taylor_clear(&T);
            return st;
        }
    }
    cont_ctx cc = {.T = &T, .d = d, .beta = beta, .ebH = ebH, .cd = cd, .wend = wend, .H = H,
                   .ncell = ncell, .acc = 0};
    for (long k = 0; k < ncell; k++) {
        cc.k = k;
        cc.a = (double)k * H - 1.0;
        cp_g(beta, cc.a, &cc.glo, &cc.gup);
        fround_run(FE_UPWARD, cont_cell, &cc);
    }
    taylor_clear(&T);
    double e = lam0 > 0 ? fround_div_up(cc.acc, lam0) : INFINITY;
    if (!isfinite(e)) {
        ar_error_set("poly_continuum_error: no finite bound (d=%d, beta=%g, L=%lu)", d, beta, L);
        return AR_ENUMERIC;
    }
    *err_bound = e;
    return AR_OK;
}
