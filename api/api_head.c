/* SPDX-License-Identifier: GPL-3.0-or-later */
/* api_head.c -- one attention head: visible dimension r, r_exact, r(tau)
 * with eta, and the head's certified bracket (as `attnrank head`). */
#include "base/blas.h"
#include "api/api_impl.h"

#include <flint/flint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/clock.h"
#include "base/config.h"
#include "base/parallel.h"
#include "theory/brackets/bracket.h"
#include "theory/heads/visible.h"

/* Every owned pointer lies within the 0.3 size (API_MIN_HEAD): see attnrank_bracket_clear. */
void attnrank_head_clear(attnrank_head_result *h)
{
    if (!h || h->size < API_MIN_HEAD)
        return;
    free(h->n);
    free(h->sigma);
    api_size_zero(h, API_MIN_HEAD, sizeof *h);
}

/* The caller's result h (NULL: null_msg) checked, before its fields are written. */
static ar_status head_out_check(const attnrank_head_result *h, const char *null_msg)
{
    return api_size_out_check(h, API_MIN_HEAD, "attnrank_head_result", null_msg);
}

/* The end of a call that filled full: on success the caller's prefix of it into h, else
 * what it owns freed (h stays zeroed). */
static void head_out(attnrank_status as, attnrank_head_result *full, attnrank_head_result *h)
{
    if (as == ATTNRANK_OK) {
        api_size_out(h, full, sizeof *full);
    } else {
        full->size = sizeof *full;
        attnrank_head_clear(full);
    }
}

/* The taus of a call (NULL/0: {0.05}), each in (0, 2). */
static ar_status head_taus(const double *taus, size_t ntau, attnrank_head_result *h)
{
    if (!taus || ntau == 0) {
        h->tau[0] = 0.05;
        h->ntau = 1;
        return AR_OK;
    }
    if (ntau > ATTNRANK_HEAD_MAX_TAUS) {
        ar_error_set("tau: at most %d values (got %zu)", ATTNRANK_HEAD_MAX_TAUS, ntau);
        return AR_EINVAL;
    }
    for (size_t t = 0; t < ntau; t++) {
        if (!(taus[t] > 0 && taus[t] < 2)) {
            ar_error_set("tau: each value must satisfy 0 < tau < 2 (got %g)", taus[t]);
            return AR_EINVAL;
        }
        h->tau[t] = taus[t];
    }
    h->ntau = ntau;
    return AR_OK;
}

static ar_status copy_sigma(const double *sigma, size_t nsigma, attnrank_head_result *h)
{
    h->sigma = malloc((nsigma ? nsigma : 1) * sizeof *h->sigma);
    if (!h->sigma) {
        ar_error_set("head: out of memory for the singular values");
        return AR_ENOMEM;
    }
    if (nsigma)
        memcpy(h->sigma, sigma, nsigma * sizeof *sigma);
    h->nsigma = nsigma;
    return AR_OK;
}

/* The head's two independent computations, side by side (issue 35): the direct bracket of A, and
 * the visible dimension with everything computed through the rank-r logits (r(tau), the bracket
 * via the visible logits, the upper ends via each r(tau)).  Each runs on its own thread with its
 * share of attnrank's threads; every number either computes is the same bits for any thread
 * count, so the result does not depend on how they are scheduled.  Errors are reported in the
 * order of the one-thread sequence: the visible dimension's, the direct bracket's, then the
 * visible route's. */
typedef struct {
    const pointset_t *Q, *K;
    double beta, eps;
    const visible_opts_t *vo;
    size_t ntau;
    const double *tau;
    size_t *rt, *up_tau;
    double *et;
    /* the direct bracket */
    bracket_t b;
    ar_status st_direct;
    char msg_direct[512];
    /* the visible route */
    visible_t v;
    ar_status st_vis, st_via;     /* visible_compute + visible_rtau; the bracket and uppers via r */
    char msg_vis[512], msg_via[512];
    size_t vlo, vup;
    double veta;
    const char *vstat;
    ar_cert_status_t vs;
    int via;                      /* 1: the bracket via the rank-r logits was computed */
} head_jobs_t;

static void head_direct(head_jobs_t *J)
{
    if ((J->st_direct = bracket_compute(J->Q, J->K, J->beta, J->eps, NULL, &J->b)))
        snprintf(J->msg_direct, sizeof J->msg_direct, "%s", ar_error_get());
}

