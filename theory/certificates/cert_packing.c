/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_packing.c -- diagonal dominance of packings in O(m * neighbours).
 * Proofs of every bound used here: proofs-notes/packing-lower-bounds.md. */
#include "theory/certificates/cert_packing.h"
#include "numerics/arbd.h"
#include "numerics/kdtree.h"
#include "numerics/clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arb.h>
#include "constructions/pointsets/sphere.h"
#include "constructions/pointsets/sphere_code.h"
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

#define TAIL_STEP 0.25      /* annuli of the counting tail: exponent steps */
#define TAIL_ANNULI 400

/* Packing counts, section 6 of the note: for points with pairwise
 * (beta/2)|x_j - x_k|^2 >= sigma, an upper bound of the number of points
 * j != i with (beta/2)|x_j - x_i|^2 < t.
 *   In R^d: (2 sqrt(t/sigma) + 1)^d - 1.
 *   Near the unit sphere (| |x_j| - 1 | <= eta, s = sqrt(2 sigma/beta) > 2 eta):
 *   ((theta_r + a)/a)^{d-1} (a / sin a)^{d-2} - 1 with a = asin((s - 2 eta)/2)
 *   (half the angular separation of the projections) and theta_r =
 *   2 asin(min(1, (r + 2 eta)/2)), r = sqrt(2 t / beta).
 * Writes the smaller (Arb ball). */
static void pack_count(arb_t N, const arb_t t, const arb_t sg, const arb_t beta, const arb_t eta,
                       size_t d)
{
    arb_t a, b, u;
    arb_init(a);
    arb_init(b);
    arb_init(u);
    arb_div(N, t, sg, PACK_PREC);
    arb_sqrt(N, N, PACK_PREC);
    arb_mul_2exp_si(N, N, 1);
    arb_add_ui(N, N, 1, PACK_PREC);
    arb_pow_ui(N, N, (ulong)d, PACK_PREC);
    if (arb_is_finite(eta)) {
        /* s - 2 eta, s = sqrt(2 sigma / beta) */
        arb_mul_2exp_si(a, sg, 1);
        arb_div(a, a, beta, PACK_PREC);
        arb_sqrt(a, a, PACK_PREC);
        arb_mul_2exp_si(u, eta, 1);
        arb_sub(a, a, u, PACK_PREC);
        arb_mul_2exp_si(a, a, -1);
        arb_one(u);
        if (arb_is_positive(a) && arb_lt(a, u)) {
            arb_asin(a, a, PACK_PREC);                 /* a: half the angular separation */
            /* theta_r = 2 asin(min(1, (r + 2 eta)/2)) */
            arb_mul_2exp_si(b, t, 1);
            arb_div(b, b, beta, PACK_PREC);
            arb_sqrt(b, b, PACK_PREC);
            arb_mul_2exp_si(u, eta, 1);
            arb_add(b, b, u, PACK_PREC);
            arb_mul_2exp_si(b, b, -1);
            arb_one(u);
            if (arb_lt(b, u)) {
                arb_asin(b, b, PACK_PREC);
                arb_mul_2exp_si(b, b, 1);
            } else {
                arb_const_pi(b, PACK_PREC);
            }
            /* ((theta_r + a) / a)^{d-1} (a / sin a)^{d-2} */
            arb_add(b, b, a, PACK_PREC);
            arb_div(b, b, a, PACK_PREC);
            arb_pow_ui(b, b, (ulong)(d - 1), PACK_PREC);
            arb_sin(u, a, PACK_PREC);
            arb_div(u, a, u, PACK_PREC);
            arb_pow_ui(u, u, (ulong)(d - 2), PACK_PREC);
            arb_mul(b, b, u, PACK_PREC);
            if (arb_is_finite(b) && arb_lt(b, N))
                arb_set(N, b);
        }
    }
    arb_sub_ui(N, N, 1, PACK_PREC);
    arb_clear(a);
    arb_clear(b);
    arb_clear(u);
}

/* Upper bound (Arb) of the counting tail of section 6 of the note: with
 * sigma <= (beta/2) |x_i - x_j|^2 for every pair and T <= (beta/2) D for
 * every pair not evaluated,
 *   sum_{j not evaluated} exp(-(beta/2) D_ij)
 *     <= sum_{k < K} min(m - 1, N(t_{k+1})) e^{-t_k} + (m - 1) e^{-t_K},
 * t_k = T + k TAIL_STEP, N = pack_count.  sigma <= 0: +inf.  eta = +inf:
 * only the R^d count. */
