/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_ball_prep.c -- the shared preparation of the ball certificates: exact
 * coordinates and log-weights, cell sizes, and the Arb evaluation of the
 * near part of one row with the tail bound of the rest
 * (see cert_ball.h; proofs in proofs-notes/claim-B.md). */
#include "theory/certificates/cert_ball_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "numerics/cellgrid.h"

/* ---- shared preparation -------------------------------------------------- */


void ball_prep_clear(prep_t *p)
{
    if (p->X)
        _arb_vec_clear(p->X, (slong)(p->n * p->d));
    if (p->nrm)
        _arb_vec_clear(p->nrm, (slong)p->n);
    if (p->L)
        _arb_vec_clear(p->L, (slong)p->n);
    memset(p, 0, sizeof *p);
}

ar_status ball_prep_init(prep_t *p, const pointset_t *P, double beta, double eps, double cmax,
                           const char *who)
{
    memset(p, 0, sizeof *p);
    if (!P || !P->x || P->n == 0 || P->d == 0 || P->d > CELLGRID_MAXD) {
        ar_error_set("%s: need a point set with n >= 1 and 1 <= d <= %d", who, CELLGRID_MAXD);
        return AR_EINVAL;
    }
    if (!isfinite(beta) || !(beta > 0)) {
        ar_error_set("%s: beta must be finite and > 0 (beta=%g)", who, beta);
        return AR_EINVAL;
    }
    if (!(eps > 0 && eps < 1)) {
        ar_error_set("%s: need 0 < eps < 1 (eps=%g)", who, eps);
        return AR_EINVAL;
    }
    for (size_t i = 0; i < P->n * P->d; i++)
        if (!isfinite(P->x[i]) || fabs(P->x[i]) > cmax) {
            ar_error_set("%s: coordinate %zu of point %zu is %g (need |x_c| <= %g)", who, i % P->d,
                         i / P->d, P->x[i], cmax);
            return AR_EINVAL;
        }
    if (P->w)
        for (size_t i = 0; i < P->n; i++)
            if (fmpz_sgn(P->w + i) <= 0) {
                ar_error_set("%s: multiplicity of point %zu is not positive", who, i);
                return AR_EINVAL;
            }
    size_t n = P->n, d = P->d;
    p->P = P;
    p->n = n;
    p->d = d;
    p->beta = beta;
    p->X = _arb_vec_init((slong)(n * d));
    p->nrm = _arb_vec_init((slong)n);
    p->L = _arb_vec_init((slong)n);
    arb_t t, B;
    arb_init(t);
    arb_init(B);
    arb_set_d(B, beta);
    p->Lmax = -INFINITY;
    p->Lmin = INFINITY;
    for (size_t i = 0; i < n; i++) {
        for (size_t c = 0; c < d; c++)
            arb_set_d(p->X + i * d + c, P->x[i * d + c]);
        arb_dot(p->nrm + i, NULL, 0, p->X + i * d, 1, p->X + i * d, 1, (slong)d, BPREC);
        if (P->w) {
            arb_set_fmpz(t, P->w + i);
            arb_log(p->L + i, t, BPREC);
        } else {
            arb_zero(p->L + i);
        }
        arb_mul(t, p->nrm + i, B, BPREC);
        arb_mul_2exp_si(t, t, -1);
        arb_add(p->L + i, p->L + i, t, BPREC);
        double u = arbd_ub(p->L + i), l = arbd_lb(p->L + i);
        if (u > p->Lmax)
            p->Lmax = u;
        if (l < p->Lmin)
            p->Lmin = l;
    }
    arb_clear(t);
    arb_clear(B);
    return AR_OK;
}

/* Grid cell size for evaluated squared radius phi2, and Dlow: a lower bound
 * of |y - x_j|^2 for every point j that is not evaluated (not visited, or
 * visited with fl(D) >= phi2; fl(D) has relative error < 2^-40). */
double ball_cell_size(double phi2)
{
    return sqrt(phi2) * (1.0 + 0x1p-30) + 0x1p-39;
}

double ball_dlow_of(double phi2)
{
    double h = ball_cell_size(phi2);
    double a = h * (1.0 - 0x1p-40) - 0x1p-40;
    double dl = a * a * (1.0 - 0x1p-50);
    double b = phi2 * (1.0 - 0x1p-40);
    return fmin(dl, b);
}

double ball_dist2(const double *a, const double *b, size_t d)
{
    double s = 0.0;
    for (size_t c = 0; c < d; c++) {
        double u = a[c] - b[c];
        s += u * u;
    }
    return s;
}

/* ---- evaluation around one row ------------------------------------------ */


int ball_visit_fn(size_t j, void *ctx)
{
    visit_t *v = ctx;
    const prep_t *p = v->p;
    size_t d = p->d, i = v->row;
    double D = ball_dist2(p->P->x + i * d, p->P->x + j * d, d);
    if (!(D < v->phi2))
        return 0;
    v->count++;
    /* exponent L_j - L_i - beta D_ij / 2, D_ij = |x_i|^2 + |x_j|^2 - 2 x_i.x_j exactly */
    arb_dot(v->t, NULL, 0, p->X + i * d, 1, p->X + j * d, 1, (slong)d, BPREC);
    arb_mul_2exp_si(v->t, v->t, 1);
    arb_sub(v->t, p->nrm + i, v->t, BPREC);
    arb_add(v->t, v->t, p->nrm + j, BPREC);
    arb_mul(v->t, v->t, v->B, BPREC);
    arb_mul_2exp_si(v->t, v->t, -1);
    arb_neg(v->t, v->t);
    arb_add(v->t, v->t, p->L + j, BPREC);
    arb_sub(v->t, v->t, v->rel_lmax ? v->Lm : p->L + i, BPREC);
    arb_exp(v->t, v->t, BPREC);
    if (!v->block || v->block[j] == v->own)
        arb_add(v->in, v->in, v->t, BPREC);
    else
        arb_add(v->out, v->out, v->t, BPREC);
    return 0;
}

void ball_visit_init(visit_t *v, const prep_t *p, double phi2)
{
    memset(v, 0, sizeof *v);
    v->p = p;
    v->phi2 = phi2;
    arb_init(v->in);
    arb_init(v->out);
    arb_init(v->t);
    arb_init(v->B);
    arb_init(v->Lm);
    arb_set_d(v->B, p->beta);
    arb_set_d(v->Lm, p->Lmax);
}

void ball_visit_clear(visit_t *v)
{
    arb_clear(v->in);
    arb_clear(v->out);
    arb_clear(v->t);
    arb_clear(v->B);
    arb_clear(v->Lm);
}

/* Tail bound (count) * exp(Lmax - L_row - beta Dlow / 2) into res. */
void ball_tail_bound(arb_t res, const prep_t *p, size_t row, size_t count, double dlow)
{
    arb_t t;
    arb_init(t);
    arb_set_d(res, dlow);
    arb_set_d(t, p->beta);
    arb_mul(res, res, t, BPREC);
    arb_mul_2exp_si(res, res, -1);
    arb_neg(res, res);
    arb_set_d(t, p->Lmax);
    arb_add(res, res, t, BPREC);
    arb_sub(res, res, p->L + row, BPREC);
    arb_exp(res, res, BPREC);
    arb_mul_ui(res, res, (ulong)count, BPREC);
    arb_clear(t);
}
