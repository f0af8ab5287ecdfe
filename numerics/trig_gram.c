/* SPDX-License-Identifier: GPL-3.0-or-later */
/* trig_gram.c -- closed-form Gram matrices of trigonometric bases on a
 * piece [pi a, pi b] (see trig_gram.h).
 *
 * With Ic(p) = int cos(p theta) and Is(p) = int sin(p theta) over the piece
 * (p integer; Ic(0) = length, Is(0) = 0):
 *   cos j cos k         = (cos(j-k) + cos(j+k)) / 2
 *   cos p sin           = (sin(p+1) - sin(p-1)) / 2
 *   sin(j+1) sin(k+1)   = (cos(j-k) - cos(j+k+2)) / 2
 *   cos p sin^3         = (3 cos p sin - cos p sin 3) / 4      (sin^3 = (3 sin - sin 3) / 4)
 *   cos p sin 3         = (sin(p+3) - sin(p-3)) / 2
 * so every entry is a short sum of Ic / Is values, each enclosed in Arb. */
#include "numerics/trig_gram.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <arb.h>
#include "numerics/arbd.h"

#define TG_PREC 128

typedef struct {
    size_t P;           /* multiples 0 .. P */
    arb_ptr sa, ca;     /* sin(p pi a), cos(p pi a) */
    arb_ptr sb, cb;
    arb_t len;          /* pi (b - a) */
} tables_t;

static void tables_clear(tables_t *T)
{
    if (T->sa) {
        _arb_vec_clear(T->sa, (slong)T->P + 1);
        _arb_vec_clear(T->ca, (slong)T->P + 1);
        _arb_vec_clear(T->sb, (slong)T->P + 1);
        _arb_vec_clear(T->cb, (slong)T->P + 1);
        arb_clear(T->len);
    }
    memset(T, 0, sizeof *T);
}

static void tables_init(tables_t *T, size_t P, double a, double b)
{
    T->P = P;
    T->sa = _arb_vec_init((slong)P + 1);
    T->ca = _arb_vec_init((slong)P + 1);
    T->sb = _arb_vec_init((slong)P + 1);
    T->cb = _arb_vec_init((slong)P + 1);
    arb_init(T->len);
    arb_t x;
    arb_init(x);
    for (size_t p = 0; p <= P; p++) {
        arb_set_d(x, a);
        arb_mul_ui(x, x, (ulong)p, TG_PREC);
        arb_sin_cos_pi(T->sa + p, T->ca + p, x, TG_PREC);
        arb_set_d(x, b);
        arb_mul_ui(x, x, (ulong)p, TG_PREC);
        arb_sin_cos_pi(T->sb + p, T->cb + p, x, TG_PREC);
    }
    arb_t y;
    arb_init(y);
    arb_set_d(x, b);
    arb_set_d(y, a);
    arb_sub(x, x, y, TG_PREC);
    arb_clear(y);
    arb_const_pi(T->len, TG_PREC);
    arb_mul(T->len, T->len, x, TG_PREC);
    arb_clear(x);
}

/* res = int cos(p theta) over the piece, any integer p with |p| <= P */
static void int_cos(arb_t res, const tables_t *T, long p)
{
    unsigned long q = (unsigned long)labs(p);
    if (q == 0) {
        arb_set(res, T->len);
        return;
    }
    arb_sub(res, T->sb + q, T->sa + q, TG_PREC);
    arb_div_ui(res, res, q, TG_PREC);
}

/* res = int sin(p theta) over the piece */
static void int_sin(arb_t res, const tables_t *T, long p)
{
    unsigned long q = (unsigned long)labs(p);
    if (q == 0) {
        arb_zero(res);
        return;
    }
    arb_sub(res, T->ca + q, T->cb + q, TG_PREC);
    arb_div_ui(res, res, q, TG_PREC);
    if (p < 0)
        arb_neg(res, res);
}

/* res = int cos(p theta) sin(theta) = (Is(p+1) - Is(p-1)) / 2 */
static void int_cos_sin(arb_t res, const tables_t *T, long p)
{
    arb_t t;
    arb_init(t);
    int_sin(res, T, p + 1);
    int_sin(t, T, p - 1);
    arb_sub(res, res, t, TG_PREC);
    arb_mul_2exp_si(res, res, -1);
    arb_clear(t);
}