static void head_visible(head_jobs_t *J)
{
    visible_t *v = &J->v;
    if ((J->st_vis = visible_compute(J->Q->x, J->Q->n, J->K->x, J->K->n, J->Q->d, J->beta, J->vo, v)) ||
        (J->st_vis = visible_rtau(v, J->tau, J->ntau, J->rt, J->et))) {
        snprintf(J->msg_vis, sizeof J->msg_vis, "%s", ar_error_get());
        return;
    }
    ar_status st = AR_OK;
    J->vstat = "not run";                         /* printed: "not run", "no slack ..." or the status */
    if (v->r >= 1) {
        J->vs = AR_CERT_INCONCLUSIVE;
        st = visible_bracket_via(v, v->r, J->K->w, J->eps, NULL, &J->vlo, &J->vup, &J->veta, &J->vs);
        if (st == AR_EINVAL) {
            J->vstat = "no slack (eta >= eps)";
            J->vlo = J->vup = 0;
            st = AR_OK;
        } else if (st == AR_OK) {
            J->vstat = ar_cert_status_name(J->vs);
            J->via = 1;
        }
    }
    for (size_t t = 0; st == AR_OK && t < J->ntau; t++) {   /* upper through each r(tau) */
        J->up_tau[t] = VISIBLE_NONE;
        if (J->rt[t] == VISIBLE_NONE || !(J->et[t] < J->eps))
            continue;
        size_t u = VISIBLE_NONE;
        for (size_t p = 0; p < t; p++)            /* same rank as an earlier tau: same bound */
            if (J->rt[p] == J->rt[t])
                u = J->up_tau[p];
        if (J->rt[t] == v->r && J->vup > 0)
            u = J->vup;                           /* already computed through the rank-r logits */
        if (u != VISIBLE_NONE) {
            J->up_tau[t] = u;
            continue;
        }
        st = visible_upper_via(v, J->rt[t], J->K->w, J->eps, NULL, &u, NULL, NULL);
        if (st == AR_OK)
            J->up_tau[t] = u;
        else if (st == AR_EINVAL)
            st = AR_OK;
    }
    if ((J->st_via = st))
        snprintf(J->msg_via, sizeof J->msg_via, "%s", ar_error_get());
}

/* Job which of par_run_as: 0 the visible route (in the calling thread), 1 the direct bracket. */
typedef struct {
    head_jobs_t *J;
    int which;
} head_job_t;

static void head_job(void *arg)
{
    head_job_t *hj = arg;
    if (hj->which == 0)
        head_visible(hj->J);
    else
        head_direct(hj->J);
}

/* Both jobs under cfg (each one's share of the threads) and the caller's cancellation flag: side
 * by side when nthreads >= 2, else one after the other in the calling thread. */
static void head_jobs_run(head_jobs_t *J, int nthreads, const ar_config_t *cfg)
{
    head_job_t jobs[2] = { { J, 0 }, { J, 1 } };
    if (nthreads >= 2) {
        par_run_as(2, head_job, flint_cleanup, jobs, sizeof jobs[0], cfg);
    } else {
        par_run_as(1, head_job, NULL, &jobs[0], sizeof jobs[0], cfg);
        par_run_as(1, head_job, NULL, &jobs[1], sizeof jobs[0], cfg);
    }
}

