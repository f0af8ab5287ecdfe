/* bracket.c -- certified bracket lower <= rank_eps(A) <= upper (THEORY 3.4, 3.5). */
#include "theory/brackets/bracket.h"
#include "theory/brackets/bracket_status.h"
#include "numerics/clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "numerics/fps.h"
#include "numerics/softmax.h"

void bracket_opts_default(bracket_opts_t *o)
{
    o->use_svd = -1;
    o->use_pchol = -1;
    o->use_symeig = o->use_lower = 1;
    o->prec = 0;
    o->threads = 0;
}

int bracket_svd_needed(size_t n, const double *logt, const upper_cert_t *best)
{
    if (!logt || !best || strcmp(best->method, "trivial") == 0 || best->rank == 0)
        return 1;                      /* symeig and pchol did not apply or certified nothing */
    if (n <= BRACKET_SVD_ALWAYS_N)
        return 1;
    double lo = logt[0], hi = logt[0];
    for (size_t i = 1; i < n; i++) {
        lo = fmin(lo, logt[i]);
        hi = fmax(hi, logt[i]);
    }
    return !(hi - lo <= BRACKET_SVD_SPREAD);
}

/* keep the better (smaller-rank) upper certificate */
static void take_upper(bracket_t *out, const upper_cert_t *c)
{
    if (c->rank > 0 && c->rank < out->up.rank)
        out->up = *c;
}

ar_status bracket_compute(const pointset_t *Q, const pointset_t *K, double beta, double eps,
                          const bracket_opts_t *o, bracket_t *out)
{
    double t0 = clock_now();
    bracket_opts_t def;
    if (!o) {
        bracket_opts_default(&def);
        o = &def;
    }
    memset(out, 0, sizeof *out);
    out->status = "inconclusive";
    if (!Q || !K || !out) {
        ar_error_set("bracket_compute: NULL argument");
        return AR_EINVAL;
    }
    if (!isfinite(beta) || beta < 0) {
        ar_error_set("bracket_compute: beta must be finite and >= 0 (got %g)", beta);
        return AR_EINVAL;
    }
    if (!(eps > 0.0 && eps < 1.0)) {
        ar_error_set("bracket_compute: eps must satisfy 0 < eps < 1 (got %g)", eps);
        return AR_EINVAL;
    }
    ar_status st = pointset_validate(Q);
    if (st == AR_OK && K != Q)
        st = pointset_validate(K);
    if (st != AR_OK)
        return st;
    if (Q->d != K->d || Q->n == 0 || K->n == 0) {
        ar_error_set("bracket_compute: dimension mismatch (queries d = %zu, keys d = %zu)", Q->d, K->d);
        return AR_EINVAL;
    }
    int self = (Q == K);
    size_t m = Q->n, n = K->n, r = m < n ? m : n;
    out->m = m;
    out->n = n;

    smx_t A;
    memset(&A, 0, sizeof A);
    double t1 = clock_now();
    st = smx_compute(&A, Q->x, m, K->x, n, Q->d, K->w, beta, o->prec, o->threads);
    out->seconds_enclose = clock_now() - t1;
    if (st != AR_OK)
        return st;
    out->maxerr = A.maxerr;
    out->prec = A.prec;

    /* trivial bracket (also the inconclusive answer) */
    out->lower = 1;
    out->upper = r;
    out->lo.rank = 1;
    out->lo.invnorm = 1.0;
    snprintf(out->lo.method, sizeof out->lo.method, "trivial");
    out->up.rank = r;
    out->up.err = 0.0;
    snprintf(out->up.method, sizeof out->up.method, "trivial");

    if (!(2.0 * A.maxerr < eps)) {
        smx_clear(&A);
        out->seconds = clock_now() - t0;
        return AR_OK;                       /* status stays "inconclusive" */
    }

    double *logt = NULL;
    size_t *order = NULL;
    if (self && (o->use_symeig || o->use_pchol)) {   /* use_pchol -1 (auto) counts as on here */
        logt = ar_calloc(n, sizeof *logt, "log t");
        if (!logt) {
            st = AR_ENOMEM;
            goto done;
        }
        for (size_t i = 0; i < n; i++) {
            double lw = 0.0;
            if (K->w) {
                slong e;
                double mant = fmpz_get_d_2exp(&e, K->w + i);
                lw = log(mant) + (double)e * M_LN2;
            }
            logt[i] = 0.5 * (A.lognorm[i] + lw);
        }
        if (o->use_symeig) {
            st = upper_symeig(&A, logt, eps, &out->up_symeig);
            if (st != AR_OK)
                goto done;
            take_upper(out, &out->up_symeig);
        }
        /* pivoted Cholesky: when asked, or (auto) when symeig certified nothing non-trivial */
        if (o->use_pchol > 0 || (o->use_pchol < 0 && strcmp(out->up.method, "symeig") != 0)) {
            st = upper_pchol(&A, logt, eps, &out->up_pchol);
            if (st != AR_OK)
                goto done;
            take_upper(out, &out->up_pchol);
        }
    }
    /* The truncated SVD: always when asked or for cross-attention; in auto
     * mode for self-attention too unless symeig already is the truncated SVD
     * up to a near-scalar similarity (see bracket_svd_needed). */
    if (o->use_svd > 0 || (o->use_svd < 0 && (!self || bracket_svd_needed(n, logt, &out->up)))) {
        st = upper_svd(&A, eps, &out->up_svd);
        if (st != AR_OK)
            goto done;
        take_upper(out, &out->up_svd);
    }
    out->upper = out->up.rank;

    if (o->use_lower) {
        double t2 = clock_now();
        order = ar_calloc(m, sizeof *order, "farthest-point order");
        if (!order) {
            st = AR_ENOMEM;
            goto done;
        }
        st = fps_order(Q->x, m, Q->d, 0, order, NULL);
        if (st != AR_OK)
            goto done;
        lower_cert_t lc;
        st = lower_blocks(&A, order, m, eps, &lc);
        if (st != AR_OK)
            goto done;
        if (lc.rank > out->lo.rank)
            out->lo = lc;
        st = lower_nets(&A, Q->x, Q->d, eps, &lc);
        if (st != AR_OK)
            goto done;
        if (lc.rank > out->lo.rank)
            out->lo = lc;
        out->seconds_lower = clock_now() - t2;
    }
    out->lower = out->lo.rank;
    if (out->lower > out->upper) {
        ar_error_set("bracket_compute: BUG: certified lower bound %zu (%s) exceeds certified "
                     "upper bound %zu (%s)", out->lower, out->lo.method, out->upper, out->up.method);
        st = AR_ENUMERIC;
        goto done;
    }
    out->status = bracket_status_decide(out->lower, out->lo.method, out->upper, out->up.method);

done:
    free(logt);
    free(order);
    smx_clear(&A);
    out->seconds = clock_now() - t0;
    return st;
}
