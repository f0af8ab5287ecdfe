/* SPDX-License-Identifier: GPL-3.0-or-later */
/* claim_t.c -- claim T's planted heads (see claim_t.h). */
#include "theory/claims/claim_t.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "constructions/pointsets/head.h"
#include "numerics/blas_select.h"
#include "numerics/clock.h"
#include "theory/brackets/bracket.h"
#include "theory/heads/visible.h"

static const claim_t_case_t cases[] = {
    { 1, 16, 1e-3 }, { 2, 16, 1e-3 }, { 2, 64, 1e-2 }, { 3, 64, 1e-4 }, { 3, 64, 1e-3 }, { 4, 64, 1e-3 },
};

const claim_t_case_t *claim_t_cases(size_t *n)
{
    *n = sizeof cases / sizeof cases[0];
    return cases;
}

void claim_t_case_params(const claim_t_case_t *c, double *beta, double *eps)
{
    *beta = 1.0 / sqrt((double)c->dh);
    *eps = 0.1;
}

/* The noisy head and its noise-free twin (same seed: identical queries). */
static ar_status build(const claim_t_case_t *c, int noisy, pointset_t *Qh, pointset_t *Kh)
{
    pointset_t Q = { 0 }, K = { 0 };
    ar_status st = head_random_ball(&Q, &K, c->r0, 200, 200, 77 + c->r0);
    if (st)
        return st;
    for (size_t t = 0; t < 200 * c->r0; t++) {
        Q.x[t] *= 4.0;
        K.x[t] *= 4.0;
    }
    head_embed_t e = { .dh = c->dh, .key_offset = 2.0, .query_invisible = 1.0, .nnoise = noisy ? 10 : 0,
                       .delta = noisy ? c->delta : 0.0, .rotate = HEAD_ROT_RANDOM, .seed = 5 + c->dh };
    st = head_embed(&Q, &K, &e, Qh, Kh);
    pointset_clear(&Q);
    pointset_clear(&K);
    return st;
}

static ar_status compute(size_t i, claim_t_record_t *out)
{
    size_t nc;
    const claim_t_case_t *c = claim_t_cases(&nc);
    memset(out, 0, sizeof *out);
    if (i >= nc) {
        ar_error_set("claim T: no case %zu (there are %zu)", i, nc);
        return AR_EINVAL;
    }
    c += i;
    double t0 = clock_now();
    pointset_t Q = { 0 }, K = { 0 }, Q0 = { 0 }, K0 = { 0 };
    visible_t v = { 0 };
    ar_status st;
    if ((st = build(c, 1, &Q, &K)) || (st = build(c, 0, &Q0, &K0)))
        goto done;
    size_t m = Q.n, n = K.n, dh = c->dh;
    double beta, eps;
    claim_t_case_params(c, &beta, &eps);
    out->r0 = c->r0;
    out->dh = dh;
    out->delta = c->delta;
    out->beta = beta;
    out->eps = eps;
    out->twin_same = memcmp(Q.x, Q0.x, m * dh * sizeof(double)) == 0;
    double eta_noise = 0.0;
    for (size_t a = 0; a < m; a++) {
        double hi = -INFINITY, lo = INFINITY;
        for (size_t j = 0; j < n; j++) {
            double s = 0.0;
            for (size_t b = 0; b < dh; b++)
                s += Q.x[a * dh + b] * (K.x[j * dh + b] - K0.x[j * dh + b]);
            s *= beta;
            hi = fmax(hi, s);
            lo = fmin(lo, s);
        }
        eta_noise = fmax(eta_noise, 2 * tanh((hi - lo) / 4));
    }
    out->eta_noise = eta_noise;
    if ((st = visible_compute(Q.x, m, K.x, n, dh, beta, NULL, &v)) ||
        (st = visible_eta(&v, c->r0 - 1, &out->eta_below)) || (st = visible_eta(&v, c->r0, &out->eta_at)) ||
        (st = visible_eta(&v, c->r0 + 1, &out->eta_above)))
        goto done;
    out->r = v.r;
    static const double mult[] = { 0.1, 0.25, 0.5, 2.0, 4.0, 16.0, 64.0 };
    size_t nt = 0;
    for (size_t t = 0; t < sizeof mult / sizeof mult[0]; t++)
        if (mult[t] * eta_noise < 2)
            out->tau[nt++] = mult[t] * eta_noise;
    out->tau[nt++] = 0.05;
    out->ntau = nt;
    if ((st = visible_rtau(&v, out->tau, nt, out->rt, out->et)))
        goto done;
    bracket_t b;
    if ((st = bracket_compute(&Q, &K, beta, eps, NULL, &b)))
        goto done;
    out->lower = b.lower;
    out->upper = b.upper;
    out->status = b.status;
    size_t ks[2] = { c->r0, out->rt[nt - 1] };
    for (int q = 0; q < 2; q++) {
        if (q == 1 && ks[1] == ks[0])
            break;
        size_t k = ks[q];
        out->chain_k[q] = k;
        out->nchain = (size_t)q + 1;
        if (k == VISIBLE_NONE)
            continue;
        ar_cert_status_t s = AR_CERT_INCONCLUSIVE;
        if ((st = visible_upper_via(&v, k, K.w, eps, NULL, &out->chain_upper_via[q], &out->chain_eta_upper[q],
                                    NULL)) ||
            (st = visible_bracket_via(&v, k, K.w, eps, NULL, &out->chain_lo[q], &out->chain_up[q], &out->chain_eta[q],
                                      &s)))
            goto done;
        snprintf(out->chain_method[q], sizeof out->chain_method[q], "%s", ar_cert_status_name(s));
    }
    out->seconds = clock_now() - t0;
done:
    visible_clear(&v);
    pointset_clear(&Q);
    pointset_clear(&K);
    pointset_clear(&Q0);
    pointset_clear(&K0);
    return st;
}

