/* cert_packing.c -- diagonal dominance of packings in O(m * neighbours).
 * Proofs of every bound used here: proofs-notes/packing-lower-bounds.md. */
#include "theory/certificates/cert_packing.h"
#include "numerics/arbd.h"
#include "numerics/cellgrid.h"
#include "numerics/clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arb.h>
#include "constructions/pointsets/sphere.h"
#include "numerics/softmax.h"
#include "theory/certificates/cert_lower.h"

#define PACK_PREC 96
#define COORD_MAX 1.5
#define PHI2_MIN 0x1p-30
#define PHI2_MAX 150.0      /* > (2 * 1.5)^2 * 16: every pair is evaluated */
#define INVNORM_MAX 6000

/* a + b rounded up in round-to-nearest: the sum is within half an ulp of
 * the exact value, so one step towards +inf is an upper bound. */
static double add_up(double a, double b)
{
    return nextafter(a + b, INFINITY);
}

/* ---- validation ---------------------------------------------------------- */

static int check_args(const pointset_t *P, double beta, double eps, const char *who)
{
    if (!P || !P->x || P->n == 0 || P->d == 0 || P->d > 16) {
        ar_error_set("%s: need a point set with n >= 1 and 1 <= d <= 16", who);
        return 0;
    }
    if (!isfinite(beta) || beta < 0) {
        ar_error_set("%s: beta must be finite and >= 0 (beta=%g)", who, beta);
        return 0;
    }
    if (!(eps > 0 && eps < 1)) {
        ar_error_set("%s: need 0 < eps < 1 (eps=%g)", who, eps);
        return 0;
    }
    for (size_t i = 0; i < P->n * P->d; i++)
        if (!isfinite(P->x[i]) || fabs(P->x[i]) > COORD_MAX) {
            ar_error_set("%s: coordinate %zu of point %zu is %g (need finite, |x| <= %g)", who,
                         i % P->d, i / P->d, P->x[i], COORD_MAX);
            return 0;
        }
    if (P->w)
        for (size_t i = 0; i < P->n; i++)
            if (!fmpz_is_one(P->w + i)) {
                ar_error_set("%s: unit multiplicities required (point %zu has weight != 1)",
                             who, i);
                return 0;
            }
    return 1;
}

static void cert_init(pack_cert_t *out, const pointset_t *P, double beta, double eps,
                      const char *method)
{
    memset(out, 0, sizeof *out);
    out->d = P->d;
    out->beta = beta;
    out->eps = eps;
    out->theta = NAN;
    out->m = P->n;
    out->method = method;
}

int pack_dominance_holds(const arb_t R, double eps)
{
    arb_t a, b, e;
    arb_init(a);
    arb_init(b);
    arb_init(e);
    arb_sub_ui(a, R, 1, PACK_PREC);
    arb_neg(a, a);
    arb_add_ui(b, R, 1, PACK_PREC);
    arb_div(a, a, b, PACK_PREC);
    arb_set_d(e, eps);
    int ok = arb_gt(a, e);
    arb_clear(a);
    arb_clear(b);
    arb_clear(e);
    return ok;
}

/* pack_dominance_holds for every R in [0, maxR] (the bound is decreasing in R). */
static int dominance_holds(double maxR, double eps)
{
    arb_t r;
    arb_init(r);
    arb_set_d(r, maxR);
    int ok = pack_dominance_holds(r, eps);
    arb_clear(r);
    return ok;
}

/* ---- the certificate ----------------------------------------------------- */

/* One pass with a fixed phi2.  Writes max_R, max_tail, near_pairs and
 * *max_near (upper bound of the evaluated part alone). */
