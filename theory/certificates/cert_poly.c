/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_poly.c -- the polynomial (zonal) upper certificate on the sphere,
 * instance and continuum: the degree search (galloping, then bisection) over
 * candidate fits, certified by cert_poly_instance.c / cert_poly_continuum.c
 * (see cert_poly.h and proofs-notes/polynomial-certificate.md). */
#include "theory/certificates/cert_poly.h"
#include "theory/certificates/cert_poly_impl.h"
#include "base/clock.h"

#include <stdlib.h>
#include <string.h>

/* ---------- degree search ---------- */

typedef int (*cp_ok_fn)(void *ctx, unsigned long L, ar_status *st);

/* Least L in [lo, hi] with ok(L), galloping from the guess L0 then
 * bisection.  Returns hi + 1 if none was found; *st != AR_OK aborts. */
static unsigned long cp_search(cp_ok_fn ok, void *ctx, unsigned long L0, unsigned long lo,
                               unsigned long hi, ar_status *st)
{
    *st = AR_OK;
    if (lo > hi)
        return hi + 1;
    long fail = (long)lo - 1, succ = (long)hi + 1;
    long L = (long)(L0 < lo ? lo : (L0 > hi ? hi : L0));
    if (ok(ctx, (unsigned long)L, st)) {
        succ = L;
        for (long step = 1; *st == AR_OK; step *= 2) {
            long c = succ - step;
            if (c <= fail)
                break;
            if (ok(ctx, (unsigned long)c, st))
                succ = c;
            else {
                fail = c;
                break;
            }
        }
    } else {
        fail = L;
        for (long step = 1; *st == AR_OK; step *= 2) {
            long c = fail + step;
            if (c >= succ)
                break;
            if (ok(ctx, (unsigned long)c, st)) {
                succ = c;
                break;
            }
            fail = c;
        }
    }
    while (*st == AR_OK && succ - fail > 1) {
        long mid = fail + (succ - fail) / 2;
        if (ok(ctx, (unsigned long)mid, st))
            succ = mid;
        else
            fail = mid;
    }
    return (unsigned long)succ;
}

typedef struct {
    int d;
    double beta, eps;
    unsigned long cap;          /* size of the caches */
    double **coef;              /* fitted polynomials (lazy) */
    double *est;                /* LP estimates */
    double *pest;               /* IRLS stand-ins for est (NAN = not computed; continuum only) */
    double *err;                /* certified bounds (NAN = not computed) */
    const pointset_t *P;        /* NULL for the continuum */
    inst_t I;
    int last_ok;
    unsigned evals;
} search_t;

static ar_status sr_fit(search_t *S, unsigned long L)
{
    if (S->coef[L])
        return AR_OK;
    double *c = ar_calloc(L + 1, sizeof(double), "poly coefficients");
    if (!c)
        return AR_ENOMEM;
    ar_status st = poly_fit(S->d, S->beta, L, c, &S->est[L]);
    if (st != AR_OK) {
        free(c);
        return st;
    }
    S->coef[L] = c;
    return AR_OK;
}

static int sr_est_ok(void *ctx, unsigned long L, ar_status *st)
{
    search_t *S = ctx;
    *st = sr_fit(S, L);
    return *st == AR_OK && S->est[L] <= S->eps;
}

/* The stand-in test: poly_fit_estimate(L) <= eps (no LP, no polynomial kept). */
static int sr_proxy_ok(void *ctx, unsigned long L, ar_status *st)
{
    search_t *S = ctx;
    *st = AR_OK;
    if (isnan(S->pest[L]))
        *st = poly_fit_estimate(S->d, S->beta, L, &S->pest[L]);
    return *st == AR_OK && S->pest[L] <= S->eps;
}

static int sr_cont_ok(void *ctx, unsigned long L, ar_status *st)
{
    search_t *S = ctx;
    if (isnan(S->err[L])) {
        *st = sr_fit(S, L);
        if (*st != AR_OK)
            return 0;
        *st = poly_continuum_error(S->d, S->beta, S->coef[L], L, &S->err[L]);
        if (*st != AR_OK)
            return 0;
        S->evals++;
    }
    return S->err[L] <= S->eps;
}

static int sr_inst_ok(void *ctx, unsigned long L, ar_status *st)
{
    search_t *S = ctx;
    *st = AR_OK;
    if (isnan(S->err[L])) {
        unsigned long Ls[2];
        int K = 0;
        Ls[K++] = L;
        /* evaluate a neighbour in the same pass: below after a success, above after a failure */
        unsigned long nb = S->last_ok ? (L > 0 ? L - 1 : L + 1) : L + 1;
        if (nb < S->cap && nb != L && isnan(S->err[nb]))
            Ls[K++] = nb;
        const double *cs[2];
        for (int q = 0; q < K; q++) {
            *st = sr_fit(S, Ls[q]);
            if (*st != AR_OK)
                return 0;
            cs[q] = S->coef[Ls[q]];
        }
        double e[2];
        *st = inst_errors(&S->I, S->P, S->beta, K, cs, Ls, e);
        if (*st != AR_OK)
            return 0;
        for (int q = 0; q < K; q++)
            S->err[Ls[q]] = e[q];
        S->evals += (unsigned)K;
    }
    S->last_ok = S->err[L] <= S->eps;
    return S->last_ok;
}

static ar_status sr_init(search_t *S, int d, double beta, double eps, unsigned long cap)
{
    memset(S, 0, sizeof *S);
    S->d = d;
    S->beta = beta;
    S->eps = eps;
    S->cap = cap;
    S->coef = ar_calloc(cap, sizeof(double *), "poly search");
    S->est = ar_calloc(cap, sizeof(double), "poly search");
    S->err = ar_calloc(cap, sizeof(double), "poly search");
    S->pest = ar_calloc(cap, sizeof(double), "poly search");
    if (!S->coef || !S->est || !S->err || !S->pest)
        return AR_ENOMEM;
    for (unsigned long L = 0; L < cap; L++)
        S->err[L] = S->pest[L] = NAN;
    return AR_OK;
}

