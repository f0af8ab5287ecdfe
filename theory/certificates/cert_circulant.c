/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_circulant.c -- eps-rank brackets of the regular n-gon (circulant)
 * attention matrix: Arb enclosure of the first row, band upper certificates
 * (projection and l1-optimal LP), circulant block lower certificates. */
#include "theory/certificates/cert_circulant.h"
#include "theory/certificates/cert_lower.h"
#include "numerics/clock.h"

#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "numerics/circulant.h"

long circ_default_prec(size_t n, double beta)
{
    double b = (beta > 0 && isfinite(beta)) ? beta : 0.0;
    return 80 + (long)ceil(log2((double)n + 1.0)) + (long)ceil(log2(1.0 + b));
}

void circ_instance_clear(circ_instance_t *I)
{
    if (!I)
        return;
    size_t h = I->n ? circ_half_len(I->n) : 0;
    if (I->a)
        _arb_vec_clear(I->a, (slong)h);
    if (I->cosn)
        _arb_vec_clear(I->cosn, (slong)h);
    free(I->ad);
    memset(I, 0, sizeof *I);
}

ar_status circ_instance_init(circ_instance_t *I, size_t n, double beta, long prec)
{
    memset(I, 0, sizeof *I);
    if (n == 0 || n > ((size_t)1 << 40)) {
        ar_error_set("circulant: n must satisfy 1 <= n <= 2^40 (got %zu)", n);
        return AR_EINVAL;
    }
    if (!isfinite(beta) || beta < 0) {
        ar_error_set("circulant: beta must be finite and >= 0 (got %g)", beta);
        return AR_EINVAL;
    }
    if (prec == 0)
        prec = circ_default_prec(n, beta);
    if (prec < 16 || prec > 100000) {
        ar_error_set("circulant: precision must be 0 or in [16, 100000] bits (got %ld)", prec);
        return AR_EINVAL;
    }
    size_t h = circ_half_len(n);
    I->ad = ar_calloc(h, sizeof *I->ad, "circulant first row");
    if (!I->ad)
        return AR_ENOMEM;
    I->n = n;
    I->beta = beta;
    I->prec = prec;
    I->a = _arb_vec_init((slong)h);
    I->cosn = _arb_vec_init((slong)h);
    circ_cos_table(I->cosn, n, prec);

    /* e_k = exp(beta (cos(2 pi k/n) - 1)) in (0, 1]; Z = sum_k e_k; a_k = e_k / Z
     * (the shift by beta cancels in the quotient) */
    arb_t bb, Z;
    arb_init(bb);
    arb_init(Z);
    arb_set_d(bb, beta);
    for (size_t k = 0; k < h; k++) {
        arb_sub_ui(I->a + k, I->cosn + k, 1, prec);
        arb_mul(I->a + k, I->a + k, bb, prec);
        arb_exp(I->a + k, I->a + k, prec);
        arb_addmul_ui(Z, I->a + k, circ_half_weight(n, k), prec);
    }
    mag_t acc;
    mag_init(acc);
    for (size_t k = 0; k < h; k++) {
        arb_div(I->a + k, I->a + k, Z, prec);
        I->ad[k] = arf_get_d(arb_midref(I->a + k), ARF_RND_NEAR);
        for (unsigned w = 0; w < circ_half_weight(n, k); w++)
            mag_add(acc, acc, arb_radref(I->a + k));
    }
    I->arad = mag_get_d(acc); /* an upper bound */
    mag_clear(acc);
    arb_clear(bb);
    arb_clear(Z);
    return AR_OK;
}

/* ---------------------------------------------------------------- upper */

static size_t coarse_stride(size_t n, size_t K)
{
    size_t h = circ_half_len(n);
    size_t s = h / (8 * (K + 1));
    return s ? s : 1;
}

#define POLISH_NNZ 1500000.0

static size_t fine_stride(size_t n, size_t K)
{
    double h = (double)circ_half_len(n);
    double s = ceil(h * (double)(K + 1) / POLISH_NNZ);
    return s < 1 ? 1 : (size_t)s;
}