static void counting_tail(arb_t out, double sigma, double T, size_t m, size_t d, double beta,
                          const arb_t eta)
{
    if (!(sigma > 0) || m < 2) {
        if (m < 2)
            arb_zero(out);
        else
            arb_pos_inf(out);
        return;
    }
    arb_t sg, t, N, e, mm, acc, B;
    arb_init(sg);
    arb_init(t);
    arb_init(N);
    arb_init(e);
    arb_init(mm);
    arb_init(acc);
    arb_init(B);
    arb_set_d(sg, sigma);
    arb_set_d(B, beta);
    arb_set_ui(mm, (ulong)(m - 1));
    arb_zero(acc);
    int k;
    for (k = 0; k < TAIL_ANNULI; k++) {
        /* N(t_{k+1}) */
        arb_set_d(t, T);
        arb_set_d(e, TAIL_STEP);
        arb_mul_ui(e, e, (ulong)(k + 1), PACK_PREC);
        arb_add(t, t, e, PACK_PREC);
        pack_count(N, t, sg, B, eta, d);
        if (arb_gt(N, mm))
            arb_set(N, mm);
        /* e^{-t_k} */
        arb_set_d(t, TAIL_STEP);
        arb_mul_ui(t, t, (ulong)k, PACK_PREC);
        arb_set_d(e, T);
        arb_add(t, t, e, PACK_PREC);
        arb_neg(t, t);
        arb_exp(e, t, PACK_PREC);
        arb_addmul(acc, N, e, PACK_PREC);
        if (arb_equal(N, mm) || arf_cmpabs_2exp_si(arb_midref(t), 12) > 0)
            break;                                   /* every later annulus is in the last term */
    }
    /* (m - 1) e^{-t_K}, t_K = T + (k + 1) TAIL_STEP */
    arb_set_d(t, TAIL_STEP);
    arb_mul_ui(t, t, (ulong)(k + 1), PACK_PREC);
    arb_set_d(e, T);
    arb_add(t, t, e, PACK_PREC);
    arb_neg(t, t);
    arb_exp(e, t, PACK_PREC);
    arb_addmul(acc, mm, e, PACK_PREC);
    arb_set(out, acc);
    arb_clear(sg);
    arb_clear(t);
    arb_clear(N);
    arb_clear(e);
    arb_clear(mm);
    arb_clear(acc);
    arb_clear(B);
}

/* Double estimate of the counting tail near the unit sphere (for choosing
 * T; no rigour). */
static double counting_tail_est(double sigma, double T, size_t m, size_t d)
{
    double acc = 0.0;
    for (int k = 0; k < TAIL_ANNULI; k++) {
        double t1 = T + (k + 1) * TAIL_STEP, tk = T + k * TAIL_STEP;
        double N = pow(2.0 * sqrt(t1 / sigma) + 1.0, (double)(d - 1)) - 1.0;
        if (N > (double)(m - 1))
            N = (double)(m - 1);
        acc += N * exp(-tk);
        if (N >= (double)(m - 1))
            return acc + (double)(m - 1) * exp(-t1);
    }
    return acc + (double)(m - 1) * exp(-(T + TAIL_ANNULI * TAIL_STEP));
}

/* Rigorous bounds of min_i |x_i|^2 and max_i |x_i|^2 from round-to-nearest
 * sums: |fl(sum of d squares) - exact| <= gamma_d exact + d 2^-1074 (underflow). */
