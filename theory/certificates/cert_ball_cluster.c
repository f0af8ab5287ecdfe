/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_ball_cluster.c -- the cluster (block test matrix) lower certificate for
 * weighted self-attention in the ball, and its search over the net size
 * (see cert_ball.h; proofs in proofs-notes/claim-B.md). */
#include "theory/certificates/cert_ball.h"
#include "theory/certificates/cert_ball_impl.h"
#include "theory/certificates/cert_packing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <flint/flint.h>
#include "base/cancel.h"
#include "base/parallel.h"
#include "numerics/cellgrid.h"
#include "base/clock.h"

/* ---- lower: cluster certificate ------------------------------------------ */

typedef struct {
    const double *x;
    size_t d, i;
    double r2;
    const unsigned char *is_centre;
    size_t best;
    double bestd;
} net_t;

static int net_conflict(size_t j, void *ctx)
{
    net_t *c = ctx;
    return c->is_centre[j] && ball_dist2(c->x + c->i * c->d, c->x + j * c->d, c->d) < c->r2;
}

static int net_nearest(size_t j, void *ctx)
{
    net_t *c = ctx;
    if (c->is_centre[j]) {
        double D = ball_dist2(c->x + c->i * c->d, c->x + j * c->d, c->d);
        if (D < c->bestd) {
            c->bestd = D;
            c->best = j;
        }
    }
    return 0;
}

/* Greedy delta-net in index order; block[j] = the centre (point index)
 * nearest to j among those found.  Returns the number of centres. */
static ar_status make_net(const pointset_t *P, double delta, unsigned char *is_centre, size_t *block,
                          size_t *mout)
{
    size_t n = P->n, d = P->d, m = 0;
    if (delta == 0) {
        for (size_t j = 0; j < n; j++) {
            is_centre[j] = 1;
            block[j] = j;
        }
        *mout = n;
        return AR_OK;
    }
    cellgrid_t g;
    ar_status st = cellgrid_build(&g, P->x, n, d, delta);
    if (st)
        return st;
    memset(is_centre, 0, n);
    net_t c = { P->x, d, 0, delta * delta, is_centre, 0, 0 };
    for (size_t i = 0; i < n; i++) {
        c.i = i;
        if (!cellgrid_visit(&g, P->x + i * d, net_conflict, &c)) {
            is_centre[i] = 1;
            m++;
        }
    }
    for (size_t j = 0; j < n; j++) {
        c.i = j;
        c.best = (size_t)-1;
        c.bestd = INFINITY;
        cellgrid_visit(&g, P->x + j * d, net_nearest, &c);
        if (c.best == (size_t)-1)          /* not expected; any block is valid */
            for (size_t k = 0; k < n; k++)
                net_nearest(k, &c);
        block[j] = c.best;
    }
    cellgrid_free(&g);
    *mout = m;
    return AR_OK;
}

/* The rows of the certificate are checked in fixed blocks of CL_BLOCK points, CL_ROUND blocks side
 * by side per round (par_for); each block keeps its own maxima, count and verdict, which the caller
 * combines by max, sum and AND: values that no order or thread count changes. */
#define CL_BLOCK 256
#define CL_ROUND 32

typedef struct {
    double maxR, maxT;  /* the block's largest R_a and tail bound */
    size_t near;        /* points evaluated around its centres */
    int all;            /* 1: every centre of the block passes */
} cl_part_t;

typedef struct {
    const prep_t *p;
    const cellgrid_t *g;
    const unsigned char *is_centre;
    const size_t *block;
    double phi2, dlow, eps;
    size_t n, first;    /* first: the round's first block */
    cl_part_t *parts;   /* one per block of the round */
} cl_ctx_t;

/* Block first + k (par_for's block): for each centre a of its points, R_a = (sum of the kernel over
 * other blocks + tail) / (lower end of the sum over a's own block), which must pass the
 * dominance test (1 - R) / (1 + R) > eps. */