ar_status circ_upper_candidate(const circ_instance_t *I, circ_upper_method_t method, size_t K,
                               size_t stride, double *c, double *err)
{
    if (!I || !I->a || !c || !err) {
        ar_error_set("circ_upper_candidate: missing argument");
        return AR_EINVAL;
    }
    if (method == CIRC_PROJECTION) {
        circ_band_project(c, I->ad, I->n, K);
    } else if (method == CIRC_L1LP) {
        ar_status st = circ_band_l1_fit(c, NULL, I->ad, I->n, K, stride ? stride : 1);
        if (st != AR_OK)
            return st;
    } else {
        ar_error_set("circ_upper_candidate: unknown method %d", (int)method);
        return AR_EINVAL;
    }
    *err = circ_band_l1_ubound(I->a, I->n, c, K, I->cosn);
    return AR_OK;
}

typedef struct {
    const circ_instance_t *I;
    circ_upper_method_t method;
    double eps;
    double *c, *best;     /* scratch and best certified coefficients (Kmax+1 each) */
    size_t bestK;
    double besterr, bestlp;
    size_t beststride;
    size_t probes;
    ar_status st;
} search_t;

/* certify band K at the given stride; 1 = certified (best updated).  For
 * the LP, `lp` (if non-NULL) is grown to K and solved warm; *errp (if
 * non-NULL) receives the certified error. */
static int probe_lp(search_t *S, size_t K, size_t stride, circ_lp_t *lp, double *errp)
{
    if (errp)
        *errp = INFINITY;
    if (S->st != AR_OK)
        return 0;
    double err = INFINITY, lpval = 0.0;
    ar_status st;
    if (S->method == CIRC_L1LP) {
        st = lp ? circ_lp_solve(lp, K, S->c, &lpval)
                : circ_band_l1_fit(S->c, &lpval, S->I->ad, S->I->n, K, stride);
        if (st == AR_OK)
            err = circ_band_l1_ubound(S->I->a, S->I->n, S->c, K, S->I->cosn);
    } else {
        st = circ_upper_candidate(S->I, S->method, K, stride, S->c, &err);
    }
    S->probes++;
    if (st != AR_OK) {
        S->st = st;
        return 0;
    }
    if (errp)
        *errp = err;
    if (!(err <= S->eps))
        return 0;
    if (S->bestK == SIZE_MAX || K <= S->bestK) {
        S->bestK = K;
        S->besterr = err;
        S->bestlp = lpval;
        S->beststride = stride;
        memcpy(S->best, S->c, (K + 1) * sizeof *S->c);
    }
    return 1;
}

static int probe(search_t *S, size_t K, size_t stride)
{
    return probe_lp(S, K, stride, NULL, NULL);
}

static size_t search_stride(const search_t *S, size_t K)
{
    return S->method == CIRC_L1LP ? coarse_stride(S->I->n, K) : 1;
}

static void generic_search(search_t *S_, size_t Kmax, size_t kfail, size_t kok)
{
    search_t S = *S_;
    /* lo: largest K seen failing (-1: none); hi: least K certified */
    long lo = -1, hi = -1;
    if (kok != SIZE_MAX && kok <= Kmax) {
        if (probe(&S, kok, search_stride(&S, kok)))
            hi = (long)kok;
        else
            lo = (long)kok;
    }
    if (kfail != SIZE_MAX && kfail <= Kmax && (long)kfail > lo && (hi < 0 || (long)kfail < hi)) {
        if (probe(&S, kfail, search_stride(&S, kfail)))
            hi = (long)kfail;
        else
            lo = (long)kfail;
    }
    if (hi < 0) { /* gallop upward from lo + 1 */
        long step = 1, K = lo + 1;
        while (S.st == AR_OK && K <= (long)Kmax) {
            if (probe(&S, (size_t)K, search_stride(&S, (size_t)K))) {
                hi = K;
                break;
            }
            lo = K;
            if (K == (long)Kmax)
                break;
            K = lo + step;
            step *= 2;
            if (K > (long)Kmax)
                K = (long)Kmax;
        }
    }
    if (hi >= 0) {
        while (S.st == AR_OK && hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            if (probe(&S, (size_t)mid, search_stride(&S, (size_t)mid)))
                hi = mid;
            else
                lo = mid;
        }
    }
    *S_ = S;
}

/* LP search with warm starts: `base` holds the LP solved at the largest K
 * seen failing (lo); a probe at K > lo copies it, grows the band to K and
 * resumes the dual simplex.  The stride is fixed for the whole search (from
 * the hint).  Then a polish on a finer grid for K = hi - 1, hi - 2, ...
 * when the coarse error there was within 2% of eps. */
