/* route.c -- the one route chooser (see route.h). */
#include "theory/brackets/route.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "numerics/cancel.h"
#include "numerics/clock.h"
#include "theory/brackets/bracket_scale.h"
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

static void add_route(route_result_t *r, const char *name)
{
    size_t len = strlen(r->routes);
    snprintf(r->routes + len, sizeof r->routes - len, "%s%s", len ? "," : "", name);
}

/* Keep a certified lower end if it beats the current one. */
static void take_lower(route_result_t *r, size_t rank, const char *route, const char *method, double invnorm,
                       double seconds)
{
    if (rank <= r->b.lower)
        return;
    r->b.lower = r->b.lo.rank = rank;
    r->b.lo.invnorm = invnorm;
    r->b.lo.seconds = seconds;
    snprintf(r->b.lo.method, sizeof r->b.lo.method, "%s", method);
    snprintf(r->lower_route, sizeof r->lower_route, "%s", route);
}

/* Keep a certified upper end if it beats the current one. */
static void take_upper(route_result_t *r, size_t rank, double err, const char *route, const char *method,
                       double seconds)
{
    if (rank == 0 || rank >= r->b.upper)
        return;
    r->b.upper = r->b.up.rank = rank;
    r->b.up.err = err;
    r->b.up.seconds = seconds;
    snprintf(r->b.up.method, sizeof r->b.up.method, "%s", method);
    snprintf(r->upper_route, sizeof r->upper_route, "%s", route);
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
    add_route(r, "circulant");
    /* lower: rank_{eps+eta}(A_exact) <= rank_eps(A); upper: rank_eps(A) <= rank_{eps-eta}(A_exact).
     * The endpoints are rounded outward so that the rounding of eps +- eta cannot help. */
    double eps_lo = nextafter(eps + eta, 1.0), eps_up = nextafter(eps - eta, 0.0);
    circ_bracket_t cb;
    ar_status st = circ_bracket_split(P->n, beta, eps_lo, eps_up, 0, &cb);
    if (st)
        return st;
    if (strcmp(cb.status, "certified") != 0)
        return AR_OK;
    *certified = 1;
    take_lower(r, cb.lower, "circulant", "circulant-blocks", cb.lower_invnorm, cb.seconds_lower);
    take_upper(r, cb.upper, nextafter(cb.upper_err + eta, INFINITY), "circulant",
               cb.upper == cb.upper_lp ? "circulant-l1lp" : "circulant-projection",
               cb.seconds_lp + cb.seconds_projection);
    if (r->b.maxerr < 2 * cb.arad)
        r->b.maxerr = 2 * cb.arad;
    if (r->b.prec < cb.prec)
        r->b.prec = cb.prec;
    return AR_OK;
}

/* Copy the non-trivial ends of a dense, ball or scale bracket into r: each end is
 * rigorous on its own, whether or not the bracket as a whole is certified. */