static void sr_clear(search_t *S)
{
    if (S->coef)
        for (unsigned long L = 0; L < S->cap; L++)
            free(S->coef[L]);
    free(S->coef);
    free(S->est);
    free(S->err);
    free(S->pest);
    inst_clear(&S->I);
}

/* rough starting degree ~ sqrt(2 beta log(1/eps)) (only a galloping start) */
static unsigned long cp_guess(double beta, double eps)
{
    double g = 1.2 * sqrt(2.0 * beta * log(1.0 / eps)) + 1.0;
    return g > (double)CP_MAXL ? CP_MAXL : (unsigned long)g;
}

static int cp_eps_ok(double eps) { return isfinite(eps) && eps > 0 && eps < 1; }

ar_status poly_upper_continuum(int d, double beta, double eps, poly_cert_t *out)
{
    double t0 = clock_now();
    if (d < 2 || d > 64 || !cp_beta_ok(beta) || !cp_eps_ok(eps) || !out) {
        ar_error_set("poly_upper_continuum: need 2 <= d <= 64, 0 <= beta <= 1e7, 0 < eps < 1 (got d=%d, beta=%g, eps=%g)",
                     d, beta, eps);
        return AR_EINVAL;
    }
    memset(out, 0, sizeof *out);
    search_t S;
    ar_status st = sr_init(&S, d, beta, eps, CP_MAXL + 1);
    if (st == AR_OK) {
        /* Place the LP search with the cheap IRLS stand-in first: the two
         * agree to 0.1% while one degree changes the estimate by several %,
         * so the stand-in's least passing degree Lp is the LP's L0 or a
         * neighbour, and the LP search below (the same search as before,
         * started at Lp) needs about two LP fits instead of about a dozen.
         * It ends at the same L0 wherever the LP estimate crosses eps once
         * (proofs-notes/polynomial-certificate.md section 5).  A failed
         * stand-in only loses the start. */
        unsigned long Lp = cp_search(sr_proxy_ok, &S, cp_guess(beta, eps), 0, CP_MAXL, &st);
        if (st != AR_OK || Lp > CP_MAXL) {
            st = AR_OK;
            Lp = cp_guess(beta, eps);
        }
        unsigned long L0 = cp_search(sr_est_ok, &S, Lp, 0, CP_MAXL, &st);
        if (st == AR_OK) {
            unsigned long L = cp_search(sr_cont_ok, &S, L0 > CP_MAXL ? CP_MAXL : L0, 0, CP_MAXL, &st);
            if (st == AR_OK && L > CP_MAXL) {
                ar_error_set("poly_upper_continuum: no degree <= %lu certifies eps=%g (d=%d, beta=%g)",
                             CP_MAXL, eps, d, beta);
                st = AR_ENUMERIC;
            }
            if (st == AR_OK) {
                out->L = L;
                out->err = S.err[L];
                out->err_below = L > 0 ? S.err[L - 1] : NAN;
                out->dim = poly_dim(d, L);
                out->rank = out->dim;
            }
        }
    }
    out->d = d;
    out->beta = beta;
    out->eps = eps;
    out->evals = S.evals;
    sr_clear(&S);
    out->seconds = clock_now() - t0;
    return st;
}

ar_status poly_upper_instance(const pointset_t *P, double beta, double eps, poly_cert_t *out)
{
    double t0 = clock_now();
    if (!cp_eps_ok(eps) || !out) {
        ar_error_set("poly_upper_instance: eps=%g must be in (0, 1)", eps);
        return AR_EINVAL;
    }
    memset(out, 0, sizeof *out);
    inst_t I;
    ar_status st = inst_prepare(P, beta, &I);
    if (st != AR_OK)
        return st;
    size_t n = P->n;
    int d = (int)P->d;
    /* Lcap: least L with dim >= n (then the trivial bound rank <= n is as good) */
    unsigned long Lcap = 0;
    while (Lcap < CP_MAXL && poly_dim(d, Lcap) < n)
        Lcap++;
    search_t S;
    st = sr_init(&S, d, beta, eps, Lcap + 2);
    S.I = I;
    S.P = P;
    unsigned long L = Lcap;
    if (st == AR_OK && Lcap > 0) {
        unsigned long hi = Lcap - 1;
        unsigned long L0 = cp_search(sr_est_ok, &S, cp_guess(beta, eps) > hi ? hi : cp_guess(beta, eps),
                                     0, hi, &st);
        if (st == AR_OK)
            L = cp_search(sr_inst_ok, &S, L0 > hi ? hi : L0, 0, hi, &st);
    }
    if (st == AR_OK) {
        out->n = n;
        if (L >= Lcap) {             /* nothing below the cap: trivial certificate B = A */
            out->L = Lcap;
            out->err = 0;
            out->rank = n;
            out->capped = 1;
            out->dim = poly_dim(d, Lcap);
            out->err_below = Lcap > 0 ? S.err[Lcap - 1] : NAN;
        } else {
            out->L = L;
            out->err = S.err[L];
            out->err_below = L > 0 ? S.err[L - 1] : NAN;
            out->dim = poly_dim(d, L);
            out->rank = out->dim < n ? out->dim : n;
            out->capped = out->dim >= n;
        }
    }
    out->d = d;
    out->beta = beta;
    out->eps = eps;
    out->evals = S.evals;
    sr_clear(&S);              /* also frees I */
    out->seconds = clock_now() - t0;
    return st;
}
