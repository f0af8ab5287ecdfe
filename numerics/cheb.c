/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cheb.c -- Chebyshev series evaluation (see cheb.h). */
#include "numerics/cheb.h"
#include "numerics/fround.h"

#include <fenv.h>
#include <math.h>

/* |fl(z) - z| <= CHEB_REL |fl(z)| for one IEEE operation in any rounding
 * mode without underflow: |delta| < 2^-52 gives
 * |fl(z) - z| <= 2^-52 / (1 - 2^-52) |fl(z)|; rounded up generously. */
#define CHEB_REL 0x1.0000000001p-52
#define CHEB_ETA 0x1p-1074          /* absolute underflow error of one product */

typedef struct {
    const double *c;
    size_t len;
    double x;
    double r, e;    /* out: value and error bound */
} clenshaw_ctx;

/* Body, in FE_UPWARD (fround_run): the recurrence and the upward sum of the
 * magnitudes of every computed quantity; e >= the rounding error. */
static FROUND_BODY void clenshaw_body(void *arg)
{
    clenshaw_ctx *cx = arg;
    const double *c = cx->c;
    size_t len = cx->len;
    double x = cx->x;
    double twox = 2.0 * x;          /* exact */
    double b1 = 0, b2 = 0, acc = 0;
    for (size_t k = len - 1; k >= 1; k--) {
        double p1 = twox * b1;
        double p2 = c[k] + p1;
        double b0 = p2 - b2;
        acc += fabs(p1) + fabs(p2) + fabs(b0);
        b2 = b1;
        b1 = b0;
    }
    double p1 = x * b1;
    double p2 = c[0] + p1;
    double r = p2 - b2;
    acc += fabs(p1) + fabs(p2) + fabs(r);
    cx->r = r;
    cx->e = acc * CHEB_REL + (double)len * CHEB_ETA;
}

double cheb_clenshaw(const double *c, size_t len, double x, double *err)
{
    if (!(fabs(x) <= 1.0)) {
        *err = INFINITY;
        return NAN;
    }
    if (len == 0) {
        *err = 0;
        return 0;
    }
    clenshaw_ctx cx = {.c = c, .len = len, .x = x};
    fround_run(FE_UPWARD, clenshaw_body, &cx);
    if (!isfinite(cx.r) || !isfinite(cx.e)) {
        *err = INFINITY;
        return NAN;
    }
    *err = cx.e;
    return cx.r;
}

void cheb_eval_arb_coeffs(arb_t y, arb_srcptr c, size_t len, const arb_t x, slong prec)
{
    if (len == 0) {
        arb_zero(y);
        return;
    }
    arb_t b0, b1, b2, twox;
    arb_init(b0);
    arb_init(b1);
    arb_init(b2);
    arb_init(twox);
    arb_mul_2exp_si(twox, x, 1);
    for (size_t k = len - 1; k >= 1; k--) {
        arb_mul(b0, twox, b1, prec);
        arb_add(b0, b0, c + k, prec);
        arb_sub(b0, b0, b2, prec);
        arb_swap(b2, b1);
        arb_swap(b1, b0);
    }
    arb_mul(b0, x, b1, prec);
    arb_add(b0, b0, c, prec);
    arb_sub(y, b0, b2, prec);
    arb_clear(b0);
    arb_clear(b1);
    arb_clear(b2);
    arb_clear(twox);
}

void cheb_eval_arb(arb_t y, const double *c, size_t len, const arb_t x, slong prec)
{
    arb_ptr cc = _arb_vec_init((slong)(len ? len : 1));
    for (size_t k = 0; k < len; k++)
        arb_set_d(cc + k, c[k]);
    cheb_eval_arb_coeffs(y, cc, len, x, prec);
    _arb_vec_clear(cc, (slong)(len ? len : 1));
}

void cheb_deriv_arb(arb_ptr d, arb_srcptr c, size_t len, slong prec)
{
    if (len <= 1)
        return;
    size_t n = len - 1;               /* degree of p; p' has coefficients d[0..n-1] */
    arb_t t;
    arb_init(t);
    /* d_{n-1} = 2n c_n, d_{n-2} = 2(n-1) c_{n-1}, d_{k-1} = d_{k+1} + 2k c_k */
    for (size_t k = n; k >= 1; k--) {
        arb_mul_ui(t, c + k, 2 * (ulong)k, prec);
        if (k + 1 <= n - 1)
            arb_add(d + (k - 1), t, d + (k + 1), prec);
        else
            arb_set(d + (k - 1), t);
    }
    arb_mul_2exp_si(d, d, -1);
    arb_clear(t);
}

void cheb_deriv_sup_bound(arb_t M, const double *c, size_t len, unsigned j, slong prec)
{
    arb_t tk, s, ck;
    arb_init(tk);
    arb_init(s);
    arb_init(ck);
    arb_zero(M);
    for (size_t k = 0; k < len; k++) {
        if (k < j || c[k] == 0)
            continue;
        arb_one(tk);
        for (unsigned i = 0; i < j; i++) {
            arb_set_ui(s, (ulong)k * k - (ulong)i * i);
            arb_mul(tk, tk, s, prec);
            arb_div_ui(tk, tk, 2 * i + 1, prec);
        }
        arb_set_d(ck, fabs(c[k]));
        arb_addmul(M, ck, tk, prec);
    }
    arb_clear(tk);
    arb_clear(s);
    arb_clear(ck);
}
