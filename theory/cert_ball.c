/* cert_ball.c -- cluster lower and tensor-Chebyshev upper certificates for
 * weighted self-attention in the ball (see cert_ball.h; proofs in
 * proofs-notes/claim-B.md). */
#include "theory/cert_ball.h"
#include "theory/cert_packing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <arb.h>
#include "numerics/cellgrid.h"
#include "numerics/clock.h"

#define BPREC 96
#define COORD_MAX 1.5
#define PHI2_ALL 4.6          /* > (2 * 1.0)^2 + margin: every pair of the unit ball */
#define PHI2_MIN 0x1p-30
#define P_MAX 4096

/* ---- shared preparation -------------------------------------------------- */

typedef struct {
    const pointset_t *P;
    size_t n, d;
    double beta;
    arb_ptr X;       /* n*d exact coordinates */
    arb_ptr nrm;     /* |x_j|^2 */
    arb_ptr L;       /* log g_j = log w_j + beta |x_j|^2 / 2 */
    double Lmax;     /* upper bound of max L_j */
    double Lmin;     /* lower bound of min L_j */
} prep_t;

static double ub_d(const arb_t t)
{
    arf_t u;
    arf_init(u);
    arb_get_ubound_arf(u, t, BPREC);
    double v = arf_get_d(u, ARF_RND_UP);
    arf_clear(u);
    return v;
}

static double lb_d(const arb_t t)
{
    arf_t u;
    arf_init(u);
    arb_get_lbound_arf(u, t, BPREC);
    double v = arf_get_d(u, ARF_RND_DOWN);
    arf_clear(u);
    return v;
}

static void prep_clear(prep_t *p)
{
    if (p->X)
        _arb_vec_clear(p->X, (slong)(p->n * p->d));
    if (p->nrm)
        _arb_vec_clear(p->nrm, (slong)p->n);
    if (p->L)
        _arb_vec_clear(p->L, (slong)p->n);
    memset(p, 0, sizeof *p);
}

static ar_status prep_init(prep_t *p, const pointset_t *P, double beta, double eps, double cmax,
                           const char *who)
{
    memset(p, 0, sizeof *p);
    if (!P || !P->x || P->n == 0 || P->d == 0 || P->d > CELLGRID_MAXD) {
        ar_error_set("%s: need a point set with n >= 1 and 1 <= d <= %d", who, CELLGRID_MAXD);
        return AR_EINVAL;
    }
    if (!isfinite(beta) || !(beta > 0)) {
        ar_error_set("%s: beta must be finite and > 0 (beta=%g)", who, beta);
        return AR_EINVAL;
    }
    if (!(eps > 0 && eps < 1)) {
        ar_error_set("%s: need 0 < eps < 1 (eps=%g)", who, eps);
        return AR_EINVAL;
    }
    for (size_t i = 0; i < P->n * P->d; i++)
        if (!isfinite(P->x[i]) || fabs(P->x[i]) > cmax) {
            ar_error_set("%s: coordinate %zu of point %zu is %g (need |x_c| <= %g)", who, i % P->d,
                         i / P->d, P->x[i], cmax);
            return AR_EINVAL;
        }
    if (P->w)
        for (size_t i = 0; i < P->n; i++)
            if (fmpz_sgn(P->w + i) <= 0) {
                ar_error_set("%s: multiplicity of point %zu is not positive", who, i);
                return AR_EINVAL;
            }
    size_t n = P->n, d = P->d;
    p->P = P;
    p->n = n;
    p->d = d;
    p->beta = beta;
    p->X = _arb_vec_init((slong)(n * d));
    p->nrm = _arb_vec_init((slong)n);
    p->L = _arb_vec_init((slong)n);
    arb_t t, B;
    arb_init(t);
    arb_init(B);
    arb_set_d(B, beta);
    p->Lmax = -INFINITY;
    p->Lmin = INFINITY;
    for (size_t i = 0; i < n; i++) {
        for (size_t c = 0; c < d; c++)
            arb_set_d(p->X + i * d + c, P->x[i * d + c]);
        arb_dot(p->nrm + i, NULL, 0, p->X + i * d, 1, p->X + i * d, 1, (slong)d, BPREC);
        if (P->w) {
            arb_set_fmpz(t, P->w + i);
            arb_log(p->L + i, t, BPREC);
        } else {
            arb_zero(p->L + i);
        }
        arb_mul(t, p->nrm + i, B, BPREC);
        arb_mul_2exp_si(t, t, -1);
        arb_add(p->L + i, p->L + i, t, BPREC);
        double u = ub_d(p->L + i), l = lb_d(p->L + i);
        if (u > p->Lmax)
            p->Lmax = u;
        if (l < p->Lmin)
            p->Lmin = l;
    }
    arb_clear(t);
    arb_clear(B);
    return AR_OK;
}