static void norm_range(const pointset_t *P, arb_t nmin, arb_t nmax)
{
    size_t m = P->n, d = P->d;
    double lo = INFINITY, hi = 0.0;
    for (size_t i = 0; i < m; i++) {
        const double *x = P->x + i * d;
        double s = 0.0;
        for (size_t c = 0; c < d; c++)
            s += x[c] * x[c];
        if (s < lo)
            lo = s;
        if (s > hi)
            hi = s;
    }
    arb_t g, t;
    arb_init(g);
    arb_init(t);
    /* gamma = (d+1) 2^-53 / (1 - (d+1) 2^-53) <= (d+2) 2^-53 for d <= 16 */
    arb_set_ui(g, (ulong)(d + 2));
    arb_mul_2exp_si(g, g, -53);
    arb_set_d(t, hi);
    arb_add_ui(nmax, g, 1, PACK_PREC);
    arb_mul(nmax, nmax, t, PACK_PREC);
    arb_set_ui(t, (ulong)d);
    arb_mul_2exp_si(t, t, -1074);
    arb_add(nmax, nmax, t, PACK_PREC);
    arb_set_d(t, lo);
    arb_sub_ui(nmin, g, 1, PACK_PREC);
    arb_neg(nmin, nmin);
    arb_mul(nmin, nmin, t, PACK_PREC);
    arb_set_ui(t, (ulong)d);
    arb_mul_2exp_si(t, t, -1074);
    arb_sub(nmin, nmin, t, PACK_PREC);
    arb_clear(g);
    arb_clear(t);
}

/* One pass with the exponent threshold T (pairs with (beta/2) D < T are
 * evaluated).  Writes max_R, max_tail, near_pairs, min_chord, phi2 and
 * *max_near (upper bound of the evaluated part alone). */