static ar_status diagdom_pass(const pointset_t *P, double beta, double phi2, pack_cert_t *out,
                              double *max_near)
{
    size_t m = P->n, d = P->d;
    double h = sqrt(phi2) * (1.0 + 0x1p-30) + 0x1p-39;
    cellgrid_t g;      /* cells floor((x_c + 1) / h), numerics/cellgrid.h */
    ar_status st = cellgrid_build(&g, P->x, m, d, h);
    if (st != AR_OK)
        return st;
    arb_ptr X = _arb_vec_init((slong)(m * d));
    double *S = ar_calloc(m, sizeof(double), "packing row sums");
    size_t *cnt = ar_calloc(m, sizeof(size_t), "packing neighbour counts");
    arb_ptr nrm = _arb_vec_init((slong)m);
    if (!S || !cnt) {
        st = AR_ENOMEM;
        goto done;
    }
    for (size_t p = 0; p < m; p++)
        for (size_t c = 0; c < d; c++)
            arb_set_d(X + p * d + c, P->x[g.perm[p] * d + c]);   /* exact */
    arb_t B, t, tail, nmax, dlow, tmp;
    arb_init(B);
    arb_init(t);
    arb_init(tail);
    arb_init(nmax);
    arb_init(dlow);
    arb_init(tmp);
    arb_set_d(B, beta);
    /* squared norms (balls) and an upper bound of their maximum */
    for (size_t p = 0; p < m; p++) {
        arb_dot(nrm + p, NULL, 0, X + p * d, 1, X + p * d, 1, (slong)d, PACK_PREC);
        if (p == 0)
            arb_set(nmax, nrm + p);
        else
            arb_max(nmax, nmax, nrm + p, PACK_PREC);
    }
    /* Dlow <= chord^2 of every pair that is not evaluated:
     * visited pairs with fl(D) >= phi2 have D >= phi2 (1 - 2^-40);
     * pairs in non-adjacent cells have D >= (h - 2^-40)^2. */
    arb_set_d(dlow, h);
    arb_set_d(tmp, 0x1p-40);
    arb_sub(dlow, dlow, tmp, PACK_PREC);
    arb_sqr(dlow, dlow, PACK_PREC);
    arb_set_d(tmp, phi2);
    arb_mul_2exp_si(t, tmp, -40);
    arb_sub(tmp, tmp, t, PACK_PREC);
    arb_min(dlow, dlow, tmp, PACK_PREC);
    arb_get_lbound_arf(arb_midref(tmp), dlow, PACK_PREC);   /* exact lower point */
    mag_zero(arb_radref(tmp));
    arb_set(dlow, tmp);

    /* enumerate pairs p < q in adjacent cells (offsets in {-1,0,1}^d) */
    size_t near = 0;
    int64_t kn[16];
    int off[16];
    for (size_t p = 0; p < m; p++) {
        const int64_t *kp = g.key + p * d;
        const double *xp = P->x + g.perm[p] * d;
        for (size_t c = 0; c < d; c++)
            off[c] = -1;
        for (;;) {
            for (size_t c = 0; c < d; c++)
                kn[c] = kp[c] + off[c];
            size_t cell = cellgrid_lookup(&g, kn);
            if (cell != CELLGRID_NONE) {
                size_t q0 = g.cstart[cell], q1 = g.cstart[cell + 1];
                if (q0 <= p)
                    q0 = p + 1;
                for (size_t q = q0; q < q1; q++) {
                    const double *xq = P->x + g.perm[q] * d;
                    double D = 0.0;
                    for (size_t c = 0; c < d; c++) {
                        double u = xp[c] - xq[c];
                        D += u * u;
                    }
                    if (!(D < phi2))
                        continue;
                    /* exp(beta (x_p.x_q - 1)) in Arb */
                    arb_dot(t, NULL, 0, X + p * d, 1, X + q * d, 1, (slong)d, PACK_PREC);
                    arb_sub_ui(t, t, 1, PACK_PREC);
                    arb_mul(t, t, B, PACK_PREC);
                    arb_exp(t, t, PACK_PREC);
                    double u = arbd_ub(t);
                    S[p] = add_up(S[p], u);
                    S[q] = add_up(S[q], u);
                    cnt[p]++;
                    cnt[q]++;
                    near++;
                }
            }
            size_t c = 0;
            while (c < d && off[c] == 1)
                off[c++] = -1;
            if (c == d)
                break;
            off[c]++;
        }
    }
    /* R_p <= exp(beta (1 - |x_p|^2)) S_p + (m-1-cnt_p) exp(beta (Nmax - |x_p|^2 - Dlow)/2) */
    double maxR = 0.0, maxT = 0.0, maxN = 0.0;
    for (size_t p = 0; p < m; p++) {
        arb_sub_ui(t, nrm + p, 1, PACK_PREC);
        arb_neg(t, t);
        arb_mul(t, t, B, PACK_PREC);
        arb_exp(t, t, PACK_PREC);
        arb_set_d(tmp, S[p]);
        arb_mul(t, t, tmp, PACK_PREC);           /* evaluated part */
        double rn = arbd_ub(t);
        size_t far = m - 1 - cnt[p];
        arb_zero(tail);
        if (far > 0) {
            arb_sub(tail, nmax, nrm + p, PACK_PREC);
            arb_sub(tail, tail, dlow, PACK_PREC);
            arb_mul(tail, tail, B, PACK_PREC);
            arb_mul_2exp_si(tail, tail, -1);
            arb_exp(tail, tail, PACK_PREC);
            arb_mul_ui(tail, tail, (ulong)far, PACK_PREC);
            double tv = arbd_ub(tail);
            if (tv > maxT)
                maxT = tv;
        }
        arb_add(t, t, tail, PACK_PREC);
        double r = arbd_ub(t);
        if (r > maxR)
            maxR = r;
        if (rn > maxN)
            maxN = rn;
    }
    out->max_R = maxR;
    out->max_tail = maxT;
    out->near_pairs = near;
    out->phi2 = phi2;
    *max_near = maxN;
    arb_clear(B);
    arb_clear(t);
    arb_clear(tail);
    arb_clear(nmax);
    arb_clear(dlow);
    arb_clear(tmp);
done:
    _arb_vec_clear(X, (slong)(m * d));
    _arb_vec_clear(nrm, (slong)m);
    free(S);
    free(cnt);
    cellgrid_free(&g);
    return st;
}