static ar_status head_compute(const pointset_t *Q, const pointset_t *K, double beta, double eps, size_t exact_max,
                              attnrank_head_result *h)
{
    ar_status st;
    if (Q->d != K->d) {
        ar_error_set("head: queries have dimension %zu but keys have %zu", Q->d, K->d);
        return AR_EINVAL;
    }
    if (!(eps > 0.0 && eps < 1.0)) {
        ar_error_set("eps: expected 0 < eps < 1, got %g", eps);
        return AR_EINVAL;
    }
    size_t dh = Q->d;
    if (isnan(beta))
        beta = 1.0 / sqrt((double)dh);
    if (!isfinite(beta) || beta < 0) {
        ar_error_set("beta: expected a finite number >= 0, got %g", beta);
        return AR_EINVAL;
    }
    visible_opts_t vo;
    visible_opts_default(&vo);
    if (exact_max)
        vo.exact_max = exact_max;
    double t0 = clock_now();
    size_t ntau = h->ntau, *rt = h->r_tau, *up_tau = h->upper_via;
    double *et = h->eta;
    head_jobs_t *J = calloc(1, sizeof *J);
    if (!J) {
        ar_error_set("head: out of memory");
        return AR_ENOMEM;
    }
    ar_config_t share = *ar_config();
    int T = par_threads();
    share.threads = T >= 2 ? (size_t)(T / 2) : 1;
    *J = (head_jobs_t){.Q = Q, .K = K, .beta = beta, .eps = eps, .vo = &vo, .ntau = ntau, .tau = h->tau,
                       .rt = rt, .up_tau = up_tau, .et = et, .veta = NAN, .vstat = "not run"};
    head_jobs_run(J, T, &share);
    visible_t v = J->v;
    bracket_t b = J->b;
    if ((st = J->st_vis) || (st = J->st_direct) || (st = J->st_via)) {
        ar_error_set("%s", J->st_vis ? J->msg_vis : J->st_direct ? J->msg_direct : J->msg_via);
        goto out;
    }
    size_t lower = b.lower, upper = b.upper;
    const char *lo_route = "direct", *up_route = "direct";
    size_t vlo = J->vlo, vup = J->vup;            /* through the rank-r visible logits */
    double veta = J->veta;
    const char *vstat = J->vstat;
    int vcertified = 0;
    if (J->via) {
        vcertified = J->vs == AR_CERT_CERTIFIED;
        if (vlo > lower) { lower = vlo; lo_route = "visible"; }
        if (vup < upper) { upper = vup; up_route = "visible"; }
    }
    /* the uppers through each r(tau), in order (one copied from an earlier tau or from the
     * visible bracket never beats the upper end it was already compared with) */
    for (size_t t = 0; t < ntau; t++)
        if (up_tau[t] != VISIBLE_NONE && up_tau[t] < upper) {
            upper = up_tau[t];
            up_route = "r(tau)";
        }
    if (lower > upper) {
        ar_error_set("head: BUG: certified lower %zu exceeds certified upper %zu", lower, upper);
        st = AR_ENUMERIC;
        goto out;
    }
    /* both ends are rigorous whatever their route; "certified" unless neither
     * the direct bracket nor the visible route could certify anything */
    ar_cert_status_t status = b.status == AR_CERT_CERTIFIED || vcertified ? AR_CERT_CERTIFIED : AR_CERT_INCONCLUSIVE;
    h->seconds = clock_now() - t0;
    h->r = v.r;
    h->r_exact = v.r_exact;
    h->tol = v.tol;
    h->tol_safety = v.tol_safety;
    h->lower = lower;
    h->upper = upper;
    api_copy(h->status, sizeof h->status, ar_cert_status_name(status));
    api_copy(h->lower_route, sizeof h->lower_route, lo_route);
    api_copy(h->upper_route, sizeof h->upper_route, up_route);
    h->head_dim = dh;
    h->m = Q->n;
    h->distinct_keys = K->n;
    h->beta = beta;
    h->eps = eps;
    h->direct_lower = b.lower;
    h->direct_upper = b.upper;
    api_copy(h->direct_status, sizeof h->direct_status, ar_cert_status_name(b.status));
    api_copy(h->direct_lower_certificate, sizeof h->direct_lower_certificate, ar_method_name(b.lo.method));
    api_copy(h->direct_upper_certificate, sizeof h->direct_upper_certificate, ar_method_name(b.up.method));
    h->visible_lower = vlo;
    h->visible_upper = vup;
    h->visible_eta = veta;
    api_copy(h->visible_status, sizeof h->visible_status, vstat);
    fmpz_t nk;
    fmpz_init(nk);
    pointset_total_multiplicity(nk, K);
    h->n = api_fmpz_str(nk);
    fmpz_clear(nk);
    if (!h->n)
        st = AR_ENOMEM;
    else
        st = copy_sigma(v.sigma, v.nsigma, h);
out:
    visible_clear(&v);
    free(J);
    return st;
}