static void lp_search(search_t *S, size_t Kmax, size_t kfail, size_t kok)
{
    size_t n = S->I->n;
    size_t kref = kok != SIZE_MAX ? kok : (kfail != SIZE_MAX ? kfail : 0);
    if (kref > Kmax)
        kref = Kmax;
    size_t stride = coarse_stride(n, kref);
    circ_lp_t *base = NULL;
    ar_status st = circ_lp_init(&base, S->I->ad, n, stride);
    if (st != AR_OK) {
        S->st = st;
        return;
    }
    long lo = -1, hi = -1;          /* hi: least certified K */
    long cand = (kok != SIZE_MAX && kok <= Kmax) ? (long)kok : -1; /* expected to certify */
    double err_below = INFINITY;    /* coarse error at hi - 1 when probed */
    double e = INFINITY;
#define LP_PROBE(K, okvar)                                                          \
    do {                                                                            \
        circ_lp_t *cp_ = NULL;                                                      \
        ar_status s_ = circ_lp_copy(&cp_, base);                                    \
        if (s_ != AR_OK) { S->st = s_; okvar = 0; break; }                         \
        okvar = probe_lp(S, (size_t)(K), stride, cp_, &e);                         \
        if (okvar) circ_lp_free(cp_);                                               \
        else { circ_lp_free(base); base = cp_; }                                    \
    } while (0)
    int ok;
    if (kfail != SIZE_MAX && kfail <= Kmax) {
        LP_PROBE(kfail, ok);
        if (ok)
            hi = (long)kfail;
        else {
            lo = (long)kfail;
            err_below = e;
        }
    }
    if (hi < 0 && cand > lo) {
        /* bisection between lo and the expected-to-certify cand */
        long top = cand;
        while (S->st == AR_OK && top - lo > 1) {
            long mid = lo + (top - lo) / 2;
            LP_PROBE(mid, ok);
            if (ok) {
                top = mid;
                hi = mid;
            } else {
                lo = mid;
                if (mid == top - 1)
                    err_below = e;
            }
        }
        if (S->st == AR_OK && hi < 0) {
            LP_PROBE(cand, ok);
            if (ok)
                hi = cand;
            else
                lo = cand;
        }
    }
    if (hi < 0) { /* gallop upward from lo + 1 */
        long step = 1, K = lo + 1;
        while (S->st == AR_OK && K <= (long)Kmax) {
            LP_PROBE(K, ok);
            if (ok) {
                hi = K;
                break;
            }
            lo = K;
            if (K == (long)Kmax)
                break;
            K = lo + step;
            step *= 2;
            if (K > (long)Kmax)
                K = (long)Kmax;
        }
    }
    while (S->st == AR_OK && hi >= 0 && hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        LP_PROBE(mid, ok);
        if (ok)
            hi = mid;
        else {
            lo = mid;
            if (mid == hi - 1)
                err_below = e;
        }
    }
#undef LP_PROBE
    circ_lp_free(base);
    if (hi == lo + 1 && !(err_below <= 1.02 * S->eps))
        return; /* the coarse fit below hi is far from certifying */
    /* polish: cold fits on a finer grid */
    while (S->st == AR_OK && hi > 0) {
        size_t K = (size_t)hi - 1, fs = fine_stride(n, K);
        if (fs >= stride || !probe_lp(S, K, fs, NULL, NULL))
            break;
        hi = (long)K;
    }
}

ar_status circ_upper_search(const circ_instance_t *I, circ_upper_method_t method, double eps,
                            size_t kfail, size_t kok, circ_upper_t *out, double **coef)
{
    double t0 = clock_now();
    if (coef)
        *coef = NULL;
    if (!I || !I->a || !out) {
        ar_error_set("circ_upper_search: missing argument");
        return AR_EINVAL;
    }
    if (!(eps > 0.0 && eps < 1.0)) {
        ar_error_set("circ_upper_search: eps must satisfy 0 < eps < 1 (got %g)", eps);
        return AR_EINVAL;
    }
    if (method != CIRC_PROJECTION && method != CIRC_L1LP) {
        ar_error_set("circ_upper_search: unknown method %d", (int)method);
        return AR_EINVAL;
    }
    memset(out, 0, sizeof *out);
    size_t n = I->n;
    search_t S = { .I = I, .method = method, .eps = eps, .bestK = SIZE_MAX };
    size_t Kmax = n >= 2 ? (n - 2) / 2 : 0; /* 2K + 1 < n */
    if (n >= 2) {
        S.c = ar_calloc(Kmax + 1, sizeof *S.c, "band coefficients");
        S.best = ar_calloc(Kmax + 1, sizeof *S.best, "band coefficients");
        if (!S.c || !S.best) {
            free(S.c);
            free(S.best);
            return AR_ENOMEM;
        }
        if (method == CIRC_L1LP)
            lp_search(&S, Kmax, kfail, kok);
        else
            generic_search(&S, Kmax, kfail, kok);
    }
    if (S.st != AR_OK) {
        free(S.c);
        free(S.best);
        return S.st;
    }
    out->probes = S.probes;
    if (S.bestK == SIZE_MAX) {
        out->rank = n;
        out->K = SIZE_MAX;
        out->err = 0.0;
        out->method = AR_METHOD_TRIVIAL;
    } else {
        out->rank = 2 * S.bestK + 1;
        out->K = S.bestK;
        out->err = S.besterr;
        out->lpval = S.bestlp;
        out->stride = method == CIRC_L1LP ? S.beststride : 0;
        out->method = method == CIRC_L1LP ? AR_METHOD_L1LP : AR_METHOD_PROJECTION;
        if (coef) {
            *coef = malloc((S.bestK + 1) * sizeof **coef);
            if (*coef)
                memcpy(*coef, S.best, (S.bestK + 1) * sizeof **coef);
        }
    }
    free(S.c);
    free(S.best);
    out->seconds = clock_now() - t0;
    return AR_OK;
}