/* One BLAS thread for the whole case: its LAPACK factorisations then give
 * the same floating-point numbers (the printed eta's at rounding level) under
 * any OPENBLAS_NUM_THREADS, so a sharded run with other thread counts merges
 * to the one-process numbers; the heads are small (at most a few hundred
 * tokens), the cost is nil. */
ar_status claim_t_compute(size_t i, claim_t_record_t *out)
{
    blas_single_begin();
    ar_status st = compute(i, out);
    blas_single_end();
    return st;
}

int claim_t_judge(const claim_t_record_t *t, char *reason, size_t cap)
{
    /* every number the assertions compare must be one: NaN compares false
     * and would let a case through */
    int finite = isfinite(t->eta_noise) && isfinite(t->eta_below) && t->eta_noise >= 0 && t->ntau >= 1;
    for (size_t k = 0; finite && k < t->ntau; k++)
        finite = isfinite(t->tau[k]);
    if (!finite) {
        snprintf(reason, cap, "eta_noise, eta(r0 - 1) or a tau is not a finite number");
        return 0;
    }
    if (!t->twin_same) {
        snprintf(reason, cap, "the noisy head and its twin do not share their queries");
        return 0;
    }
    if (!(t->r > t->r0)) {
        snprintf(reason, cap, "the noise should be visible to the numerical rank (r = %zu)", t->r);
        return 0;
    }
    for (size_t k = 0; k < t->ntau; k++) {
        double tau = t->tau[k];
        if (tau >= 2 * t->eta_noise && tau < t->eta_below && t->rt[k] != t->r0) {
            snprintf(reason, cap, "r0=%zu dh=%zu delta=%g tau=%g (%.3g x eta_noise): r(tau)=%zu", t->r0, t->dh,
                     t->delta, tau, tau / t->eta_noise, t->rt[k]);
            return 0;
        }
        if (tau <= t->eta_noise / 2 && !(t->rt[k] == VISIBLE_NONE || t->rt[k] > t->r0)) {
            snprintf(reason, cap, "r0=%zu dh=%zu delta=%g tau=%g (%.3g x eta_noise): r(tau)=%zu does not exceed r0",
                     t->r0, t->dh, t->delta, tau, tau / t->eta_noise, t->rt[k]);
            return 0;
        }
    }
    if (t->status != AR_CERT_CERTIFIED) {
        snprintf(reason, cap, "the direct bracket [%zu, %zu] is %s", t->lower, t->upper,
                 ar_cert_status_name(t->status));
        return 0;
    }
    for (size_t q = 0; q < t->nchain; q++) {
        size_t k = t->chain_k[q];
        if (k == VISIBLE_NONE) {
            snprintf(reason, cap, "no rank certified at tau = 0.05 for the chain");
            return 0;
        }
        if (t->lower > t->chain_upper_via[q]) {
            snprintf(reason, cap, "chain broken: lower(A) = %zu > upper(A_%zu at eps - %.3g) = %zu", t->lower, k,
                     t->chain_eta_upper[q], t->chain_upper_via[q]);
            return 0;
        }
        if (!(t->chain_lo[q] <= t->upper && t->lower <= t->chain_up[q])) {
            snprintf(reason, cap, "via A_%zu [%zu, %zu] vs direct [%zu, %zu]", k, t->chain_lo[q], t->chain_up[q],
                     t->lower, t->upper);
            return 0;
        }
    }
    snprintf(reason, cap, "r(tau) = r0 for 2 eta_noise <= tau < eta(r0 - 1), r(tau) > r0 for tau <= eta_noise / 2; "
                          "certified chain holds");
    return 1;
}