/* res = int cos(p theta) sin^3(theta) = (3 int cos(p) sin - int cos(p) sin 3) / 4 */
static void int_cos_sin3(arb_t res, const tables_t *T, long p)
{
    arb_t t, u;
    arb_init(t);
    arb_init(u);
    int_cos_sin(res, T, p);
    arb_mul_ui(res, res, 3, TG_PREC);
    int_sin(t, T, p + 3);
    int_sin(u, T, p - 3);
    arb_sub(t, t, u, TG_PREC);
    arb_mul_2exp_si(t, t, -1);                     /* int cos(p) sin(3) */
    arb_sub(res, res, t, TG_PREC);
    arb_mul_2exp_si(res, res, -2);
    arb_clear(t);
    arb_clear(u);
}

void trig_gram_clear(trig_gram_t *g)
{
    if (!g)
        return;
    free(g->G);
    memset(g, 0, sizeof *g);
}

ar_status trig_gram(trig_basis basis, size_t M, double a, double b, trig_gram_t *out)
{
    memset(out, 0, sizeof *out);
    if (M < 1 || M > 100000 || !(a >= 0 && a < b && b <= 1) ||
        (basis != TRIG_COS && basis != TRIG_COS_SIN && basis != TRIG_SIN && basis != TRIG_COS_SIN3)) {
        ar_error_set("trig_gram: need M >= 1, 0 <= a < b <= 1 and a known basis (M=%zu, a=%g, b=%g)", M, a, b);
        return AR_EINVAL;
    }
    double *G = ar_calloc(M * M, sizeof(double), "trig Gram matrix");
    if (!G)
        return AR_ENOMEM;
    tables_t T;
    memset(&T, 0, sizeof T);
    tables_init(&T, 2 * M + 4, a, b);               /* multiples up to 2M + 1 (TRIG_COS_SIN3: j + k + 3) */
    arb_t c, s, t, e;
    arb_init(c);
    arb_init(s);
    arb_init(t);
    arb_init(e);
    /* normalisation constant */
    if (basis == TRIG_COS_SIN)
        arb_set_d(c, 0.5);
    else if (basis == TRIG_COS_SIN3)
        arb_set_d(c, 0.75);
    else {
        arb_const_pi(c, TG_PREC);
        arb_inv(c, c, TG_PREC);
        if (basis == TRIG_SIN)
            arb_mul_2exp_si(c, c, 1);
    }
    double rad = 0, gmax = 0;
    for (size_t j = 0; j < M; j++)
        for (size_t k = 0; k <= j; k++) {
            long dm = (long)j - (long)k, sm = (long)(j + k);
            if (basis == TRIG_COS) {
                int_cos(s, &T, dm);
                int_cos(t, &T, sm);
                arb_add(e, s, t, TG_PREC);
            } else if (basis == TRIG_COS_SIN) {
                int_cos_sin(s, &T, dm);
                int_cos_sin(t, &T, sm);
                arb_add(e, s, t, TG_PREC);
            } else if (basis == TRIG_COS_SIN3) {
                int_cos_sin3(s, &T, dm);
                int_cos_sin3(t, &T, sm);
                arb_add(e, s, t, TG_PREC);
            } else {
                int_cos(s, &T, dm);
                int_cos(t, &T, sm + 2);
                arb_sub(e, s, t, TG_PREC);
            }
            arb_mul_2exp_si(e, e, -1);
            arb_mul(e, e, c, TG_PREC);
            double m, r;
            arbd_mid_rad(e, &m, &r);                  /* stored double, |exact - stored| <= r */
            rad = r > rad ? r : rad;
            double g = arbd_abs_ub(e);
            gmax = g > gmax ? g : gmax;
            G[j + k * M] = m;
            G[k + j * M] = m;
        }
    /* the piece's mass */
    if (basis == TRIG_COS) {
        arb_mul(e, T.len, c, TG_PREC);
    } else if (basis == TRIG_COS_SIN) {
        arb_sub(e, T.ca + 1, T.cb + 1, TG_PREC);
        arb_mul(e, e, c, TG_PREC);
    } else if (basis == TRIG_COS_SIN3) {
        int_cos_sin3(e, &T, 0);
        arb_mul(e, e, c, TG_PREC);
    } else {
        int_cos(s, &T, 2);
        arb_sub(e, T.len, s, TG_PREC);
        arb_mul_2exp_si(e, e, -1);
        arb_mul(e, e, c, TG_PREC);
    }
    out->nu_up = arbd_ub(e);
    arb_clear(c);
    arb_clear(s);
    arb_clear(t);
    arb_clear(e);
    tables_clear(&T);
    if (!isfinite(rad) || !isfinite(gmax) || !isfinite(out->nu_up)) {
        free(G);
        ar_error_set("trig_gram: non-finite enclosure (M=%zu)", M);
        return AR_ENUMERIC;
    }
    out->M = M;
    out->G = G;
    out->rad = rad;
    out->gmax = gmax;
    return AR_OK;
}