ar_status pack_diagdom_phi(const pointset_t *P, double beta, double eps, double phi2,
                           pack_cert_t *out)
{
    if (!out) {
        ar_error_set("pack_diagdom: out is NULL");
        return AR_EINVAL;
    }
    if (!check_args(P, beta, eps, "pack_diagdom"))
        return AR_EINVAL;
    if (!(phi2 >= 0) || !isfinite(phi2)) {
        ar_error_set("pack_diagdom: phi2 must be finite and >= 0 (phi2=%g)", phi2);
        return AR_EINVAL;
    }
    double t0 = clock_now();
    cert_init(out, P, beta, eps, "diagdom");
    size_t m = P->n;
    double tau = (1.0 - eps) / (1.0 + eps);     /* only used to choose phi2 */
    int automatic = (phi2 == 0);
    if (automatic)
        phi2 = beta > 0 ? 2.0 * (log((double)m) + log(1e4 / tau) + 1.0) / beta : PHI2_MAX;
    for (int attempt = 0;; attempt++) {
        double p2 = fmin(fmax(phi2, PHI2_MIN), PHI2_MAX);
        double max_near = 0.0;
        ar_status st = diagdom_pass(P, beta, p2, out, &max_near);
        if (st != AR_OK)
            return st;
        out->certified = dominance_holds(out->max_R, eps) ? m : 0;
        /* the tail alone decided a failure: evaluate more pairs */
        if (out->certified || !automatic || attempt == 2 || p2 >= PHI2_MAX ||
            !(max_near < tau * (1.0 - 1e-9)))
            break;
        phi2 = p2 + 2.0 * log(1e3) / beta;
    }
    out->seconds = clock_now() - t0;
    return AR_OK;
}

ar_status pack_diagdom(const pointset_t *P, double beta, double eps, pack_cert_t *out)
{
    return pack_diagdom_phi(P, beta, eps, 0.0, out);
}