static ar_status diagdom_pass(const kdtree_t *tr, const pointset_t *P, double beta, double T,
                              double stop, pack_cert_t *out, double *max_near)
{
    size_t m = P->n, d = P->d;
    ar_status st;
    double *S = ar_calloc(m, sizeof(double), "packing row sums");
    uint32_t *cnt = ar_calloc(m, sizeof(uint32_t), "packing neighbour counts");
    if (!S || !cnt) {
        free(S);
        free(cnt);
        return AR_ENOMEM;
    }
    /* off the sphere (beta (Nmax - Nmin)/2 > 2^-20): pair weights w_j >=
     * exp(beta (n_j - N0)/2), N0 <= Nmin, so that row p's sum times
     * exp(beta (N0 - n_p)/2) bounds sum_j exp(beta (x_p.x_j - n_p)) */
    arb_t n0, wv, a1, a2;
    arb_init(n0);
    arb_init(wv);
    arb_init(a1);
    arb_init(a2);
    norm_range(P, n0, wv);
    arb_sub(a1, wv, n0, PACK_PREC);
    arb_set_d(a2, beta);
    arb_mul(a1, a1, a2, PACK_PREC);
    int per_row = !(arf_cmpabs_2exp_si(arb_midref(a1), -19) < 0 && mag_cmp_2exp_si(arb_radref(a1), -19) < 0);
    double *w = NULL;
    if (per_row) {
        w = ar_calloc(m, sizeof(double), "packing pair weights");
        if (!w) {
            arb_clear(n0);
            arb_clear(wv);
            arb_clear(a1);
            arb_clear(a2);
            free(S);
            free(cnt);
            return AR_ENOMEM;
        }
        for (size_t p = 0; p < m; p++) {
            const double *x = tr->x + p * d;
            double sq = 0.0;
            for (size_t c = 0; c < d; c++)
                sq += x[c] * x[c];
            /* n_p <= sq (1 + gamma_d) + d 2^-1074 */
            arb_set_ui(a1, (ulong)(d + 2));
            arb_mul_2exp_si(a1, a1, -53);
            arb_add_ui(a1, a1, 1, PACK_PREC);
            arb_set_d(a2, sq);
            arb_mul(a1, a1, a2, PACK_PREC);
            arb_set_ui(a2, (ulong)d);
            arb_mul_2exp_si(a2, a2, -1074);
            arb_add(a1, a1, a2, PACK_PREC);
            arb_sub(a1, a1, n0, PACK_PREC);
            arb_set_d(a2, beta);
            arb_mul(a1, a1, a2, PACK_PREC);
            arb_mul_2exp_si(a1, a1, -1);
            arb_exp(a1, a1, PACK_PREC);
            w[p] = arbd_ub(a1);
        }
    }
    arb_clear(wv);
    arb_clear(a1);
    arb_clear(a2);
    kdtree_gauss_t g;
    st = kdtree_gauss_pairs(tr, beta, T, stop, w, S, cnt, &g);
    free(w);
    if (st != AR_OK || g.stopped) {
        /* stopped: some S_p > stop >= tau, so max_R >= S_p fails the criterion */
        out->max_R = out->max_tail = *max_near = INFINITY;
        out->near_pairs = (size_t)g.pairs;
        out->phi2 = 2.0 * T / beta;
        out->min_chord = 0.0;
        arb_clear(n0);
        free(S);
        free(cnt);
        return st;
    }
    /* sigma <= (beta/2) D for EVERY pair: evaluated ones have D >= their L >= min_L,
     * the others (beta/2) D >= T */
    double sigma = g.min_L < T ? g.min_L : T;
    arb_t F, t, nmin, nmax, C, eT, u2;
    arb_init(u2);
    arb_init(F);
    arb_init(t);
    arb_init(nmin);
    arb_init(nmax);
    arb_init(C);
    arb_init(eT);
    /* F = exp(beta (Nmax - Nmin) / 2) (1 + 2^-47): exp(beta (x_i.x_j - n_i)) =
     * exp(beta (n_j - n_i)/2) exp(-(beta/2) D_ij), and expd's relative error */
    norm_range(P, nmin, nmax);
    arb_sub(F, nmax, nmin, PACK_PREC);
    arb_set_d(t, beta);
    arb_mul(F, F, t, PACK_PREC);
    arb_mul_2exp_si(F, F, -1);
    arb_exp(F, F, PACK_PREC);
    arb_one(t);
    arb_mul_2exp_si(t, t, -47);
    arb_add_ui(t, t, 1, PACK_PREC);
    arb_mul(F, F, t, PACK_PREC);
    /* eta >= | |x_j| - 1 | for every j: max(sqrt(Nmax) - 1, 1 - sqrt(Nmin)) */
    arb_t eta, u;
    arb_init(eta);
    arb_init(u);
    arb_sqrt(eta, nmax, PACK_PREC);
    arb_sub_ui(eta, eta, 1, PACK_PREC);
    if (arb_is_positive(nmin)) {
        arb_sqrt(u, nmin, PACK_PREC);
        arb_sub_ui(u, u, 1, PACK_PREC);
        arb_neg(u, u);
        arb_max(eta, eta, u, PACK_PREC);
    } else {
        arb_pos_inf(eta);
    }
    arb_get_ubound_arf(arb_midref(u), eta, PACK_PREC);   /* one exact upper point */
    mag_zero(arb_radref(u));
    if (arf_sgn(arb_midref(u)) < 0)
        arb_zero(u);
    arb_set(eta, u);
    counting_tail(C, sigma, T, m, d, beta, eta);
    arb_clear(eta);
    arb_clear(u);
    double C_up = arbd_ub(C);
    arb_set_d(eT, T);
    arb_neg(eT, eT);
    arb_exp(eT, eT, PACK_PREC);
    double eT_up = arbd_ub(eT);
    /* Per row: R_p <= exp(beta (Nmax - n_p)/2) (1 + 2^-47) (S_p + tail_p).  When
     * beta (Nmax - Nmin)/2 <= 2^-20 (points on the sphere) one factor F serves every
     * row; otherwise (points off the sphere) each row gets its own factor from a
     * rigorous lower bound of n_p. */
    double maxv = 0.0, maxS = 0.0, maxT = 0.0, maxR = 0.0;
    arb_t fr, g1;
    arb_init(fr);
    arb_init(g1);
    arb_set_ui(g1, (ulong)(d + 2));
    arb_mul_2exp_si(g1, g1, -53);
    arb_sub_ui(g1, g1, 1, PACK_PREC);
    arb_neg(g1, g1);                           /* 1 - gamma_d (lower factor of a computed norm) */
    for (size_t p = 0; p < m; p++) {
        size_t far = m - 1 - cnt[p];
        double crude = far ? nextafter((double)far * eT_up, INFINITY) : 0.0;
        double tail = crude < C_up ? crude : C_up;
        double v = add_up(S[p], tail);
        if (per_row) {
            const double *x = tr->x + p * d;
            double sq = 0.0;
            for (size_t c = 0; c < d; c++)
                sq += x[c] * x[c];
            /* n_p >= sq (1 - gamma_d) - d 2^-1074 =: nl; evaluated part
             * exp(beta (N0 - nl)/2) (1 + 2^-47) S_p, tail exp(beta (Nmax - nl)/2) tail_p */
            arb_t nl;
            arb_init(nl);
            arb_set_d(nl, sq);
            arb_mul(nl, nl, g1, PACK_PREC);
            arb_set_ui(u2, (ulong)d);
            arb_mul_2exp_si(u2, u2, -1074);
            arb_sub(nl, nl, u2, PACK_PREC);
            arb_sub(fr, n0, nl, PACK_PREC);
            arb_set_d(u2, beta);
            arb_mul(fr, fr, u2, PACK_PREC);
            arb_mul_2exp_si(fr, fr, -1);
            arb_exp(fr, fr, PACK_PREC);
            arb_one(u2);
            arb_mul_2exp_si(u2, u2, -47);
            arb_add_ui(u2, u2, 1, PACK_PREC);
            arb_mul(fr, fr, u2, PACK_PREC);
            arb_set_d(u2, S[p]);
            arb_mul(fr, fr, u2, PACK_PREC);           /* evaluated part */
            double r = arbd_ub(fr);
            if (r > maxS)
                maxS = r;
            arb_sub(u2, nmax, nl, PACK_PREC);
            arb_set_d(nl, beta);
            arb_mul(u2, u2, nl, PACK_PREC);
            arb_mul_2exp_si(u2, u2, -1);
            arb_exp(u2, u2, PACK_PREC);
            arb_set_d(nl, tail);
            arb_mul(u2, u2, nl, PACK_PREC);           /* tail part */
            r = arbd_ub(u2);
            if (r > maxT)
                maxT = r;
            arb_add(u2, u2, fr, PACK_PREC);
            r = arbd_ub(u2);
            if (r > maxR)
                maxR = r;
            arb_clear(nl);
            continue;
        }
        if (v > maxv)
            maxv = v;
        if (S[p] > maxS)
            maxS = S[p];
        if (tail > maxT)
            maxT = tail;
    }
    arb_clear(fr);
    arb_clear(g1);
    if (per_row) {
        out->max_R = maxR;
        *max_near = maxS;
        out->max_tail = maxT;
    } else {
        arb_set_d(t, maxv);
        arb_mul(t, t, F, PACK_PREC);
        out->max_R = arbd_ub(t);
        arb_set_d(t, maxS);
        arb_mul(t, t, F, PACK_PREC);
        *max_near = arbd_ub(t);
        arb_set_d(t, maxT);
        arb_mul(t, t, F, PACK_PREC);
        out->max_tail = arbd_ub(t);
    }
    out->near_pairs = (size_t)g.pairs;
    out->phi2 = beta > 0 ? 2.0 * T / beta : INFINITY;
    /* chord lower bound sqrt(2 sigma / beta), rounded down */
    if (beta > 0 && sigma > 0) {
        arb_set_d(t, sigma);
        arb_mul_2exp_si(t, t, 1);
        arb_set_d(C, beta);
        arb_div(t, t, C, PACK_PREC);
        arb_sqrt(t, t, PACK_PREC);
        out->min_chord = arbd_lb(t);
    } else {
        out->min_chord = 0.0;
    }
    arb_clear(F);
    arb_clear(t);
    arb_clear(nmin);
    arb_clear(nmax);
    arb_clear(C);
    arb_clear(eT);
    arb_clear(u2);
    arb_clear(n0);
    free(S);
    free(cnt);
    return AR_OK;
}

