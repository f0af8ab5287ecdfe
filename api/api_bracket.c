/* SPDX-License-Identifier: GPL-3.0-or-later */
/* api_bracket.c -- the bracket of one instance through the route chooser
 * (theory/brackets/route.h route_bracket, as `attnrank bracket`). */
#include "base/blas.h"
#include "api/api_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "base/clock.h"
#include "constructions/pointsets/ball.h"
#include "theory/brackets/bracket_ball.h"

ar_status api_ball_spec(const attnrank_ball_spec *s, ball_spec_t *b);   /* api_points.c */

/* Every owned pointer lies within the 0.3 size (API_MIN_BRACKET), so a
 * caller always receives what it must free; a later owned field past it must
 * be freed here when the caller's size does not hold it. */
void attnrank_bracket_clear(attnrank_bracket_result *r)
{
    if (!r || r->size < API_MIN_BRACKET)
        return;
    free(r->n);
    free(r->m);
    free(r->route_plan);
    api_size_zero(r, API_MIN_BRACKET, sizeof *r);
}

/* The caller's result r (NULL: null_msg) checked, before its fields are written. */
static ar_status bracket_out_check(const attnrank_bracket_result *r, const char *null_msg)
{
    return api_size_out_check(r, API_MIN_BRACKET, "attnrank_bracket_result", null_msg);
}

/* The end of a call that filled full: on success the caller's prefix of it into r, else
 * what it owns freed (r stays zeroed). */
static void bracket_out(attnrank_status as, attnrank_bracket_result *full, attnrank_bracket_result *r)
{
    if (as == ATTNRANK_OK) {
        api_size_out(r, full, sizeof *full);
    } else {
        full->size = sizeof *full;
        attnrank_bracket_clear(full);
    }
}

/* The fields every route's result shares. */
static ar_status fill_common(const route_result_t *rr, double beta, double eps, attnrank_bracket_result *r)
{
    const bracket_t *b = &rr->b;
    r->lower = b->lower;
    r->upper = b->upper;
    api_copy(r->status, sizeof r->status, ar_cert_status_name(b->status));
    api_copy(r->routes, sizeof r->routes, rr->routes);
    api_copy(r->lower_route, sizeof r->lower_route, ar_route_name(rr->lower_route));
    api_copy(r->upper_route, sizeof r->upper_route, ar_route_name(rr->upper_route));
    api_copy(r->lower_certificate, sizeof r->lower_certificate, ar_method_name(b->lo.method));
    api_copy(r->upper_certificate, sizeof r->upper_certificate, ar_method_name(b->up.method));
    r->upper_err_bound = b->up.err;
    r->beta = beta;
    r->eps = eps;
    r->enclosure_err = b->maxerr;
    r->prec = b->prec;
    api_copy(r->enclosure, sizeof r->enclosure, b->enclosure ? b->enclosure : "arb");
    r->streamed = b->streamed != 0;
    r->rsvd_run = b->rsvd.rounds != 0;
    r->rsvd_rank = b->up_rsvd.rank;
    r->rsym_rank = b->up_rsym.rank;
    r->rsvd_sketch = b->rsvd.sketch;
    r->rsvd_power = b->rsvd.power;
    r->rsvd_seed = b->rsvd.seed;
    r->rsvd_passes = b->rsvd.passes;
    r->polygon_n = rr->polygon_n;
    r->polygon_eta = rr->polygon_eta;
    r->poly_degree = rr->poly_degree;
    r->seconds = b->seconds;
    r->seconds_enclose = b->seconds_enclose;
    r->lower_budget_flops = b->lower_budget;
    r->lower_spent_flops = b->lower_spent;
    r->lower_cut = b->lower_cut != 0;
    if (!(r->route_plan = api_route_plan_json(rr)))
        return AR_ENOMEM;
    return AR_OK;
}

/* The engine's name, as the CLI's --engine spells it. */
static void fill_engine(const attnrank_options *o, attnrank_bracket_result *r)
{
    attnrank_engine e = o ? o->engine : ATTNRANK_ENGINE_AUTO;
    api_copy(r->engine, sizeof r->engine, e == ATTNRANK_ENGINE_DENSE ? "dense"
                                         : e == ATTNRANK_ENGINE_SCALE ? "scale" : "auto");
}

