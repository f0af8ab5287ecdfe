/* SPDX-License-Identifier: GPL-3.0-or-later */
/* route.h -- the one route chooser: every certificate that applies to an
 * instance and is affordable at its size, and the best end of each.
 *
 * Routes (proofs-notes/routes.md):
 *   circulant   self-attention on a stored regular n-gon (polygon_match):
 *               circulant block lower and Fourier-band upper certificates of
 *               the exact n-gon at eps +- eta (theory/certificates/polygon_match.h), any n;
 *   packing     self-attention with unit multiplicities: diagonal dominance
 *               on all points (pack_diagdom, O(n * neighbours)); when it
 *               certifies, rank_eps = n exactly and nothing else runs;
 *   polynomial  self-attention on the unit sphere (within 5e-13): the
 *               harmonic polynomial upper certificate, O(n^2 d), any n up to
 *               bracket_scale_max_n();
 * Costs (theory/brackets/route_cost.h) are estimated before any route runs and recorded in the
 * plan with each route's decision: the ball route runs on an instance without multiplicities only
 * when its estimate is within ROUTE_BALL_FACTOR of the dense route's or the dense route cannot
 * hold the image; above dense_max the dense route still runs when the image fits in memory and no
 * other route decided the bracket (lower == upper).
 *   dense       any instance with max(m, n) <= dense_max: enclosure of A,
 *               truncated SVD / symmetric eigen / pivoted Cholesky upper, or
 *               randomized factors above 500 points (streamed past 1 GiB),
 *               block test-matrix lower (theory/brackets/bracket.h); it
 *               receives the best upper end certified before it as lower_cap;
 *   scale       self-attention on the sphere above dense_max: block lower
 *               certificate on farthest-point rows (theory/brackets/bracket_scale.h);
 *   ball        self-attention off the sphere with every |x_c| <= 1.5 and
 *               beta > 0 (any multiplicities: the ball constructions of
 *               claim B): cluster lower certificate and, inside [-1, 1]^d,
 *               the tensor-Chebyshev upper certificate of the Gaussian
 *               kernel (theory/brackets/bracket_ball.h, which also runs the dense
 *               certificates up to bracket_ball_dense_max() distinct points).
 * Upper constructions on the dense route: symeig and pchol for
 * self-attention, then the truncated SVD whenever they do not apply (log t
 * spans too far) or the SVD might do better (see route_bracket); the SVD
 * always for cross-attention.  The dense route also runs when no other route
 * applies, whatever the size (ar_calloc refuses sizes beyond memory). */
#ifndef ATTNRANK_THEORY_ROUTE_H
#define ATTNRANK_THEORY_ROUTE_H

#include <stddef.h>
#include "numerics/status.h"
#include "constructions/pointsets/pointset.h"
#include "theory/brackets/bracket.h"
#include "theory/brackets/bracket_ball.h"
#include "theory/brackets/route_kind.h"

typedef enum {
    ROUTE_AUTO = 0,    /* every applicable and affordable route (default) */
    ROUTE_DENSE = 1,   /* only the dense route (override) */
    ROUTE_SCALE = 2    /* only the structured routes: circulant, packing, polynomial, scale */
} route_engine_t;

typedef struct {
    bracket_opts_t bracket;   /* dense-route options (upper constructions, precision, threads) */
    route_engine_t engine;
    size_t dense_max;         /* largest max(m, n) for the dense route in ROUTE_AUTO (default 4000) */
} route_opts_t;

void route_opts_default(route_opts_t *o);

/* The routes, in the order the chooser considers them. */
typedef enum {
    ROUTE_ID_CIRCULANT = AR_ROUTE_CIRCULANT,   /* the same values as the routes' enum (route_kind.h) */
    ROUTE_ID_BALL = AR_ROUTE_BALL,
    ROUTE_ID_PACKING = AR_ROUTE_PACKING,
    ROUTE_ID_POLYNOMIAL = AR_ROUTE_POLYNOMIAL,
    ROUTE_ID_SCALE = AR_ROUTE_SCALE,
    ROUTE_ID_DENSE = AR_ROUTE_DENSE,
    ROUTE_ID_COUNT = AR_ROUTE_TRIVIAL
} route_id_t;

/* What the chooser did with a route. */
typedef enum {
    ROUTE_NOT_APPLICABLE = 0,  /* the instance is not one the route's certificates are about */
    ROUTE_RAN,                 /* ran to its end */
    ROUTE_SKIPPED,             /* applies, not run (reason says why: cost, decided bracket, engine) */
    ROUTE_CUT_SHORT            /* ran, and some search of it stopped at its budget (a smaller, still
                                  certified end) */
} route_decision_t;

/* One route's line of the plan: its cost estimate (route_cost.h), the decision and why. */
typedef struct {
    route_decision_t decision;
    double predicted;          /* estimated seconds (route_cost.h); NAN when not estimated */
    double seconds;            /* wall time spent in it (0 when not run) */
    char reason[192];          /* one line: why not applicable, skipped or cut short ("" when it ran) */
} route_plan_t;

/* Static names: "circulant", "ball", ... and "not applicable", "ran", "skipped", "cut short". */
const char *route_id_name(route_id_t id);
const char *route_decision_name(route_decision_t d);

typedef struct {
    bracket_t b;               /* lower/upper, lo/up (method names), maxerr, prec, seconds */
    route_plan_t plan[ROUTE_ID_COUNT];   /* every route's estimate and decision (issue 32) */
    ar_route_t lower_route;    /* route of the winning lower end (dense, circulant, ...; trivial: none) */
    ar_route_t upper_route;    /* route of the winning upper end */
    char routes[96];           /* routes that ran, comma-separated, in order */
    int self;                  /* 1: self-attention (bracket_is_self) */
    double eps;                /* the eps of the bracket */
    size_t polygon_n;          /* n when the instance was recognised as the regular n-gon, else 0 */
    double polygon_eta;        /* certified ||A - A_exact n-gon||_r1 used by the circulant route */
    size_t poly_degree;        /* degree L of the polynomial certificate (0: not run) */
    double poly_seconds;       /* time of the polynomial route (0: not run) */
    size_t upper_svd;          /* dense route: SVD certificate's rank (0: not run) */
    int ball_run;              /* 1 if the ball route ran (details in ball) */
    ball_bracket_info_t ball;  /* the ball route's certificates */
} route_result_t;

/* Certified bracket of A = rowsoftmax(beta Q K^T) with K's multiplicities,
 * self-attention when bracket_is_self(Q, K).  beta >= 0 finite, 0 < eps < 1, o may be NULL.
 * out->b.lower is the largest certified lower end and out->b.upper the
 * smallest certified upper end over the routes that ran; each names its
 * certificate ("<route>/<method>" in lower_route/upper_route + lo/up.method).
 * Each route's non-trivial ends are kept whether or not its own bracket is
 * certified; status is bracket_status_decide on the ends kept ("certified"
 * only when each end is a non-trivial certificate or lower == upper,
 * theory/brackets/bracket_status.h).  AR_EINVAL on bad input (also for ROUTE_SCALE on an instance
 * no structured route applies to), AR_ENUMERIC if a certified lower end ever
 * exceeded a certified upper end (a bug, never reported as a bracket). */
ar_status route_bracket(const pointset_t *Q, const pointset_t *K, double beta, double eps,
                        const route_opts_t *o, route_result_t *out);

#endif