/* Separation estimate for choosing T: (beta/2) times the smallest
 * nearest-neighbour squared distance of up to 64 evenly spaced rows (round
 * to nearest: no rigour; 0 when unknown). */
static void sigma_estimate(const kdtree_t *tr, double beta, double *sigma)
{
    size_t m = tr->m;
    *sigma = 0.0;
    if (m < 2)
        return;
    size_t rows = m < 64 ? m : 64;
    double nn = INFINITY;
    for (size_t k = 0; k < rows; k++) {
        double v = kdtree_nn_sqdist(tr, k * (m / rows));
        if (v < nn)
            nn = v;
    }
    double sg = 0.5 * beta * nn * (1.0 - 1e-6);
    *sigma = sg > 0 && isfinite(sg) ? sg : 0.0;
}

/* Automatic exponent threshold: the smallest T (steps of TAIL_STEP) whose
 * counting tail at the estimated separation is <= target, at most the crude
 * choice ln m + ln(1e4 / tau) + 1 (crude tail <= 1e-4 tau / e).  Any T is
 * sound; this only decides the cost. */
static double auto_threshold(size_t m, size_t d, double sigma, double tau, double target)
{
    double Tcrude = log((double)m) + log(1e4 / tau) + 1.0;
    if (!(sigma > 0))
        return Tcrude;
    for (double t = fmax(sigma, TAIL_STEP); t < Tcrude; t += TAIL_STEP)
        if (counting_tail_est(sigma, t, m, d) <= target)
            return t;
    return Tcrude;
}