/* route_bracket on Q, K (K == Q: self-attention) with the logit bias (or NULL) into r. */
static ar_status bracket_points(const pointset_t *Q, const pointset_t *K, const double *bias, double beta,
                                double eps, const attnrank_options *o, attnrank_bracket_result *r)
{
    route_opts_t ro;
    route_result_t rr;
    ar_status st = api_route_opts(o, bracket_is_self(Q, K) && !bias, &ro);
    ro.bracket.bias = bias;
    if (st || (st = route_bracket(Q, K, beta, eps, &ro, &rr)))
        return st;
    r->logit_bias = bias != NULL;
    if ((st = fill_common(&rr, beta, eps, r)))
        return st;
    fill_engine(o, r);
    const bracket_t *b = &rr.b;
    r->lower_invnorm_bound = isfinite(b->lo.invnorm) ? b->lo.invnorm : -1.0;
    if (rr.self)
        Q = K;                           /* one matrix: the queries are the keys, with their multiplicities */
    fmpz_t nk, mq;
    fmpz_init(nk);
    fmpz_init(mq);
    pointset_total_multiplicity(nk, K);
    pointset_total_multiplicity(mq, Q);
    r->n = api_fmpz_str(nk);
    r->m = api_fmpz_str(mq);
    r->log10_n = fmpz_dlog(nk) / log(10.0);
    fmpz_clear(nk);
    fmpz_clear(mq);
    if (!r->n || !r->m)
        return AR_ENOMEM;
    r->distinct_keys = K->n;
    r->distinct_queries = Q->n;
    r->d = Q->d;
    r->self_attention = rr.self;
    return AR_OK;
}

static attnrank_status bracket_impl(const attnrank_points *Q, const attnrank_points *K, const double *bias,
                                    double beta, double eps, const attnrank_options *o, attnrank_bracket_result *r)
{
    api_size_zero(r, API_MIN_BRACKET, sizeof *r);
    api_call_t c;
    attnrank_status as = api_begin(o, &c);
    if (as)
        return as;
    attnrank_bracket_result full;
    memset(&full, 0, sizeof full);
    ar_status st;
    if (!(st = bracket_out_check(r, "bracket: NULL result")) && !(st = api_points_check(Q, "bracket: queries"))) {
        const pointset_t *PQ = &Q->P, *PK = K ? &K->P : PQ;
        st = bracket_points(PQ, PK, bias, beta, eps, c.o, &full);
    }
    as = api_end(&c, st);
    bracket_out(as, &full, r);
    return as;
}

/* The public entry: the whole call in one BLAS region (base/blas.h): its
 * numbers do not depend on OPENBLAS_NUM_THREADS or on calls in other threads. */
attnrank_status attnrank_bracket(const attnrank_points *Q, const attnrank_points *K, double beta, double eps,
                                 const attnrank_options *o, attnrank_bracket_result *r)
{
    blas_single_begin();
    attnrank_status st = bracket_impl(Q, K, NULL, beta, eps, o, r);
    blas_single_end();
    return st;
}

static attnrank_status bracket_arrays_impl(const double *queries, size_t m, const double *keys, size_t n, size_t d,
                                           const uint64_t *w64, const char *const *wdec, double beta, double eps,
                                           const attnrank_options *o, attnrank_bracket_result *r)
{
    api_size_zero(r, API_MIN_BRACKET, sizeof *r);
    attnrank_points *Q = NULL, *K = NULL;
    attnrank_status as;
    if (!keys) {
        as = attnrank_points_new(queries, m, d, w64, wdec, "arrays", &Q);
    } else {
        as = attnrank_points_new(queries, m, d, NULL, NULL, "arrays", &Q);
        if (!as)
            as = attnrank_points_new(keys, n, d, w64, wdec, "arrays", &K);
    }
    if (!as)
        as = bracket_impl(Q, K, NULL, beta, eps, o, r);
    attnrank_points_free(Q);
    attnrank_points_free(K);
    return as;
}

/* The public entry: the whole call in one BLAS region (base/blas.h): its
 * numbers do not depend on OPENBLAS_NUM_THREADS or on calls in other threads. */
attnrank_status attnrank_bracket_arrays(const double *queries, size_t m, const double *keys, size_t n, size_t d,
                                        const uint64_t *w64, const char *const *wdec, double beta, double eps,
                                        const attnrank_options *o, attnrank_bracket_result *r)
{
    blas_single_begin();
    attnrank_status st = bracket_arrays_impl(queries, m, keys, n, d, w64, wdec, beta, eps, o, r);
    blas_single_end();
    return st;
}

