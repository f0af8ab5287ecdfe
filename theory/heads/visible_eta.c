/* SPDX-License-Identifier: GPL-3.0-or-later */
/* visible_eta.c -- the certified output error eta(k) of the rank-k logit truncation
 * and the tolerance-indexed dimension r(tau)
 * (THEORY 3.1, 3.3; proofs-notes/claim-T.md). */
#include "theory/heads/visible.h"
#include "theory/heads/visible_impl.h"

#include <math.h>
#include <stdlib.h>

#include <fenv.h>
#include "theory/certificates/perturb.h"

/* max_i bound(osc(L_i - P_i)) from the enclosures, rigorous. */
static double eta_from_enclosures(size_t m, size_t n, const double *llo, const double *lhi,
                                  const double *plo, const double *phi, double *hi, double *lo)
{
    extreme_ctx_t eh = { m, n, lhi, plo, +1, hi };   /* >= max_j (L - P)_ij */
    extreme_ctx_t el = { m, n, llo, phi, -1, lo };   /* <= min_j (L - P)_ij */
    diff_ctx_t dc = { m, hi, lo };                   /* >= osc */
    fround_run(FE_UPWARD, dir_row_extreme, &eh);
    fround_run(FE_DOWNWARD, dir_row_extreme, &el);
    fround_run(FE_UPWARD, dir_diff, &dc);
    double eta = 0.0;
    for (size_t i = 0; i < m; i++) {
        double o = hi[i];
        if (isnan(o))
            o = INFINITY;
        double b = perturb_softmax_l1_bound(o > 0 ? o : 0.0);
        if (b > eta)
            eta = b;
    }
    return eta;
}

ar_status visible_eta(visible_t *v, size_t k, double *eta)
{
    if (!v || !v->q_ || k > v->nsigma) {
        ar_error_set("visible_eta: rank %zu out of range [0, %zu]", k, v ? v->nsigma : 0);
        return AR_EINVAL;
    }
    size_t m = v->m, n = v->n;
    if (k < v->neta) {
        *eta = v->eta[k];
        return AR_OK;
    }
    double *hi = ar_calloc(m, sizeof *hi, "row maxima"), *lo = ar_calloc(m, sizeof *lo, "row minima");
    if (!hi || !lo) {
        free(hi); free(lo);
        return AR_ENOMEM;
    }
    if (!v->llo_) {
        v->llo_ = ar_calloc(m * n, sizeof(double), "logit lower bounds");
        v->lhi_ = ar_calloc(m * n, sizeof(double), "logit upper bounds");
        v->plo_ = ar_calloc(m * n, sizeof(double), "truncation lower bounds");
        v->phi_ = ar_calloc(m * n, sizeof(double), "truncation upper bounds");
        if (!v->llo_ || !v->lhi_ || !v->plo_ || !v->phi_) {
            free(hi); free(lo);
            return AR_ENOMEM;
        }
        gram_ctx_t glo = { m, n, v->dh, v->q_, v->k_, v->beta, v->llo_ };
        gram_ctx_t ghi = { m, n, v->dh, v->q_, v->k_, v->beta, v->lhi_ };
        fround_run(FE_DOWNWARD, dir_gram, &glo);
        fround_run(FE_UPWARD, dir_gram, &ghi);
        /* P_0 = 0 (calloc) */
        v->eta[0] = eta_from_enclosures(m, n, v->llo_, v->lhi_, v->plo_, v->phi_, hi, lo);
        v->neta = 1;
    }
    while (v->neta <= k) {
        size_t c = v->neta - 1;                       /* add column c: P_{c+1} */
        rank1_ctx_t rlo = { m, n, v->plo_, v->qk_ + c * m, v->kk_ + c * n };
        rank1_ctx_t rhi = { m, n, v->phi_, v->qk_ + c * m, v->kk_ + c * n };
        fround_run(FE_DOWNWARD, dir_rank1, &rlo);
        fround_run(FE_UPWARD, dir_rank1, &rhi);
        v->eta[v->neta] = eta_from_enclosures(m, n, v->llo_, v->lhi_, v->plo_, v->phi_, hi, lo);
        v->neta++;
    }
    free(hi); free(lo);
    *eta = v->eta[k];
    return AR_OK;
}

ar_status visible_check_taus(const double *taus, size_t ntau)
{
    for (size_t t = 0; t < ntau; t++)
        if (!(taus[t] > 0 && taus[t] < 2)) {
            ar_error_set("tau must satisfy 0 < tau < 2 (got %g)", taus[t]);
            return AR_EINVAL;
        }
    return AR_OK;
}

ar_status visible_rtau(visible_t *v, const double *taus, size_t ntau, size_t *r_tau, double *eta_tau)
{
    ar_status st;
    if (!v || !v->q_) {
        ar_error_set("visible_rtau: not computed");
        return AR_EINVAL;
    }
    if ((st = visible_check_taus(taus, ntau)))
        return st;
    for (size_t t = 0; t < ntau; t++) {
        size_t found = VISIBLE_NONE;
        double e = NAN;
        for (size_t k = 0; k <= v->nsigma; k++) {
            double ek;
            if ((st = visible_eta(v, k, &ek)))
                return st;
            if (ek <= taus[t]) {
                found = k;
                e = ek;
                break;
            }
        }
        if (r_tau)
            r_tau[t] = found;
        if (eta_tau)
            eta_tau[t] = e;
    }
    return AR_OK;
}
