/* SPDX-License-Identifier: GPL-3.0-or-later */
/* visible_bilinear.c -- the weights-only mode: r and r(tau) of the bilinear form
 * W_Q W_K^T for inputs of norm <= R
 * (THEORY 3.1, 3.3; proofs-notes/claim-T.md). */
#include "theory/heads/visible.h"
#include "theory/heads/visible_impl.h"

#include <math.h>
#include <stdlib.h>

#include <fenv.h>
#include <stdint.h>
#include <string.h>
#include <flint/fmpz_mat.h>
#include "numerics/linalg.h"
#include "theory/certificates/perturb.h"

/* ---------------------------------------------------------------------
 * Weights-only mode.
 * --------------------------------------------------------------------- */

void visible_bilinear_clear(visible_bilinear_t *v)
{
    if (!v)
        return;
    free(v->sigma); free(v->eta); free(v->normb);
    free(v->m_); free(v->u_); free(v->vt_); free(v->s_);
    memset(v, 0, sizeof *v);
}

ar_status visible_bilinear(const double *WQ, const double *WK, size_t dmodel, size_t dh,
                           double beta, double radius, const visible_opts_t *o, visible_bilinear_t *v)
{
    memset(v, 0, sizeof *v);
    visible_opts_t od;
    visible_opts_default(&od);
    if (o) {
        if (o->tol_safety > 0)
            od.tol_safety = o->tol_safety;
        if (o->exact_max > 0)
            od.exact_max = o->exact_max;
    }
    if (!WQ || !WK || dmodel == 0 || dh == 0) {
        ar_error_set("visible: weight matrices must be non-empty");
        return AR_EINVAL;
    }
    if (!isfinite(beta) || beta < 0) {
        ar_error_set("visible: beta must be finite and >= 0 (got %g)", beta);
        return AR_EINVAL;
    }
    if (!isfinite(radius) || !(radius > 0)) {
        ar_error_set("visible: radius must be finite and > 0 (got %g)", radius);
        return AR_EINVAL;
    }
    ar_status st;
    if ((st = visible_check_finite(WQ, dmodel * dh, "W_Q")) || (st = visible_check_finite(WK, dmodel * dh, "W_K")))
        return st;
    if (dmodel > 8192) {
        ar_error_set("visible: model dimension %zu too large for the dense bilinear form (max 8192)", dmodel);
        return AR_EINVAL;
    }
    size_t N = dmodel;
    v->dmodel = dmodel; v->dh = dh; v->beta = beta; v->radius = radius;
    v->nsigma = dmodel < dh ? dmodel : dh;
    v->r_exact = -1;
    st = AR_ENOMEM;
    v->m_ = ar_calloc(N * N, sizeof(double), "bilinear form");
    v->sigma = ar_calloc(v->nsigma, sizeof(double), "singular values");
    v->eta = ar_calloc(v->nsigma + 1, sizeof(double), "eta table");
    v->normb = ar_calloc(v->nsigma + 1, sizeof(double), "norm bounds");
    if (!v->m_ || !v->sigma || !v->eta || !v->normb)
        goto fail;
    double qf = 0.0, kf = 0.0;
    for (size_t t = 0; t < N * dh; t++) {
        qf += WQ[t] * WQ[t];
        kf += WK[t] * WK[t];
    }
    gram_ctx_t gn = { N, N, dh, WQ, WK, 1.0, v->m_ };
    fround_run(FE_TONEAREST, dir_gram, &gn);         /* the candidate, to nearest */
    for (size_t t = 0; t < N * N; t++)
        if (!isfinite(v->m_[t])) {
            ar_error_set("visible: W_Q W_K^T overflows the double range");
            st = AR_EINVAL;
            goto fail;
        }
    if ((st = la_svd(N, N, v->m_, &v->u_, &v->s_, &v->vt_)))
        goto fail;
    memcpy(v->sigma, v->s_, v->nsigma * sizeof(double));
    v->tol = od.tol_safety * UNIT_ROUNDOFF * ((double)N * v->s_[0] + (double)(dh + 2) * sqrt(qf) * sqrt(kf));
    v->r = 0;
    if (beta > 0)
        for (size_t k = 0; k < v->nsigma; k++)
            if (v->s_[k] > v->tol)
                v->r = k + 1;
    if (beta == 0)
        v->r_exact = 0;
    else if (od.exact_max == SIZE_MAX || (N * N <= od.exact_max / dh && od.exact_max > 1))
        v->r_exact = visible_exact_rank_product(WQ, N, WK, N, dh, 0);
    /* the certified part uses the exact product: keep W's */
    double *w2 = realloc(v->m_, 2 * N * N * sizeof(double) + 2 * N * dh * sizeof(double));
    if (!w2) {
        ar_error_set("visible: out of memory for the bilinear enclosure");
        goto fail;
    }
    v->m_ = w2;
    memcpy(v->m_ + 2 * N * N, WQ, N * dh * sizeof(double));
    memcpy(v->m_ + 2 * N * N + N * dh, WK, N * dh * sizeof(double));
    return AR_OK;
fail:
    visible_bilinear_clear(v);
    return st;
}