attnrank_status attnrank_bracket_biased(const attnrank_points *Q, const attnrank_points *K, const double *bias,
                                        double beta, double eps, const attnrank_options *o,
                                        attnrank_bracket_result *r)
{
    blas_single_begin();
    attnrank_status st = bracket_impl(Q, K, bias, beta, eps, o, r);
    blas_single_end();
    return st;
}

static attnrank_status bracket_ball_impl(const attnrank_ball_spec *s, double eps, const attnrank_options *o,
                                      attnrank_bracket_result *r, attnrank_points **points)
{
    api_size_zero(r, API_MIN_BRACKET, sizeof *r);
    if (points)
        *points = NULL;
    api_call_t c;
    attnrank_status as = api_begin(o, &c);
    if (as)
        return as;
    attnrank_bracket_result full, *const r_out = r;
    memset(&full, 0, sizeof full);
    r = &full;                         /* filled here, the caller's prefix copied out at the end */
    ar_status st;
    ball_spec_t bs;
    pointset_t P;
    memset(&P, 0, sizeof P);
    if ((st = bracket_out_check(r_out, "bracket_ball: NULL result")))
        goto out;
    if ((st = api_ball_spec(s, &bs)))
        goto out;
    if (!(eps > 0.0 && eps < 1.0)) {
        ar_error_set("eps: expected 0 < eps < 1, got %g", eps);
        st = AR_EINVAL;
        goto out;
    }
    route_opts_t ro;
    if ((st = api_route_opts(c.o, 1, &ro)))
        goto out;
    double t0 = clock_now();
    if ((st = ball_generate(&P, &bs)))
        goto out;
    double tgen = clock_now() - t0;
    route_result_t rr;                 /* the one route chooser: ball, dense, ... */
    if ((st = route_bracket(&P, &P, bs.beta, eps, &ro, &rr)))
        goto out;
    if ((st = fill_common(&rr, bs.beta, eps, r)))
        goto out;
    fill_engine(c.o, r);
    const bracket_t *b = &rr.b;
    const ball_bracket_info_t *info = &rr.ball;
    r->lower_invnorm_bound = b->lo.invnorm;
    fmpz_t N, wmax;
    fmpz_init(N);
    fmpz_init(wmax);
    r->log10_n = ball_total_count(&P, N);
    r->log10_max_multiplicity = ball_max_weight(&P, wmax);
    r->n = api_fmpz_str(N);
    r->m = api_fmpz_str(N);
    fmpz_clear(N);
    fmpz_clear(wmax);
    r->seconds = clock_now() - t0;
    r->seconds_generate = tgen;
    if (!r->n || !r->m) {
        st = AR_ENOMEM;
        goto out;
    }
    r->distinct_keys = r->distinct_queries = P.n;
    r->d = P.d;
    r->self_attention = 1;
    r->cluster_centres = info->cluster.m;
    r->cluster_delta = info->cluster.delta;
    r->cluster_max_r = info->cluster.max_R;
    r->tensor_points_per_axis = info->tensor.p;
    r->tensor_rank = info->tensor.rank;
    r->tensor_capped = info->tensor.capped != 0;
    r->tensor_ratio = info->tensor.ratio;
    r->dense_run = info->dense_run != 0;
    if (points) {
        attnrank_points *p = malloc(sizeof *p);
        if (!p) {
            ar_error_set("out of memory for a point set");
            st = AR_ENOMEM;
            goto out;
        }
        p->P = P;
        memset(&P, 0, sizeof P);
        *points = p;
    }
out:
    pointset_clear(&P);
    as = api_end(&c, st);
    bracket_out(as, &full, r_out);
    if (as) {
        if (points) {
            attnrank_points_free(*points);
            *points = NULL;
        }
    }
    return as;
}

/* The public entry: the whole call in one BLAS region (base/blas.h): its
 * numbers do not depend on OPENBLAS_NUM_THREADS or on calls in other threads. */
attnrank_status attnrank_bracket_ball(const attnrank_ball_spec *s, double eps, const attnrank_options *o,
                                      attnrank_bracket_result *r, attnrank_points **points)
{
    blas_single_begin();
    attnrank_status st = bracket_ball_impl(s, eps, o, r, points);
    blas_single_end();
    return st;
}
