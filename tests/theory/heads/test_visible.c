/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_visible.c -- the visible dimension r (THEORY 3.1), its invariances on
 * exact rational data, the certified output error eta(k) of rank-k logits
 * (THEORY 3.3) against an independent MPFR evaluation, r(tau), the chain
 * rank_eps(A) <= upper bracket of A_k at eps - eta, and the weights-only
 * bilinear mode (proofs-notes/claim-T.md). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include <flint/fmpq_mat.h>
#include "testutil.h"
#include "numerics/rng.h"
#include "constructions/pointsets/head.h"
#include "theory/brackets/bracket.h"
#include "theory/heads/visible.h"

/* independent exact rank of L P_c, L = Q K^T (beta = 1 does not change the
 * rank), c = e_j0 (j0 >= 0) or the row-mean centring (j0 < 0), in fmpq */
static long ref_rank(const double *Q, size_t m, const double *K, size_t n, size_t d, long j0)
{
    fmpq_mat_t L, P, LP;
    fmpq_mat_init(L, (slong)m, (slong)n);
    fmpq_mat_init(P, (slong)n, (slong)n);
    fmpq_mat_init(LP, (slong)m, (slong)n);
    fmpq_t t, u;
    fmpq_init(t);
    fmpq_init(u);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            fmpq_zero(fmpq_mat_entry(L, i, j));
            for (size_t c = 0; c < d; c++) {
                fmpq_set_si(t, (slong)Q[i * d + c], 1);      /* integer data in these tests */
                fmpq_set_si(u, (slong)K[j * d + c], 1);
                fmpq_mul(t, t, u);
                fmpq_add(fmpq_mat_entry(L, i, j), fmpq_mat_entry(L, i, j), t);
            }
        }
    /* P = I - c 1^T */
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n; b++) {
            if (j0 >= 0)
                fmpq_set_si(t, (long)a == j0 ? 1 : 0, 1);
            else
                fmpq_set_si(t, 1, (ulong)n);
            fmpq_set_si(u, a == b ? 1 : 0, 1);
            fmpq_sub(fmpq_mat_entry(P, a, b), u, t);
        }
    fmpq_mat_mul(LP, L, P);
    fmpq_mat_t R;
    fmpq_mat_init(R, (slong)m, (slong)n);
    long r = (long)fmpq_mat_rref(R, LP);
    fmpq_mat_clear(R);
    fmpq_mat_clear(L); fmpq_mat_clear(P); fmpq_mat_clear(LP);
    fmpq_clear(t); fmpq_clear(u);
    return r;
}

/* random small-integer head of planted visible dimension <= r0:
 * q = A z, k = A y with A d x r0 integer, z, y integer */
static void planted_int(rng_t *g, size_t m, size_t n, size_t d, size_t r0, double *Q, double *K)
{
    long A[64 * 8];
    for (size_t t = 0; t < d * r0; t++)
        A[t] = (long)(rng_u64(g) % 5) - 2;
    for (size_t i = 0; i < m + n; i++) {
        long z[8];
        for (size_t a = 0; a < r0; a++)
            z[a] = (long)(rng_u64(g) % 7) - 3;
        for (size_t c = 0; c < d; c++) {
            long s = 0;
            for (size_t a = 0; a < r0; a++)
                s += A[c * r0 + a] * z[a];
            if (i < m)
                Q[i * d + c] = (double)s;
            else
                K[(i - m) * d + c] = (double)s;
        }
    }
}

/* r, r_exact and the fmpq reference agree on exact integer data, for every
 * reference key and for row-mean centring */
START_TEST(test_rank_exact_integer)
{
    rng_t g;
    rng_init(&g, test_seed() + 801);
    for (int it = 0; it < 30; it++) {
        size_t m = 3 + rng_u64(&g) % 6, n = 3 + rng_u64(&g) % 6, d = 2 + rng_u64(&g) % 5;
        size_t r0 = 1 + rng_u64(&g) % d;
        double Q[64 * 8], K[64 * 8];
        planted_int(&g, m, n, d, r0, Q, K);
        visible_t v;
        ck_assert_int_eq(visible_compute(Q, m, K, n, d, 0.5, NULL, &v), AR_OK);
        long ref = ref_rank(Q, m, K, n, d, -1);
        for (long j0 = 0; j0 < (long)n; j0++)
            ck_assert_int_eq(ref_rank(Q, m, K, n, d, j0), ref);
        ck_assert_msg(v.r_exact == ref && (long)v.r == ref,
                      "seed=%llu it=%d: r=%zu r_exact=%ld reference %ld", (unsigned long long)test_seed(), it,
                      v.r, v.r_exact, ref);
        ck_assert(ref <= (long)r0 && ref <= (long)(n - 1));
        visible_clear(&v);
    }
}
END_TEST