/* ---------------------------------------------------------------- lower */

ar_status circ_block_row(const circ_instance_t *I, size_t m, arb_ptr mu)
{
    if (!I || !I->a || m == 0 || I->n % m != 0) {
        ar_error_set("circ_block_row: m = %zu must divide n = %zu", m, I ? I->n : 0);
        return AR_EINVAL;
    }
    size_t n = I->n, p = n / m;
    long prec = I->prec;
    arb_t half;
    arb_init(half);
    for (size_t c = 0; c < m; c++) {
        size_t centre = c * p;
        arb_zero(mu + c);
        /* interior offsets |t| <= (p-1)/2 (p odd) or |t| <= p/2 - 1 (p even) */
        size_t r = (p % 2) ? (p - 1) / 2 : p / 2 - 1;
        for (size_t t = 0; t <= 2 * r; t++) {
            size_t j = (centre + n - r + t) % n;
            arb_add(mu + c, mu + c, I->a + circ_fold(j, n), prec);
        }
        if (p % 2 == 0) { /* boundary columns centre +- p/2, weight 1/2 each */
            arb_add(half, I->a + circ_fold(centre + p / 2, n),
                    I->a + circ_fold(centre + n - p / 2, n), prec);
            arb_mul_2exp_si(half, half, -1);
            arb_add(mu + c, mu + c, half, prec);
        }
    }
    arb_clear(half);
    return AR_OK;
}

double circ_lower_invnorm(const circ_instance_t *I, size_t m)
{
    if (!I || !I->a || m == 0 || I->n % m != 0)
        return INFINITY;
    arb_ptr mu = _arb_vec_init((slong)m);
    double r = INFINITY;
    if (circ_block_row(I, m, mu) == AR_OK)
        r = circ_inv_norm_ubound(mu, m, I->prec);
    _arb_vec_clear(mu, (slong)m);
    return r;
}


ar_status circ_lower_search(const circ_instance_t *I, double eps, size_t mmax, circ_lower_t *out)
{
    double t0 = clock_now();
    if (!I || !I->a || !out) {
        ar_error_set("circ_lower_search: missing argument");
        return AR_EINVAL;
    }
    if (!(eps > 0.0 && eps < 1.0)) {
        ar_error_set("circ_lower_search: eps must satisfy 0 < eps < 1 (got %g)", eps);
        return AR_EINVAL;
    }
    memset(out, 0, sizeof *out);
    size_t n = I->n;
    out->rank = 1;
    out->step = n;
    out->invnorm = 1.0;
    /* divisors of n in decreasing order: m = n / p for p = 1, 2, ... */
    for (size_t p = 1; p < n; p++) {
        if (n % p)
            continue;
        size_t m = n / p;
        if (m > mmax)
            continue;
        double b = circ_lower_invnorm(I, m);
        out->probes++;
        if (lower_certifies(eps, b)) {
            out->rank = m;
            out->step = p;
            out->invnorm = b;
            break;
        }
    }
    out->seconds = clock_now() - t0;
    return AR_OK;
}

/* ---------------------------------------------------------------- bracket */

