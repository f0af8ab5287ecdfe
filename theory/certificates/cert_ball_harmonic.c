/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_ball_harmonic.c -- the candidates of the shells-continuum
 * certificate and the search over them (see cert_ball_harmonic.h).
 *
 * Candidate: for each degree l the weighted matrix S_l = diag(a) C^l diag(g)
 * with a_q = w_q / Z_q (w = row weights, 1 at first) is factored by an SVD
 * (a floating-point candidate only); keeping the singular values above a
 * threshold tau gives X_l = diag(1/a) U_k S_k, Y_l = diag(1/g) V_k, rank
 * R_l = k.  Fewer degrees and ranks as tau grows.  Every probed tau is
 * certified by bh_certify; the search keeps the smallest certified rank. */
#include "theory/certificates/cert_ball_harmonic.h"
#include "theory/certificates/cert_ball_harmonic_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "base/clock.h"
#include "numerics/linalg.h"

void ball_harmonic_opts_default(ball_harmonic_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->reweight = 2;
    o->pieces_near = 16;
    o->tail_rel = 1e-6;
}

void ball_harmonic_cert_clear(ball_harmonic_cert_t *c)
{
    if (!c)
        return;
    if (c->X)
        for (size_t l = 0; l <= c->Lp; l++) {
            free(c->X[l]);
            free(c->Y[l]);
        }
    free(c->X);
    free(c->Y);
    free(c->R);
    free(c->row_err);
    memset(c, 0, sizeof *c);
}

typedef struct {
    const bh_setup_t *B;
    double *a;                /* Q row scalings of the current weighting */
    double **U, **s, **VT;    /* per degree: SVD of diag(a) C^l diag(g) */
} svd_set_t;

static void svd_set_clear(svd_set_t *V, size_t M)
{
    if (V->U)
        for (size_t l = 0; l < M; l++) {
            free(V->U[l]);
            free(V->s[l]);
            free(V->VT[l]);
        }
    free(V->U);
    free(V->s);
    free(V->VT);
    free(V->a);
    memset(V, 0, sizeof *V);
}

static ar_status svd_set_init(svd_set_t *V, const bh_setup_t *B, const double *roww)
{
    size_t Q = B->Q, M = B->M;
    memset(V, 0, sizeof *V);
    V->B = B;
    V->a = ar_calloc(Q, sizeof(double), "row scalings");
    V->U = ar_calloc(M, sizeof(double *), "SVD factors");
    V->s = ar_calloc(M, sizeof(double *), "SVD factors");
    V->VT = ar_calloc(M, sizeof(double *), "SVD factors");
    double *S = ar_calloc(Q * Q, sizeof(double), "weighted degree matrix");
    if (!V->a || !V->U || !V->s || !V->VT || !S) {
        free(S);
        svd_set_clear(V, M);
        return AR_ENOMEM;
    }
    for (size_t q = 0; q < Q; q++)
        V->a[q] = roww[q] / B->Zmid[q];
    ar_status st = AR_OK;
    for (size_t l = 0; l < M && st == AR_OK; l++) {
        const double *Cl = B->C + l * B->QQ;
        for (size_t qp = 0; qp < Q; qp++)
            for (size_t q = 0; q < Q; q++)
                S[q + Q * qp] = V->a[q] * Cl[q + Q * qp] * B->g[qp];
        st = la_svd(Q, Q, S, &V->U[l], &V->s[l], &V->VT[l]);
    }
    free(S);
    if (st)
        svd_set_clear(V, M);
    return st;
}

/* Factors for threshold tau (X, Y arrays of M pointers, allocated here). */
static ar_status build_candidate(const svd_set_t *V, double tau, size_t *R, double **X, double **Y, size_t *rank)
{
    const bh_setup_t *B = V->B;
    size_t Q = B->Q, M = B->M;
    *rank = 0;
    for (size_t l = 0; l < M; l++) {
        free(X[l]);
        free(Y[l]);
        X[l] = Y[l] = NULL;
        size_t k = 0;
        while (k < Q && V->s[l][k] > tau)
            k++;
        R[l] = k;
        if (!k)
            continue;
        X[l] = ar_calloc(Q * k, sizeof(double), "candidate factors");
        Y[l] = ar_calloc(Q * k, sizeof(double), "candidate factors");
        if (!X[l] || !Y[l])
            return AR_ENOMEM;
        for (size_t j = 0; j < k; j++)
            for (size_t q = 0; q < Q; q++) {
                X[l][q + Q * j] = V->U[l][q + Q * j] * V->s[l][j] / V->a[q];
                Y[l][q + Q * j] = V->VT[l][j + Q * q] / B->g[q];
            }
        *rank += (size_t)B->Nl[l] * k;
    }
    return AR_OK;
}