/* Grid cell size for evaluated squared radius phi2, and Dlow: a lower bound
 * of |y - x_j|^2 for every point j that is not evaluated (not visited, or
 * visited with fl(D) >= phi2; fl(D) has relative error < 2^-40). */
static double cell_size(double phi2)
{
    return sqrt(phi2) * (1.0 + 0x1p-30) + 0x1p-39;
}

static double dlow_of(double phi2)
{
    double h = cell_size(phi2);
    double a = h * (1.0 - 0x1p-40) - 0x1p-40;
    double dl = a * a * (1.0 - 0x1p-50);
    double b = phi2 * (1.0 - 0x1p-40);
    return fmin(dl, b);
}

static double dist2(const double *a, const double *b, size_t d)
{
    double s = 0.0;
    for (size_t c = 0; c < d; c++) {
        double u = a[c] - b[c];
        s += u * u;
    }
    return s;
}

/* ---- evaluation around one row ------------------------------------------ */

typedef struct {
    const prep_t *p;
    size_t row;              /* index of the row point */
    double phi2;
    const size_t *block;     /* block id of each point (NULL: not needed) */
    size_t own;              /* block of the row */
    arb_t in, out, t, B;     /* sums (normalised by g_row) */
    size_t count;            /* evaluated points */
    int rel_lmax;            /* 1: normalise by e^{Lmax} instead of g_row */
    arb_t Lm;
} visit_t;

static int visit_fn(size_t j, void *ctx)
{
    visit_t *v = ctx;
    const prep_t *p = v->p;
    size_t d = p->d, i = v->row;
    double D = dist2(p->P->x + i * d, p->P->x + j * d, d);
    if (!(D < v->phi2))
        return 0;
    v->count++;
    /* exponent L_j - L_i - beta D_ij / 2, D_ij = |x_i|^2 + |x_j|^2 - 2 x_i.x_j exactly */
    arb_dot(v->t, NULL, 0, p->X + i * d, 1, p->X + j * d, 1, (slong)d, BPREC);
    arb_mul_2exp_si(v->t, v->t, 1);
    arb_sub(v->t, p->nrm + i, v->t, BPREC);
    arb_add(v->t, v->t, p->nrm + j, BPREC);
    arb_mul(v->t, v->t, v->B, BPREC);
    arb_mul_2exp_si(v->t, v->t, -1);
    arb_neg(v->t, v->t);
    arb_add(v->t, v->t, p->L + j, BPREC);
    arb_sub(v->t, v->t, v->rel_lmax ? v->Lm : p->L + i, BPREC);
    arb_exp(v->t, v->t, BPREC);
    if (!v->block || v->block[j] == v->own)
        arb_add(v->in, v->in, v->t, BPREC);
    else
        arb_add(v->out, v->out, v->t, BPREC);
    return 0;
}

static void visit_init(visit_t *v, const prep_t *p, double phi2)
{
    memset(v, 0, sizeof *v);
    v->p = p;
    v->phi2 = phi2;
    arb_init(v->in);
    arb_init(v->out);
    arb_init(v->t);
    arb_init(v->B);
    arb_init(v->Lm);
    arb_set_d(v->B, p->beta);
    arb_set_d(v->Lm, p->Lmax);
}

static void visit_clear(visit_t *v)
{
    arb_clear(v->in);
    arb_clear(v->out);
    arb_clear(v->t);
    arb_clear(v->B);
    arb_clear(v->Lm);
}

/* Tail bound (count) * exp(Lmax - L_row - beta Dlow / 2) into res. */
static void tail_bound(arb_t res, const prep_t *p, size_t row, size_t count, double dlow)
{
    arb_t t;
    arb_init(t);
    arb_set_d(res, dlow);
    arb_set_d(t, p->beta);
    arb_mul(res, res, t, BPREC);
    arb_mul_2exp_si(res, res, -1);
    arb_neg(res, res);
    arb_set_d(t, p->Lmax);
    arb_add(res, res, t, BPREC);
    arb_sub(res, res, p->L + row, BPREC);
    arb_exp(res, res, BPREC);
    arb_mul_ui(res, res, (ulong)count, BPREC);
    arb_clear(t);
}

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
    return c->is_centre[j] && dist2(c->x + c->i * c->d, c->x + j * c->d, c->d) < c->r2;
}