/* the LP search costs about (LP nonzeros at the coarse stride) x (simplex
 * iterations ~ K); measured ~4 s at 5e5 nonzeros (n = 20160, K = 225) and
 * ~300 s at 7.5e6 (K = 712).  circ_bracket skips it above CIRC_LP_MAX_NNZ. */
#define CIRC_LP_MAX_NNZ 2.0e6

static int lp_affordable(size_t n, size_t Kproj)
{
    if (Kproj == SIZE_MAX)
        return n <= 4000;
    double ns = (double)((circ_half_len(n) - 1) / coarse_stride(n, Kproj) + 1);
    return ns * (double)(Kproj + 1) <= CIRC_LP_MAX_NNZ;
}

ar_status circ_bracket(size_t n, double beta, double eps, long prec, circ_bracket_t *out)
{
    return circ_bracket_split(n, beta, eps, eps, prec, out);
}

ar_status circ_bracket_split(size_t n, double beta, double eps_lower, double eps_upper, long prec,
                             circ_bracket_t *out)
{
    double t0 = clock_now();
    double eps = eps_upper;
    if (!out) {
        ar_error_set("circ_bracket: missing output");
        return AR_EINVAL;
    }
    memset(out, 0, sizeof *out);
    if (!(eps_upper > 0.0 && eps_upper <= eps_lower && eps_lower < 1.0)) {
        ar_error_set("circ_bracket: need 0 < eps_upper <= eps_lower < 1 (got %g, %g)", eps_upper, eps_lower);
        return AR_EINVAL;
    }
    circ_instance_t I;
    ar_status st = circ_instance_init(&I, n, beta, prec);
    if (st != AR_OK)
        return st;
    out->n = n;
    out->beta = beta;
    out->eps = eps;
    out->prec = I.prec;
    out->arad = I.arad;
    out->seconds_enclose = clock_now() - t0;
    out->lower = 1;
    out->upper = out->upper_projection = out->upper_lp = n;
    out->lower_m_step = n;
    out->lower_invnorm = 1.0;
    out->upper_err = out->upper_err_projection = out->upper_err_lp = 0.0;
    if (!(2.0 * I.arad < eps)) {
        out->status = AR_CERT_INCONCLUSIVE;
        circ_instance_clear(&I);
        out->seconds = clock_now() - t0;
        return AR_OK;
    }

    circ_lower_t lo;
    st = circ_lower_search(&I, eps_lower, SIZE_MAX, &lo);
    if (st != AR_OK)
        goto fail;
    out->lower = lo.rank;
    out->lower_m_step = lo.step;
    out->lower_invnorm = lo.invnorm;
    out->seconds_lower = lo.seconds;

    circ_upper_t up;
    st = circ_upper_search(&I, CIRC_PROJECTION, eps, SIZE_MAX, SIZE_MAX, &up, NULL);
    if (st != AR_OK)
        goto fail;
    out->upper_projection = up.rank;
    out->upper_err_projection = up.err;
    out->seconds_projection = up.seconds;

    /* LP: 2K+1 < lower must fail (probed: a consistency check), and the
     * projection's K is a feasible start */
    size_t kfail = lo.rank >= 2 ? (lo.rank - 2) / 2 : SIZE_MAX; /* largest K with 2K+1 < lower */
    circ_upper_t ul;
    if (lp_affordable(n, up.K)) {
        st = circ_upper_search(&I, CIRC_L1LP, eps, kfail, up.K, &ul, NULL);
        if (st != AR_OK)
            goto fail;
    } else { /* skipped: report the trivial bound for the LP column */
        memset(&ul, 0, sizeof ul);
        ul.rank = n;
        out->lp_skipped = 1;
    }
    out->upper_lp = ul.rank;
    out->upper_err_lp = ul.err;
    out->seconds_lp = ul.seconds;

    if (ul.rank <= up.rank) {
        out->upper = ul.rank;
        out->upper_err = ul.err;
    } else {
        out->upper = up.rank;
        out->upper_err = up.err;
    }
    if (out->lower > out->upper_lp || out->lower > out->upper_projection) {
        ar_error_set("circ_bracket: certified lower %zu exceeds a certified upper (%zu lp, %zu "
                     "projection) for n=%zu beta=%g eps=%g: a bug", out->lower, out->upper_lp,
                     out->upper_projection, n, beta, eps);
        st = AR_ENUMERIC;
        goto fail;
    }
    out->status = AR_CERT_CERTIFIED;
    circ_instance_clear(&I);
    out->seconds = clock_now() - t0;
    return AR_OK;
fail:
    circ_instance_clear(&I);
    return st;
}
