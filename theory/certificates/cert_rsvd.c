/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_rsvd.c -- randomized upper certificates (see cert_rsvd.h; THEORY 3.5,
 * proofs-notes/upper-certificates.md section 4b): rank_eps(A) <= k when the residual bound
 * ||A - U_k V_k^T||_r1 <= eps holds for factors from a randomized sketch.  This file holds the
 * driver (upper_rsvd, upper_rsym: sketch rounds of growing size until a rank is certified); the
 * sketch and its factors are cert_rsvd_sketch.c, the certified search over the ranks
 * cert_rsvd_search.c. */
#include "theory/certificates/cert_rsvd.h"
#include "theory/certificates/cert_rsvd_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "numerics/blas_select.h"
#include "numerics/clock.h"
#include "numerics/linalg.h"

/* Contract: cert_rsvd.h.  l0 = 64, power = 2, seed = RSVD_SEED, everything else 0. */
void rsvd_opts_default(rsvd_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->l0 = 64;
    o->power = 2;
    o->seed = RSVD_SEED;
}

/* Contract: cert_rsvd_impl.h. */
void rsvd_say(const rsvd_opts_t *o, const char *fmt, size_t a, size_t b)
{
    if (!o->progress)
        return;
    char msg[160];
    snprintf(msg, sizeof msg, fmt, a, b);
    o->progress(o->progress_ctx, msg);
}

/* Contract: cert_rsvd.h.  2 k <= min(m, n), or m k^2 <= RSVD_PIVOTS_FREE. */
int rsvd_pivots_worth(size_t m, size_t n, size_t k)
{
    return 2 * k <= (m < n ? m : n) || (double)m * (double)k * (double)k <= RSVD_PIVOTS_FREE;
}

/* Size of the next sketch from the sample's prediction `next` (the sample's extrapolated rank,
 * issue 24: extended, so a modest step costs no redrawn work) and the current size l. */
static size_t next_size(size_t l, size_t next, size_t lmax)
{
    size_t lo = l + (l / 8 > 16 ? l / 8 : 16);
    size_t want = next > lo ? next : lo;
    if (want > 4 * l)
        want = 4 * l;
    return want < lmax ? want : lmax;
}