/* pack_diagdom_phi, and for the search: stop_early = 1 abandons a pass as
 * soon as some row's evaluated sum exceeds tau (the verdict is then "not
 * certified", as the complete pass would give; max_R = +inf). */
static ar_status diagdom_run(const pointset_t *P, double beta, double eps, double phi2,
                             int stop_early, pack_cert_t *out);

ar_status pack_diagdom_phi(const pointset_t *P, double beta, double eps, double phi2,
                           pack_cert_t *out)
{
    return diagdom_run(P, beta, eps, phi2, 0, out);
}

static ar_status diagdom_run(const pointset_t *P, double beta, double eps, double phi2,
                             int stop_early, pack_cert_t *out)
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
    double tau = (1.0 - eps) / (1.0 + eps);     /* only used to choose T */
    if (beta == 0 || m == 1) {
        /* every exponential is exp(0) = 1 (beta = 0): R_i = m - 1 exactly */
        out->max_R = (double)(m - 1);
        out->max_tail = 0.0;
        out->phi2 = phi2;
        out->min_chord = 0.0;
        out->certified = dominance_holds(out->max_R, eps) ? m : 0;
        out->seconds = clock_now() - t0;
        return AR_OK;
    }
    int automatic = (phi2 == 0);
    double sigma = 0.0, T;
    kdtree_t tr;      /* numerics/kdtree.h: built once for every pass */
    ar_status st = kdtree_build(&tr, P->x, m, P->d);
    if (st != AR_OK)
        return st;
    if (automatic) {
        sigma_estimate(&tr, beta, &sigma);
        /* first a cheap pass (tail <= 0.05 tau), then the full one (1e-3 tau) */
        T = auto_threshold(m, P->d, sigma, tau, 0.05 * tau);
    } else {
        T = 0.5 * beta * fmin(fmax(phi2, PHI2_MIN), PHI2_MAX);
    }
    double stop = stop_early ? tau : INFINITY;
    for (int attempt = 0;; attempt++) {
        double max_near = 0.0;
        st = diagdom_pass(&tr, P, beta, T, stop, out, &max_near);
        if (st != AR_OK) {
            kdtree_free(&tr);
            return st;
        }
        out->certified = dominance_holds(out->max_R, eps) ? m : 0;
        /* the tail alone decided a failure: evaluate more pairs */
        if (out->certified || !automatic || attempt == 3 || !(max_near < tau * (1.0 - 1e-9)))
            break;
        double T1 = attempt == 0 ? auto_threshold(m, P->d, sigma, tau, 1e-3 * tau) : T;
        T = T1 > T + 0.5 ? T1 : T + log(1e3);
    }
    kdtree_free(&tr);
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
                                : diagdom_run(&P, beta, eps, 0.0, 1, c);
    c->theta = theta;
    pointset_clear(&P);
    return st;
}

#define MAX_PROBES 24

ar_status pack_lower_search_gen(size_t d, double beta, double eps, uint64_t seed, size_t max_points,
                                pack_method_t method, pack_gen_t gen, pack_cert_t *out)
{
    if (!out || d < 2 || d > 16 || !isfinite(beta) || beta < 0 || !(eps > 0 && eps < 1) ||
        max_points == 0 || (method != PACK_DIAGDOM && method != PACK_INVNORM) ||
        (gen != PACK_GEN_ZONAL && gen != PACK_GEN_GREEDY && gen != PACK_GEN_POOL && gen != PACK_GEN_AUTO) ||
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

ar_status pack_lower_search_with(size_t d, double beta, double eps, uint64_t seed,
                                 size_t max_points, pack_method_t method, pack_cert_t *out)
{
    return pack_lower_search_gen(d, beta, eps, seed, max_points, method, PACK_GEN_AUTO, out);
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