static attnrank_status head_impl(const attnrank_points *Q, const attnrank_points *K, double beta, double eps,
                              const double *taus, size_t ntau, size_t exact_max, const attnrank_options *o,
                              attnrank_head_result *h)
{
    api_size_zero(h, API_MIN_HEAD, sizeof *h);
    api_call_t c;
    attnrank_status as = api_begin(o, &c);
    if (as)
        return as;
    attnrank_head_result full;
    memset(&full, 0, sizeof full);
    ar_status st;
    if (!(st = head_out_check(h, "head: NULL result")) && !(st = api_points_check(Q, "head: queries")) &&
        !(st = api_points_check(K, "head: keys")) && !(st = head_taus(taus, ntau, &full))) {
        st = head_compute(&Q->P, &K->P, beta, eps, exact_max, &full);
    }
    as = api_end(&c, st);
    head_out(as, &full, h);
    return as;
}

/* The public entry: the whole call in one BLAS region (base/blas.h): its
 * numbers do not depend on OPENBLAS_NUM_THREADS or on calls in other threads. */
attnrank_status attnrank_head(const attnrank_points *Q, const attnrank_points *K, double beta, double eps,
                              const double *taus, size_t ntau, size_t exact_max, const attnrank_options *o,
                              attnrank_head_result *h)
{
    blas_single_begin();
    attnrank_status st = head_impl(Q, K, beta, eps, taus, ntau, exact_max, o, h);
    blas_single_end();
    return st;
}

static attnrank_status head_weights_impl(const double *wq, const double *wk, size_t dmodel, size_t dh, double beta,
                                      double radius, const double *taus, size_t ntau, const attnrank_options *o,
                                      attnrank_head_result *h_out)
{
    api_size_zero(h_out, API_MIN_HEAD, sizeof *h_out);
    api_call_t c;
    attnrank_status as = api_begin(o, &c);
    if (as)
        return as;
    attnrank_head_result full, *const h = &full;   /* filled here, the caller's prefix copied out at the end */
    memset(&full, 0, sizeof full);
    ar_status st = AR_OK;
    visible_bilinear_t v;
    memset(&v, 0, sizeof v);
    if (!h_out || !wq || !wk) {
        ar_error_set("head_weights: NULL argument");
        st = AR_EINVAL;
        goto out;
    }
    if ((st = head_out_check(h_out, "head_weights: NULL argument")))
        goto out;
    if ((st = head_taus(taus, ntau, h)))
        goto out;
    if (dmodel == 0 || dh == 0) {
        ar_error_set("head_weights: shape %zu x %zu (need dmodel, dh >= 1)", dmodel, dh);
        st = AR_EINVAL;
        goto out;
    }
    if (!(radius > 0) || !isfinite(radius)) {
        ar_error_set("radius must be > 0 (got %g)", radius);
        st = AR_EINVAL;
        goto out;
    }
    if (isnan(beta))
        beta = 1.0 / sqrt((double)dh);
    double t0 = clock_now();
    if ((st = visible_bilinear(wq, wk, dmodel, dh, beta, radius, NULL, &v)) ||
        (st = visible_bilinear_rtau(&v, h->tau, h->ntau, h->r_tau, h->eta)))
        goto out;
    h->seconds = clock_now() - t0;
    h->r = v.r;
    h->r_exact = v.r_exact;
    h->tol = v.tol;
    h->head_dim = v.dh;
    h->model_dim = v.dmodel;
    h->beta = beta;
    h->radius = radius;
    for (size_t t = 0; t < h->ntau; t++)
        h->upper_via[t] = ATTNRANK_NONE;
    st = copy_sigma(v.sigma, v.nsigma, h);
out:
    visible_bilinear_clear(&v);
    as = api_end(&c, st);
    head_out(as, &full, h_out);
    return as;
}

/* The public entry: the whole call in one BLAS region (base/blas.h): its
 * numbers do not depend on OPENBLAS_NUM_THREADS or on calls in other threads. */
attnrank_status attnrank_head_weights(const double *wq, const double *wk, size_t dmodel, size_t dh, double beta,
                                      double radius, const double *taus, size_t ntau, const attnrank_options *o,
                                      attnrank_head_result *h)
{
    blas_single_begin();
    attnrank_status st = head_weights_impl(wq, wk, dmodel, dh, beta, radius, taus, ntau, o, h);
    blas_single_end();
    return st;
}