/* an arbitrary reference vector (not an affine combination of the keys) can
 * add one to the rank: Q = I, all keys zero: r = 0 (THEORY 3.1 correction) */
START_TEST(test_arbitrary_reference)
{
    double Q[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, K[6] = { 0, 0, 0, 0, 0, 0 };
    visible_t v;
    ck_assert_int_eq(visible_compute(Q, 3, K, 2, 3, 1.0, NULL, &v), AR_OK);
    ck_assert_int_eq((int)v.r, 0);
    ck_assert_int_eq(v.r_exact, 0);
    double e;
    ck_assert_int_eq(visible_eta(&v, 0, &e), AR_OK);
    ck_assert(e == 0.0);                       /* all logits equal in each row */
    /* with k0 = e_1, Q (K - 1 k0^T)^T = -e_1 1^T has rank 1 */
    double Kk[6] = { -1, 0, 0, -1, 0, 0 };    /* K - 1 e_1^T */
    long rk;
    double Qz[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    /* rank of Q (Kk)^T directly: both rows of Kk equal, so the difference
     * rank (what visible_rank_exact computes) is 0, but the product has rank 1 */
    ck_assert_int_eq(visible_rank_exact(Qz, 3, Kk, 2, 3, &rk), AR_OK);
    ck_assert_int_eq(rk, 0);
    visible_clear(&v);
}
END_TEST

/* invariances, exact: common key offset, query components orthogonal to all
 * key differences, zero padding, exact Hadamard rotation: r and r_exact
 * unchanged and equal; eta(r) stays at rounding level */
START_TEST(test_invariances_exact)
{
    rng_t g;
    rng_init(&g, test_seed() + 802);
    for (int it = 0; it < 12; it++) {
        size_t m = 8 + rng_u64(&g) % 10, n = 8 + rng_u64(&g) % 10, d = 3;
        size_t r0 = 1 + rng_u64(&g) % 3;
        double Q[32 * 3], K[32 * 3];
        planted_int(&g, m, n, d, r0, Q, K);
        long ref = ref_rank(Q, m, K, n, d, -1);
        /* embed into dh = 16: Hadamard rotation (entries +-1/4), dyadic offsets and invisible parts */
        pointset_t P, Kp, Qh, Kh;
        pointset_init(&P, m, d);
        pointset_init(&Kp, n, d);
        memcpy(P.x, Q, m * d * sizeof *Q);
        memcpy(Kp.x, K, n * d * sizeof *K);
        for (int mode = 0; mode < 4; mode++) {
            head_embed_t e = { .dh = 16, .seed = 7 + (uint64_t)it, .dyadic = 1 };
            if (mode == 0) e.key_offset = 3.0;            /* offset only (no rotation) */
            if (mode == 1) e.query_invisible = 5.0;       /* invisible query parts only */
            if (mode == 2) e.dh = 3 + 5;                  /* zero padding only */
            if (mode == 3) { e.key_offset = 3.0; e.query_invisible = 5.0; e.rotate = HEAD_ROT_HADAMARD; }
            ck_assert_int_eq(head_embed(&P, &Kp, &e, &Qh, &Kh), AR_OK);
            visible_t v;
            ck_assert_int_eq(visible_compute(Qh.x, m, Kh.x, n, e.dh, 0.75, NULL, &v), AR_OK);
            ck_assert_msg(v.r_exact == ref && (long)v.r == ref,
                          "seed=%llu it=%d mode=%d: r=%zu r_exact=%ld, unembedded rank %ld",
                          (unsigned long long)test_seed(), it, mode, v.r, v.r_exact, ref);
            double e_r;
            ck_assert_int_eq(visible_eta(&v, (size_t)ref, &e_r), AR_OK);
            ck_assert_msg(e_r < 1e-9, "mode %d: eta(r) = %g", mode, e_r);
            visible_clear(&v);
            pointset_clear(&Qh);
            pointset_clear(&Kh);
        }
        pointset_clear(&P);
        pointset_clear(&Kp);
    }
}
END_TEST

/* the rounded random rotation keeps the numerical r but can raise r_exact */
START_TEST(test_random_rotation_numerical)
{
    pointset_t Q, K, Qh, Kh;
    ck_assert_int_eq(head_random_ball(&Q, &K, 3, 40, 50, test_seed() + 803), AR_OK);
    head_embed_t e = { .dh = 24, .key_offset = 2.0, .query_invisible = 1.0, .rotate = HEAD_ROT_RANDOM,
                       .seed = test_seed() + 804 };
    ck_assert_int_eq(head_embed(&Q, &K, &e, &Qh, &Kh), AR_OK);
    visible_t v;
    ck_assert_int_eq(visible_compute(Qh.x, 40, Kh.x, 50, 24, 0.2, NULL, &v), AR_OK);
    ck_assert_int_eq((int)v.r, 3);
    ck_assert(v.r_exact >= 3);
    ck_assert(v.sigma[3] <= v.tol && v.sigma[2] > 1e6 * v.tol);
    visible_clear(&v);
    pointset_clear(&Q); pointset_clear(&K); pointset_clear(&Qh); pointset_clear(&Kh);
}
END_TEST

/* MPFR reference: max_i || softmax(L_i) - softmax(P_i) ||_1 with L = beta Q K^T
 * and P = Qk Kk^T formed exactly (products of doubles at 400 bits) */
static double ref_l1(const double *Q, const double *K, size_t m, size_t n, size_t d, double beta,
                     const pointset_t *Qk, const pointset_t *Kk)
{
    size_t k = Qk->d;
    mpfr_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    mpfr_t t, s1, s2, tot;
    mpfr_inits2(400, t, s1, s2, tot, (mpfr_ptr)0);
    for (size_t j = 0; j < n; j++) {
        mpfr_init2(a[j], 400);
        mpfr_init2(b[j], 400);
    }
    double worst = 0.0;
    for (size_t i = 0; i < m; i++) {
        for (size_t j = 0; j < n; j++) {
            mpfr_set_ui(a[j], 0, MPFR_RNDN);
            for (size_t c = 0; c < d; c++) {
                mpfr_set_d(t, Q[i * d + c], MPFR_RNDN);
                mpfr_mul_d(t, t, K[j * d + c], MPFR_RNDN);
                mpfr_add(a[j], a[j], t, MPFR_RNDN);
            }
            mpfr_mul_d(a[j], a[j], beta, MPFR_RNDN);
            mpfr_set_ui(b[j], 0, MPFR_RNDN);
            for (size_t c = 0; c < k; c++) {
                mpfr_set_d(t, Qk->x[i * k + c], MPFR_RNDN);
                mpfr_mul_d(t, t, Kk->x[j * k + c], MPFR_RNDN);
                mpfr_add(b[j], b[j], t, MPFR_RNDN);
            }
        }
        mpfr_set_ui(s1, 0, MPFR_RNDN);
        mpfr_set_ui(s2, 0, MPFR_RNDN);
        for (size_t j = 0; j < n; j++) {
            mpfr_exp(a[j], a[j], MPFR_RNDN);
            mpfr_exp(b[j], b[j], MPFR_RNDN);
            mpfr_add(s1, s1, a[j], MPFR_RNDN);
            mpfr_add(s2, s2, b[j], MPFR_RNDN);
        }
        mpfr_set_ui(tot, 0, MPFR_RNDN);
        for (size_t j = 0; j < n; j++) {
            mpfr_div(a[j], a[j], s1, MPFR_RNDN);
            mpfr_div(b[j], b[j], s2, MPFR_RNDN);
            mpfr_sub(t, a[j], b[j], MPFR_RNDN);
            mpfr_abs(t, t, MPFR_RNDN);
            mpfr_add(tot, tot, t, MPFR_RNDN);
        }
        double x = mpfr_get_d(tot, MPFR_RNDN);
        if (x > worst)
            worst = x;
    }
    for (size_t j = 0; j < n; j++) {
        mpfr_clear(a[j]);
        mpfr_clear(b[j]);
    }
    free(a); free(b);
    mpfr_clears(t, s1, s2, tot, (mpfr_ptr)0);
    return worst;
}

/* eta(k) bounds the true output change of the rank-k logits (MPFR), is never
 * worse than 2 tanh(sigma_{k+1} / (2 sqrt 2)) (up to rounding) and r(tau)
 * is the least k with eta(k) <= tau */
START_TEST(test_eta_rigour)
{
    rng_t g;
    rng_init(&g, test_seed() + 805);
    for (int it = 0; it < 8; it++) {
        size_t m = 10 + rng_u64(&g) % 15, n = 10 + rng_u64(&g) % 15, d = 2 + rng_u64(&g) % 6;
        double *Q = malloc(m * d * sizeof *Q), *K = malloc(n * d * sizeof *K);
        for (size_t t = 0; t < m * d; t++)
            Q[t] = rng_normal(&g);
        for (size_t t = 0; t < n * d; t++)
            K[t] = rng_normal(&g) * (t % d == 0 ? 1.0 : 0.1 * (double)(t % d));
        double beta = 0.5 + 2 * rng_uniform(&g);
        visible_t v;
        ck_assert_int_eq(visible_compute(Q, m, K, n, d, beta, NULL, &v), AR_OK);
        for (size_t k = 0; k <= v.nsigma && k <= d + 1; k++) {
            double e;
            ck_assert_int_eq(visible_eta(&v, k, &e), AR_OK);
            if (k > 0) {
                pointset_t Qk, Kk;
                ck_assert_int_eq(visible_factors(&v, k, NULL, &Qk, &Kk), AR_OK);
                double ex = ref_l1(Q, K, m, n, d, beta, &Qk, &Kk);
                ck_assert_msg(ex <= e, "seed=%llu it=%d k=%zu: true change %.17g > eta %.17g",
                              (unsigned long long)test_seed(), it, k, ex, e);
                pointset_clear(&Qk);
                pointset_clear(&Kk);
            }
            if (k < v.nsigma) {
                double sb = 2 * tanh(v.sigma[k] / (2 * sqrt(2.0)));
                ck_assert_msg(e <= sb * (1 + 1e-9) + 1e-12, "it=%d k=%zu: eta %.17g > sigma bound %.17g", it, k,
                              e, sb);
            }
        }
        double taus[3] = { 1.0, 0.1, 1e-3 };
        size_t rt[3];
        double et[3];
        ck_assert_int_eq(visible_rtau(&v, taus, 3, rt, et), AR_OK);
        for (int t = 0; t < 3; t++) {
            ck_assert(rt[t] != VISIBLE_NONE);
            ck_assert(et[t] <= taus[t]);
            double e;
            if (rt[t] > 0) {
                visible_eta(&v, rt[t] - 1, &e);
                ck_assert(e > taus[t]);
            }
        }
        visible_clear(&v);
        free(Q); free(K);
    }
}
END_TEST

/* the chain: lower bracket of A <= upper bracket of A_k at eps - eta(k) and
 * lower of A_k at eps + eta <= upper of A, on low-rank-plus-noise heads */
START_TEST(test_chain)
{
    for (int it = 0; it < 4; it++) {
        pointset_t Q, K, Qh, Kh;
        ck_assert_int_eq(head_random_ball(&Q, &K, 2, 60, 70, test_seed() + 810 + (uint64_t)it), AR_OK);
        head_embed_t e = { .dh = 8, .query_invisible = 1.0, .nnoise = 3, .delta = 0.02,
                           .rotate = HEAD_ROT_RANDOM, .seed = 5 + (uint64_t)it };
        ck_assert_int_eq(head_embed(&Q, &K, &e, &Qh, &Kh), AR_OK);
        ck_assert_int_eq(head_gaussian_weights(&Kh, 1.0), AR_OK);
        double beta = 20.0, eps = 0.1;
        bracket_t b;
        ck_assert_int_eq(bracket_compute(&Qh, &Kh, beta, eps, NULL, &b), AR_OK);
        visible_t v;
        ck_assert_int_eq(visible_compute(Qh.x, Qh.n, Kh.x, Kh.n, 8, beta, NULL, &v), AR_OK);
        ck_assert(v.r > 2);                                 /* the noise is visible */
        int checked = 0;
        for (size_t k = 1; k <= 6; k++) {
            double eta;
            visible_eta(&v, k, &eta);
            if (!(eta < eps / 2))
                continue;
            size_t up, lo;
            ar_cert_status_t s;
            ck_assert_int_eq(visible_upper_via(&v, k, Kh.w, eps, NULL, &up, &eta, NULL), AR_OK);
            ck_assert_msg(b.lower <= up, "k=%zu: lower(A) %zu > upper via A_k %zu (eta %g)", k, b.lower, up, eta);
            ck_assert_int_eq(visible_bracket_via(&v, k, Kh.w, eps, NULL, &lo, &up, &eta, &s), AR_OK);
            ck_assert_msg(lo <= b.upper && b.lower <= up && lo <= up,
                          "k=%zu: via [%zu, %zu] vs direct [%zu, %zu]", k, lo, up, b.lower, b.upper);
            checked++;
        }
        ck_assert(checked > 0);
        /* no slack: eta(0) is large for these logits */
        double e0;
        visible_eta(&v, 0, &e0);
        size_t up;
        if (e0 >= eps)
            ck_assert_int_eq(visible_upper_via(&v, 0, Kh.w, eps, NULL, &up, NULL, NULL), AR_EINVAL);
        visible_clear(&v);
        pointset_clear(&Q); pointset_clear(&K); pointset_clear(&Qh); pointset_clear(&Kh);
    }
}
END_TEST

START_TEST(test_bad_input)
{
    double Q[4] = { 1, 2, 3, 4 }, K[4] = { 1, 0, 0, 1 };
    visible_t v;
    ck_assert_int_eq(visible_compute(Q, 2, K, 2, 2, -1.0, NULL, &v), AR_EINVAL);
    ck_assert_int_eq(visible_compute(Q, 2, K, 2, 2, NAN, NULL, &v), AR_EINVAL);
    ck_assert_int_eq(visible_compute(Q, 0, K, 2, 2, 1.0, NULL, &v), AR_EINVAL);
    Q[1] = NAN;
    ck_assert_int_eq(visible_compute(Q, 2, K, 2, 2, 1.0, NULL, &v), AR_EINVAL);
    Q[1] = 2;
    ck_assert_int_eq(visible_compute(Q, 2, K, 2, 2, 1.0, NULL, &v), AR_OK);
    double tau = 2.0, e;
    size_t r;
    ck_assert_int_eq(visible_rtau(&v, &tau, 1, &r, &e), AR_EINVAL);
    tau = 0.0;
    ck_assert_int_eq(visible_rtau(&v, &tau, 1, &r, &e), AR_EINVAL);
    ck_assert_int_eq(visible_eta(&v, 3, &e), AR_EINVAL);
    pointset_t a, b;
    ck_assert_int_eq(visible_factors(&v, 0, NULL, &a, &b), AR_EINVAL);
    visible_clear(&v);
    visible_clear(&v);                                  /* idempotent */
    /* beta = 0: nothing is visible */
    ck_assert_int_eq(visible_compute(Q, 2, K, 2, 2, 0.0, NULL, &v), AR_OK);
    ck_assert_int_eq((int)v.r, 0);
    ck_assert_int_eq(v.r_exact, 0);
    visible_clear(&v);
}
END_TEST

/* weights-only mode: planted rank, certified norm bounds >= sigma_{k+1}, and
 * eta bounds the output change on random inputs in the radius-R ball */
START_TEST(test_bilinear)
{
    rng_t g;
    rng_init(&g, test_seed() + 820);
    size_t dm = 24, dh = 6, r0 = 3;
    double *WQ = calloc(dm * dh, sizeof *WQ), *WK = calloc(dm * dh, sizeof *WK);
    /* WQ WK^T of rank r0 exactly: last dh - r0 columns of WK zero, plus a tiny
     * perturbation in one of them */
    for (size_t i = 0; i < dm; i++)
        for (size_t c = 0; c < dh; c++) {
            WQ[i * dh + c] = rng_normal(&g) / 4;
            WK[i * dh + c] = c < r0 ? rng_normal(&g) / 4 : 0.0;
        }
    visible_bilinear_t v;
    ck_assert_int_eq(visible_bilinear(WQ, WK, dm, dh, 1 / sqrt((double)dh), 2.0, NULL, &v), AR_OK);
    ck_assert_int_eq((int)v.r, (int)r0);
    ck_assert_int_eq(v.r_exact, (long)r0);
    double taus[2] = { 0.5, 1e-6 };
    size_t rt[2];
    double et[2];
    ck_assert_int_eq(visible_bilinear_rtau(&v, taus, 2, rt, et), AR_OK);
    ck_assert_int_eq((int)rt[1], (int)r0);
    for (size_t k = 0; k < v.nsigma; k++)
        ck_assert_msg(v.normb[k] >= v.sigma[k] * (1 - 1e-12), "k=%zu: bound %g < sigma %g", k, v.normb[k],
                      v.sigma[k]);
    visible_bilinear_clear(&v);
    for (size_t i = 0; i < dm; i++)
        WK[i * dh + r0] = 1e-3 * rng_normal(&g);
    ck_assert_int_eq(visible_bilinear(WQ, WK, dm, dh, 0.4, 2.0, NULL, &v), AR_OK);
    ck_assert_int_eq((int)v.r, (int)r0 + 1);
    ck_assert_int_eq(visible_bilinear_rtau(&v, taus, 2, rt, et), AR_OK);
    ck_assert(rt[0] <= r0 && rt[1] == r0 + 1);
    /* eta(k) vs the true change on random instances in the ball: M_k = U_k S_k V_k^T */
    for (size_t k = 1; k <= r0; k++) {
        double worst = 0.0;
        for (int rep = 0; rep < 50; rep++) {
            size_t n = 8;
            double x[24], y[8][24], l[8], dl[8];
            for (size_t c = 0; c < dm; c++)
                x[c] = rng_normal(&g);
            double nx = 0;
            for (size_t c = 0; c < dm; c++) nx += x[c] * x[c];
            for (size_t c = 0; c < dm; c++) x[c] *= 2.0 / sqrt(nx) * 0.999;
            for (size_t j = 0; j < n; j++) {
                double ny = 0;
                for (size_t c = 0; c < dm; c++) { y[j][c] = rng_normal(&g); ny += y[j][c] * y[j][c]; }
                for (size_t c = 0; c < dm; c++) y[j][c] *= 2.0 / sqrt(ny) * 0.999;
                double full = 0, trunc = 0;
                for (size_t a = 0; a < dm; a++)
                    for (size_t b = 0; b < dm; b++) {
                        double mab = 0;
                        for (size_t c = 0; c < dh; c++) mab += WQ[a * dh + c] * WK[b * dh + c];
                        full += x[a] * mab * y[j][b];
                    }
                for (size_t c = 0; c < k; c++) {
                    double xu = 0, vy = 0;
                    for (size_t a = 0; a < dm; a++) xu += x[a] * v.u_[a + c * dm];
                    for (size_t b = 0; b < dm; b++) vy += v.vt_[c + b * dm] * y[j][b];
                    trunc += xu * v.s_[c] * vy;
                }
                l[j] = 0.4 * full;
                dl[j] = 0.4 * (trunc - full);
            }
            double ex = 0, s1 = 0, s2 = 0, p[8], q[8];
            for (size_t j = 0; j < n; j++) { p[j] = exp(l[j]); q[j] = exp(l[j] + dl[j]); s1 += p[j]; s2 += q[j]; }
            for (size_t j = 0; j < n; j++) ex += fabs(p[j] / s1 - q[j] / s2);
            if (ex > worst) worst = ex;
        }
        ck_assert_int_eq(visible_bilinear_rtau(&v, taus, 1, rt, et), AR_OK);
        ck_assert_msg(worst <= v.eta[k] * (1 + 1e-6), "k=%zu: sampled change %g > eta %g", k, worst, v.eta[k]);
    }
    visible_bilinear_clear(&v);
    ck_assert_int_eq(visible_bilinear(WQ, WK, dm, dh, 0.4, 0.0, NULL, &v), AR_EINVAL);
    ck_assert_int_eq(visible_bilinear(WQ, WK, dm, dh, -1, 1.0, NULL, &v), AR_EINVAL);
    free(WQ); free(WK);
}
END_TEST

Suite *suite_visible(void)
{
    Suite *s = suite_create("visible");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_rank_exact_integer);
    tcase_add_test(tc, test_arbitrary_reference);
    tcase_add_test(tc, test_invariances_exact);
    tcase_add_test(tc, test_random_rotation_numerical);
    tcase_add_test(tc, test_eta_rigour);
    tcase_add_test(tc, test_chain);
    tcase_add_test(tc, test_bad_input);
    tcase_add_test(tc, test_bilinear);
    suite_add_tcase(s, tc);
    return s;
}