static void cluster_block(void *arg, size_t k)
{
    cl_ctx_t *c = arg;
    const prep_t *p = c->p;
    size_t n = c->n, d = p->d, a0 = (c->first + k) * CL_BLOCK, a1 = a0 + CL_BLOCK < n ? a0 + CL_BLOCK : n;
    cl_part_t o = {.maxR = 0.0, .maxT = 0.0, .near = 0, .all = 1};
    visit_t v;
    ball_visit_init(&v, p, c->phi2);
    v.block = c->block;
    arb_t R, tail, inl;
    arf_t lo;
    arb_init(R);
    arb_init(tail);
    arb_init(inl);
    arf_init(lo);
    for (size_t a = a0; a < a1; a++) {
        if (!c->is_centre[a])
            continue;
        v.row = a;
        v.own = c->block[a];
        v.count = 0;
        arb_zero(v.in);
        arb_zero(v.out);
        cellgrid_visit(c->g, p->P->x + a * d, ball_visit_fn, &v);
        o.near += v.count;
        arb_zero(tail);
        if (v.count < n) {
            ball_tail_bound(tail, p, a, n - v.count, c->dlow);
            double tv = arbd_ub(tail);
            if (tv > o.maxT)
                o.maxT = tv;
        }
        arb_add(R, v.out, tail, BPREC);
        /* In: lower end only (dropping terms keeps a lower bound) */
        arb_get_lbound_arf(lo, v.in, BPREC);
        arb_set_arf(inl, lo);
        if (!arb_is_positive(inl)) {
            o.all = 0;
            o.maxR = INFINITY;
            continue;
        }
        arb_div(R, R, inl, BPREC);
        double r = arbd_ub(R);
        if (r > o.maxR)
            o.maxR = r;
        if (!pack_dominance_holds(R, c->eps))
            o.all = 0;
    }
    arf_clear(lo);
    arb_clear(inl);
    arb_clear(tail);
    arb_clear(R);
    ball_visit_clear(&v);
    c->parts[k] = o;
}

static ar_status cluster_lower(const pointset_t *P, double beta, double eps, double delta, const lower_ctl_t *ctl,
                               ball_lower_t *out);

ar_status ball_cluster_lower(const pointset_t *P, double beta, double eps, double delta,
                             ball_lower_t *out)
{
    return cluster_lower(P, beta, eps, delta, NULL, out);
}

static ar_status cluster_lower(const pointset_t *P, double beta, double eps, double delta, const lower_ctl_t *ctl,
                               ball_lower_t *out)
{
    if (!out) {
        ar_error_set("ball_cluster_lower: out is NULL");
        return AR_EINVAL;
    }
    memset(out, 0, sizeof *out);
    if (!(delta >= 0) || !isfinite(delta)) {
        ar_error_set("ball_cluster_lower: delta must be finite and >= 0 (delta=%g)", delta);
        return AR_EINVAL;
    }
    double t0 = clock_now();
    prep_t p;
    ar_status st = ball_prep_init(&p, P, beta, eps, COORD_MAX, "ball_cluster_lower");
    if (st)
        return st;
    size_t n = p.n, d = p.d, m = 0;
    unsigned char *is_centre = ar_calloc(n, 1, "net flags");
    size_t *block = ar_calloc(n, sizeof(size_t), "net blocks");
    if (!is_centre || !block) {
        st = AR_ENOMEM;
        goto done0;
    }
    if ((st = make_net(P, delta, is_centre, block, &m)))
        goto done0;
    /* evaluated radius: tail <= 1e-4 tau, and every block member evaluated */
    double tau = (1.0 - eps) / (1.0 + eps);
    double spread = p.Lmax - p.Lmin;
    double phi2 = 2.0 * (log((double)n) + spread + log(1e4 / tau) + 1.0) / beta;
    phi2 = fmax(phi2, 1.21 * delta * delta);
    phi2 = fmin(fmax(phi2, PHI2_MIN), PHI2_ALL);
    cellgrid_t g;
    if ((st = cellgrid_build(&g, P->x, n, d, ball_cell_size(phi2))))
        goto done0;
    double dlow = ball_dlow_of(phi2);
    cl_part_t parts[CL_ROUND];
    cl_ctx_t c = {.p = &p, .g = &g, .is_centre = is_centre, .block = block, .phi2 = phi2, .dlow = dlow,
                  .eps = eps, .n = n, .parts = parts};
    int all = 1;
    double maxR = 0.0, maxT = 0.0;
    size_t near = 0, nblocks = (n + CL_BLOCK - 1) / CL_BLOCK;
    double tick = clock_now();
    for (size_t b0 = 0; b0 < nblocks; b0 += CL_ROUND) {
        lower_tick(ctl, &tick, "ball: cluster certificate, centre %zu of %zu points (net of %zu, delta %.3g)",
                   b0 * CL_BLOCK, n, m, delta);
        if ((st = cancel_check()))
            break;
        size_t cnt = nblocks - b0 < CL_ROUND ? nblocks - b0 : CL_ROUND;
        c.first = b0;
        par_for(cnt, cluster_block, &c, flint_cleanup);
        /* max, sum and AND: the same values in any order, so for any thread count */
        for (size_t k = 0; k < cnt; k++) {
            if (parts[k].maxR > maxR)
                maxR = parts[k].maxR;
            if (parts[k].maxT > maxT)
                maxT = parts[k].maxT;
            near += parts[k].near;
            all = all && parts[k].all;
        }
    }
    if (st)
        goto done1;
    out->m = m;
    out->certified = all ? m : 0;
    out->delta = delta;
    out->max_R = maxR;
    out->max_tail = maxT;
    out->phi2 = phi2;
    out->near_pairs = near;
    out->method = delta == 0 ? AR_METHOD_DIAGDOM : AR_METHOD_CLUSTER;
done1:
    cellgrid_free(&g);
done0:
    free(is_centre);
    free(block);
    ball_prep_clear(&p);
    out->seconds = clock_now() - t0;
    return st;
}

