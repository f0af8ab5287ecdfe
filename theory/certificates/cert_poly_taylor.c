/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_poly_taylor.c -- the polynomial certificate's per-cell Taylor data of e = g - q: ball
 * helpers, Chebyshev derivative series with rigorous coefficient errors, the
 * Markov tail and the cell evaluation
 * (see cert_poly.h and proofs-notes/polynomial-certificate.md). */
#include "theory/certificates/cert_poly.h"
#include "theory/certificates/cert_poly_impl.h"

#include <fenv.h>
#include <stdlib.h>
#include <string.h>
#include "numerics/cheb.h"
#include "numerics/fround.h"

/* enclosure [lo, up] of g(a) = exp(beta (a - 1)) */
void cp_g(double beta, double a, double *lo, double *up)
{
    arb_t s, b;
    arb_init(s);
    arb_set_d(s, a);
    arb_sub_ui(s, s, 1, CP_PREC);
    arb_init(b);
    arb_set_d(b, beta);
    arb_mul(s, s, b, CP_PREC);
    arb_exp(s, s, CP_PREC);
    *lo = arbd_lb(s);
    *up = arbd_ub(s);
    if (*lo < 0)
        *lo = 0;
    arb_clear(s);
    arb_clear(b);
}

/* up(exp(beta * h)) */
double cp_exp_up(double beta, double h)
{
    arb_t s, b;
    arb_init(s);
    arb_set_d(s, h);
    arb_init(b);
    arb_set_d(b, beta);
    arb_mul(s, s, b, CP_PREC);
    arb_exp(s, s, CP_PREC);
    double r = arbd_ub(s);
    arb_clear(s);
    arb_clear(b);
    return r;
}





void taylor_clear(taylor_t *T)
{
    for (int j = 0; j <= CP_MAXDER; j++) {
        free(T->ser[j]);
        T->ser[j] = NULL;
    }
}

typedef struct {
    const taylor_t *T;
    const double *coef;
    double tail;    /* out */
} tail_ctx;

/* Body, in FE_UPWARD: tail >= sum_{k} |c_k| sum_{j=m+1}^{k} T_k^{(j)}(1)/j!
 * Hs^{j-2} (Markov brothers). */
static FROUND_BODY void taylor_tail(void *arg)
{
    tail_ctx *c = arg;
    const taylor_t *T = c->T;
    const double *coef = c->coef;
    double Hs = T->Hs;
    double tail = 0;
    for (size_t k = (size_t)T->m + 1; k < T->len; k++) {
        double v = 1, s = 0, kk = (double)k * (double)k;
        for (size_t j = 0; j < k; j++) {
            /* v = T_k^{(j)}(1)/j! Hs^j  ->  j+1 */
            v = v * (kk - (double)j * (double)j);
            v = v * Hs;
            v = v / ((double)(2 * j + 1) * (double)(j + 1));
            if (j + 1 > (size_t)T->m)
                s += v;
        }
        tail += fabs(coef[k]) * s;
    }
    c->tail = tail / (Hs * Hs);
}

ar_status taylor_init(taylor_t *T, const double *coef, size_t len, double Hs)
{
    memset(T, 0, sizeof *T);
    T->len = len;
    T->Hs = Hs;
    T->m = (int)(len - 1 < CP_MAXDER ? len - 1 : CP_MAXDER);
    for (int j = 0; j <= T->m; j++) {
        T->ser[j] = ar_calloc(len, sizeof(double), "poly taylor series");
        if (!T->ser[j]) {
            taylor_clear(T);
            return AR_ENOMEM;
        }
    }
    for (size_t k = 0; k < len; k++) {
        if (!isfinite(coef[k])) {
            taylor_clear(T);
            ar_error_set("poly: non-finite coefficient %zu", k);
            return AR_EINVAL;
        }
        T->ser[0][k] = coef[k];
    }
    T->R[0] = 0;
    slong prec = 256;
    arb_ptr cur = _arb_vec_init((slong)len), nxt = _arb_vec_init((slong)len);
    arb_t diff;
    arb_init(diff);
    for (size_t k = 0; k < len; k++)
        arb_set_d(cur + k, coef[k]);
    for (int j = 1; j <= T->m; j++) {
        size_t lj = len - (size_t)j + 1;            /* length of current series */
        cheb_deriv_arb(nxt, cur, lj, prec);         /* lj - 1 entries */
        double R = 0;
        for (size_t k = 0; k + 1 < lj; k++) {
            arb_div_ui(nxt + k, nxt + k, (ulong)j, prec);   /* (q^{(j-1)}/(j-1)!)' / j */
            double v = arf_get_d(arb_midref(nxt + k), ARF_RND_NEAR);
            T->ser[j][k] = v;
            arb_set_d(diff, v);
            arb_sub(diff, diff, nxt + k, prec);
            double e = arbd_ub(diff) > -arbd_lb(diff) ? arbd_ub(diff) : -arbd_lb(diff);
            R = fround_add_up(R, e);
        }
        T->R[j] = R;
        _arb_vec_swap(cur, nxt, (slong)(lj - 1));
    }
    arb_clear(diff);
    _arb_vec_clear(cur, (slong)len);
    _arb_vec_clear(nxt, (slong)len);
    tail_ctx tc = {.T = T, .coef = coef};
    fround_run(FE_UPWARD, taylor_tail, &tc);
    double tail = tc.tail;
    if (!isfinite(tail)) {
        taylor_clear(T);
        ar_error_set("poly: Taylor tail bound overflows (len=%zu, Hs=%g)", len, Hs);
        return AR_ENUMERIC;
    }
    T->tail = tail;
    return AR_OK;
}



/* In FE_UPWARD mode.  [glo, gup] encloses g(a); ebHs >= exp(beta Hs); a in [-1, 1]. */
void cell_eval(const taylor_t *T, double beta, double a, double glo, double gup,
                      double ebHs, cell_t *o)
{
    double v[CP_MAXDER + 1] = {0}, ev[CP_MAXDER + 1] = {0};
    for (int j = 0; j <= T->m; j++) {
        v[j] = cheb_clenshaw(T->ser[j], T->len - (size_t)j, a, &ev[j]);
        ev[j] = ev[j] + T->R[j];
    }
    o->E = gup - v[0];
    o->errE = ev[0] + (gup - glo) + fabs(o->E) * 0x1p-52 + 0x1p-1074;
    double bgu = beta * gup, bgl = dn_mul(beta, glo);
    o->E1 = bgu - v[1];
    o->errE1 = ev[1] + (bgu - bgl) + fabs(o->E1) * 0x1p-52 + 0x1p-1074;
    double s = gup * beta * beta * 0.5 * ebHs, hp = 1;
    for (int j = 2; j <= T->m; j++) {
        s += (fabs(v[j]) + ev[j]) * hp;
        hp = hp * T->Hs;
    }
    o->S2h = s + T->tail;
    o->gmax = gup * ebHs;
}


/* cell exponent h: H = 2^-h */
int cp_cell_exp(double beta, unsigned long Lmax, double kb, int hmin, int hmax)
{
    int h = hmin;
    double L2 = 4.0 * ((double)Lmax * (double)Lmax + 1.0);
    while (h < hmax && (ldexp(1.0, -h) * L2 > 1.0 || ldexp(1.0, -h) * kb * beta > 1.0))
        h++;
    return h;
}