/* certified eta(k) for the bilinear form, k = 0..nsigma, all at once */
static ar_status bilinear_eta_all(visible_bilinear_t *v)
{
    if (v->neta)
        return AR_OK;
    size_t N = v->dmodel, dh = v->dh;
    const double *WQ = v->m_ + 2 * N * N, *WK = WQ + N * dh;
    double *mlo = v->m_, *mhi = v->m_ + N * N;     /* enclosure of E = M - M_k, updated in place */
    double *a = ar_calloc(N, sizeof *a, "column"), *rs = ar_calloc(N, sizeof *rs, "row sums");
    if (!a || !rs) {
        free(a); free(rs);
        return AR_ENOMEM;
    }
    gram_ctx_t glo = { N, N, dh, WQ, WK, 1.0, mlo }, ghi = { N, N, dh, WQ, WK, 1.0, mhi };
    fround_run(FE_DOWNWARD, dir_gram, &glo);
    fround_run(FE_UPWARD, dir_gram, &ghi);
    for (size_t k = 0; k <= v->nsigma; k++) {
        if (k > 0) {
            /* E -= u_c s_c v_c^T: lower bound subtracts an upper bound of the product */
            size_t c = k - 1;
            for (size_t i = 0; i < N; i++)
                a[i] = -v->u_[i + c * N] * v->s_[c];   /* exact negation of a double product: stored value */
            double *b = rs;
            for (size_t j = 0; j < N; j++)
                b[j] = v->vt_[c + j * N];
            rank1_ctx_t rlo = { N, N, mlo, a, b }, rhi = { N, N, mhi, a, b };
            fround_run(FE_DOWNWARD, dir_rank1, &rlo);
            fround_run(FE_UPWARD, dir_rank1, &rhi);
        }
        norms_ctx_t nc = { N, mlo, mhi, rs, 0, 0, 0, 0 };
        fround_run(FE_UPWARD, dir_norms, &nc);
        double B = nc.fro < nc.mixed ? nc.fro : nc.mixed;
        /* osc <= 2 beta R^2 B, every product rounded up (all factors >= 0) */
        double osc = fround_mul_up(fround_mul_up(fround_mul_up(2.0, v->beta), fround_mul_up(v->radius, v->radius)), B);
        v->normb[k] = B;
        v->eta[k] = perturb_softmax_l1_bound(isnan(osc) ? INFINITY : osc);
    }
    v->neta = v->nsigma + 1;
    free(a); free(rs);
    return AR_OK;
}

ar_status visible_bilinear_rtau(visible_bilinear_t *v, const double *taus, size_t ntau,
                                size_t *r_tau, double *eta_tau)
{
    ar_status st;
    if (!v || !v->m_) {
        ar_error_set("visible_bilinear_rtau: not computed");
        return AR_EINVAL;
    }
    if ((st = visible_check_taus(taus, ntau)) || (st = bilinear_eta_all(v)))
        return st;
    for (size_t t = 0; t < ntau; t++) {
        size_t found = VISIBLE_NONE;
        double e = NAN;
        for (size_t k = 0; k <= v->nsigma; k++)
            if (v->eta[k] <= taus[t]) {
                found = k;
                e = v->eta[k];
                break;
            }
        if (r_tau)
            r_tau[t] = found;
        if (eta_tau)
            eta_tau[t] = e;
    }
    return AR_OK;
}
