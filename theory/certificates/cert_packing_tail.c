/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_packing_tail.c -- the counting tail of the packing certificate
 * (proofs-notes/packing-lower-bounds.md sections 6 and 7): for points with pairwise
 * (beta/2) |x_j - x_k|^2 >= sigma, the packing counts N(t) (in R^d, and near the unit sphere), and
 *   sum_{j not evaluated} exp(-(beta/2) D_ij)
 *     <= sum_{k < K} min(m - 1, N(t_{k+1})) (e^{-t_k} - e^{-t_{k+1}}) + (m - 1) e^{-t_K}
 * (the sum written as an integral of the count against e^{-t}, section 7),
 * the bound of the pairs the k-d tree does not evaluate (cert_packing_diagdom.c); and the
 * choice of the exponent threshold T from a double estimate of it. */
#include "theory/certificates/cert_packing.h"
#include "theory/certificates/cert_packing_impl.h"

#include <math.h>
#include <arb.h>

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

/* Upper bound (Arb) of the counting tail of sections 6-7 of the note: with
 * sigma <= (beta/2) |x_i - x_j|^2 for every pair and T <= (beta/2) D for
 * every pair not evaluated,
 *   sum_{j not evaluated} exp(-(beta/2) D_ij) = int_T^inf #{j not evaluated: (beta/2) D_ij <= t} e^{-t} dt
 *     <= sum_{k < K} min(m - 1, N(t_{k+1})) (e^{-t_k} - e^{-t_{k+1}}) + (m - 1) e^{-t_K},
 * t_k = T + k TAIL_STEP, N = pack_count.  sigma <= 0: +inf.  eta = +inf:
 * only the R^d count.  Contract: cert_packing_impl.h. */
void pack_counting_tail(arb_t out, double sigma, double T, size_t m, size_t d, double beta, const arb_t eta)
{
    if (!(sigma > 0) || m < 2) {
        if (m < 2)
            arb_zero(out);
        else
            arb_pos_inf(out);
        return;
    }
    arb_t sg, t, N, e, mm, acc, B, w;
    arb_init(w);
    arb_set_d(w, -TAIL_STEP);
    arb_exp(w, w, PACK_PREC);
    arb_sub_ui(w, w, 1, PACK_PREC);
    arb_neg(w, w);                                   /* 1 - e^{-TAIL_STEP} */
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
        /* e^{-t_k} - e^{-t_{k+1}} = e^{-t_k} (1 - e^{-TAIL_STEP}) */
        arb_set_d(t, TAIL_STEP);
        arb_mul_ui(t, t, (ulong)k, PACK_PREC);
        arb_set_d(e, T);
        arb_add(t, t, e, PACK_PREC);
        arb_neg(t, t);
        arb_exp(e, t, PACK_PREC);
        arb_mul(e, e, w, PACK_PREC);
        arb_addmul(acc, N, e, PACK_PREC);
        if (arb_equal(N, mm) || arf_cmpabs_2exp_si(arb_midref(t), 12) > 0)
            break;                                   /* every later annulus is in the last term */
    }
    /* (m - 1) e^{-t_K}: K = k + 1 annuli were summed after a break, all TAIL_ANNULI otherwise
     * (t_K is where the last summed annulus ends, so every pair beyond it is in this term) */
    int K = k < TAIL_ANNULI ? k + 1 : TAIL_ANNULI;
    arb_set_d(t, TAIL_STEP);
    arb_mul_ui(t, t, (ulong)K, PACK_PREC);
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
    arb_clear(w);
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
        acc += N * (exp(-tk) - exp(-t1));
        if (N >= (double)(m - 1))
            return acc + (double)(m - 1) * exp(-t1);
    }
    return acc + (double)(m - 1) * exp(-(T + TAIL_ANNULI * TAIL_STEP));
}

/* Automatic exponent threshold: the smallest T (steps of TAIL_STEP) whose
 * counting tail at the estimated separation is <= target, at most the crude
 * choice ln m + ln(1e4 / tau) + 1 (crude tail <= 1e-4 tau / e).  Any T is
 * sound; this only decides the cost.  Contract: cert_packing_impl.h. */
double pack_tail_threshold(size_t m, size_t d, double sigma, double tau, double target)
{
    double Tcrude = log((double)m) + log(1e4 / tau) + 1.0;
    if (!(sigma > 0))
        return Tcrude;
    for (double t = fmax(sigma, TAIL_STEP); t < Tcrude; t += TAIL_STEP)
        if (counting_tail_est(sigma, t, m, d) <= target)
            return t;
    return Tcrude;
}