ar_status ball_lower_search(const pointset_t *P, double beta, double eps, ball_lower_t *out)
{
    return ball_lower_search_ctl(P, beta, eps, NULL, out);
}

/* A progress message for each net probed. */
static void say_probe(const lower_ctl_t *ctl, double delta)
{
    if (ctl && ctl->progress) {
        char msg[120];
        snprintf(msg, sizeof msg, "ball: cluster certificate, net spacing delta = %.4g", delta);
        ctl->progress(ctl->progress_ctx, msg);
    }
}

ar_status ball_lower_search_ctl(const pointset_t *P, double beta, double eps, const lower_ctl_t *ctl,
                                ball_lower_t *out)
{
    double t0 = clock_now();
    ball_lower_t c, best;
    memset(&best, 0, sizeof best);
    best.m = best.certified = 1;
    best.method = AR_METHOD_TRIVIAL;
    say_probe(ctl, 0.0);
    ar_status st = cluster_lower(P, beta, eps, 0.0, ctl, &c);
    if (st)
        return st;
    if (c.certified) {
        *out = c;
        out->seconds = clock_now() - t0;
        return AR_OK;
    }
    /* gallop up from 1/sqrt(beta) until certified */
    double lo = 0.0, hi = 1.0 / sqrt(beta);
    int probes = 0, found = 0;
    for (; probes < 40 && hi < 4.0; probes++) {
        say_probe(ctl, hi);
        if ((st = cancel_check()) || (st = cluster_lower(P, beta, eps, hi, ctl, &c)))
            return st;
        if (c.certified) {
            found = 1;
            if (c.certified > best.certified)
                best = c;
            break;
        }
        lo = hi;
        hi *= 1.25;
    }
    if (found && lo > 0) {
        for (int k = 0; k < 24 && hi / lo > 1.01; k++) {
            double mid = sqrt(lo * hi);
            say_probe(ctl, mid);
            if ((st = cancel_check()) || (st = cluster_lower(P, beta, eps, mid, ctl, &c)))
                return st;
            if (c.certified) {
                hi = mid;
                if (c.certified > best.certified)
                    best = c;
            } else {
                lo = mid;
            }
        }
    }
    *out = best;
    out->seconds = clock_now() - t0;
    return AR_OK;
}

/* ---- cost model (issue 32) ----------------------------------------------- */

static int count_visit(size_t j, void *ctx)
{
    (void)j;
    ++*(size_t *)ctx;
    return 0;
}

/* Mean points visited per row for the evaluated squared radius phi2, over up to 64 evenly spaced
 * rows; times n: the visits of one pass. */
static ar_status pass_visits(const pointset_t *P, double phi2, double *visits)
{
    size_t n = P->n, d = P->d, rows = n < 64 ? n : 64, cnt = 0;
    cellgrid_t g;
    ar_status st = cellgrid_build(&g, P->x, n, d, ball_cell_size(phi2));
    if (st)
        return st;
    for (size_t t = 0; t < rows; t++) {
        size_t i = t * (n / rows);
        cellgrid_visit(&g, P->x + i * d, count_visit, &cnt);
    }
    cellgrid_free(&g);
    *visits = (double)n * (double)cnt / (double)rows;
    return AR_OK;
}

ar_status ball_route_cost(const pointset_t *P, double beta, double eps, ball_route_cost_t *out)
{
    memset(out, 0, sizeof *out);
    prep_t p;
    ar_status st = ball_prep_init(&p, P, beta, eps, COORD_MAX, "ball_route_cost");
    if (st)
        return st;
    size_t n = p.n;
    double tau = (1.0 - eps) / (1.0 + eps), spread = p.Lmax - p.Lmin;
    /* the cluster certificate's radius at delta = 0 (ball_cluster_lower) */
    double phi2 = 2.0 * (log((double)n) + spread + log(1e4 / tau) + 1.0) / beta;
    phi2 = fmin(fmax(phi2, PHI2_MIN), PHI2_ALL);
    /* the tensor certificate's (ball_upper_tensor) */
    double phi2t = fmin(fmax(2.0 * (log(1e6) + spread) / beta, PHI2_MIN), PHI2_ALL);
    ball_prep_clear(&p);
    if ((st = pass_visits(P, phi2, &out->cluster_visits)))
        return st;
    int cube = 1;
    for (size_t i = 0; i < P->n * P->d && cube; i++)
        cube = fabs(P->x[i]) <= 1.0;
    /* the tensor rank is at least 2^d: it can certify below n only when 2^d < n */
    out->tensor_useful = cube && (double)P->d < log2((double)n);
    if (out->tensor_useful && (st = pass_visits(P, phi2t, &out->tensor_visits)))
        return st;
    out->visits = BALL_COST_PROBES * out->cluster_visits + out->tensor_visits;
    return AR_OK;
}
