/* SPDX-License-Identifier: GPL-3.0-or-later */
/* route.c -- the one route chooser (see route.h). */
#include "theory/brackets/route.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "numerics/cancel.h"
#include "numerics/clock.h"
#include "theory/brackets/bracket_scale.h"
#include "theory/brackets/route_cost.h"
#include "theory/brackets/bracket_status.h"
#include "theory/certificates/cert_circulant.h"
#include "theory/certificates/cert_packing.h"
#include "theory/certificates/cert_poly.h"
#include "theory/certificates/polygon_match.h"

void route_opts_default(route_opts_t *o)
{
    memset(o, 0, sizeof *o);
    bracket_opts_default(&o->bracket);
    o->engine = ROUTE_AUTO;
    o->dense_max = 4000;
}

/* Append route's name to the printed list of the routes that ran. */
static void add_route(route_result_t *r, ar_route_t route)
{
    size_t len = strlen(r->routes);
    snprintf(r->routes + len, sizeof r->routes - len, "%s%s", len ? "," : "", ar_route_name(route));
}

const char *route_id_name(route_id_t id)
{
    return (unsigned)id < ROUTE_ID_COUNT ? ar_route_name((ar_route_t)id) : "unknown";
}

const char *route_decision_name(route_decision_t d)
{
    switch (d) {
    case ROUTE_NOT_APPLICABLE: return "not applicable";
    case ROUTE_RAN: return "ran";
    case ROUTE_SKIPPED: return "skipped";
    case ROUTE_CUT_SHORT: return "cut short";
    }
    return "unknown";
}

/* Route id ran, with no reason to give. */
static void plan_ran(route_result_t *r, int id)
{
    r->plan[id].decision = ROUTE_RAN;
    r->plan[id].reason[0] = '\0';
}

/* Record route id's decision and its one-line reason. */
static void plan_set(route_result_t *r, int id, route_decision_t d, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void plan_set(route_result_t *r, int id, route_decision_t d, const char *fmt, ...)
{
    r->plan[id].decision = d;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->plan[id].reason, sizeof r->plan[id].reason, fmt, ap);
    va_end(ap);
}

/* Keep a certified lower end if it beats the current one.  An end whose reported bound does not
 * show its own inequality (eps * invnorm < 1 rounded upward; NAN: a certificate without one, the
 * packing's) is never reported (issue 32). */
static void take_lower(route_result_t *r, size_t rank, ar_route_t route, ar_method_t method, double invnorm,
                       double seconds)
{
    if (rank <= r->b.lower)
        return;
    if (!isnan(invnorm) && !lower_certifies(r->eps, invnorm))
        return;
    r->b.lower = r->b.lo.rank = rank;
    r->b.lo.invnorm = invnorm;
    r->b.lo.seconds = seconds;
    r->b.lo.method = method;
    r->lower_route = route;
}

/* Keep a certified upper end if it beats the current one. */
static void take_upper(route_result_t *r, size_t rank, double err, ar_route_t route, ar_method_t method,
                       double seconds)
{
    if (rank == 0 || rank >= r->b.upper)
        return;
    r->b.upper = r->b.up.rank = rank;
    r->b.up.err = err;
    r->b.up.seconds = seconds;
    r->b.up.method = method;
    r->upper_route = route;
}

/* 1 if every multiplicity is 1 (or absent) and every coordinate lies in
 * [-1.5, 1.5]: what pack_diagdom accepts. */
static int packing_applies(const pointset_t *P)
{
    if (P->d < 1 || P->d > 16)
        return 0;
    if (P->w)
        for (size_t i = 0; i < P->n; i++)
            if (!fmpz_is_one(P->w + i))
                return 0;
    for (size_t i = 0; i < P->n * P->d; i++)
        if (!(fabs(P->x[i]) <= 1.5))
            return 0;
    return 1;
}

/* 1 if every coordinate lies in [-1.5, 1.5] and 1 <= d <= 16 (the ball route's cluster certificate). */
static int ball_applies(const pointset_t *P)
{
    if (P->d < 1 || P->d > 16)
        return 0;
    for (size_t i = 0; i < P->n * P->d; i++)
        if (!(fabs(P->x[i]) <= 1.5))
            return 0;
    return 1;
}