static void take_bracket(route_result_t *r, const bracket_t *b, const char *route)
{
    if (!bracket_end_trivial(b->lo.method))
        take_lower(r, b->lower, route, b->lo.method, b->lo.invnorm, b->seconds_lower);
    if (!bracket_end_trivial(b->up.method))
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
    out->b.status = "inconclusive";
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
    size_t m = Q->n, n = K->n, big = m > n ? m : n;
    out->b.m = m;
    out->b.n = n;
    /* the trivial bracket 1 <= rank_eps <= min(m, n) (eps < 1 = ||A||_r1) */
    out->b.lower = out->b.lo.rank = 1;
    out->b.lo.invnorm = 1.0;
    snprintf(out->b.lo.method, sizeof out->b.lo.method, "trivial");
    out->b.upper = out->b.up.rank = m < n ? m : n;
    snprintf(out->b.up.method, sizeof out->b.up.method, "trivial");
    snprintf(out->lower_route, sizeof out->lower_route, "trivial");
    snprintf(out->upper_route, sizeof out->upper_route, "trivial");

    int structured = self && o->engine != ROUTE_DENSE;
    /* on the sphere above the scale engine's size limit, the scale route runs and refuses
     * with its own message (naming ATTNRANK_MAX_SCALE_N) rather than falling back to an
     * n x n dense matrix */
    int on_sphere = self && bracket_scale_applies(Q);
    int dense_ok = o->engine == ROUTE_DENSE || (o->engine == ROUTE_AUTO && big <= o->dense_max);
    int ran_structured = 0;

    /* cancellation (numerics/cancel.h) is checked before each route, and inside the long loops */
    if ((st = cancel_check()))
        return st;
    if (structured) {
        if ((st = route_circulant(Q, beta, eps, out, &circ_certified)))
            return st;
        ran_structured = out->polygon_n > 0;
        /* a regular polygon above the dense size: the circulant route's bracket is l1-optimal in
         * the Fourier band above and exact-block below; the O(n^2) routes add nothing affordable */
        int polygon_done = out->polygon_n > 0 && circ_certified && !dense_ok;
        int ball = !polygon_done && !on_sphere && beta > 0 && beta <= BRACKET_BALL_BETA_MAX && ball_applies(Q);
        if ((st = cancel_check()))
            return st;
        if (ball) {
            add_route(out, "ball");
            bracket_t bb;
            /* the ball's dense certificates run one randomized factorisation (issue 24: rsvd and
             * rsym both ran, 24 s against 7.5 s for cross-attention at 2000 points, beta 60) */
            bracket_opts_t bo = o->bracket;
            bo.one_random = 1;
            if ((st = bracket_compute_ball_ex(Q, beta, eps, &bo, &bb, &out->ball)))
                return st;
            out->ball_run = 1;
            ran_structured = 1;
            take_bracket(out, &bb, "ball");
            if (out->ball.dense_run)
                out->upper_svd = bb.up_svd.rank;
            /* bracket_compute_ball also ran the dense certificates: name each end's true route */
            if (!strcmp(out->lower_route, "ball") && strncmp(out->b.lo.method, "ball-", 5) != 0)
                snprintf(out->lower_route, sizeof out->lower_route, "dense");
            if (!strcmp(out->upper_route, "ball") && strcmp(out->b.up.method, "tensor-cheb") != 0)
                snprintf(out->upper_route, sizeof out->upper_route, "dense");
            if (out->ball.dense_run)
                dense_ok = 0;             /* the ball route already ran the dense certificates */
        }
        if (!ball && !polygon_done && !dense_ok && packing_applies(Q) && packing_plausible(Q, beta, eps)) {
            pack_cert_t pk;
            add_route(out, "packing");
            if ((st = pack_diagdom(Q, beta, eps, &pk)))
                return st;
            if (pk.certified == n) {      /* rank_eps = n exactly */
                ran_structured = 1;
                take_lower(out, n, "packing", "packing-diagdom", NAN, pk.seconds);
                polygon_done = 1;
            }
        }
        if ((st = cancel_check()))
            return st;
        if (!polygon_done && on_sphere) {
            ran_structured = 1;
            size_t scale_max;
            if ((st = bracket_scale_max_n(&scale_max)))
                return st;
            if (dense_ok && n <= scale_max) {   /* the dense route gives the lower end; add the polynomial upper */
                if (beta <= POLY_BETA_MAX) {     /* beyond it the dense route alone */
                    add_route(out, "polynomial");
                    poly_cert_t pc;
                    if ((st = poly_upper_instance(Q, beta, eps, &pc)))
                        return st;
                    out->poly_degree = pc.L;
                    out->poly_seconds = pc.seconds;
                    if (!pc.capped)
                        take_upper(out, pc.rank, pc.err, "polynomial", "polynomial", pc.seconds);
                }
            } else {
                if (beta > POLY_BETA_MAX) {      /* the scale route's upper end is the polynomial certificate */
                    char alt[64] = "";
                    if (o->engine != ROUTE_SCALE)
                        snprintf(alt, sizeof alt, ", or at most %zu points", o->dense_max);
                    ar_error_set("bracket: beta = %g is above %g, the largest beta of the polynomial certificate, "
                                 "which the scale route needs for %zu points on the sphere; lower --beta, or use "
                                 "--engine dense (the dense route at any size)%s", beta, POLY_BETA_MAX, n, alt);
                    return AR_EINVAL;
                }
                add_route(out, "scale");
                bracket_t bs;
                if ((st = bracket_compute_scale(Q, beta, eps, &o->bracket, &bs)))
                    return st;
                take_bracket(out, &bs, "scale");
                if (!strcmp(out->upper_route, "scale") && strcmp(bs.up.method, "polynomial") == 0)
                    snprintf(out->upper_route, sizeof out->upper_route, "polynomial");
            }
        }
        if (o->engine == ROUTE_SCALE && !ran_structured) {
            ar_error_set("--engine scale: no structured route applies (needs self-attention on a regular polygon, "
                         "on the unit sphere within 5e-13, or a packing with unit multiplicities)");
            return AR_EINVAL;
        }
    }
    if (o->engine == ROUTE_SCALE && !self) {
        ar_error_set("--engine scale needs self-attention");
        return AR_EINVAL;
    }
    if ((st = cancel_check()))
        return st;
    if (dense_ok || (o->engine == ROUTE_AUTO && !ran_structured)) {
        add_route(out, "dense");
        bracket_t bd;
        bracket_opts_t bo = o->bracket;
        if (strcmp(out->upper_route, "trivial") != 0 && (bo.lower_cap == 0 || out->b.upper < bo.lower_cap))
            bo.lower_cap = out->b.upper;  /* a certified upper end: lower probes above it are skipped */
        if ((st = bracket_compute(Q, K, beta, eps, &bo, &bd)))
            return st;
        out->upper_svd = bd.up_svd.rank;
        out->b.seconds_upper += bd.seconds_upper;
        take_bracket(out, &bd, "dense");
    }
    out->b.status = bracket_status_decide(out->b.lower, out->b.lo.method, out->b.upper, out->b.up.method);
    out->b.seconds = clock_now() - t0;
    if (out->b.lower > out->b.upper) {
        ar_error_set("bracket: BUG: certified lower bound %zu (%s/%s) exceeds certified upper bound %zu (%s/%s)",
                     out->b.lower, out->lower_route, out->b.lo.method, out->b.upper, out->upper_route,
                     out->b.up.method);
        out->b.status = "inconclusive";
        return AR_ENUMERIC;
    }
    return AR_OK;
}
