/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_packing_diagdom.c -- diagonal dominance of packings in O(m * neighbours)
 * (proofs-notes/packing-lower-bounds.md section 2, with section 6's k-d tree and counting tail):
 * with R_i = sum_{j != i} A_ij / A_ii bounded above rigorously from the pairs evaluated by the k-d
 * tree (numerics/kdtree.h, (beta/2) D < T) plus the counting tail of the others
 * (cert_packing_tail.c), the packing is certified at full rank when (1 - R) / (1 + R) > eps for
 * R = max_i R_i (section 1).  pack_diagdom, pack_diagdom_phi. */
#include "theory/certificates/cert_packing.h"
#include "theory/certificates/cert_packing_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <arb.h>
#include "numerics/arbd.h"
#include "base/clock.h"
#include "numerics/kdtree.h"

#define PHI2_MIN 0x1p-30
#define PHI2_MAX 150.0      /* > (2 * 1.5)^2 * 16: every pair is evaluated */

/* a + b rounded up in round-to-nearest: the sum is within half an ulp of
 * the exact value, so one step towards +inf is an upper bound. */
static double add_up(double a, double b)
{
    return nextafter(a + b, INFINITY);
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

/* nmin <= Nmin = min_i |x_i|^2 and nmax >= Nmax (norm_range), and spread = beta (nmax - nmin):
 * what the pass's factor F and the on-sphere test share. */
static void norm_spread(const pointset_t *P, double beta, arb_t nmin, arb_t nmax, arb_t spread)
{
    arb_t b;
    arb_init(b);
    norm_range(P, nmin, nmax);
    arb_sub(spread, nmax, nmin, PACK_PREC);
    arb_set_d(b, beta);
    arb_mul(spread, spread, b, PACK_PREC);
    arb_clear(b);
}

/* 1 when beta (Nmax - Nmin) / 2 <= 2^-20 is proven (the points are on the sphere for the
 * pass: one factor F serves every row, unit weights), with n0 <= Nmin = min_i |x_i|^2
 * (norm_range); else 0. */
static int norms_on_sphere(const pointset_t *P, double beta, arb_t n0)
{
    arb_t nmax, a;
    arb_init(nmax);
    arb_init(a);
    norm_spread(P, beta, n0, nmax, a);
    int on = arf_cmpabs_2exp_si(arb_midref(a), -19) < 0 && mag_cmp_2exp_si(arb_radref(a), -19) < 0;
    arb_clear(nmax);
    arb_clear(a);
    return on;
}

/* The pair weights of a pass (proofs-notes/packing-lower-bounds.md section 2): n0 <= Nmin =
 * min_i |x_i|^2 (norm_range), and off the sphere (beta (Nmax - Nmin)/2 > 2^-20: *per_row = 1)
 * *w = the weights w_p >= exp(beta (n_p - N0)/2) (m doubles, the caller frees them), so that
 * row p's sum times exp(beta (N0 - n_p)/2) bounds sum_j exp(beta (x_p.x_j - n_p)); on the
 * sphere *w = NULL.  AR_ENOMEM (*w NULL) when the weights cannot be held. */
static ar_status pass_weights(const kdtree_t *tr, const pointset_t *P, double beta, arb_t n0, int *per_row,
                              double **w)
{
    size_t m = P->n, d = P->d;
    arb_t a1, a2;
    arb_init(a1);
    arb_init(a2);
    *per_row = !norms_on_sphere(P, beta, n0);
    *w = NULL;
    ar_status st = AR_OK;
    if (*per_row && !(*w = ar_calloc(m, sizeof(double), "packing pair weights")))
        st = AR_ENOMEM;
    for (size_t p = 0; *w && p < m; p++) {
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
        (*w)[p] = arbd_ub(a1);
    }
    arb_clear(a1);
    arb_clear(a2);
    return st;
}

/* The bounds every row of a pass shares, from sigma <= (beta/2) D for every pair and the
 * threshold T: nmin, nmax (norm_range), F = exp(beta (Nmax - Nmin) / 2) (1 + 2^-47)
 * (exp(beta (x_i.x_j - n_i)) = exp(beta (n_j - n_i)/2) exp(-(beta/2) D_ij), and expd's relative
 * error), *C_up >= the counting tail (cert_packing_tail.c, with eta >= | |x_j| - 1 |) and
 * *eT_up >= e^{-T}. */
static void pass_shared_bounds(const pointset_t *P, double beta, double T, double sigma, arb_t F, arb_t nmin,
                               arb_t nmax, double *C_up, double *eT_up)
{
    size_t m = P->n, d = P->d;
    arb_t t, C, eT, eta, u;
    arb_init(t);
    arb_init(C);
    arb_init(eT);
    norm_spread(P, beta, nmin, nmax, F);
    arb_mul_2exp_si(F, F, -1);
    arb_exp(F, F, PACK_PREC);
    arb_one(t);
    arb_mul_2exp_si(t, t, -47);
    arb_add_ui(t, t, 1, PACK_PREC);
    arb_mul(F, F, t, PACK_PREC);
    /* eta >= | |x_j| - 1 | for every j: max(sqrt(Nmax) - 1, 1 - sqrt(Nmin)) */
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
    pack_counting_tail(C, sigma, T, m, d, beta, eta);
    arb_clear(eta);
    arb_clear(u);
    *C_up = arbd_ub(C);
    arb_set_d(eT, T);
    arb_neg(eT, eT);
    arb_exp(eT, eT, PACK_PREC);
    *eT_up = arbd_ub(eT);
    arb_clear(t);
    arb_clear(C);
    arb_clear(eT);
}

/* Row p's tail after a pass with cnt[p] pairs evaluated: the smaller of the crude (m - 1 - cnt)
 * e^{-T} (eT_up >= e^{-T}) and the counting tail C_up (both upper bounds, rounded up). */
static double row_tail(size_t m, uint32_t cnt, double eT_up, double C_up)
{
    size_t far = m - 1 - cnt;
    double crude = far ? nextafter((double)far * eT_up, INFINITY) : 0.0;
    return crude < C_up ? crude : C_up;
}

/* The maxima over the rows of a pass: of S_p + tail_p (on the sphere), of the evaluated part, of
 * the tail part, and (off the sphere) of the row's whole bound. */
typedef struct {
    double v, S, T, R;
} pass_max_t;

/* Row p off the sphere (per-row factors): with nl = sq (1 - gamma_d) - d 2^-1074 <= n_p (g1 =
 * 1 - gamma_d, sq the computed |x_p|^2), the evaluated part exp(beta (N0 - nl)/2) (1 + 2^-47) S_p
 * and the tail part exp(beta (Nmax - nl)/2) tail_p, each rounded up; the maxima raised. */
static void pass_row_offsphere(double sq, size_t d, double beta, double Sp, double tail, const arb_t n0,
                               const arb_t nmax, const arb_t g1, pass_max_t *mx)
{
    arb_t nl, fr, u2;
    arb_init(nl);
    arb_init(fr);
    arb_init(u2);
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
    arb_set_d(u2, Sp);
    arb_mul(fr, fr, u2, PACK_PREC);           /* evaluated part */
    double r = arbd_ub(fr);
    if (r > mx->S)
        mx->S = r;
    arb_sub(u2, nmax, nl, PACK_PREC);
    arb_set_d(nl, beta);
    arb_mul(u2, u2, nl, PACK_PREC);
    arb_mul_2exp_si(u2, u2, -1);
    arb_exp(u2, u2, PACK_PREC);
    arb_set_d(nl, tail);
    arb_mul(u2, u2, nl, PACK_PREC);           /* tail part */
    r = arbd_ub(u2);
    if (r > mx->T)
        mx->T = r;
    arb_add(u2, u2, fr, PACK_PREC);
    r = arbd_ub(u2);
    if (r > mx->R)
        mx->R = r;
    arb_clear(nl);
    arb_clear(fr);
    arb_clear(u2);
}

/* Per row: R_p <= exp(beta (Nmax - n_p)/2) (1 + 2^-47) (S_p + tail_p), tail_p the smaller of
 * the crude (m - 1 - cnt_p) e^{-T} and the counting tail C.  When beta (Nmax - Nmin)/2 <= 2^-20
 * (points on the sphere) one factor F (applied by the caller) serves every row; otherwise
 * (points off the sphere) each row gets its own factor from a rigorous lower bound of n_p. */
static pass_max_t pass_rows(const kdtree_t *tr, size_t m, size_t d, double beta, const double *S,
                            const uint32_t *cnt, int per_row, double C_up, double eT_up, const arb_t n0,
                            const arb_t nmax)
{
    pass_max_t mx = {0.0, 0.0, 0.0, 0.0};
    arb_t g1;
    arb_init(g1);
    arb_set_ui(g1, (ulong)(d + 2));
    arb_mul_2exp_si(g1, g1, -53);
    arb_sub_ui(g1, g1, 1, PACK_PREC);
    arb_neg(g1, g1);                           /* 1 - gamma_d (lower factor of a computed norm) */
    for (size_t p = 0; p < m; p++) {
        double tail = row_tail(m, cnt[p], eT_up, C_up);
        double v = add_up(S[p], tail);
        if (per_row) {
            const double *x = tr->x + p * d;
            double sq = 0.0;
            for (size_t c = 0; c < d; c++)
                sq += x[c] * x[c];
            pass_row_offsphere(sq, d, beta, S[p], tail, n0, nmax, g1, &mx);
            continue;
        }
        if (v > mx.v)
            mx.v = v;
        if (S[p] > mx.S)
            mx.S = S[p];
        if (tail > mx.T)
            mx.T = tail;
    }
    arb_clear(g1);
    return mx;
}

/* out->max_R, out->max_tail and *max_near from the rows' maxima: as they are off the sphere,
 * else each times F, rounded up. */
static void pass_record(const pass_max_t *mx, int per_row, const arb_t F, pack_cert_t *out, double *max_near)
{
    if (per_row) {
        out->max_R = mx->R;
        *max_near = mx->S;
        out->max_tail = mx->T;
        return;
    }
    arb_t t;
    arb_init(t);
    arb_set_d(t, mx->v);
    arb_mul(t, t, F, PACK_PREC);
    out->max_R = arbd_ub(t);
    arb_set_d(t, mx->S);
    arb_mul(t, t, F, PACK_PREC);
    *max_near = arbd_ub(t);
    arb_set_d(t, mx->T);
    arb_mul(t, t, F, PACK_PREC);
    out->max_tail = arbd_ub(t);
    arb_clear(t);
}

/* Chord lower bound sqrt(2 sigma / beta), rounded down (0 when beta or sigma is not positive). */
static double pass_min_chord(double sigma, double beta)
{
    if (!(beta > 0 && sigma > 0))
        return 0.0;
    arb_t t, b;
    arb_init(t);
    arb_init(b);
    arb_set_d(t, sigma);
    arb_mul_2exp_si(t, t, 1);
    arb_set_d(b, beta);
    arb_div(t, t, b, PACK_PREC);
    arb_sqrt(t, t, PACK_PREC);
    double c = arbd_lb(t);
    arb_clear(t);
    arb_clear(b);
    return c;
}

/* What a complete pass on the sphere keeps for diagdom_refine: its rows' sums and counts (tree
 * positions), its threshold and the separation sigma <= (beta/2) D of every pair. */
typedef struct {
    double *S;
    uint32_t *cnt;
    double T, sigma;
    size_t pairs;
} pass_keep_t;

static void keep_free(pass_keep_t *k)
{
    free(k->S);
    free(k->cnt);
    memset(k, 0, sizeof *k);
}

/* One pass with the exponent threshold T (pairs with (beta/2) D < T are
 * evaluated).  Writes max_R, max_tail, near_pairs, min_chord, phi2 and
 * *max_near (upper bound of the evaluated part alone).  The steps: the pair weights
 * (pass_weights), the k-d tree's sums of the evaluated pairs, the bounds every row shares
 * (pass_shared_bounds), the rows (pass_rows), the record (pass_record, pass_min_chord). */
static ar_status diagdom_pass(const kdtree_t *tr, const pointset_t *P, double beta, double T,
                              double stop, pass_keep_t *keep, pack_cert_t *out, double *max_near)
{
    size_t m = P->n, d = P->d;
    double *S = ar_calloc(m, sizeof(double), "packing row sums");
    uint32_t *cnt = ar_calloc(m, sizeof(uint32_t), "packing neighbour counts");
    if (!S || !cnt) {
        free(S);
        free(cnt);
        return AR_ENOMEM;
    }
    arb_t n0;
    arb_init(n0);
    int per_row = 0;
    double *w = NULL;
    ar_status st = pass_weights(tr, P, beta, n0, &per_row, &w);
    if (st != AR_OK) {
        arb_clear(n0);
        free(S);
        free(cnt);
        return st;
    }
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
    arb_t F, nmin, nmax;
    arb_init(F);
    arb_init(nmin);
    arb_init(nmax);
    double C_up, eT_up;
    pass_shared_bounds(P, beta, T, sigma, F, nmin, nmax, &C_up, &eT_up);
    pass_max_t mx = pass_rows(tr, m, d, beta, S, cnt, per_row, C_up, eT_up, n0, nmax);
    pass_record(&mx, per_row, F, out, max_near);
    out->near_pairs = (size_t)g.pairs;
    out->phi2 = beta > 0 ? 2.0 * T / beta : INFINITY;
    out->min_chord = pass_min_chord(sigma, beta);
    arb_clear(F);
    arb_clear(nmin);
    arb_clear(nmax);
    arb_clear(n0);
    if (keep && !per_row) {
        pass_keep_t k = { S, cnt, T, sigma, (size_t)g.pairs };
        *keep = k;
        return AR_OK;
    }
    free(S);
    free(cnt);
    return AR_OK;
}

/* The second pass on the rows that need it (proofs-notes/packing-lower-bounds.md section 6), at
 * each later threshold T2 the certificate tries:
 * after a complete first pass on the sphere (K, threshold K->T), the rows whose first bound
 * S_p + tail_p, times F, reaches tau (1 - 1e-6) -- a choice, not a proof -- are summed again, each
 * by itself (kdtree_gauss_rows), over every pair with (beta/2) D < T2, with the tails at T2 (the
 * same sigma: it bounds every pair).  Every row's bound is the smaller of its two, each rigorous;
 * max_R is the largest, times F.  When more than m / 8 rows need it (*done = 0) nothing is
 * written: the caller runs the whole second pass, which is then cheaper per pair. */
static ar_status diagdom_refine(const kdtree_t *tr, const pointset_t *P, double beta, double T2, double tau,
                                const pass_keep_t *K, pack_cert_t *out, double *max_near, int *done)
{
    size_t m = P->n;
    *done = 0;
    arb_t F, nmin, nmax;
    arb_init(F);
    arb_init(nmin);
    arb_init(nmax);
    double C_up, eT_up, C2_up, eT2_up;
    pass_shared_bounds(P, beta, K->T, K->sigma, F, nmin, nmax, &C_up, &eT_up);
    pass_shared_bounds(P, beta, T2, K->sigma, F, nmin, nmax, &C2_up, &eT2_up);
    double Fd = arbd_ub(F), flag = tau * (1.0 - 1e-6) / Fd;
    size_t nflag = 0;
    for (size_t p = 0; p < m; p++)
        nflag += add_up(K->S[p], row_tail(m, K->cnt[p], eT_up, C_up)) >= flag;
    size_t *rows = NULL;
    double *S2 = NULL;
    uint32_t *c2 = NULL;
    ar_status st = AR_OK;
    if (nflag > m / 8)
        goto out;
    rows = ar_calloc(nflag ? nflag : 1, sizeof(size_t), "refined rows");
    S2 = ar_calloc(nflag ? nflag : 1, sizeof(double), "refined row sums");
    c2 = ar_calloc(nflag ? nflag : 1, sizeof(uint32_t), "refined row counts");
    if (!rows || !S2 || !c2) {
        st = AR_ENOMEM;
        goto out;
    }
    nflag = 0;
    for (size_t p = 0; p < m; p++)
        if (add_up(K->S[p], row_tail(m, K->cnt[p], eT_up, C_up)) >= flag)
            rows[nflag++] = p;
    double mn;
    st = kdtree_gauss_rows(tr, beta, T2, rows, nflag, S2, c2, &mn);
    if (st != AR_OK)
        goto out;
    pass_max_t mx = { 0.0, 0.0, 0.0, 0.0 };
    size_t k = 0, extra = 0;
    for (size_t p = 0; p < m; p++) {
        double tail = row_tail(m, K->cnt[p], eT_up, C_up), Sp = K->S[p];
        double v = add_up(Sp, tail);
        if (k < nflag && rows[k] == p) {
            double tail2 = row_tail(m, c2[k], eT2_up, C2_up), v2 = add_up(S2[k], tail2);
            extra += c2[k];
            if (v2 < v) {
                v = v2;
                Sp = S2[k];
                tail = tail2;
            }
            k++;
        }
        if (v > mx.v)
            mx.v = v;
        if (Sp > mx.S)
            mx.S = Sp;
        if (tail > mx.T)
            mx.T = tail;
    }
    pass_record(&mx, 0, F, out, max_near);
    out->near_pairs = K->pairs + extra;
    out->phi2 = 2.0 * T2 / beta;
    out->min_chord = pass_min_chord(K->sigma, beta);
    *done = 1;
out:
    free(rows);
    free(S2);
    free(c2);
    arb_clear(F);
    arb_clear(nmin);
    arb_clear(nmax);
    return st;
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

/* A sample of rows before a pass that may stop early, on the sphere (unit weights, one factor
 * F >= 1; proofs-notes/packing-lower-bounds.md section 6): up to SAMPLE_ROWS rows evenly spaced in tree order are summed each by itself at the
 * pass's threshold T (kdtree_gauss_rows, unit weights).  *fails = 1 when one of them exceeds
 * tau (1 + 1e-9): the pass would then stop, or end with that row's evaluated sum (the same pairs
 * in another order: within 1e-13 of it) times F above tau, i.e. "not certified", which the
 * sample decides at a fraction of the cost.  Otherwise (or off the sphere) nothing is decided. */
#define SAMPLE_ROWS 4096
static ar_status sample_fails(const pointset_t *P, const kdtree_t *tr, double beta, double T, double tau,
                              int *fails)
{
    size_t m = tr->m, n = m / 16 < SAMPLE_ROWS ? m / 16 : SAMPLE_ROWS;
    *fails = 0;
    arb_t n0;
    arb_init(n0);
    int on = norms_on_sphere(P, beta, n0);
    arb_clear(n0);
    if (n == 0 || !on)
        return AR_OK;
    size_t *rows = ar_calloc(n, sizeof(size_t), "sample rows");
    double *S = ar_calloc(n, sizeof(double), "sample sums");
    uint32_t *c = ar_calloc(n, sizeof(uint32_t), "sample counts");
    ar_status st = AR_ENOMEM;
    if (rows && S && c) {
        for (size_t k = 0; k < n; k++)
            rows[k] = (size_t)((double)k * (double)m / (double)n);
        double mn;
        st = kdtree_gauss_rows(tr, beta, T, rows, n, S, c, &mn);
        for (size_t k = 0; st == AR_OK && k < n && !*fails; k++)
            *fails = S[k] > tau * (1.0 + 1e-9);
    }
    free(rows);
    free(S);
    free(c);
    return st;
}

/* Contract: cert_packing.h.  Diagonal dominance with the threshold phi2 (0: automatic). */
ar_status pack_diagdom_phi(const pointset_t *P, double beta, double eps, double phi2,
                           pack_cert_t *out)
{
    return pack_diagdom_run(P, beta, eps, phi2, 0, out);
}

/* Contract: cert_packing_impl.h. */
ar_status pack_diagdom_run(const pointset_t *P, double beta, double eps, double phi2, int stop_early,
                           pack_cert_t *out)
{
    if (!out) {
        ar_error_set("pack_diagdom: out is NULL");
        return AR_EINVAL;
    }
    if (!pack_check_args(P, beta, eps, "pack_diagdom"))
        return AR_EINVAL;
    if (!(phi2 >= 0) || !isfinite(phi2)) {
        ar_error_set("pack_diagdom: phi2 must be finite and >= 0 (phi2=%g)", phi2);
        return AR_EINVAL;
    }
    double t0 = clock_now();
    pack_cert_init(out, P, beta, eps, AR_METHOD_DIAGDOM);
    size_t m = P->n;
    double tau = (1.0 - eps) / (1.0 + eps);     /* only used to choose T */
    if (beta == 0 || m == 1) {
        /* every exponential is exp(0) = 1 (beta = 0): R_i = m - 1 exactly */
        out->max_R = (double)(m - 1);
        out->max_tail = 0.0;
        out->phi2 = phi2;
        out->min_chord = 0.0;
        out->certified = pack_dominance_holds_up_to(out->max_R, eps) ? m : 0;
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
        T = pack_tail_threshold(m, P->d, sigma, tau, 0.05 * tau);
    } else {
        T = 0.5 * beta * fmin(fmax(phi2, PHI2_MIN), PHI2_MAX);
    }
    double stop = stop_early ? tau : INFINITY;
    int fails = 0;
    if (stop_early && (st = sample_fails(P, &tr, beta, T, tau, &fails)) != AR_OK) {
        kdtree_free(&tr);
        return st;
    }
    if (fails) {
        /* as a pass stopped early: not certified */
        out->max_R = out->max_tail = INFINITY;
        out->phi2 = 2.0 * T / beta;
        out->min_chord = 0.0;
        out->certified = 0;
        kdtree_free(&tr);
        out->seconds = clock_now() - t0;
        return AR_OK;
    }
    pass_keep_t keep;
    memset(&keep, 0, sizeof keep);
    for (int attempt = 0;; attempt++) {
        double max_near = 0.0;
        int refined = 0;
        st = AR_OK;
        /* every later threshold re-sums only the rows the first pass flagged, while they are few */
        if (attempt >= 1 && keep.S) {
            st = diagdom_refine(&tr, P, beta, T, tau, &keep, out, &max_near, &refined);
            if (st != AR_OK || !refined)
                keep_free(&keep);
        }
        if (st == AR_OK && !refined)
            st = diagdom_pass(&tr, P, beta, T, stop, automatic && attempt == 0 ? &keep : NULL, out, &max_near);
        if (st != AR_OK) {
            keep_free(&keep);
            kdtree_free(&tr);
            return st;
        }
        out->certified = pack_dominance_holds_up_to(out->max_R, eps) ? m : 0;
        /* the tail alone decided a failure: evaluate more pairs */
        if (out->certified || !automatic || attempt == 3 || !(max_near < tau * (1.0 - 1e-9))) {
            keep_free(&keep);
            break;
        }
        double T1 = attempt == 0 ? pack_tail_threshold(m, P->d, sigma, tau, 1e-3 * tau) : T;
        T = T1 > T + 0.5 ? T1 : T + log(1e3);
    }
    kdtree_free(&tr);
    out->seconds = clock_now() - t0;
    return AR_OK;
}

/* Contract: cert_packing.h.  pack_diagdom_phi with the automatic threshold. */
ar_status pack_diagdom(const pointset_t *P, double beta, double eps, pack_cert_t *out)
{
    return pack_diagdom_phi(P, beta, eps, 0.0, out);
}
