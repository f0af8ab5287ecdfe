/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_poly_continuum.c -- the continuum error bound of a zonal polynomial against
 * the uniform measure on S^{d-1} (Funk-Hecke normalisation)
 * (see cert_poly.h and proofs-notes/polynomial-certificate.md). */
#include "theory/certificates/cert_poly.h"
#include "theory/certificates/cert_poly_impl.h"

#include <fenv.h>
#include <stdlib.h>
#include "base/parallel.h"
#include "numerics/fround.h"
#include "theory/spectra/funkhecke.h"

#define CONT_CHUNK 128     /* cells per chunk */
#define CONT_CHUNKS 16     /* chunks per round (their terms are held until the round is added) */

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

/* The terms of the continuum integral, cell by cell, in the order the sum takes them.  The
 * cells are independent (cell_eval reads the Taylor data only), so a fixed partition of the
 * cells into chunks computes them side by side (base/parallel.h), each chunk its cells' terms
 * into its own buffer; the caller then adds every term, chunk by chunk and term by term, in
 * FE_UPWARD to one accumulator: the same additions in the same order as one pass over the
 * cells, so the bound is the same bits for any thread count. */
typedef struct {
    const taylor_t *T;
    int d;
    long ncell, k0;     /* cells of the round: k0 + [0, CONT_ROUND) */
    double beta, ebH, cd, wend, H;
    double *term[CONT_CHUNKS];   /* per chunk of the round: its terms */
    size_t nterm[CONT_CHUNKS], cap[CONT_CHUNKS];
    int nomem[CONT_CHUNKS];
} cont_ctx;

typedef struct {
    cont_ctx *x;
    size_t j;           /* chunk of the round */
    long k;             /* cell */
    double a, glo, gup; /* anchor and the enclosure of g(a) */
} cont_cell_t;

/* Appends v to chunk j's terms (a failed growth is recorded: the bound is then not given). */
static void cont_push(cont_ctx *x, size_t j, double v)
{
    if (x->nomem[j])
        return;
    if (x->nterm[j] == x->cap[j]) {
        size_t cap = x->cap[j] ? 2 * x->cap[j] : 4096;
        double *t = realloc(x->term[j], cap * sizeof *t);
        if (!t) {
            x->nomem[j] = 1;
            return;
        }
        x->term[j] = t;
        x->cap[j] = cap;
    }
    x->term[j][x->nterm[j]++] = v;
}

/* Body, in FE_UPWARD: cell k's terms of the continuum integral, appended to its chunk's. */
static FROUND_BODY void cont_cell(void *arg)
{
    cont_cell_t *cc = arg;
    cont_ctx *x = cc->x;
    const taylor_t *T = x->T;
    int d = x->d;
    long k = cc->k, ncell = x->ncell;
    double beta = x->beta, a = cc->a, glo = cc->glo, gup = cc->gup, ebH = x->ebH, cd = x->cd;
    double wend = x->wend, H = x->H;
    cell_t c;
    cell_eval(T, beta, a, glo, gup, ebH, &c);
    if (d == 2 && (k == 0 || k == ncell - 1)) {
        /* w unbounded at the end: a tiny end piece by sup|e| * mu(piece), the
         * rest in dyadic ranges, each split uniformly */
        double us = ldexp(H, -20);
        int left = (k == 0);                   /* singular end at x = 0 (s = -1) */
        double x0 = left ? 0.0 : H - us, x1 = left ? us : H;
        double sup = fmax(cp_lin_abs(&c, x0), cp_lin_abs(&c, x1)) + c.errE + H * c.errE1 + H * H * c.S2h;
        cont_push(x, cc->j, sup * wend);
        for (int jd = 0; jd < 20; jd++) {
            double u0 = ldexp(H, -jd - 1), u1 = ldexp(H, -jd);   /* distance from the end */
            for (int q = 0; q < 512; q++) {
                double v0 = u0 + (u1 - u0) * q / 512.0, v1 = u0 + (u1 - u0) * (q + 1) / 512.0;
                if (q == 511)
                    v1 = u1;
                double y0 = left ? v0 : H - v1, y1 = left ? v1 : H - v0;
                cont_push(x, cc->j, cp_piece(&c, d, cd, a, y0, y1));
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
            cont_push(x, cc->j, cp_piece(&c, d, cd, a, y0, y1));
        }
    }
}

/* Chunk j of the round (par_for's block): its cells' terms, cell by cell.  The anchor's
 * enclosure cp_g is taken in the thread's round-to-nearest mode, as the one-pass loop did. */
static void cont_chunk(void *arg, size_t j)
{
    cont_ctx *x = arg;
    x->nterm[j] = 0;
    long k0 = x->k0 + (long)j * CONT_CHUNK, k1 = k0 + CONT_CHUNK < x->ncell ? k0 + CONT_CHUNK : x->ncell;
    for (long k = k0; k < k1 && !x->nomem[j]; k++) {
        cont_cell_t cc = {.x = x, .j = j, .k = k, .a = (double)k * x->H - 1.0};
        cp_g(x->beta, cc.a, &cc.glo, &cc.gup);
        fround_run(FE_UPWARD, cont_cell, &cc);
    }
}

typedef struct {
    const double *t;
    size_t n;
    double acc;
} cont_sum_t;

/* Body, in FE_UPWARD: acc += t[0], t[1], ... in order. */
static FROUND_BODY void cont_add(void *arg)
{
    cont_sum_t *s = arg;
    double acc = s->acc;
    for (size_t i = 0; i < s->n; i++)
        acc += s->t[i];
    s->acc = acc;
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
    /* the cells in rounds of CONT_CHUNKS fixed chunks of CONT_CHUNK cells (a function of ncell
     * alone), each round's chunks side by side, then their terms added in cell order */
    cont_ctx *cx = calloc(1, sizeof *cx);
    if (!cx) {
        taylor_clear(&T);
        ar_error_set("poly_continuum_error: out of memory");
        return AR_ENOMEM;
    }
    *cx = (cont_ctx){.T = &T, .d = d, .beta = beta, .ebH = ebH, .cd = cd, .wend = wend, .H = H, .ncell = ncell};
    cont_sum_t sum = {.acc = 0};
    int nomem = 0;
    for (long k0 = 0; k0 < ncell && !nomem; k0 += (long)CONT_CHUNKS * CONT_CHUNK) {
        cx->k0 = k0;
        long left = ncell - k0;
        size_t nch = left >= (long)CONT_CHUNKS * CONT_CHUNK ? CONT_CHUNKS
                                                          : (size_t)((left + CONT_CHUNK - 1) / CONT_CHUNK);
        par_for(nch, cont_chunk, cx, NULL);
        for (size_t j = 0; j < nch && !nomem; j++) {
            nomem = cx->nomem[j];
            sum.t = cx->term[j];
            sum.n = cx->nterm[j];
            if (!nomem)
                fround_run(FE_UPWARD, cont_add, &sum);
        }
    }
    for (size_t j = 0; j < CONT_CHUNKS; j++)
        free(cx->term[j]);
    free(cx);
    taylor_clear(&T);
    if (nomem) {
        ar_error_set("poly_continuum_error: out of memory for the cells' terms");
        return AR_ENOMEM;
    }
    double e = lam0 > 0 ? fround_div_up(sum.acc, lam0) : INFINITY;
    if (!isfinite(e)) {
        ar_error_set("poly_continuum_error: no finite bound (d=%d, beta=%g, L=%lu)", d, beta, L);
        return AR_ENUMERIC;
    }
    *err_bound = e;
    return AR_OK;
}