typedef struct {
    size_t rank;
    double err, tau, tail_max;
    size_t *R;
    double **X, **Y;
    double *row;
    int ok;
} best_t;

/* One probe: build and certify; keep it in *best if certified and smaller. */
static ar_status probe(const svd_set_t *V, double tau, double eps, best_t *best, size_t *R, double **X, double **Y,
                       double *row, unsigned *evals, int *ok)
{
    const bh_setup_t *B = V->B;
    size_t rank;
    ar_status st = build_candidate(V, tau, R, X, Y, &rank);
    if (st)
        return st;
    double err, tm;
    st = bh_certify(B, R, X, Y, row, &err, &tm);
    if (st)
        return st;
    (*evals)++;
    *ok = err <= eps;
    if (*ok && (!best->ok || rank < best->rank || (rank == best->rank && err < best->err))) {
        best->ok = 1;
        best->rank = rank;
        best->err = err;
        best->tau = tau;
        best->tail_max = tm;
        memcpy(best->R, R, B->M * sizeof(size_t));
        memcpy(best->row, row, B->Q * sizeof(double));
        for (size_t l = 0; l < B->M; l++) {
            free(best->X[l]);
            free(best->Y[l]);
            best->X[l] = X[l];
            best->Y[l] = Y[l];
            X[l] = Y[l] = NULL;
        }
    } else if (!best->ok && (best->err == 0 || err < best->err)) {
        best->err = err;                       /* the best bound seen, for the report */
        memcpy(best->row, row, B->Q * sizeof(double));
    }
    return AR_OK;
}

/* Bisection in log tau for the largest tau that certifies: on [1e-14, 1],
 * or, when tau0 > 0 (a later round), first on [tau0 / 8, tau0 * 8], falling
 * back to the full range when that bracket does not straddle the answer. */
static ar_status search(const svd_set_t *V, double eps, double tau0, best_t *best, unsigned *evals)
{
    const bh_setup_t *B = V->B;
    size_t M = B->M, Q = B->Q;
    size_t *R = ar_calloc(M, sizeof(size_t), "ranks");
    double **X = ar_calloc(M, sizeof(double *), "factors");
    double **Y = ar_calloc(M, sizeof(double *), "factors");
    double *row = ar_calloc(Q, sizeof(double), "row errors");
    ar_status st = (!R || !X || !Y || !row) ? AR_ENOMEM : AR_OK;
    double lo = log(1e-14), hi = 0.0;     /* log tau: lo certifies (checked), hi does not */
    int ok = 0, okhi = 1;
    if (st == AR_OK && tau0 > 0) {
        double l8 = log(8.0), a = log(tau0) - l8, b = fmin(log(tau0) + l8, 0.0);
        int oka = 0, okb = 1;
        st = probe(V, exp(b), eps, best, R, X, Y, row, evals, &okb);
        if (st == AR_OK && !okb)
            st = probe(V, exp(a), eps, best, R, X, Y, row, evals, &oka);
        if (st == AR_OK && !okb && oka) {
            lo = a;
            hi = b;
            okhi = 0;
        }
    }
    if (st == AR_OK && okhi)
        st = probe(V, exp(hi), eps, best, R, X, Y, row, evals, &ok);
    if (st == AR_OK && !ok) {
        if (okhi)
            st = probe(V, exp(lo), eps, best, R, X, Y, row, evals, &ok);
        else
            ok = 1;                          /* lo certified in the warm bracket */
        if (st == AR_OK && ok) {
            size_t prev_rank = (size_t)-1;
            for (int it = 0; it < 30 && st == AR_OK && hi - lo > 0.02; it++) {
                double mid = 0.5 * (lo + hi);
                st = probe(V, exp(mid), eps, best, R, X, Y, row, evals, &ok);
                if (st)
                    break;
                size_t rk = 0;
                for (size_t l = 0; l < M; l++)
                    rk += (size_t)B->Nl[l] * R[l];
                if (ok)
                    lo = mid;
                else
                    hi = mid;
                if (rk == prev_rank && hi - lo < 0.05)
                    break;
                prev_rank = rk;
            }
        }
    }
    if (X)
        for (size_t l = 0; l < M; l++) {
            free(X[l]);
            free(Y[l]);
        }
    free(X);
    free(Y);
    free(R);
    free(row);
    return st;
}

