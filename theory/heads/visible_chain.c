/* SPDX-License-Identifier: GPL-3.0-or-later */
/* visible_chain.c -- the chain rank_eps(A) <= bracket of A_k at eps -+ eta(k): the
 * rank-k factors as point sets and the brackets through them
 * (THEORY 3.1, 3.3; proofs-notes/claim-T.md). */
#include "theory/heads/visible.h"
#include "theory/heads/visible_impl.h"
#include "theory/brackets/bracket_status.h"

#include <math.h>
#include <stdlib.h>

#include <string.h>

ar_status visible_factors(const visible_t *v, size_t k, const fmpz *w, pointset_t *Qk, pointset_t *Kk)
{
    memset(Qk, 0, sizeof *Qk);
    memset(Kk, 0, sizeof *Kk);
    if (!v || !v->qk_ || k == 0 || k > v->nfac_) {
        ar_error_set("visible_factors: rank %zu out of range [1, %zu]", k, v ? v->nfac_ : 0);
        return AR_EINVAL;
    }
    ar_status st;
    if ((st = pointset_init(Qk, v->m, k)) || (st = pointset_init(Kk, v->n, k)))
        goto fail;
    for (size_t i = 0; i < v->m; i++)
        for (size_t c = 0; c < k; c++)
            Qk->x[i * k + c] = v->qk_[i + c * v->m];
    for (size_t j = 0; j < v->n; j++)
        for (size_t c = 0; c < k; c++)
            Kk->x[j * k + c] = v->kk_[j + c * v->n];
    if (w) {
        if ((st = pointset_alloc_weights(Kk)))
            goto fail;
        for (size_t j = 0; j < v->n; j++)
            fmpz_set(Kk->w + j, w + j);
    }
    pointset_set_provenance(Qk, "rank-%zu logit factor U S", k);
    pointset_set_provenance(Kk, "rank-%zu logit factor V", k);
    return AR_OK;
fail:
    pointset_clear(Qk);
    pointset_clear(Kk);
    return st;
}

ar_status visible_upper_via(visible_t *v, size_t k, const fmpz *w, double eps,
                            const bracket_opts_t *bo, size_t *upper, double *eta_used, bracket_t *b)
{
    ar_status st;
    double e;
    if (!(eps > 0 && eps < 1)) {
        ar_error_set("visible_upper_via: eps must satisfy 0 < eps < 1 (got %g)", eps);
        return AR_EINVAL;
    }
    if ((st = visible_eta(v, k, &e)))
        return st;
    if (eta_used)
        *eta_used = e;
    if (!(e < eps)) {
        ar_error_set("visible_upper_via: eta(%zu) = %.6g leaves no slack below eps = %g", k, e, eps);
        return AR_EINVAL;
    }
    double eps2 = fround_sub_down(eps, e);              /* eps2 + eta <= eps */
    if (!(eps2 > 0)) {
        ar_error_set("visible_upper_via: no slack below eps");
        return AR_EINVAL;
    }
    if (k == 0) {
        /* A_0 = 1 w^T / sum w has rank 1 */
        *upper = 1;
        if (b)
            memset(b, 0, sizeof *b);
        return AR_OK;
    }
    pointset_t Qk, Kk;
    if ((st = visible_factors(v, k, w, &Qk, &Kk)))
        return st;
    bracket_t bb;
    st = bracket_compute(&Qk, &Kk, 1.0, eps2, bo, &bb);
    pointset_clear(&Qk);
    pointset_clear(&Kk);
    if (st)
        return st;
    *upper = bb.upper;
    if (b)
        *b = bb;
    return AR_OK;
}

ar_status visible_bracket_via(visible_t *v, size_t k, const fmpz *w, double eps, const bracket_opts_t *bo,
                              size_t *lower, size_t *upper, double *eta_used, ar_cert_status_t *status)
{
    ar_status st;
    double e;
    if (!(eps > 0 && eps < 1)) {
        ar_error_set("visible_bracket_via: eps must satisfy 0 < eps < 1 (got %g)", eps);
        return AR_EINVAL;
    }
    if (k == 0) {
        ar_error_set("visible_bracket_via: rank k must be >= 1");
        return AR_EINVAL;
    }
    if ((st = visible_eta(v, k, &e)))
        return st;
    if (eta_used)
        *eta_used = e;
    double eps_up = fround_sub_down(eps, e);   /* eps_up + eta <= eps */
    double eps_lo = fround_add_up(eps, e);     /* eps_lo - eta >= eps */
    if (!(eps_up > 0) || !(eps_lo < 1)) {
        ar_error_set("visible_bracket_via: eta(%zu) = %.6g leaves no slack around eps = %g", k, e, eps);
        return AR_EINVAL;
    }
    bracket_opts_t o1, o2;
    if (bo)
        o1 = *bo;
    else
        bracket_opts_default(&o1);
    o2 = o1;
    o1.use_lower = 0;                          /* upper run */
    o2.use_svd = o2.use_symeig = o2.use_pchol = 0;   /* lower run */
    o2.use_lower = 1;
    pointset_t Qk, Kk;
    if ((st = visible_factors(v, k, w, &Qk, &Kk)))
        return st;
    bracket_t b1, b2;
    st = bracket_compute(&Qk, &Kk, 1.0, eps_up, &o1, &b1);
    if (!st)
        st = bracket_compute(&Qk, &Kk, 1.0, eps_lo, &o2, &b2);
    pointset_clear(&Qk);
    pointset_clear(&Kk);
    if (st)
        return st;
    *upper = b1.upper;
    *lower = b2.lower;
    if (status)   /* both runs bracket A_k: the one rule on the combined ends (b1 has no lower, b2 no upper) */
        *status = bracket_status_decide(b2.lower, b2.lo.method, b1.upper, b1.up.method);
    return AR_OK;
}