/* Cheap necessary condition for the packing route (a heuristic skip, never a
 * certificate): on up to 64 evenly spaced rows, R_i = sum_{j != i}
 * exp(beta (x_i.x_j - x_i.x_i)) computed in double must stay below the
 * diagonal-dominance threshold (1 - eps)/(1 + eps) (with a 1e-3 margin for
 * rounding).  A dense set fails this at once, so the O(n * neighbours)
 * certificate is tried only on sets that look like packings. */
static int packing_plausible(const pointset_t *P, double beta, double eps)
{
    size_t n = P->n, d = P->d, rows = n < 64 ? n : 64;
    double limit = 1.001 * (1 - eps) / (1 + eps);
    for (size_t t = 0; t < rows; t++) {
        size_t i = t * (n / rows);
        const double *xi = P->x + i * d;
        double ii = 0, R = 0;
        for (size_t c = 0; c < d; c++)
            ii += xi[c] * xi[c];
        for (size_t j = 0; j < n && R <= limit; j++) {
            if (j == i)
                continue;
            double ij = 0;
            for (size_t c = 0; c < d; c++)
                ij += xi[c] * P->x[j * d + c];
            R += exp(beta * (ij - ii));
        }
        if (!(R <= limit))
            return 0;
    }
    return 1;
}

/* The circulant route on a stored regular n-gon. */
static ar_status route_circulant(const pointset_t *P, double beta, double eps, route_result_t *r, int *certified)
{
    double delta;
    if (!polygon_match(P, &delta))
        return AR_OK;
    double eta = polygon_eta(beta, delta);
    if (!(eta < eps) || !(eps + eta < 1))
        return AR_OK;                       /* the stored points are too far from the exact n-gon */
    r->polygon_n = P->n;
    r->polygon_eta = eta;
    add_route(r, AR_ROUTE_CIRCULANT);
    /* lower: rank_{eps+eta}(A_exact) <= rank_eps(A); upper: rank_eps(A) <= rank_{eps-eta}(A_exact).
     * The endpoints are rounded outward so that the rounding of eps +- eta cannot help. */
    double eps_lo = nextafter(eps + eta, 1.0), eps_up = nextafter(eps - eta, 0.0);
    circ_bracket_t cb;
    ar_status st = circ_bracket_split(P->n, beta, eps_lo, eps_up, 0, &cb);
    if (st)
        return st;
    if (cb.status != AR_CERT_CERTIFIED)
        return AR_OK;
    *certified = 1;
    take_lower(r, cb.lower, AR_ROUTE_CIRCULANT, AR_METHOD_CIRCULANT_BLOCKS, cb.lower_invnorm, cb.seconds_lower);
    take_upper(r, cb.upper, nextafter(cb.upper_err + eta, INFINITY), AR_ROUTE_CIRCULANT,
               cb.upper == cb.upper_lp ? AR_METHOD_CIRCULANT_L1LP : AR_METHOD_CIRCULANT_PROJECTION,
               cb.seconds_lp + cb.seconds_projection);
    if (r->b.maxerr < 2 * cb.arad)
        r->b.maxerr = 2 * cb.arad;
    if (r->b.prec < cb.prec)
        r->b.prec = cb.prec;
    return AR_OK;
}

/* Copy the non-trivial ends of a dense, ball or scale bracket into r: each end is
 * rigorous on its own, whether or not the bracket as a whole is certified. */
static void take_bracket(route_result_t *r, const bracket_t *b, ar_route_t route)
{
    if (!ar_method_is_trivial(b->lo.method))
        take_lower(r, b->lower, route, b->lo.method, b->lo.invnorm, b->seconds_lower);
    if (!ar_method_is_trivial(b->up.method))
        take_upper(r, b->upper, b->up.err, route, b->up.method, b->up.seconds);
    double maxerr = r->b.maxerr, enc = r->b.seconds_enclose;
    long prec = r->b.prec;
    if (b->enclosure)   /* b evaluated an enclosure of A: its report (kind, streaming, sketch) is the one to print */
        bracket_copy_report(&r->b, b);
    r->b.maxerr = maxerr > b->maxerr ? maxerr : b->maxerr;
    r->b.prec = prec > b->prec ? prec : b->prec;
    r->b.seconds_enclose = enc + b->seconds_enclose;
    r->b.seconds_lower += b->seconds_lower;
}