static int net_nearest(size_t j, void *ctx)
{
    net_t *c = ctx;
    if (c->is_centre[j]) {
        double D = dist2(c->x + c->i * c->d, c->x + j * c->d, c->d);
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

ar_status ball_cluster_lower(const pointset_t *P, double beta, double eps, double delta,
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
    ar_status st = prep_init(&p, P, beta, eps, COORD_MAX, "ball_cluster_lower");
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
    if ((st = cellgrid_build(&g, P->x, n, d, cell_size(phi2))))
        goto done0;
    double dlow = dlow_of(phi2);
    visit_t v;
    visit_init(&v, &p, phi2);
    v.block = block;
    arb_t R, tail;
    arb_init(R);
    arb_init(tail);
    int all = 1;
    double maxR = 0.0, maxT = 0.0;
    size_t near = 0;
    for (size_t a = 0; a < n; a++) {
        if (!is_centre[a])
            continue;
        v.row = a;
        v.own = block[a];
        v.count = 0;
        arb_zero(v.in);
        arb_zero(v.out);
        cellgrid_visit(&g, P->x + a * d, visit_fn, &v);
        near += v.count;
        arb_zero(tail);
        if (v.count < n) {
            tail_bound(tail, &p, a, n - v.count, dlow);
            double tv = ub_d(tail);
            if (tv > maxT)
                maxT = tv;
        }
        arb_add(R, v.out, tail, BPREC);
        /* In: lower end only (dropping terms keeps a lower bound) */
        arf_t lo;
        arf_init(lo);
        arb_get_lbound_arf(lo, v.in, BPREC);
        arb_t inl;
        arb_init(inl);
        arb_set_arf(inl, lo);
        arf_clear(lo);
        if (!arb_is_positive(inl)) {
            all = 0;
            maxR = INFINITY;
            arb_clear(inl);
            continue;
        }
        arb_div(R, R, inl, BPREC);
        arb_clear(inl);
        double r = ub_d(R);
        if (r > maxR)
            maxR = r;
        if (!pack_dominance_holds(R, eps))
            all = 0;
    }
    arb_clear(R);
    arb_clear(tail);
    visit_clear(&v);
    cellgrid_free(&g);
    out->m = m;
    out->certified = all ? m : 0;
    out->delta = delta;
    out->max_R = maxR;
    out->max_tail = maxT;
    out->phi2 = phi2;
    out->near_pairs = near;
    snprintf(out->method, sizeof out->method, "%s", delta == 0 ? "diagdom" : "cluster");
done0:
    free(is_centre);
    free(block);
    prep_clear(&p);
    out->seconds = clock_now() - t0;
    return st;
}

ar_status ball_lower_search(const pointset_t *P, double beta, double eps, ball_lower_t *out)
{
    double t0 = clock_now();
    ball_lower_t c, best;
    memset(&best, 0, sizeof best);
    best.m = best.certified = 1;
    snprintf(best.method, sizeof best.method, "trivial");
    ar_status st = ball_cluster_lower(P, beta, eps, 0.0, &c);
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
        if ((st = ball_cluster_lower(P, beta, eps, hi, &c)))
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
            if ((st = ball_cluster_lower(P, beta, eps, mid, &c)))
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

/* ---- upper: tensor Chebyshev --------------------------------------------- */

double ball_cheb_error(double beta, size_t p)
{
    if (p < 2 || !(beta >= 0))
        return INFINITY;
    double nn = (double)(p - 1);
    /* choose a = log rho on a grid (double), then evaluate rigorously */
    double besta = 1.0, bestv = INFINITY;
    for (int k = 0; k <= 600; k++) {
        double a = 1e-6 * pow(10.0, 7.0 * k / 600.0);
        double sh = sinh(a);
        double v = beta * sh * sh / 2.0 - nn * a - log(expm1(a));
        if (v < bestv) {
            bestv = v;
            besta = a;
        }
    }
    arb_t A, rho, b, t, e;
    arb_init(A);
    arb_init(rho);
    arb_init(b);
    arb_init(t);
    arb_init(e);
    arb_set_d(A, besta);
    arb_exp(rho, A, BPREC);
    arb_sinh(b, A, BPREC);                    /* b = (rho - 1/rho)/2 */
    arb_sqr(t, b, BPREC);
    arb_mul_2exp_si(t, t, -1);
    arb_set_d(e, beta);
    arb_mul(t, t, e, BPREC);                  /* beta b^2 / 2 */
    arb_set_d(e, nn);
    arb_submul(t, e, A, BPREC);               /* - n log rho */
    arb_exp(t, t, BPREC);
    arb_mul_ui(t, t, 4, BPREC);
    arb_expm1(e, A, BPREC);                   /* rho - 1 */
    arb_div(t, t, e, BPREC);
    double r = ub_d(t);
    arb_clear(A);
    arb_clear(rho);
    arb_clear(b);
    arb_clear(t);
    arb_clear(e);
    return isfinite(r) ? r : INFINITY;
}

/* err = ((1 + e1)^d - 1) * ratio, rounded up (Arb). */
static double tensor_err(double e1, size_t d, double ratio)
{
    arb_t t, r;
    arb_init(t);
    arb_init(r);
    arb_set_d(t, e1);
    arb_log1p(t, t, BPREC);
    arb_mul_ui(t, t, (ulong)d, BPREC);
    arb_expm1(t, t, BPREC);
    arb_set_d(r, ratio);
    arb_mul(t, t, r, BPREC);
    double v = ub_d(t);
    arb_clear(t);
    arb_clear(r);
    return v;
}

ar_status ball_upper_tensor(const pointset_t *P, double beta, double eps, ball_upper_t *out)
{
    if (!out) {
        ar_error_set("ball_upper_tensor: out is NULL");
        return AR_EINVAL;
    }
    memset(out, 0, sizeof *out);
    double t0 = clock_now();
    prep_t p;
    ar_status st = prep_init(&p, P, beta, eps, 1.0, "ball_upper_tensor");
    if (st)
        return st;
    size_t n = p.n, d = p.d;
    /* G / e^{Lmax} (upper) */
    arb_t G, t, Lm;
    arb_init(G);
    arb_init(t);
    arb_init(Lm);
    arb_set_d(Lm, p.Lmax);
    for (size_t j = 0; j < n; j++) {
        arb_sub(t, p.L + j, Lm, BPREC);
        arb_exp(t, t, BPREC);
        arb_add(G, G, t, BPREC);
    }
    /* Z_i / e^{Lmax} >= near part (lower) */
    double spread = p.Lmax - p.Lmin;
    double phi2 = fmin(fmax(2.0 * (log(1e6) + spread) / beta, PHI2_MIN), PHI2_ALL);
    cellgrid_t g;
    if ((st = cellgrid_build(&g, P->x, n, d, cell_size(phi2)))) {
        arb_clear(G);
        arb_clear(t);
        arb_clear(Lm);
        prep_clear(&p);
        return st;
    }
    visit_t v;
    visit_init(&v, &p, phi2);
    v.rel_lmax = 1;
    double ratio = 0.0;
    for (size_t i = 0; i < n; i++) {
        v.row = i;
        arb_zero(v.in);
        cellgrid_visit(&g, P->x + i * d, visit_fn, &v);
        arf_t lo;
        arf_init(lo);
        arb_get_lbound_arf(lo, v.in, BPREC);
        arb_set_arf(t, lo);
        arf_clear(lo);
        double r = INFINITY;
        if (arb_is_positive(t)) {
            arb_div(t, G, t, BPREC);
            r = ub_d(t);
        }
        if (!(r <= ratio))
            ratio = r;
    }
    visit_clear(&v);
    cellgrid_free(&g);
    arb_clear(G);
    arb_clear(t);
    arb_clear(Lm);
    prep_clear(&p);
    out->ratio = ratio;
    out->capped = 1;
    out->rank = n;
    out->err = 0.0;
    for (size_t q = 2; q <= P_MAX && isfinite(ratio); q++) {
        double e1 = ball_cheb_error(beta, q);
        double err = tensor_err(e1, d, ratio);
        if (err < eps) {
            out->p = q;
            out->e1 = e1;
            double r = pow((double)q, (double)d);
            if (r < (double)n) {
                out->rank = (size_t)r;
                out->capped = 0;
                out->err = err;
            }
            break;
        }
    }
    out->seconds = clock_now() - t0;
    return AR_OK;
}
