/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bracket_stream.c -- the dense bracket without the matrix: the double
 * enclosure streamed in row blocks (see bracket.h, bracket_compute_stream). */
#include "theory/brackets/bracket.h"
#include "theory/brackets/bracket_impl.h"

#include <stdlib.h>
#include <string.h>
#include "numerics/amat.h"
#include "base/clock.h"
#include "base/config.h"
#include "numerics/fps.h"
#include "numerics/softmax_dbl.h"

ar_status bracket_stream_max_n(size_t *out)
{
    *out = ar_config()->stream_max_n;
    return AR_OK;
}

ar_status bracket_compute_stream(const pointset_t *Q, const pointset_t *K, double beta, double eps,
                                 const bracket_opts_t *o, bracket_t *out)
{
    double t0 = clock_now();
    bracket_opts_t def;
    ar_status st = bracket_begin(Q, K, beta, eps, &o, &def, out);
    if (st != AR_OK)
        return st;
    if (Q != K && bracket_is_self(Q, K))
        Q = K;
    size_t m = Q->n, n = K->n, d = Q->d, r = m < n ? m : n, nmax;
    if ((st = bracket_stream_max_n(&nmax)))
        return st;
    if (m > nmax || n > nmax) {
        ar_error_set("bracket: %zu x %zu exceeds the streamed dense route's limit of %zu points per side "
                     "(O(m n k) work per pass; set ATTNRANK_MAX_STREAM_N to raise it)", m, n, nmax);
        return AR_EINVAL;
    }
    smxd_t S;
    if ((st = smxd_prepare_bias(&S, Q->x, m, K->x, n, d, K->w, o->bias, beta, o->threads)))
        return st;
    if (!S.ok) {
        int sub = S.subnormal;
        smxd_clear(&S);
        ar_error_set(sub ? "bracket: beta times a key coordinate is subnormal, which the streamed double "
                                   "enclosure does not evaluate (numerics/softmax_dbl.h)"
                                 : "bracket: the logits are too large for the streamed double enclosure "
                                   "(numerics/softmax_dbl.h)");
        return AR_EINVAL;
    }
    out->streamed = 1;
    out->enclosure = "double";
    out->prec = 53;
    bracket_set_trivial(out, m, n);
    double *rowerr = ar_calloc(m, sizeof *rowerr, "row error bounds");
    size_t *order = NULL, *qr_order = NULL;
    double *xs = NULL;
    smx_t R;
    memset(&R, 0, sizeof R);
    if (!rowerr) {
        st = AR_ENOMEM;
        goto done;
    }
    smxd_rowerr(&S, rowerr);
    for (size_t i = 0; i < m; i++)
        if (!(rowerr[i] <= out->maxerr))
            out->maxerr = rowerr[i];
    if (!(2.0 * out->maxerr < eps))
        goto done;                            /* inconclusive */
    amat_t M;
    amat_stream(&M, &S);
    size_t cap = o->lower_cap ? o->lower_cap : (size_t)-1;

    /* lower, first part: the rows of a farthest-point prefix of the queries, enclosed and held */
    size_t len = cap < BRACKET_STREAM_LOWER_ROWS ? cap : BRACKET_STREAM_LOWER_ROWS;
    if (len > r)
        len = r;
    /* the prefix rows are held (len n doubles, twice: the enclosure and the growth's copy): at
     * most a quarter of the allocation limit in effect (issue 32: 2048 rows of 4096 keys are
     * 64 MiB, beyond a 0.05 GiB limit), at least 16 rows */
    size_t lim;
    if ((st = ar_max_alloc_effective(&lim)))
        goto done;
    size_t fit = lim / 4 / (8 * n);
    if (len > fit)
        len = fit > 16 ? fit : (16 < r ? 16 : r);
    if (o->use_lower) {
        double t1 = clock_now();
        bracket_say(o, "lower: farthest-point order of %zu queries", m);
        order = ar_calloc(m, sizeof *order, "farthest-point order");
        xs = order ? ar_calloc(len * d, sizeof *xs, "prefix points") : NULL;
        if (!xs) {
            st = AR_ENOMEM;
            goto done;
        }
        if ((st = fps_prefix(Q->x, m, d, 0, len, order, NULL)))   /* only the prefix is read */
            goto done;
        bracket_say(o, "lower: enclosing %zu prefix rows, block test matrices", len);
        if ((st = amat_rows(&M, order, len, &R)))
            goto done;
        for (size_t t = 0; t < len; t++) {
            memcpy(xs + t * d, Q->x + order[t] * d, d * sizeof *xs);
            order[t] = t;                     /* R's rows are the prefix, in order */
        }
        lower_cert_t lc;
        if ((st = lower_blocks_cap(&R, order, len, eps, cap, &lc)))
            goto done;
        if (lc.rank > out->lo.rank)
            out->lo = lc;
        /* cross-attention: the outer half of the queries as well (bracket_outer_order) */
        size_t olen = Q == K ? 0 : bracket_outer_order(Q, order, len);
        if (olen) {
            smx_t R2;
            if ((st = amat_rows(&M, order, olen, &R2)))
                goto done;
            for (size_t t = 0; t < olen; t++)
                order[t] = t;
            st = lower_blocks_cap(&R2, order, olen, eps, cap, &lc);
            smx_clear(&R2);
            if (st)
                goto done;
            if (lc.rank > out->lo.rank)
                out->lo = lc;
        }
        out->seconds_lower += clock_now() - t1;
    }

    /* upper: rsvd on the streamed matrix (the power iterations of the held route, so that both give
     * the same factors up to rounding) */
    size_t qr_len = 0;
    if (o->use_rsvd != 0) {
        double t2 = clock_now();
        rsvd_opts_t ro;
        bracket_rsvd_opts(o, bracket_sketch_size(out->lo.rank, o->lower_cap, r), BRACKET_RSVD_POWER, &ro);
        if (o->use_lower && !(qr_order = ar_calloc(m, sizeof *qr_order, "sketch row order"))) {
            st = AR_ENOMEM;
            goto done;
        }
        ro.row_order = qr_order;
        ro.row_order_len = &qr_len;
        /* the sketch's factors are held (max(m, n) x l doubles each): no wider than the allocation
         * limit allows, so that a small limit gives a trivial upper end, not a refusal (issue 32) */
        size_t lim;
        if ((st = ar_max_alloc_effective(&lim)))
            goto done;
        size_t lmem = lim / (8 * (m > n ? m : n));
        if (lmem < 1)
            lmem = 1;
        if (ro.max_sketch == 0 || lmem < ro.max_sketch)
            ro.max_sketch = lmem;
        if ((st = upper_rsvd(&M, eps, &ro, &out->up_rsvd, &out->rsvd)))
            goto done;
        if (out->up_rsvd.rank > 0 && out->up_rsvd.rank < out->up.rank)
            out->up = out->up_rsvd;
        out->seconds_upper = clock_now() - t2;
    }

    /* lower, second part, under one budget tied to the upper end's cost (issue 32): greedy
     * growth (or peeling) over the rows of the sketch's factors in pivoted-QR order, enclosed and
     * held, then index-order nets among the prefix; capped by the upper end */
    if (o->use_lower) {
        double t1 = clock_now();
        size_t ncap = out->up.rank < cap ? out->up.rank : cap;
        out->upper_flops = (double)out->rsvd.passes * 2.0 * (double)m * (double)n * (double)out->rsvd.sketch;
        lower_ctl_t ctl;
        bracket_lower_ctl(o, out->upper_flops, &ctl);
        if (qr_len) {
            smx_t R3;
            if ((st = amat_rows(&M, qr_order, qr_len, &R3)))
                goto done;
            for (size_t t = 0; t < qr_len; t++)
                qr_order[t] = t;
            st = bracket_grow_lower(&R3, qr_order, qr_len, eps, ncap, o, out, &ctl);
            smx_clear(&R3);
            if (st)
                goto done;
        }
        bracket_say(o, "lower: nets of at most %zu prefix points", ncap);
        ctl.floor = out->lo.rank;          /* nets no larger than the lower end held: not probed */
        double whole = ctl.budget;
        ctl.budget = bracket_share_budget(&ctl);
        lower_cert_t lc;
        st = lower_nets_ctl(&R, xs, d, eps, ncap, &ctl, &lc);
        ctl.budget = whole;
        if (st)
            goto done;
        if (lc.rank > out->lo.rank)
            out->lo = lc;
        bracket_lower_record(out, &ctl);
        out->seconds_lower += clock_now() - t1;
    }
    st = bracket_finish(out);
done:
    free(qr_order);
    smx_clear(&R);
    free(order);
    free(xs);
    free(rowerr);
    smxd_clear(&S);
    out->seconds = clock_now() - t0;
    return st;
}