ar_status route_bracket(const pointset_t *Q, const pointset_t *K, double beta, double eps,
                        const route_opts_t *o, route_result_t *out)
{
    double t0 = clock_now();
    route_opts_t def;
    if (!o) {
        route_opts_default(&def);
        o = &def;
    }
    if (!out) {
        ar_error_set("route_bracket: missing output");
        return AR_EINVAL;
    }
    memset(out, 0, sizeof *out);
    out->b.status = AR_CERT_INCONCLUSIVE;
    if (!Q || !K) {
        ar_error_set("route_bracket: NULL argument");
        return AR_EINVAL;
    }
    if (!isfinite(beta) || beta < 0) {
        ar_error_set("bracket: beta must be finite and >= 0 (got %g)", beta);
        return AR_EINVAL;
    }
    if (!(eps > 0.0 && eps < 1.0)) {
        ar_error_set("bracket: eps must satisfy 0 < eps < 1 (got %g)", eps);
        return AR_EINVAL;
    }
    ar_status st = pointset_validate(Q);
    if (st == AR_OK && K != Q)
        st = pointset_validate(K);
    if (st)
        return st;
    if (Q->d != K->d) {
        ar_error_set("bracket: dimension mismatch (queries d = %zu, keys d = %zu)", Q->d, K->d);
        return AR_EINVAL;
    }
    if (Q != K && bracket_is_self(Q, K))
        Q = K;                                  /* self-attention, by content (bracket.h) */
    int self = (Q == K), circ_certified = 0;
    out->self = self;
    out->eps = eps;
    size_t m = Q->n, n = K->n, big = m > n ? m : n;
    out->b.m = m;
    out->b.n = n;
    /* the trivial bracket 1 <= rank_eps <= min(m, n) (eps < 1 = ||A||_r1) */
    out->b.lower = out->b.lo.rank = 1;
    out->b.lo.invnorm = 1.0;
    out->b.lo.method = AR_METHOD_TRIVIAL;
    out->b.upper = out->b.up.rank = m < n ? m : n;
    out->b.up.method = AR_METHOD_TRIVIAL;
    out->lower_route = out->upper_route = AR_ROUTE_TRIVIAL;

    int biased = o->bracket.bias != NULL;
    int structured = self && !biased && o->engine != ROUTE_DENSE;
    /* on the sphere above the scale engine's size limit, the scale route runs and refuses
     * with its own message (naming ATTNRANK_MAX_SCALE_N) rather than falling back to an
     * n x n dense matrix */
    int on_sphere = self && bracket_scale_applies(Q);
    /* the dense route's image held in memory: what "fits" means above dense_max */
    size_t hold = 0;
    if ((st = bracket_stream_bytes(&o->bracket, &hold)))
        return st;
    int dense_fits = (double)m * (double)n * 8.0 <= (double)hold;
    int dense_ok = o->engine == ROUTE_DENSE || (o->engine == ROUTE_AUTO && big <= o->dense_max);
    int ran_structured = 0;
    double dense_cost = route_cost_dense(m, n, Q->d, self);
    for (int r = 0; r < ROUTE_ID_COUNT; r++) {
        out->plan[r].decision = ROUTE_NOT_APPLICABLE;
        out->plan[r].predicted = NAN;
    }
    out->plan[ROUTE_ID_DENSE].predicted = dense_cost;
    if (biased) {
        for (int r = 0; r < ROUTE_ID_DENSE; r++)
            plan_set(out, r, ROUTE_NOT_APPLICABLE, "a logit bias or mask: only the dense route's certificates "
                     "are about this matrix");
    } else if (!self) {
        for (int r = 0; r < ROUTE_ID_DENSE; r++)
            plan_set(out, r, ROUTE_NOT_APPLICABLE, "cross-attention: the structured routes need the keys to be "
                     "the queries");
    } else if (o->engine == ROUTE_DENSE) {
        for (int r = 0; r < ROUTE_ID_DENSE; r++)
            plan_set(out, r, ROUTE_SKIPPED, "engine dense");
    }

    /* cancellation (numerics/cancel.h) is checked before each route, and inside the long loops */
    if ((st = cancel_check()))
        return st;
    if (structured) {
        double tr = clock_now();
        if ((st = route_circulant(Q, beta, eps, out, &circ_certified)))
            return st;
        ran_structured = out->polygon_n > 0;
        if (out->polygon_n > 0) {
            out->plan[ROUTE_ID_CIRCULANT].predicted = route_cost_circulant(n);
            plan_ran(out, ROUTE_ID_CIRCULANT);
            out->plan[ROUTE_ID_CIRCULANT].seconds = clock_now() - tr;
        } else {
            plan_set(out, ROUTE_ID_CIRCULANT, ROUTE_NOT_APPLICABLE, "not a stored regular polygon with equal "
                     "multiplicities");
        }
        /* a regular polygon above the dense size: the circulant route's bracket is l1-optimal in
         * the Fourier band above and exact-block below; the O(n^2) routes add nothing affordable */
        int polygon_done = out->polygon_n > 0 && circ_certified && !dense_ok;
        int ball = 0;
        if (on_sphere) {
            plan_set(out, ROUTE_ID_BALL, ROUTE_NOT_APPLICABLE, "points on the unit sphere: the polynomial and "
                     "scale routes");
        } else if (!(beta > 0 && beta <= BRACKET_BALL_BETA_MAX)) {
            plan_set(out, ROUTE_ID_BALL, ROUTE_NOT_APPLICABLE, "beta = %g outside (0, %g]", beta,
                     BRACKET_BALL_BETA_MAX);
        } else if (!ball_applies(Q)) {
            plan_set(out, ROUTE_ID_BALL, ROUTE_NOT_APPLICABLE, "needs 1 <= d <= 16 and every coordinate in "
                     "[-1.5, 1.5]");
        } else if (polygon_done) {
            plan_set(out, ROUTE_ID_BALL, ROUTE_SKIPPED, "the circulant route decided the polygon");
        } else {
            /* the cost model: near pairs counted on sampled rows, against the dense route */
            size_t dmax;
            if ((st = bracket_ball_dense_max(&dmax)))      /* its variable checked whatever is decided */
                return st;
            ball_route_cost_t bc;
            if ((st = ball_route_cost(Q, beta, eps, &bc)))
                return st;
            double cost = route_cost_ball(bc.visits);
            out->plan[ROUTE_ID_BALL].predicted = cost;
            int weighted = pointset_has_multiplicities(Q);
            int dense_can = dense_fits && o->engine == ROUTE_AUTO;
            ball = weighted || !dense_can || cost <= ROUTE_BALL_FACTOR * dense_cost;
            if (!ball)
                plan_set(out, ROUTE_ID_BALL, ROUTE_SKIPPED, "estimated %.3g s (%.3g near-pair visits) against "
                         "the dense route's %.3g s on an instance without multiplicities that fits in memory",
                         cost, bc.visits, dense_cost);
        }
        if ((st = cancel_check()))
            return st;
        if (ball) {
            add_route(out, AR_ROUTE_BALL);
            double tb = clock_now();
            bracket_t bb;
            /* the ball's dense certificates run one randomized factorisation (issue 24: rsvd and
             * rsym both ran, 24 s against 7.5 s for cross-attention at 2000 points, beta 60) */
            bracket_opts_t bo = o->bracket;
            bo.one_random = 1;
            if ((st = bracket_compute_ball_ex(Q, beta, eps, &bo, &bb, &out->ball)))
                return st;
            out->ball_run = 1;
            ran_structured = 1;
            take_bracket(out, &bb, AR_ROUTE_BALL);
            if (out->ball.dense_run)
                out->upper_svd = bb.up_svd.rank;
            /* bracket_compute_ball also ran the dense certificates: name each end's true route */
            if (out->lower_route == AR_ROUTE_BALL && !ar_method_is_ball(out->b.lo.method))
                out->lower_route = AR_ROUTE_DENSE;
            if (out->upper_route == AR_ROUTE_BALL && out->b.up.method != AR_METHOD_TENSOR_CHEB)
                out->upper_route = AR_ROUTE_DENSE;
            plan_ran(out, ROUTE_ID_BALL);
            out->plan[ROUTE_ID_BALL].seconds = clock_now() - tb - out->ball.seconds_dense;
            if (out->ball.dense_run) {
                dense_ok = 0;             /* the ball route already ran the dense certificates */
                if (bb.lower_cut)
                    plan_set(out, ROUTE_ID_DENSE, ROUTE_CUT_SHORT, "inside the ball route; a lower search "
                             "stopped at its budget of %.3g flops", bb.lower_budget);
                else
                    plan_set(out, ROUTE_ID_DENSE, ROUTE_RAN, "inside the ball route");
                out->plan[ROUTE_ID_DENSE].seconds = out->ball.seconds_dense;
            }
        }
        int pack_applies = packing_applies(Q);
        if (!pack_applies) {
            plan_set(out, ROUTE_ID_PACKING, ROUTE_NOT_APPLICABLE, "needs unit multiplicities, 1 <= d <= 16 and "
                     "every coordinate in [-1.5, 1.5]");
        } else if (ball || polygon_done || dense_ok) {
            plan_set(out, ROUTE_ID_PACKING, ROUTE_SKIPPED, ball ? "the ball route ran" : polygon_done
                     ? "the circulant route decided the polygon" : "the dense route runs at this size");
        } else if (!packing_plausible(Q, beta, eps)) {
            plan_set(out, ROUTE_ID_PACKING, ROUTE_SKIPPED, "sampled rows are not diagonally dominant: not a "
                     "packing at this beta and eps");
        } else {
            pack_cert_t pk;
            add_route(out, AR_ROUTE_PACKING);
            out->plan[ROUTE_ID_PACKING].predicted = route_cost_packing(n, Q->d);
            double tp = clock_now();
            if ((st = pack_diagdom(Q, beta, eps, &pk)))
                return st;
            plan_ran(out, ROUTE_ID_PACKING);
            out->plan[ROUTE_ID_PACKING].seconds = clock_now() - tp;
            if (pk.certified == n) {      /* rank_eps = n exactly */
                ran_structured = 1;
                take_lower(out, n, AR_ROUTE_PACKING, AR_METHOD_PACKING_DIAGDOM, NAN, pk.seconds);
                polygon_done = 1;
            }
        }
        if ((st = cancel_check()))
            return st;
        if (!on_sphere) {
            plan_set(out, ROUTE_ID_POLYNOMIAL, ROUTE_NOT_APPLICABLE, "points not all within 5e-13 of the unit "
                     "sphere");
            plan_set(out, ROUTE_ID_SCALE, ROUTE_NOT_APPLICABLE, "points not all within 5e-13 of the unit sphere");
        } else if (polygon_done) {
            plan_set(out, ROUTE_ID_POLYNOMIAL, ROUTE_SKIPPED, "the bracket is decided");
            plan_set(out, ROUTE_ID_SCALE, ROUTE_SKIPPED, "the bracket is decided");
        } else {
            ran_structured = 1;
            size_t scale_max;
            if ((st = bracket_scale_max_n(&scale_max)))
                return st;
            if (dense_ok && n <= scale_max) {   /* the dense route gives the lower end; add the polynomial upper */
                plan_set(out, ROUTE_ID_SCALE, ROUTE_SKIPPED, "the dense route gives the lower end at this size");
                if (beta <= POLY_BETA_MAX) {     /* beyond it the dense route alone */
                    add_route(out, AR_ROUTE_POLYNOMIAL);
                    out->plan[ROUTE_ID_POLYNOMIAL].predicted = route_cost_polynomial(n, Q->d, beta);
                    poly_cert_t pc;
                    if ((st = poly_upper_instance(Q, beta, eps, &pc)))
                        return st;
                    out->poly_degree = pc.L;
                    out->poly_seconds = pc.seconds;
                    plan_ran(out, ROUTE_ID_POLYNOMIAL);
                    out->plan[ROUTE_ID_POLYNOMIAL].seconds = pc.seconds;
                    if (!pc.capped)
                        take_upper(out, pc.rank, pc.err, AR_ROUTE_POLYNOMIAL, AR_METHOD_POLYNOMIAL, pc.seconds);
                } else {
                    plan_set(out, ROUTE_ID_POLYNOMIAL, ROUTE_NOT_APPLICABLE, "beta above %g", POLY_BETA_MAX);
                }
            } else {
                if (beta > POLY_BETA_MAX) {      /* the scale route's upper end is the polynomial certificate */
                    char alt[64] = "";
                    if (o->engine != ROUTE_SCALE)
                        snprintf(alt, sizeof alt, ", or at most %zu points", o->dense_max);
                    ar_error_set("bracket: beta = %g is above %g, the largest beta of the polynomial certificate, "
                                 "which the scale route needs for %zu points on the sphere; lower beta, or use "
                                 "engine dense (the dense route at any size)%s", beta, POLY_BETA_MAX, n, alt);
                    return AR_EINVAL;
                }
                add_route(out, AR_ROUTE_SCALE);
                out->plan[ROUTE_ID_SCALE].predicted = route_cost_scale(n, Q->d);
                out->plan[ROUTE_ID_POLYNOMIAL].predicted = route_cost_polynomial(n, Q->d, beta);
                double ts = clock_now();
                bracket_t bs;
                if ((st = bracket_compute_scale(Q, beta, eps, &o->bracket, &bs)))
                    return st;
                take_bracket(out, &bs, AR_ROUTE_SCALE);
                plan_ran(out, ROUTE_ID_SCALE);
                plan_set(out, ROUTE_ID_POLYNOMIAL, ROUTE_RAN, "inside the scale route");
                out->plan[ROUTE_ID_SCALE].seconds = clock_now() - ts;
                if (out->upper_route == AR_ROUTE_SCALE && bs.up.method == AR_METHOD_POLYNOMIAL)
                    out->upper_route = AR_ROUTE_POLYNOMIAL;
            }
        }
        if (o->engine == ROUTE_SCALE && !ran_structured) {
            ar_error_set("engine scale: no structured route applies (needs self-attention on a regular polygon, "
                         "on the unit sphere within 5e-13, or a packing with unit multiplicities)");
            return AR_EINVAL;
        }
    }
    if (o->engine == ROUTE_SCALE && (!self || biased)) {
        ar_error_set(biased ? "engine scale: no structured route applies to a matrix with a logit bias or mask"
                            : "engine scale needs self-attention");
        return AR_EINVAL;
    }
    if ((st = cancel_check()))
        return st;
    /* above dense_max, the dense route still runs when its image fits in memory and no other route
     * decided the bracket (issue 32: the ball route had replaced it above 4000 points) */
    int decided = out->b.lower >= out->b.upper;
    int dense_more = o->engine == ROUTE_AUTO && !dense_ok && !out->ball.dense_run && dense_fits && !decided;
    if (dense_ok || dense_more || (o->engine == ROUTE_AUTO && !ran_structured)) {
        add_route(out, AR_ROUTE_DENSE);
        double td = clock_now();
        bracket_t bd;
        bracket_opts_t bo = o->bracket;
        if (out->upper_route != AR_ROUTE_TRIVIAL && (bo.lower_cap == 0 || out->b.upper < bo.lower_cap))
            bo.lower_cap = out->b.upper;  /* a certified upper end: lower probes above it are skipped */
        if ((st = bracket_compute(Q, K, beta, eps, &bo, &bd)))
            return st;
        out->upper_svd = bd.up_svd.rank;
        out->b.seconds_upper += bd.seconds_upper;
        take_bracket(out, &bd, AR_ROUTE_DENSE);
        if (bd.lower_cut)
            plan_set(out, ROUTE_ID_DENSE, ROUTE_CUT_SHORT, "a lower search stopped at its budget of %.3g flops "
                     "(the upper constructions' cost): a smaller, still certified lower end", bd.lower_budget);
        else
            plan_ran(out, ROUTE_ID_DENSE);
        out->plan[ROUTE_ID_DENSE].seconds = clock_now() - td;
    } else if (!out->ball.dense_run) {
        plan_set(out, ROUTE_ID_DENSE, ROUTE_SKIPPED, o->engine == ROUTE_SCALE ? "engine scale"
                 : decided ? "the bracket is decided (lower = upper)"
                 : "above %zu points, and the %zu x %zu image (%.3g GiB) does not fit in memory (%.3g GiB)",
                 o->dense_max, m, n, (double)m * (double)n * 8.0 / 1073741824.0, (double)hold / 1073741824.0);
    }
    out->b.status = bracket_status_decide(out->b.lower, out->b.lo.method, out->b.upper, out->b.up.method);
    out->b.seconds = clock_now() - t0;
    if (out->b.lower > out->b.upper) {
        ar_error_set("bracket: BUG: certified lower bound %zu (%s/%s) exceeds certified upper bound %zu (%s/%s)",
                     out->b.lower, ar_route_name(out->lower_route), ar_method_name(out->b.lo.method), out->b.upper,
                     ar_route_name(out->upper_route), ar_method_name(out->b.up.method));
        out->b.status = AR_CERT_INCONCLUSIVE;
        return AR_ENUMERIC;
    }
    return AR_OK;
}
