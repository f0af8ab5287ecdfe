/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_ball_harmonic_setup.c -- the candidate-independent part of the
 * shells-continuum certificate: Arb enclosures of the kernel's harmonic
 * coefficients C^l_{qq'}, the row sums Z_q, the tails beyond the cutoff
 * degree, the Gegenbauer-to-cosine table (d = 3, 5) and the angular pieces with
 * their Gram matrices (see cert_ball_harmonic.h and proofs-notes/claim-B.md
 * section 8). */
#include "theory/certificates/cert_ball_harmonic.h"
#include "theory/certificates/cert_ball_harmonic_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arb.h>
#include <flint/fmpz.h>
#include "base/parallel.h"
#include "numerics/arbd.h"
#include "theory/spectra/funkhecke.h"

#define BH_PREC 128
#define BH_MAX_LP 4000UL

void bh_setup_clear(bh_setup_t *B)
{
    if (!B)
        return;
    free(B->C);
    free(B->Crad);
    free(B->tail);
    free(B->Zlo);
    free(B->Zmid);
    free(B->Nl);
    free(B->Gam);
    if (B->pieces)
        for (size_t i = 0; i < B->npieces; i++)
            trig_gram_clear(&B->pieces[i]);
    free(B->pieces);
    memset(B, 0, sizeof *B);
}

/* Gam[m + M l]: the coefficient of cos(m t) in P_l(cos t) = C^lam_l(cos t) / C^lam_l(1),
 * lam = (d - 2)/2, from the Gegenbauer trigonometric form (proofs-notes/claim-B.md
 * section 8)
 *     C^lam_l(cos t) = sum_{k <= l} a_k a_{l-k} cos((l - 2k) t),   a_k = (lam)_k / k!,
 * d = 3 (lam = 1/2): a_k = alpha_k = C(2k, k) / 4^k and C^{1/2}_l(1) = 1 (no division);
 * d = 5 (lam = 3/2): a_k = (2k + 1) alpha_k and C^{3/2}_l(1) = (l + 1)(l + 2) / 2.
 * Every coefficient is >= 0 and every column sums to P_l(1) = 1. */
static ar_status gegenbauer_cos_table(bh_setup_t *B)
{
    size_t M = B->M;
    B->Gam = ar_calloc(M * M, sizeof(double), "Gegenbauer-to-cosine table");
    if (!B->Gam)
        return AR_ENOMEM;
    arb_ptr al = _arb_vec_init((slong)M);
    arb_t t;
    arb_init(t);
    arb_one(al);
    for (size_t k = 1; k < M; k++) {
        arb_mul_ui(al + k, al + k - 1, 2 * k - 1, BH_PREC);
        arb_div_ui(al + k, al + k, 2 * k, BH_PREC);
    }
    if (B->d == 5)
        for (size_t k = 1; k < M; k++)
            arb_mul_ui(al + k, al + k, 2 * k + 1, BH_PREC);
    double colrad = 0;
    arb_ptr col = _arb_vec_init((slong)M);
    for (size_t l = 0; l < M; l++) {
        for (size_t m = 0; m < M; m++)
            arb_zero(col + m);
        for (size_t k = 0; k <= l; k++) {
            size_t m = l >= 2 * k ? l - 2 * k : 2 * k - l;
            arb_mul(t, al + k, al + (l - k), BH_PREC);
            arb_add(col + m, col + m, t, BH_PREC);
        }
        if (B->d == 5)                              /* divide by C^{3/2}_l(1) = (l + 1)(l + 2) / 2 */
            for (size_t m = 0; m <= l; m++) {
                arb_mul_2exp_si(col + m, col + m, 1);
                arb_div_ui(col + m, col + m, (ulong)((l + 1) * (l + 2)), BH_PREC);
            }
        double cr = 0;
        for (size_t m = 0; m <= l; m++) {
            double v, r;
            arbd_mid_rad(col + m, &v, &r);
            B->Gam[m + M * l] = v;
            cr += r;
        }
        colrad = cr > colrad ? cr : colrad;
    }
    _arb_vec_clear(col, (slong)M);
    _arb_vec_clear(al, (slong)M);
    arb_clear(t);
    B->gam_colrad = colrad * (1.0 + 1e-12) + 0x1p-1060;
    return AR_OK;
}

/* The pieces' Gram matrices side by side (issue 35): each piece writes only its own; the first
 * failing piece in order is reported (par_for_status). */
typedef struct {
    bh_setup_t *B;
    const double *br;
} piece_ctx;

static ar_status piece_one(void *arg, size_t i)
{
    piece_ctx *c = arg;
    return trig_gram(c->B->basis, c->B->M, c->br[i], c->br[i + 1], &c->B->pieces[i]);
}

/* Breakpoints (units of pi): pieces_near pieces of width w/2 from 0, w the
 * kernel width 1/(pi sqrt(z_max)), then a geometric progression (x 1.4) to
 * 1; all rounded down to multiples of 2^-30 (exact), strictly increasing. */
static ar_status make_pieces(bh_setup_t *B, double zmax, size_t pieces_near)
{
    double w = 1.0 / (M_PI * sqrt(zmax > 1 ? zmax : 1.0));
    double br[512];
    size_t nb = 0;
    br[nb++] = 0.0;
    for (size_t k = 1; k <= pieces_near && nb < 400; k++) {
        double x = ldexp(floor(ldexp(0.5 * w * (double)k, 30)), -30);
        if (x >= 1.0)
            break;
        if (x > br[nb - 1])
            br[nb++] = x;
    }
    double x = br[nb - 1];
    while (nb < 500) {
        x = x > 0 ? x * 1.4 : 0.5 * w;
        double y = ldexp(floor(ldexp(x, 30)), -30);
        if (y >= 1.0 || 1.0 - y < 0.1 * (y - br[nb - 1]))
            break;
        if (y > br[nb - 1])
            br[nb++] = y;
    }
    br[nb++] = 1.0;
    B->npieces = nb - 1;
    B->pieces = ar_calloc(B->npieces, sizeof(trig_gram_t), "angular pieces");
    if (!B->pieces)
        return AR_ENOMEM;
    piece_ctx c = {.B = B, .br = br};
    return par_for_status(B->npieces, piece_one, &c, flint_cleanup);
}

/* For every pair of spheres q <= q' of S and every degree l <= L0 (M0 = L0 + 1 degrees, QQ = Q^2 pairs):
 * the harmonic coefficient C^l_{qq'} = e lambda_l(beta r r') (midpoint into C, radius into Cr, both
 * symmetric), e = exp(-beta (r - r')^2 / 2), and the tail after degree l, e (1 - sum_{k <= l} N_k
 * lambda_k), as an upper bound >= 0 into T; then the row sums Z_q = sum_q' g_q' C^0_{qq'} into B->Zlo
 * (a lower bound, which must be certified > 0) and B->Zmid. */
/* The pairs q <= q' in the one-thread loop's order are computed side by side in fixed blocks of
 * COEF_BLOCK pairs (issue 35); every pair writes only its own entries of C, Cr and T, and keeps
 * C^0 (an arb) for the row sums, which are then added in pair order: the same bits for any number
 * of threads.  The first failing block in order is reported (par_for_status). */
#define COEF_BLOCK 4

typedef struct {
    const bh_setup_t *B;
    const ball_shells_t *S;
    unsigned long L0;
    double *C, *Cr, *T;
    size_t npairs;
    size_t *pq, *pqp;       /* pair k = (pq[k], pqp[k]) */
    arb_ptr c0;             /* npairs: C^0 of each pair */
} coef_ctx;

/* Block j: the pairs [j COEF_BLOCK, (j + 1) COEF_BLOCK). */
static ar_status coef_block(void *arg, size_t j)
{
    coef_ctx *c = arg;
    const ball_shells_t *S = c->S;
    size_t Q = c->B->Q, QQ = c->B->QQ, M0 = c->L0 + 1;
    size_t k0 = j * COEF_BLOCK, k1 = k0 + COEF_BLOCK < c->npairs ? k0 + COEF_BLOCK : c->npairs;
    arb_ptr lam = _arb_vec_init((slong)M0);
    arb_t z, e, s, t, Nb;
    arb_init(z);
    arb_init(e);
    arb_init(s);
    arb_init(t);
    arb_init(Nb);
    fmpz_t N;
    fmpz_init(N);
    ar_status st = AR_OK;
    for (size_t k = k0; k < k1 && st == AR_OK; k++) {
        size_t q = c->pq[k], qp = c->pqp[k];
        arb_set_d(z, S->beta);
        arb_set_d(t, S->radius[q]);
        arb_mul(z, z, t, 4 * BH_PREC);
        arb_set_d(t, S->radius[qp]);
        arb_mul(z, z, t, 4 * BH_PREC);        /* exact product beta r r' */
        st = fh_eigenvalues_scaled_all(lam, S->d, c->L0, z, BH_PREC);
        if (st)
            break;
        /* e = exp(-beta (r - r')^2 / 2) */
        arb_set_d(e, S->radius[q]);
        arb_set_d(t, S->radius[qp]);
        arb_sub(e, e, t, 4 * BH_PREC);
        arb_sqr(e, e, 4 * BH_PREC);
        arb_set_d(t, S->beta);
        arb_mul(e, e, t, BH_PREC);
        arb_mul_2exp_si(e, e, -1);
        arb_neg(e, e);
        arb_exp(e, e, BH_PREC);
        arb_zero(s);                          /* partial sum of N_l lambda_l */
        for (unsigned long l = 0; l <= c->L0; l++) {
            fh_multiplicity(N, S->d, l);
            arb_set_fmpz(Nb, N);
            arb_addmul(s, Nb, lam + l, BH_PREC);
            arb_mul(t, e, lam + l, BH_PREC);  /* C^l */
            double m, rr;
            arbd_mid_rad(t, &m, &rr);
            size_t p1 = q + Q * qp, p2 = qp + Q * q;
            c->C[l * QQ + p1] = c->C[l * QQ + p2] = m;
            c->Cr[l * QQ + p1] = c->Cr[l * QQ + p2] = rr;
            if (l == 0)
                arb_set(c->c0 + k, t);
            /* tail after degree l: e (1 - s), never below 0 */
            arb_sub_ui(t, s, 1, BH_PREC);
            arb_neg(t, t);
            arb_mul(t, t, e, BH_PREC);
            double tu = arbd_ub(t);
            c->T[l * QQ + p1] = c->T[l * QQ + p2] = tu > 0 ? tu : 0.0;
        }
    }
    fmpz_clear(N);
    arb_clear(z);
    arb_clear(e);
    arb_clear(s);
    arb_clear(t);
    arb_clear(Nb);
    _arb_vec_clear(lam, (slong)M0);
    return st;
}

static ar_status bh_coefficients(bh_setup_t *B, const ball_shells_t *S, unsigned long L0, double *C, double *Cr,
                                 double *T)
{
    size_t Q = B->Q, npairs = Q * (Q + 1) / 2, nblocks = (npairs + COEF_BLOCK - 1) / COEF_BLOCK;
    coef_ctx c = {.B = B, .S = S, .L0 = L0, .C = C, .Cr = Cr, .T = T, .npairs = npairs};
    c.pq = ar_calloc(npairs, sizeof(size_t), "sphere pairs");
    c.pqp = ar_calloc(npairs, sizeof(size_t), "sphere pairs");
    if (!c.pq || !c.pqp) {
        free(c.pq);
        free(c.pqp);
        return AR_ENOMEM;
    }
    size_t k = 0;
    for (size_t q = 0; q < Q; q++)
        for (size_t qp = q; qp < Q; qp++, k++) {
            c.pq[k] = q;
            c.pqp[k] = qp;
        }
    c.c0 = _arb_vec_init((slong)npairs);
    ar_status st = par_for_status(nblocks, coef_block, &c, flint_cleanup);
    arb_ptr Z = _arb_vec_init((slong)Q);
    arb_t Nb;
    arb_init(Nb);
    for (k = 0; k < npairs && st == AR_OK; k++) {    /* the row sums, in pair order */
        size_t q = c.pq[k], qp = c.pqp[k];
        arb_set_d(Nb, S->weight[qp]);
        arb_addmul(Z + q, Nb, c.c0 + k, BH_PREC);
        if (qp != q) {
            arb_set_d(Nb, S->weight[q]);
            arb_addmul(Z + qp, Nb, c.c0 + k, BH_PREC);
        }
    }
    for (size_t q = 0; q < Q && st == AR_OK; q++) {
        B->Zlo[q] = arbd_lb(Z + q);
        B->Zmid[q] = arf_get_d(arb_midref(Z + q), ARF_RND_NEAR);
        if (!(B->Zlo[q] > 0)) {
            ar_error_set("ball harmonic certificate: row sum of sphere %zu not certified positive", q);
            st = AR_ENUMERIC;
        }
    }
    arb_clear(Nb);
    _arb_vec_clear(Z, (slong)Q);
    _arb_vec_clear(c.c0, (slong)npairs);
    free(c.pq);
    free(c.pqp);
    return st;
}

/* *Lp: the least cutoff degree l <= L0 whose tails T cost every row at most tail_rel * eps
 * (sum_q' g_q' T^l_{qq'} / Z_q, rounded up); AR_ENUMERIC when even L0 does not. */
static ar_status bh_cutoff(const bh_setup_t *B, const ball_shells_t *S, const double *T, unsigned long L0,
                           double eps, double tail_rel, unsigned long *Lp)
{
    size_t Q = B->Q, QQ = B->QQ;
    for (unsigned long l = 0; l <= L0; l++) {
        double worst = 0;
        for (size_t q = 0; q < Q; q++) {
            double acc = 0;
            for (size_t qp = 0; qp < Q; qp++)
                acc += S->weight[qp] * T[l * QQ + q + Q * qp];
            acc = acc * (1.0 + 1e-12) / B->Zlo[q];
            worst = acc > worst ? acc : worst;
        }
        if (worst <= tail_rel * eps) {
            *Lp = l;
            return AR_OK;
        }
    }
    ar_error_set("ball harmonic certificate: tail beyond degree %lu still above %g (beta=%g)", L0,
                 tail_rel * eps, S->beta);
    return AR_ENUMERIC;
}

/* B keeps the cutoff Lp (M = Lp + 1 degrees), the coefficients C and their radii Cr (B owns them
 * from here, even on error), the tails at degree Lp (from T) and the multiplicities N_l, l < M. */
static ar_status bh_keep(bh_setup_t *B, const ball_shells_t *S, unsigned long Lp, double *C, double *Cr,
                         const double *T)
{
    size_t QQ = B->QQ;
    B->Lp = Lp;
    B->M = Lp + 1;
    B->C = C;
    B->Crad = Cr;
    B->tail = ar_calloc(QQ, sizeof(double), "ball harmonic tails");
    B->Nl = ar_calloc(B->M, sizeof(double), "multiplicities");
    if (!B->tail || !B->Nl)
        return AR_ENOMEM;
    memcpy(B->tail, T + Lp * QQ, QQ * sizeof(double));
    fmpz_t n2;
    fmpz_init(n2);
    for (size_t l = 0; l < B->M; l++) {
        fh_multiplicity(n2, S->d, l);
        B->Nl[l] = fmpz_get_d(n2);     /* exact: small integers */
    }
    fmpz_clear(n2);
    return AR_OK;
}

ar_status bh_setup_init(bh_setup_t *B, const ball_shells_t *S, double eps, double tail_rel, size_t pieces_near)
{
    memset(B, 0, sizeof *B);
    if (!S || !S->radius || !S->weight || S->Q < 1 || S->d < 2 || S->d > 5) {
        ar_error_set("ball harmonic certificate: needs a shells object in dimension d = 2, 3, 4 or 5");
        return AR_EINVAL;
    }
    B->d = S->d;
    B->Q = S->Q;
    B->QQ = S->Q * S->Q;
    B->beta = S->beta;
    B->r = S->radius;
    B->g = S->weight;
    B->basis = S->d == 2 ? TRIG_COS : S->d == 3 ? TRIG_COS_SIN : S->d == 4 ? TRIG_SIN : TRIG_COS_SIN3;
    B->cdelta = S->d == 4 ? 4.0 / M_PI * (1.0 + 1e-15) : 1.0;
    size_t Q = B->Q, QQ = B->QQ;
    double rmax = S->radius[Q - 1], zmax = S->beta * rmax * rmax;
    /* generous first cutoff: lambda_l e^{-z} ~ e^{-l^2/(2z)} */
    double lf = ceil(sqrt(2.0 * zmax * log(1e14)) + 4.0 * (double)S->d + 10.0);
    if (!(lf <= (double)BH_MAX_LP)) {
        ar_error_set("ball harmonic certificate: beta=%g needs degrees beyond %lu (lower beta)", S->beta, BH_MAX_LP);
        return AR_EINVAL;
    }
    unsigned long L0 = (unsigned long)lf;
    size_t M0 = L0 + 1;
    double *C = ar_calloc(M0 * QQ, sizeof(double), "ball harmonic coefficients");
    double *Cr = ar_calloc(M0 * QQ, sizeof(double), "ball harmonic coefficient radii");
    double *T = ar_calloc(M0 * QQ, sizeof(double), "ball harmonic tails");
    B->Zlo = ar_calloc(Q, sizeof(double), "ball harmonic row sums");
    B->Zmid = ar_calloc(Q, sizeof(double), "ball harmonic row sums");
    if (!C || !Cr || !T || !B->Zlo || !B->Zmid) {
        free(C);
        free(Cr);
        free(T);
        bh_setup_clear(B);
        return AR_ENOMEM;
    }
    ar_status st = bh_coefficients(B, S, L0, C, Cr, T);
    /* the least cutoff whose tails cost every row at most tail_rel * eps */
    unsigned long Lp = L0;
    if (st == AR_OK)
        st = bh_cutoff(B, S, T, L0, eps, tail_rel, &Lp);
    if (st == AR_OK) {
        st = bh_keep(B, S, Lp, C, Cr, T);
        C = Cr = NULL;
    }
    free(C);
    free(Cr);
    free(T);
    if (st == AR_OK && (S->d == 3 || S->d == 5))
        st = gegenbauer_cos_table(B);
    if (st == AR_OK)
        st = make_pieces(B, zmax, pieces_near);
    if (st != AR_OK)
        bh_setup_clear(B);
    return st;
}