ar_status pack_invnorm(const pointset_t *P, double beta, double eps, pack_cert_t *out)
{
    if (!out) {
        ar_error_set("pack_invnorm: out is NULL");
        return AR_EINVAL;
    }
    if (!check_args(P, beta, eps, "pack_invnorm"))
        return AR_EINVAL;
    if (P->n > INVNORM_MAX) {
        ar_error_set("pack_invnorm: m = %zu > %d (dense O(m^3) certificate)", P->n,
                     INVNORM_MAX);
        return AR_EINVAL;
    }
    double t0 = clock_now();
    size_t m = P->n;
    cert_init(out, P, beta, eps, "invnorm");
    out->max_R = NAN;
    smx_t A;
    memset(&A, 0, sizeof A);
    ar_status st = smx_compute(&A, P->x, m, P->x, m, P->d, NULL, beta, 0, 2);
    if (st != AR_OK)
        return st;
    size_t *rows = ar_calloc(m, sizeof(size_t), "pack_invnorm rows");
    if (!rows) {
        smx_clear(&A);
        return AR_ENOMEM;
    }
    for (size_t i = 0; i < m; i++)
        rows[i] = i;
    lower_cert_t lc;
    st = lower_blocks_rows(&A, rows, m, eps, &lc);
    free(rows);
    smx_clear(&A);
    if (st != AR_OK)
        return st;
    out->certified = lc.rank == m ? m : 0;
    if (out->certified && strcmp(lc.method, "diagdom") == 0)
        out->method = "invnorm-varah";
    out->seconds = clock_now() - t0;
    return AR_OK;
}

/* ---- search over theta ---------------------------------------------------- */

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
                       size_t max_points, pack_method_t method, size_t patience,
                       pack_cert_t *c)
{
    pointset_t P;
    memset(&P, 0, sizeof P);
    ar_status st = sphere_packing(&P, d, theta, max_points, seed, patience);
    if (st != AR_OK)
        return st;
    st = method == PACK_INVNORM ? pack_invnorm(&P, beta, eps, c)
                                : pack_diagdom(&P, beta, eps, c);
    c->theta = theta;
    pointset_clear(&P);
    return st;
}

#define MAX_PROBES 24

ar_status pack_lower_search_with(size_t d, double beta, double eps, uint64_t seed,
                                 size_t max_points, pack_method_t method, pack_cert_t *out)
{
    if (!out || d < 2 || d > 16 || !isfinite(beta) || beta < 0 || !(eps > 0 && eps < 1) ||
        max_points == 0 || (method != PACK_DIAGDOM && method != PACK_INVNORM) ||
        (method == PACK_INVNORM && max_points > INVNORM_MAX)) {
        ar_error_set("pack_lower_search: need out != NULL, 2 <= d <= 16, finite beta >= 0, "
                     "0 < eps < 1, max_points >= 1 (<= %d for invnorm) (d=%zu beta=%g eps=%g "
                     "max_points=%zu)", INVNORM_MAX, d, beta, eps, max_points);
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
    best.method = "trivial";
    int probes = 0;
    ar_status st;
    double last_theta = 0.0;
    size_t last_m = 0;
#define PROBE(th) do { \
        st = probe(d, (th), beta, eps, seed, max_points, method, \
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

ar_status pack_lower_search(size_t d, double beta, double eps, uint64_t seed,
                            size_t max_points, pack_cert_t *out)
{
    return pack_lower_search_with(d, beta, eps, seed, max_points, PACK_DIAGDOM, out);
}

size_t pack_multiset_lower(const pack_cert_t *c, size_t n)
{
    if (!c || n == 0 || c->certified == 0 || c->m == 0)
        return n > 0 ? 1 : 0;
    size_t m = c->m;
    if (!isfinite(c->max_R))                     /* invnorm: same matrix only */
        return n % m == 0 ? m : 1;
    if (n <= m)
        return n;
    for (size_t mp = m; mp >= 2; mp--) {
        size_t q = n / mp, r = n % mp;
        if (r == 0)
            return mp;                            /* equal weights: same R */
        arb_t R;
        arb_init(R);
        arb_set_d(R, c->max_R);
        arb_mul_ui(R, R, (ulong)(q + 1), PACK_PREC);
        arb_div_ui(R, R, (ulong)q, PACK_PREC);
        double rho_R = arbd_ub(R);
        arb_clear(R);
        if (dominance_holds(rho_R, c->eps))
            return mp;
    }
    return 1;
}