ar_status ball_harmonic_upper(const ball_shells_t *S, double eps, const ball_harmonic_opts_t *o,
                              ball_harmonic_cert_t *out)
{
    double t0 = clock_now();
    memset(out, 0, sizeof *out);
    ball_harmonic_opts_t od;
    ball_harmonic_opts_default(&od);
    if (!o)
        o = &od;
    if (!(eps > 0 && eps < 1)) {
        ar_error_set("ball harmonic certificate: eps=%g must be in (0, 1)", eps);
        return AR_EINVAL;
    }
    if (o->reweight < 0 || o->reweight > 4 || !(o->tail_rel >= 0 && o->tail_rel < 1)) {
        ar_error_set("ball harmonic certificate: reweight in 0..4 and 0 <= tail_rel < 1 required");
        return AR_EINVAL;
    }
    bh_setup_t B;
    ar_status st = bh_setup_init(&B, S, eps, o->tail_rel > 0 ? o->tail_rel : 1e-6,
                                 o->pieces_near ? o->pieces_near : 16);
    if (st)
        return st;
    size_t Q = B.Q, M = B.M;
    best_t best;
    memset(&best, 0, sizeof best);
    best.R = ar_calloc(M, sizeof(size_t), "ranks");
    best.X = ar_calloc(M, sizeof(double *), "factors");
    best.Y = ar_calloc(M, sizeof(double *), "factors");
    best.row = ar_calloc(Q, sizeof(double), "row errors");
    double *w = ar_calloc(Q, sizeof(double), "row weights");
    if (!best.R || !best.X || !best.Y || !best.row || !w)
        st = AR_ENOMEM;
    for (size_t q = 0; q < Q && w; q++)
        w[q] = 1.0;
    unsigned evals = 0;
    for (int round = 0; st == AR_OK && round <= o->reweight; round++) {
        svd_set_t V;
        st = svd_set_init(&V, &B, w);
        if (st)
            break;
        st = search(&V, eps, round ? best.tau : 0.0, &best, &evals);
        svd_set_clear(&V, M);
        if (st || !best.ok)
            break;
        /* re-weight the rows by their certified errors (sqrt damping) */
        double mean = 0;
        for (size_t q = 0; q < Q; q++)
            mean += best.row[q];
        mean /= (double)Q;
        for (size_t q = 0; q < Q; q++)
            w[q] *= sqrt(fmax(best.row[q], 1e-3 * mean) / mean);
    }
    if (st == AR_OK) {
        out->d = B.d;
        out->Q = Q;
        out->beta = B.beta;
        out->eps = eps;
        out->h_sqrt_beta = S->h_sqrt_beta;
        out->Lp = B.Lp;
        out->pieces = B.npieces;
        out->evals = evals;
        out->certified = best.ok;
        out->err = best.err;
        out->tau = best.tau;
        out->tail_max = best.tail_max;
        out->rank = best.ok ? best.rank : 0;
        out->R = best.R;
        out->row_err = best.row;
        best.R = NULL;
        best.row = NULL;
        for (size_t l = 0; l < M; l++)
            if (out->R[l])
                out->L = l;
        if (o->keep_factors) {
            out->X = best.X;
            out->Y = best.Y;
            best.X = best.Y = NULL;
        }
    }
    if (best.X)
        for (size_t l = 0; l < M; l++) {
            free(best.X[l]);
            free(best.Y[l]);
        }
    free(best.X);
    free(best.Y);
    free(best.R);
    free(best.row);
    free(w);
    bh_setup_clear(&B);
    out->seconds = clock_now() - t0;
    return st;
}
