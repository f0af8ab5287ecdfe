/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_packing_search.c -- the search over the packing angle theta
 * (proofs-notes/packing-lower-bounds.md section 5): packings of angular separation theta (the
 * zonal code, the greedy packing or the pool, constructions/pointsets), each certified by
 * diagonal dominance ((1 - R) / (1 + R) > eps, cert_packing_diagdom.c) or the dense inverse norm
 * (pack_invnorm); theta from sphere_packing_theta(beta), then geometric steps and bisection; the
 * largest certified packing is kept. */
#include "theory/certificates/cert_packing.h"
#include "theory/certificates/cert_packing_impl.h"

#include <math.h>
#include <string.h>
#include "constructions/pointsets/sphere.h"
#include "constructions/pointsets/sphere_code.h"
#include "numerics/clock.h"

/* Patience of the greedy packing: max(2000, estimated size), the estimate
 * being the size of the last probe scaled by (theta_last/theta)^(d-1).
 * A fixed patience saturates large packings less (the acceptance rate at
 * stopping is ~1/patience, i.e. a free area ~m/patience caps), which would
 * bias the fitted exponent downwards. */
static size_t patience_for(size_t d, double theta, double last_theta, size_t last_m)
{
    if (last_m == 0)
        return 2000;
    double est = (double)last_m * pow(last_theta / theta, (double)(d - 1));
    return est > 2000.0 ? (est < 1e8 ? (size_t)est : 100000000) : 2000;
}

static ar_status probe(size_t d, double theta, double beta, double eps, uint64_t seed,
                       size_t max_points, pack_method_t method, pack_gen_t gen, size_t patience,
                       pack_cert_t *c)
{
    pointset_t P;
    memset(&P, 0, sizeof P);
    if (gen == PACK_GEN_AUTO && d >= 3) {
        size_t npool = 0;
        ar_status sc = sphere_zonal_count(d, fmax(0.5 * theta, SPHERE_ZONAL_THETA_MIN), PACK_POOL_MAX + 1, &npool);
        if (sc)
            return sc;
        gen = npool <= PACK_POOL_MAX && theta >= 2 * SPHERE_ZONAL_THETA_MIN ? PACK_GEN_POOL : PACK_GEN_ZONAL;
    }
    ar_status st = d < 3 || gen == PACK_GEN_GREEDY
                       ? sphere_packing(&P, d, theta, max_points, seed, patience)
                   : gen == PACK_GEN_POOL ? sphere_packing_pool(&P, d, theta, max_points, seed, PACK_POOL_MAX)
                                          : sphere_zonal(&P, d, fmax(theta, SPHERE_ZONAL_THETA_MIN), max_points);
    if (st != AR_OK)
        return st;
    st = method == PACK_INVNORM ? pack_invnorm(&P, beta, eps, c)
                                : pack_diagdom_run(&P, beta, eps, 0.0, 1, c);
    c->theta = theta;
    pointset_clear(&P);
    return st;
}

#define MAX_PROBES 24

/* Contract: cert_packing.h.  The largest certified packing over theta (at most MAX_PROBES probes). */
ar_status pack_lower_search_gen(size_t d, double beta, double eps, uint64_t seed, size_t max_points,
                                pack_method_t method, pack_gen_t gen, pack_cert_t *out)
{
    if (!out || d < 2 || d > 16 || !isfinite(beta) || beta < 0 || !(eps > 0 && eps < 1) ||
        max_points == 0 || (method != PACK_DIAGDOM && method != PACK_INVNORM) ||
        (gen != PACK_GEN_ZONAL && gen != PACK_GEN_GREEDY && gen != PACK_GEN_POOL && gen != PACK_GEN_AUTO) ||
        (method == PACK_INVNORM && max_points > PACK_INVNORM_MAX)) {
        ar_error_set("pack_lower_search: need out != NULL, 2 <= d <= 16, finite beta >= 0, "
                     "0 < eps < 1, max_points >= 1 (<= %d for invnorm) (d=%zu beta=%g eps=%g "
                     "max_points=%zu)", PACK_INVNORM_MAX, d, beta, eps, max_points);
        return AR_EINVAL;
    }
    double t0 = clock_now();
    pack_cert_t best, c;
    memset(&best, 0, sizeof best);
    best.d = d;
    best.beta = beta;
    best.eps = eps;
    best.theta = M_PI;
    best.m = best.certified = 1;
    best.method = AR_METHOD_TRIVIAL;
    int probes = 0;
    ar_status st;
    double last_theta = 0.0;
    size_t last_m = 0;
#define PROBE(th) do { \
        st = probe(d, (th), beta, eps, seed, max_points, method, gen, \
                   patience_for(d, (th), last_theta, last_m), &c); \
        if (st != AR_OK) return st; \
        probes++; \
        last_theta = (th); \
        last_m = c.m; \
        if (c.certified && c.m > best.m) best = c; \
    } while (0)

    double theta = fmin(fmax(sphere_packing_theta(beta), 1e-6), M_PI);
    double th_ok = NAN, th_fail = NAN;
    PROBE(theta);
    int full = c.certified && c.m >= max_points;
    if (c.certified) {
        th_ok = theta;
        while (!full && probes < MAX_PROBES && theta > 1e-6) {
            theta /= 1.25;
            PROBE(theta);
            if (!c.certified) {
                th_fail = theta;
                break;
            }
            th_ok = theta;
            full = c.m >= max_points;
        }
    } else {
        th_fail = theta;
        while (probes < MAX_PROBES && theta < M_PI) {
            theta = fmin(theta * 1.25, M_PI);
            PROBE(theta);
            if (c.certified) {
                th_ok = theta;
                full = c.m >= max_points;
                break;
            }
            th_fail = theta;
        }
    }
    while (!full && isfinite(th_ok) && isfinite(th_fail) && th_ok / th_fail > 1.003 &&
           probes < MAX_PROBES) {
        double mid = sqrt(th_ok * th_fail);
        PROBE(mid);
        if (c.certified) {
            th_ok = mid;
            full = c.m >= max_points;
        } else {
            th_fail = mid;
        }
    }
#undef PROBE
    *out = best;
    out->seconds = clock_now() - t0;
    return AR_OK;
}

/* Contract: cert_packing.h.  pack_lower_search_gen on the automatic generator. */
ar_status pack_lower_search_with(size_t d, double beta, double eps, uint64_t seed,
                                 size_t max_points, pack_method_t method, pack_cert_t *out)
{
    return pack_lower_search_gen(d, beta, eps, seed, max_points, method, PACK_GEN_AUTO, out);
}

/* Contract: cert_packing.h.  pack_lower_search_with by diagonal dominance. */
ar_status pack_lower_search(size_t d, double beta, double eps, uint64_t seed,
                            size_t max_points, pack_cert_t *out)
{
    return pack_lower_search_with(d, beta, eps, seed, max_points, PACK_DIAGDOM, out);
}