/* upper_rsvd (t NULL) and upper_rsym (t the scaling of S = T A T^{-1}). */
static ar_status upper_random(amat_t *M, const double *t, double eps, const rsvd_opts_t *o, upper_cert_t *out,
                              rsvd_info_t *info)
{
    double t0 = clock_now();
    rsvd_opts_t def;
    rsvd_info_t inf0;
    if (!o) {
        rsvd_opts_default(&def);
        o = &def;
    }
    if (!info)
        info = &inf0;
    memset(info, 0, sizeof *info);
    memset(out, 0, sizeof *out);
    if (o->row_order)
        *o->row_order_len = 0;
    if (!M || M->m == 0 || M->n == 0 || (!M->A && !M->S)) {
        ar_error_set("upper_rsvd: empty or missing matrix");
        return AR_EINVAL;
    }
    if (!(eps > 0.0 && eps < 1.0)) {
        ar_error_set("upper_rsvd: eps must satisfy 0 < eps < 1 (got %g)", eps);
        return AR_EINVAL;
    }
    size_t m = M->m, n = M->n, r = m < n ? m : n;
    size_t passes0 = M->passes;
    out->rank = r;
    out->method = AR_METHOD_TRIVIAL;
    info->seed = o->seed;
    info->power = o->power;
    size_t l = o->l0 ? o->l0 : 64, lmax = r;
    if (o->cap && o->cap + 16 < lmax)
        lmax = o->cap + 16;
    if (o->max_sketch && o->max_sketch < lmax)
        lmax = o->max_sketch;
    if (o->cap == 1)
        r = 1;                                   /* nothing below rank 1 to seek */
    if (l > lmax)
        l = lmax;
    ar_status st = AR_OK;
    rsvd_sketch_t sk;
    memset(&sk, 0, sizeof sk);
    rsvd_sample_t smp;
    memset(&smp, 0, sizeof smp);
    /* one BLAS thread throughout: the products with A run on attnrank's own fixed threads
     * (amat.h, resid.h), the small products and factorisations on this one, so that the factors
     * and every certified number do not depend on OPENBLAS_NUM_THREADS */
    blas_single_begin();
    while (r > 1) {
        info->rounds++;
        info->sketch = l;
        rsvd_say(o, t ? "rsym: sketch of %zu columns (round %zu)" : "rsvd: sketch of %zu columns (round %zu)", l,
            (size_t)info->rounds);
        double *U, *V;
        uint64_t seed = o->seed + (uint64_t)info->rounds - 1;
        if ((st = rsvd_sketch_extend(M, t, &sk, l, o->power, seed, o)))
            break;
        if ((st = t ? rsvd_sym_factors(&sk, t, n, &U, &V) : rsvd_svd_factors(&sk, m, n, &U, &V)))
            break;
        size_t top = l < r ? l : r - 1, guess = 0, hi = 0, next = 2 * l;
        if (o->cap > 1 && top > o->cap - 1)
            top = o->cap - 1;                    /* ranks >= cap add nothing to the caller */
        double best = INFINITY;
        /* no rank certified on the sample rows: the whole matrix cannot do better (its bound is a
         * maximum over more rows), so the sketch is extended without a full residual pass.
         * Otherwise the first full pass probes the guess and ranks spread above it (the sample
         * maximum underestimates the full one), later passes the ranks in between. */
        if ((st = rsvd_sample_guess(M, &smp, U, V, l, top, eps, &guess, &next)) == AR_OK && guess > 0) {
            size_t ks0[RSVD_GUESS];
            size_t nk0 = rsvd_guess_ranks(guess, top, ks0);
            rsvd_search_t sr = {.M = M, .U = U, .V = V, .l = l, .top = top, .eps = eps, .ks0 = ks0, .nk0 = nk0,
                                .o = o, .info = info, .best = best};
            st = rsvd_search(&sr);
            hi = sr.hi;
            best = sr.best;
            if (st == AR_OK && hi == 0)
                next = l + l / 4;               /* the sample promised more than A gave */
        }
        /* the pivoted QR of a factor of more than half the full rank costs O(m k^2) with little
         * to choose (the lower end then starts from nearly every row): left to the caller */
        if (st == AR_OK && hi > 0 && o->row_order && rsvd_pivots_worth(m, n, hi))
            *o->row_order_len = la_row_pivots(m, hi, U, o->row_order);
        free(U);
        free(V);
        if (st)
            break;
        if (hi > 0) {
            out->rank = hi;
            out->err = best;
            out->method = t ? AR_METHOD_RSYM : AR_METHOD_RSVD;
            break;
        }
        if (l >= lmax) {
            info->exhausted = o->max_sketch && lmax == o->max_sketch && lmax < r;
            break;
        }
        /* the sample's errors extrapolate to a rank beyond twice the largest sketch allowed: the
         * caller factors A fully instead, without the largest sketch's passes first (issue 32:
         * 1.8 s of a 2048-point cross-attention bracket whose rank is 1348) */
        if (guess == 0 && o->max_sketch && lmax == o->max_sketch && lmax < r && next > 2 * lmax) {
            rsvd_say(o, t ? "rsym: the sample rows predict a rank near %zu, beyond sketches of %zu columns"
                     : "rsvd: the sample rows predict a rank near %zu, beyond sketches of %zu columns", next, lmax);
            info->exhausted = 1;
            break;
        }
        l = next_size(l, next, lmax);
    }
    rsvd_sketch_clear(&sk);
    rsvd_sample_clear(&smp);
    blas_single_end();
    info->passes = M->passes - passes0;
    out->seconds = clock_now() - t0;
    return st;
}

/* Contract: cert_rsvd.h.  The randomized SVD upper certificate. */
ar_status upper_rsvd(amat_t *M, double eps, const rsvd_opts_t *o, upper_cert_t *out, rsvd_info_t *info)
{
    return upper_random(M, NULL, eps, o, out, info);
}

/* Contract: cert_rsvd.h.  The randomized eigendecomposition of S = T A T^{-1} (self-attention). */
ar_status upper_rsym(amat_t *M, const double *logt, double eps, const rsvd_opts_t *o, upper_cert_t *out,
                     rsvd_info_t *info)
{
    if (!M || M->m != M->n || !logt) {
        memset(out, 0, sizeof *out);
        ar_error_set("upper_rsym: self-attention only (square matrix and log t)");
        return AR_EINVAL;
    }
    size_t n = M->n;
    double *t = ar_calloc(n, sizeof *t, "scaling t");
    if (!t)
        return AR_ENOMEM;
    double lo = INFINITY, hi = -INFINITY, mean = 0.0;
    for (size_t i = 0; i < n; i++) {
        lo = fmin(lo, logt[i]);
        hi = fmax(hi, logt[i]);
        mean += logt[i];
    }
    ar_status st = AR_OK;
    if (!(hi - lo <= 600.0)) {                 /* as upper_symeig: the candidate makes no sense */
        memset(out, 0, sizeof *out);
        if (info)
            memset(info, 0, sizeof *info);
        out->rank = n;
        out->method = AR_METHOD_TRIVIAL;
    } else {
        mean /= (double)n;
        for (size_t i = 0; i < n; i++)
            t[i] = exp(logt[i] - mean);
        st = upper_random(M, t, eps, o, out, info);
    }
    free(t);
    return st;
}
