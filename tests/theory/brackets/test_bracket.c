/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_bracket.c -- the certified bracket lower <= rank_eps <= upper:
 * exactly known small cases (2x2 formula, full rank by exact diagonal
 * dominance, rank 1 by the constant matrix), consistency on random
 * instances, the multiplicity lemma (THEORY 3.2) and row-scalar invariance
 * (THEORY 3.1) at rank level, and input validation. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include <flint/fmpz.h>
#include "testutil.h"
#include "numerics/config.h"
#include "numerics/rng.h"
#include "numerics/blas_select.h"
#include "constructions/pointsets/pointset.h"
#include "constructions/pointsets/head.h"
#include "theory/brackets/bracket_status.h"
#include "theory/brackets/bracket.h"
#include "theory/brackets/bracket_impl.h"
#include "theory/certificates/cert_lower.h"
#include "numerics/fps.h"
#include "numerics/softmax_dbl.h"

#define HP 256

/* MPFR evaluation of the self-attention matrix of P (no weights), row-major,
 * entries rounded to nearest at HP bits (relative error 2^-250). */
static mpfr_t *hp_self(const pointset_t *P, double beta)
{
    size_t n = P->n, d = P->d;
    mpfr_t *A = malloc(n * n * sizeof *A);
    mpfr_t t, s;
    mpfr_inits2(HP, t, s, (mpfr_ptr)0);
    for (size_t i = 0; i < n; i++) {
        mpfr_set_ui(s, 0, MPFR_RNDN);
        for (size_t j = 0; j < n; j++) {
            mpfr_init2(A[i * n + j], HP);
            mpfr_set_ui(A[i * n + j], 0, MPFR_RNDN);
            for (size_t c = 0; c < d; c++) {
                mpfr_set_d(t, P->x[i * d + c], MPFR_RNDN);
                mpfr_mul_d(t, t, P->x[j * d + c], MPFR_RNDN);
                mpfr_add(A[i * n + j], A[i * n + j], t, MPFR_RNDN);
            }
            mpfr_mul_d(A[i * n + j], A[i * n + j], beta, MPFR_RNDN);
            mpfr_exp(A[i * n + j], A[i * n + j], MPFR_RNDN);
            mpfr_add(s, s, A[i * n + j], MPFR_RNDN);
        }
        for (size_t j = 0; j < n; j++)
            mpfr_div(A[i * n + j], A[i * n + j], s, MPFR_RNDN);
    }
    mpfr_clears(t, s, (mpfr_ptr)0);
    return A;
}

static void hp_free(mpfr_t *A, size_t nn)
{
    for (size_t i = 0; i < nn; i++)
        mpfr_clear(A[i]);
    free(A);
}

/* min over rows of A_ii - sum_{j != i} A_ij (THEORY 3.4a with S = all, t = id) */
static double hp_min_margin(const mpfr_t *A, size_t n)
{
    mpfr_t s;
    mpfr_init2(s, HP);
    double best = INFINITY;
    for (size_t i = 0; i < n; i++) {
        mpfr_set(s, A[i * n + i], MPFR_RNDN);
        for (size_t j = 0; j < n; j++)
            if (j != i)
                mpfr_sub(s, s, A[i * n + j], MPFR_RNDN);
        double v = mpfr_get_d(s, MPFR_RNDD);
        if (v < best)
            best = v;
    }
    mpfr_clear(s);
    return best;
}

/* max_i sum_j |A_ij - 1/n|: the error of the constant (rank-1) matrix */
static double hp_const_err(const mpfr_t *A, size_t n)
{
    mpfr_t s, t;
    mpfr_inits2(HP, s, t, (mpfr_ptr)0);
    double best = 0;
    for (size_t i = 0; i < n; i++) {
        mpfr_set_ui(s, 0, MPFR_RNDN);
        for (size_t j = 0; j < n; j++) {
            mpfr_set_ui(t, 1, MPFR_RNDN);
            mpfr_div_ui(t, t, (unsigned long)n, MPFR_RNDN);
            mpfr_sub(t, A[i * n + j], t, MPFR_RNDN);
            mpfr_abs(t, t, MPFR_RNDN);
            mpfr_add(s, s, t, MPFR_RNDN);
        }
        double v = mpfr_get_d(s, MPFR_RNDU);
        if (v > best)
            best = v;
    }
    mpfr_clears(s, t, (mpfr_ptr)0);
    return best;
}

static void check_bracket(const bracket_t *b, size_t lo, size_t up, const char *what)
{
    ck_assert_msg(b->status == AR_CERT_CERTIFIED && b->lower == lo && b->upper == up,
                  "%s: bracket [%zu, %zu] (%s; lower %s, upper %s), expected exactly [%zu, %zu]",
                  what, b->lower, b->upper, ar_cert_status_name(b->status), ar_method_name(b->lo.method),
                  ar_method_name(b->up.method), lo, up);
}

/* Two points x1 = (p, q), x2 = (q, p) (equal norms exactly): A = [[a,1-a],[1-a,a]]
 * with 2a - 1 = tanh(beta (p-q)^2 / 2); rank_eps = 2 iff eps < 2a-1, else 1. */
START_TEST(test_exact_two_points)
{
    const double betas[] = { 0.5, 2.0, 5.0, 20.0, 80.0 };
    const double phis[] = { 0.1, 0.3, 0.6, 0.75 };
    int done = 0;
    for (size_t bi = 0; bi < 5; bi++)
        for (size_t fi = 0; fi < 4; fi++) {
            double beta = betas[bi];
            pointset_t P;
            memset(&P, 0, sizeof P);
            ck_assert_int_eq(pointset_init(&P, 2, 2), AR_OK);
            double p = cos(phis[fi]), q = sin(phis[fi]);
            P.x[0] = p; P.x[1] = q; P.x[2] = q; P.x[3] = p;
            mpfr_t g;
            mpfr_init2(g, HP);
            mpfr_set_d(g, p, MPFR_RNDN);
            mpfr_sub_d(g, g, q, MPFR_RNDN);                  /* exact */
            mpfr_sqr(g, g, MPFR_RNDN);
            mpfr_mul_d(g, g, beta / 2, MPFR_RNDN);
            mpfr_tanh(g, g, MPFR_RNDN);
            double gap = mpfr_get_d(g, MPFR_RNDN);           /* 2a - 1, relative error 2^-52 */
            mpfr_clear(g);
            if (gap < 0.02 || gap > 0.95) {
                pointset_clear(&P);
                continue;
            }
            bracket_t b;
            char what[128];
            double eps = 0.9 * gap;
            ck_assert_int_eq(bracket_compute(&P, &P, beta, eps, NULL, &b), AR_OK);
            snprintf(what, sizeof what, "2 points beta=%g phi=%g eps=0.9*gap (gap %.6g)", beta, phis[fi], gap);
            check_bracket(&b, 2, 2, what);
            eps = 1.1 * gap;
            if (eps < 1) {
                ck_assert_int_eq(bracket_compute(&P, &P, beta, eps, NULL, &b), AR_OK);
                snprintf(what, sizeof what, "2 points beta=%g phi=%g eps=1.1*gap (gap %.6g)", beta, phis[fi], gap);
                check_bracket(&b, 1, 1, what);
            }
            done++;
            pointset_clear(&P);
        }
    ck_assert_int_ge(done, 8);
}
END_TEST

/* 3 points (rounded equilateral triangle) and 4 points (exact square):
 * at large beta the exact diagonal-dominance margin (MPFR) exceeds eps, so
 * rank_eps = n and the bracket must be [n, n]; at small beta with eps
 * halfway between the constant matrix's error and 1, rank_eps = 1 and the
 * bracket must be [1, 1]. */
START_TEST(test_exact_three_four_points)
{
    for (size_t n = 3; n <= 4; n++) {
        pointset_t P;
        memset(&P, 0, sizeof P);
        ck_assert_int_eq(pointset_init(&P, n, 2), AR_OK);
        if (n == 3) {
            double h = sqrt(3.0) / 2;
            double xy[6] = { 1, 0, -0.5, h, -0.5, -h };
            memcpy(P.x, xy, sizeof xy);
        } else {
            double xy[8] = { 1, 0, 0, 1, -1, 0, 0, -1 };
            memcpy(P.x, xy, sizeof xy);
        }
        const double big[] = { 6.0, 12.0, 40.0 };
        for (size_t q = 0; q < 3; q++) {
            mpfr_t *A = hp_self(&P, big[q]);
            double margin = hp_min_margin(A, n);
            hp_free(A, n * n);
            double eps = 0.5 * margin;                   /* margin > eps: rank_eps = n */
            ck_assert_msg(margin > 0.1, "test setup: margin %g", margin);
            bracket_t b;
            ck_assert_int_eq(bracket_compute(&P, &P, big[q], eps, NULL, &b), AR_OK);
            char what[128];
            snprintf(what, sizeof what, "%zu points beta=%g eps=%g (margin %g)", n, big[q], eps, margin);
            check_bracket(&b, n, n, what);
        }
        const double small[] = { 0.1, 0.5, 1.0 };
        for (size_t q = 0; q < 3; q++) {
            mpfr_t *A = hp_self(&P, small[q]);
            double ce = hp_const_err(A, n);
            hp_free(A, n * n);
            double eps = 0.5 * (ce + 1.0);               /* ce < eps < 1: rank_eps = 1 */
            ck_assert_msg(ce < 0.9, "test setup: constant error %g", ce);
            bracket_t b;
            ck_assert_int_eq(bracket_compute(&P, &P, small[q], eps, NULL, &b), AR_OK);
            char what[128];
            snprintf(what, sizeof what, "%zu points beta=%g eps=%g (constant error %g)", n, small[q], eps, ce);
            check_bracket(&b, 1, 1, what);
        }
        pointset_clear(&P);
    }
}
END_TEST

/* random point: uniform on the sphere (ball = 0) or in the ball */
static void rand_point(rng_t *r, double *x, size_t d, int ball)
{
    double nr = 0;
    for (size_t c = 0; c < d; c++) {
        x[c] = rng_normal(r);
        nr += x[c] * x[c];
    }
    double s = (ball ? pow(rng_uniform(r), 1.0 / (double)d) : 1.0) / sqrt(nr);
    for (size_t c = 0; c < d; c++)
        x[c] *= s;
}

static void rand_set(pointset_t *P, rng_t *r, size_t n, size_t d, int ball)
{
    memset(P, 0, sizeof *P);
    ck_assert_int_eq(pointset_init(P, n, d), AR_OK);
    for (size_t i = 0; i < n; i++)
        rand_point(r, P->x + i * d, d, ball);
}

/* random instances: 1 <= lower <= upper <= min(m, n), the enclosure fine
 * (2 maxerr < eps: what "certified" meant before issue 14 item 12), and the
 * status the one rule gives (theory/brackets/bracket_status.h): a bracket
 * [1, k] whose lower end is the trivial one, k > 1, is inconclusive */
START_TEST(test_random_consistent)
{
    rng_t r;
    rng_init(&r, test_seed() + 601);
    int ncert = 0;
    for (int it = 0; it < 40; it++) {
        size_t d = 1 + rng_u64(&r) % 4;
        size_t n = 1 + rng_u64(&r) % 60, m = 1 + rng_u64(&r) % 60;
        int self = (int)(rng_u64(&r) % 2), ball = (int)(rng_u64(&r) % 2), wt = (int)(rng_u64(&r) % 3);
        double beta = 100 * rng_uniform(&r);
        double eps = 0.01 + 0.89 * rng_uniform(&r);
        pointset_t K, Q;
        rand_set(&K, &r, n, d, ball);
        if (wt) {
            ck_assert_int_eq(pointset_alloc_weights(&K), AR_OK);
            for (size_t j = 0; j < n; j++) {
                fmpz_set_ui(K.w + j, 1 + rng_u64(&r) % 7);
                if (wt == 2)
                    fmpz_mul_2exp(K.w + j, K.w + j, rng_u64(&r) % 100);
            }
        }
        if (!self)
            rand_set(&Q, &r, m, d, ball);
        const pointset_t *Qp = self ? &K : &Q;
        bracket_t b;
        ar_status st = bracket_compute(Qp, &K, beta, eps, NULL, &b);
        size_t mm = Qp->n, mn = mm < n ? mm : n;
        ncert += st == AR_OK && b.status == AR_CERT_CERTIFIED;
        ck_assert_msg(st == AR_OK && 2.0 * b.maxerr < eps &&
                      b.status == bracket_status_decide(b.lower, b.lo.method, b.upper, b.up.method) &&
                      1 <= b.lower && b.lower <= b.upper && b.upper <= mn && b.m == mm && b.n == n,
                      "seed=%llu it=%d m=%zu n=%zu d=%zu self=%d ball=%d weights=%d beta=%.17g eps=%.17g: "
                      "status %d (%s) bracket [%zu, %zu] %s", (unsigned long long)test_seed(), it, mm, n, d,
                      self, ball, wt, beta, eps, (int)st, ar_error_get(), b.lower, b.upper,
                      ar_cert_status_name(b.status));
        if (!self)
            pointset_clear(&Q);
        pointset_clear(&K);
    }
    ck_assert_msg(ncert >= 30, "only %d of 40 random brackets certified", ncert);
}
END_TEST

static int overlap(const bracket_t *a, const bracket_t *b)
{
    return a->lower <= b->upper && b->lower <= a->upper;
}

/* THEORY 3.2: a weighted instance (weights 1..3) and its expansion (each
 * point repeated w times, as key and as query) have the same eps-rank, so
 * their certified brackets must overlap. */
START_TEST(test_multiplicity_overlap)
{
    rng_t r;
    rng_init(&r, test_seed() + 602);
    for (int it = 0; it < 12; it++) {
        size_t d = 2 + rng_u64(&r) % 2, n = 4 + rng_u64(&r) % 14;
        double beta = 1 + 40 * rng_uniform(&r), eps = 0.02 + 0.5 * rng_uniform(&r);
        pointset_t W, E;
        rand_set(&W, &r, n, d, (int)(it % 2));
        ck_assert_int_eq(pointset_alloc_weights(&W), AR_OK);
        size_t N = 0;
        for (size_t j = 0; j < n; j++) {
            fmpz_set_ui(W.w + j, 1 + rng_u64(&r) % 3);
            N += fmpz_get_ui(W.w + j);
        }
        memset(&E, 0, sizeof E);
        ck_assert_int_eq(pointset_init(&E, N, d), AR_OK);
        size_t t = 0;
        for (size_t j = 0; j < n; j++)
            for (ulong c = 0; c < fmpz_get_ui(W.w + j); c++, t++)
                memcpy(E.x + t * d, W.x + j * d, d * sizeof(double));
        bracket_t bw, be;
        ck_assert_int_eq(bracket_compute(&W, &W, beta, eps, NULL, &bw), AR_OK);
        ck_assert_int_eq(bracket_compute(&E, &E, beta, eps, NULL, &be), AR_OK);
        ck_assert_msg(overlap(&bw, &be) && bw.upper <= n,
                      "seed=%llu it=%d n=%zu N=%zu beta=%.17g eps=%.17g: weighted [%zu, %zu] vs expanded [%zu, %zu]",
                      (unsigned long long)test_seed(), it, n, N, beta, eps, bw.lower, bw.upper, be.lower, be.upper);
        pointset_clear(&W);
        pointset_clear(&E);
    }
}
END_TEST

/* THEORY 3.1: adding a common offset to every key adds beta q_i.o to row i
 * of the logits, a row constant: the matrices are equal, so the brackets
 * overlap.  Coordinates are multiples of 2^-20 in [-1, 1] so that k + o is
 * exact in double. */
START_TEST(test_offset_invariance)
{
    rng_t r;
    rng_init(&r, test_seed() + 603);
    for (int it = 0; it < 12; it++) {
        size_t d = 1 + rng_u64(&r) % 3, m = 2 + rng_u64(&r) % 30, n = 2 + rng_u64(&r) % 30;
        double beta = 30 * rng_uniform(&r), eps = 0.02 + 0.5 * rng_uniform(&r);
        pointset_t Q, K, K2;
        memset(&Q, 0, sizeof Q); memset(&K, 0, sizeof K); memset(&K2, 0, sizeof K2);
        ck_assert_int_eq(pointset_init(&Q, m, d), AR_OK);
        ck_assert_int_eq(pointset_init(&K, n, d), AR_OK);
        ck_assert_int_eq(pointset_init(&K2, n, d), AR_OK);
        double o[3];
        for (size_t c = 0; c < d; c++)
            o[c] = ldexp((double)((int64_t)(rng_u64(&r) % (1u << 21)) - (1 << 20)), -20);
        for (size_t i = 0; i < m * d; i++)
            Q.x[i] = ldexp((double)((int64_t)(rng_u64(&r) % (1u << 21)) - (1 << 20)), -20);
        for (size_t j = 0; j < n; j++)
            for (size_t c = 0; c < d; c++) {
                K.x[j * d + c] = ldexp((double)((int64_t)(rng_u64(&r) % (1u << 21)) - (1 << 20)), -20);
                K2.x[j * d + c] = K.x[j * d + c] + o[c];          /* exact */
            }
        bracket_t b1, b2;
        ck_assert_int_eq(bracket_compute(&Q, &K, beta, eps, NULL, &b1), AR_OK);
        ck_assert_int_eq(bracket_compute(&Q, &K2, beta, eps, NULL, &b2), AR_OK);
        ck_assert_msg(overlap(&b1, &b2) && b1.status == AR_CERT_CERTIFIED && b2.status == AR_CERT_CERTIFIED,
                      "seed=%llu it=%d m=%zu n=%zu d=%zu beta=%.17g eps=%.17g: [%zu, %zu] vs offset [%zu, %zu]",
                      (unsigned long long)test_seed(), it, m, n, d, beta, eps, b1.lower, b1.upper, b2.lower, b2.upper);
        pointset_clear(&Q); pointset_clear(&K); pointset_clear(&K2);
    }
}
END_TEST

START_TEST(test_bad_input)
{
    pointset_t P, R;
    memset(&P, 0, sizeof P);
    memset(&R, 0, sizeof R);
    ck_assert_int_eq(pointset_init(&P, 3, 2), AR_OK);
    ck_assert_int_eq(pointset_init(&R, 3, 3), AR_OK);
    P.x[0] = 1; P.x[3] = 1; P.x[4] = -1;
    R.x[0] = 1;
    bracket_t b;
    ck_assert_int_eq(bracket_compute(&P, &P, 1.0, 0.0, NULL, &b), AR_EINVAL);
    ck_assert_int_eq(bracket_compute(&P, &P, 1.0, 1.0, NULL, &b), AR_EINVAL);
    ck_assert_int_eq(bracket_compute(&P, &P, 1.0, NAN, NULL, &b), AR_EINVAL);
    ck_assert_int_eq(bracket_compute(&P, &P, -1.0, 0.1, NULL, &b), AR_EINVAL);
    ck_assert_int_eq(bracket_compute(&P, &P, INFINITY, 0.1, NULL, &b), AR_EINVAL);
    ck_assert_int_eq(bracket_compute(&P, &R, 1.0, 0.1, NULL, &b), AR_EINVAL);
    P.x[1] = NAN;
    ck_assert_int_eq(bracket_compute(&P, &P, 1.0, 0.1, NULL, &b), AR_EINVAL);
    pointset_clear(&P);
    pointset_clear(&R);
}
END_TEST

/* The streamed bracket (threshold forced to 1 byte) against the in-memory one on cross- and
 * self-attention above BRACKET_RSVD_MIN_N points: same lower end (the prefix covers every query
 * that the in-memory search probes), upper ends within 1% or 1 (different sketches: one power
 * iteration streamed, two held), and both certified. */
START_TEST(test_stream_matches_memory)
{
    test_rng_init(test_seed() + 41);
    for (int t = 0; t < 2; t++) {
        size_t m = 1100 + 50 * (size_t)t, n = 1030, d = 3;
        pointset_t Q = { 0 }, K = { 0 };
        ck_assert_int_eq(pointset_init(&Q, m, d), AR_OK);
        ck_assert_int_eq(pointset_init(&K, n, d), AR_OK);
        for (size_t i = 0; i < m * d; i++)
            Q.x[i] = 2 * test_unif() - 1;
        for (size_t i = 0; i < n * d; i++)
            K.x[i] = 2 * test_unif() - 1;
        const pointset_t *Kp = t ? &Q : &K;         /* t = 1: self-attention */
        bracket_opts_t o;
        bracket_opts_default(&o);
        bracket_t bm, bs;
        ck_assert_int_eq(bracket_compute(&Q, Kp, 6.0, 0.15, &o, &bm), AR_OK);
        o.stream_bytes = 1;
        ck_assert_int_eq(bracket_compute(&Q, Kp, 6.0, 0.15, &o, &bs), AR_OK);
        ck_assert_int_eq(bm.streamed, 0);
        ck_assert_int_eq(bs.streamed, 1);
        ck_assert_str_eq(ar_cert_status_name(bm.status), "certified");
        ck_assert_str_eq(ar_cert_status_name(bs.status), "certified");
        ck_assert_str_eq(ar_method_name(bs.up.method), "rsvd");
        ck_assert_uint_eq(bs.lower, bm.lower);
        size_t hi = bm.upper > bs.upper ? bm.upper : bs.upper, lo = bm.upper + bs.upper - hi;
        ck_assert_msg(hi <= lo + (lo / 100 > 1 ? lo / 100 : 1), "case %d: upper held %zu, streamed %zu", t, bm.upper,
                      bs.upper);
        ck_assert(bs.rsvd.passes >= 4);
        pointset_clear(&Q);
        pointset_clear(&K);
    }
}
END_TEST


/* Cross-attention in the 3-ball-like cube above BRACKET_RSVD_MIN_N points (the randomized factors
 * and the growth of the lower certificate over their pivoted-QR rows): the same bracket and
 * certificates with 1 and 2 BLAS threads, the certified numbers equal to rounding level (attnrank's
 * own two threads split the residual rows in a fixed way); the lower end is never above the
 * truncated SVD's upper end. */
START_TEST(test_dense_threads_and_svd)
{
    test_rng_init(test_seed() + 43);
    size_t m = 640, n = 610, d = 3;
    pointset_t Q = { 0 }, K = { 0 };
    ck_assert_int_eq(pointset_init(&Q, m, d), AR_OK);
    ck_assert_int_eq(pointset_init(&K, n, d), AR_OK);
    for (size_t i = 0; i < m * d; i++)
        Q.x[i] = 1.2 * test_unif() - 0.6;
    for (size_t i = 0; i < n * d; i++)
        K.x[i] = 1.2 * test_unif() - 0.6;
    int saved = blas_get_threads();
    bracket_t b1, b2, bs;
    blas_set_threads(1);
    ck_assert_int_eq(bracket_compute(&Q, &K, 20.0, 0.1, NULL, &b1), AR_OK);
    blas_set_threads(2);
    ck_assert_int_eq(bracket_compute(&Q, &K, 20.0, 0.1, NULL, &b2), AR_OK);
    blas_set_threads(saved);
    ck_assert_str_eq(ar_cert_status_name(b1.status), "certified");
    ck_assert_str_eq(ar_method_name(b1.up.method), "rsvd");
    ck_assert_uint_eq(b1.lower, b2.lower);
    ck_assert_uint_eq(b1.upper, b2.upper);
    ck_assert_int_eq(b1.lo.method, b2.lo.method);
    /* the certified numbers are the same bits: OpenBLAS 0.3.21's dgemm sums some shapes (n x l
     * products with K = n) differently with 1 and 2 threads (measured), so the products with A and
     * the residual chains run on attnrank's fixed threads with one BLAS thread each, and the rest of
     * the randomized search on one BLAS thread (amat.h, resid.h, cert_rsvd_search.c) */
    ck_assert_msg(b1.lo.invnorm == b2.lo.invnorm && b1.up.err == b2.up.err,
                  "threads 1 vs 2: invnorm %a vs %a, err %a vs %a", b1.lo.invnorm, b2.lo.invnorm, b1.up.err, b2.up.err);
    bracket_opts_t o;
    /* streamed alike (row blocks evaluated on every pass) */
    bracket_t s1, s2;
    bracket_opts_default(&o);
    o.stream_bytes = 1 << 20;
    blas_set_threads(1);
    ck_assert_int_eq(bracket_compute(&Q, &K, 20.0, 0.1, &o, &s1), AR_OK);
    blas_set_threads(2);
    ck_assert_int_eq(bracket_compute(&Q, &K, 20.0, 0.1, &o, &s2), AR_OK);
    blas_set_threads(saved);
    ck_assert(s1.streamed && s2.streamed);
    ck_assert_msg(s1.lower == s2.lower && s1.upper == s2.upper && s1.lo.invnorm == s2.lo.invnorm &&
                  s1.up.err == s2.up.err, "streamed, threads 1 vs 2: [%zu, %zu] %a %a vs [%zu, %zu] %a %a", s1.lower,
                  s1.upper, s1.lo.invnorm, s1.up.err, s2.lower, s2.upper, s2.lo.invnorm, s2.up.err);
    /* the full factorisations run on one BLAS thread at every size: the same bits too */
    pointset_t Qs = { 0 }, Ks = { 0 };
    ck_assert_int_eq(pointset_init(&Qs, 300, d), AR_OK);
    ck_assert_int_eq(pointset_init(&Ks, 280, d), AR_OK);
    memcpy(Qs.x, Q.x, 300 * d * sizeof *Qs.x);
    memcpy(Ks.x, K.x, 280 * d * sizeof *Ks.x);
    blas_set_threads(1);
    ck_assert_int_eq(bracket_compute(&Qs, &Ks, 20.0, 0.1, NULL, &s1), AR_OK);
    blas_set_threads(2);
    ck_assert_int_eq(bracket_compute(&Qs, &Ks, 20.0, 0.1, NULL, &s2), AR_OK);
    blas_set_threads(saved);
    ck_assert_str_eq(ar_method_name(s1.up.method), "svd");
    ck_assert_msg(s1.lower == s2.lower && s1.upper == s2.upper && s1.lo.invnorm == s2.lo.invnorm &&
                  s1.up.err == s2.up.err, "full SVD, threads 1 vs 2: [%zu, %zu] %a %a vs [%zu, %zu] %a %a", s1.lower,
                  s1.upper, s1.lo.invnorm, s1.up.err, s2.lower, s2.upper, s2.lo.invnorm, s2.up.err);
    pointset_clear(&Qs);
    pointset_clear(&Ks);
    bracket_opts_default(&o);
    o.use_svd = 1;
    o.use_rsvd = 0;
    blas_set_threads(1);
    ck_assert_int_eq(bracket_compute(&Q, &K, 20.0, 0.1, &o, &bs), AR_OK);
    blas_set_threads(2);
    bracket_t bs2;
    ck_assert_int_eq(bracket_compute(&Q, &K, 20.0, 0.1, &o, &bs2), AR_OK);
    blas_set_threads(saved);
    /* a full SVD above 500 rows (640 x 610): the same bits with 1 and 2 BLAS threads */
    ck_assert_msg(bs.lower == bs2.lower && bs.upper == bs2.upper && bs.up.err == bs2.up.err &&
                  bs.lo.invnorm == bs2.lo.invnorm, "full SVD 640 x 610, threads 1 vs 2: err %a vs %a",
                  bs.up.err, bs2.up.err);
    ck_assert_uint_le(b1.lower, bs.upper);
    /* the growth candidates differ (randomized vs SVD factors): compared without growth */
    bracket_t bn;
    o.no_grow = 1;
    ck_assert_int_eq(bracket_compute(&Q, &K, 20.0, 0.1, &o, &bn), AR_OK);
    ck_assert_uint_ge(b1.lower, bn.lower);
    printf("dense threads: [%zu, %zu] (svd-only bracket [%zu, %zu])\n", b1.lower, b1.upper, bs.lower, bs.upper);
    pointset_clear(&Q);
    pointset_clear(&K);
}
END_TEST

/* The memory rule: with ATTNRANK_STREAM_MIB unset, the image is streamed exactly when it does not
 * fit under ATTNRANK_MAX_ALLOC_GB; a bound below 8 m n forces streaming and the bracket equals the
 * in-memory one. */
/* lower_from_matrix: the lower end's row heuristics read the image, so an exact embedding
 * (Hadamard rotation, key offset, invisible query parts: the same Arb image bit for bit)
 * gets the same lower end.  The instance is claim R's r = 4 lower lattice at beta = 20,
 * where the query-coordinate heuristics gave 127 in d_h = 4 and 134 in d_h = 64
 * (proofs-notes/claim-R.md). */
START_TEST(test_lower_from_matrix_invariance)
{
    double beta = 20, h = 447.0 / 1024;     /* claim R's c_lower / sqrt(1 + beta), 2^-10 grid */
    pointset_t Q, K;
    ck_assert_int_eq(head_construction(&Q, &K, 4, beta, h), AR_OK);
    bracket_opts_t o;
    bracket_opts_default(&o);
    o.prec = 96;
    o.use_svd = o.use_symeig = o.use_pchol = 0;
    o.lower_from_matrix = 1;
    bracket_t b0;
    ck_assert_int_eq(bracket_compute(&Q, &K, beta, 0.1, &o, &b0), AR_OK);
    ck_assert_msg(b0.lower > 100 && b0.lo.method != AR_METHOD_TRIVIAL, "lower %zu (%s)", b0.lower,
                  ar_method_name(b0.lo.method));
    for (size_t dh = 16; dh <= 64; dh *= 4) {
        head_embed_t e = { .dh = dh, .key_offset = 2.0, .query_invisible = 1.0, .rotate = HEAD_ROT_HADAMARD,
                           .seed = 1 + dh, .dyadic = 1 };
        pointset_t Qe, Ke;
        ck_assert_int_eq(head_embed(&Q, &K, &e, &Qe, &Ke), AR_OK);
        bracket_t b;
        ck_assert_int_eq(bracket_compute(&Qe, &Ke, beta, 0.1, &o, &b), AR_OK);
        ck_assert_msg(b.lower == b0.lower && b.lo.method == b0.lo.method,
                      "d_h = %zu: lower %zu (%s) against %zu (%s) unembedded", dh, b.lower, ar_method_name(b.lo.method),
                      b0.lower, ar_method_name(b0.lo.method));
        pointset_clear(&Qe);
        pointset_clear(&Ke);
    }
    pointset_clear(&Q);
    pointset_clear(&K);
}
END_TEST

/* A lower end of min(m, n) decides the bracket: the trivial upper end is then exact, and no
 * factorisation runs unless one is forced (then it still runs and the bracket is the same). */
START_TEST(test_full_rank_decided)
{
    size_t n = 40;
    pointset_t P;
    ck_assert_int_eq(pointset_init(&P, n, 2), AR_OK);
    for (size_t i = 0; i < n; i++) {            /* the regular 40-gon at beta 2000: near identity */
        P.x[2 * i] = cos(2 * M_PI * (double)i / (double)n);
        P.x[2 * i + 1] = sin(2 * M_PI * (double)i / (double)n);
    }
    bracket_t b, f;
    ck_assert_int_eq(bracket_compute(&P, &P, 2000, 0.1, NULL, &b), AR_OK);
    ck_assert_uint_eq(b.lower, n);
    ck_assert_uint_eq(b.upper, n);
    ck_assert_str_eq(ar_cert_status_name(b.status), "certified");
    ck_assert_str_eq(ar_method_name(b.up.method), "trivial");
    ck_assert_msg(b.seconds_upper == 0, "an upper certificate ran (%g s)", b.seconds_upper);
    bracket_opts_t o;
    bracket_opts_default(&o);
    o.use_svd = 1;
    ck_assert_int_eq(bracket_compute(&P, &P, 2000, 0.1, &o, &f), AR_OK);
    ck_assert_uint_eq(f.lower, n);
    ck_assert_uint_eq(f.upper, n);
    ck_assert_msg(f.seconds_upper > 0, "the forced SVD did not run");
    pointset_clear(&P);
}
END_TEST

START_TEST(test_stream_memory_rule)
{
    test_rng_init(test_seed() + 47);
    size_t m = 1200, n = 300, d = 3;
    pointset_t Q = { 0 }, K = { 0 };
    ck_assert_int_eq(pointset_init(&Q, m, d), AR_OK);
    ck_assert_int_eq(pointset_init(&K, n, d), AR_OK);
    for (size_t i = 0; i < m * d; i++)
        Q.x[i] = 2 * test_unif() - 1;
    for (size_t i = 0; i < n * d; i++)
        K.x[i] = 2 * test_unif() - 1;
    bracket_t bm, bs;
    ck_assert_int_eq(bracket_compute(&Q, &K, 6.0, 0.15, NULL, &bm), AR_OK);
    ar_config_t cfg;
    ar_config_default(&cfg);
    cfg.max_alloc_bytes = (size_t)(0.0025 * 1073741824.0);   /* 2.68 MB < 8 m n = 2.88 MB */
    ar_config_install(&cfg);
    ar_status st = bracket_compute(&Q, &K, 6.0, 0.15, NULL, &bs);
    ar_config_install(NULL);
    ck_assert_msg(st == AR_OK, "streamed under the small bound: %s", ar_error_get());
    ck_assert_int_eq(bm.streamed, 0);
    ck_assert_int_eq(bs.streamed, 1);
    ck_assert_str_eq(ar_cert_status_name(bm.status), "certified");
    ck_assert_uint_eq(bs.upper, bm.upper);
    ck_assert_uint_eq(bs.lower, bm.lower);
    pointset_clear(&Q);
    pointset_clear(&K);
}
END_TEST


/* The lazily ordered block certificate is the one on the whole farthest-point order (and on the
 * outer half's), on instances whose certified prefix is short (cube, cross-attention) and beyond
 * the first prefix of 256 rows (the sphere at beta 400: near the identity, the quadrupling path;
 * equal norms, so no outer half). */
START_TEST(test_blocks_fps_lazy_order)
{
    struct { size_t m, n; double beta, eps; int sphere; } cs[] = { { 700, 500, 20, 0.1, 0 },
                                                                   { 600, 600, 400, 0.1, 1 },
                                                                   { 1200, 900, 90, 0.05, 0 } };
    rng_t r;
    rng_init(&r, test_seed() + 77);
    for (size_t t = 0; t < sizeof cs / sizeof cs[0]; t++) {
        size_t m = cs[t].m, n = cs[t].n;
        pointset_t Q, K;
        ck_assert_int_eq(pointset_init(&Q, m, 3), AR_OK);
        ck_assert_int_eq(pointset_init(&K, n, 3), AR_OK);
        for (size_t i = 0; i < 3 * m; i++)
            Q.x[i] = cs[t].sphere ? rng_normal(&r) : 2 * rng_uniform(&r) - 1;
        for (size_t i = 0; cs[t].sphere && i < m; i++) {
            double s = sqrt(Q.x[3 * i] * Q.x[3 * i] + Q.x[3 * i + 1] * Q.x[3 * i + 1] + Q.x[3 * i + 2] * Q.x[3 * i + 2]);
            for (size_t c = 0; c < 3; c++)
                Q.x[3 * i + c] /= s;
        }
        for (size_t i = 0; i < 3 * n; i++)
            K.x[i] = cs[t].sphere ? Q.x[i] : 2 * rng_uniform(&r) - 1;
        smx_t A;
        ck_assert_int_eq(smx_compute_dbl(&A, Q.x, m, K.x, n, 3, NULL, cs[t].beta, 0), AR_OK);
        size_t *order = malloc(m * sizeof *order), *full = malloc(m * sizeof *full);
        for (int outer = 0; outer <= 1; outer++) {
            lower_cert_t lazy, ref;
            ck_assert_int_eq(bracket_blocks_fps(&A, &Q, outer, cs[t].eps, (size_t)-1, order, &lazy), AR_OK);
            size_t len = m;
            if (outer) {
                len = bracket_outer_order(&Q, full, m);
                ck_assert_uint_eq(len, cs[t].sphere ? 0 : m / 2);     /* the cube's norms spread */
                if (len == 0) {
                    ck_assert_uint_eq(lazy.rank, 0);
                    continue;
                }
            } else {
                ck_assert_int_eq(fps_order(Q.x, m, 3, 0, full, NULL), AR_OK);
            }
            ck_assert_int_eq(lower_blocks_cap(&A, full, len, cs[t].eps, (size_t)-1, &ref), AR_OK);
            ck_assert_msg(lazy.rank == ref.rank && lazy.method == ref.method &&
                          lazy.invnorm == ref.invnorm,
                          "case %zu outer %d: lazy order certifies %zu (%s, %.17g), the whole order %zu (%s, %.17g)",
                          t, outer, lazy.rank, ar_method_name(lazy.method), lazy.invnorm, ref.rank,
                          ar_method_name(ref.method), ref.invnorm);
            if (cs[t].sphere)
                ck_assert_uint_gt(ref.rank, 256);   /* the quadrupling path was taken */
        }
        free(order);
        free(full);
        smx_clear(&A);
        pointset_clear(&Q);
        pointset_clear(&K);
    }
}
END_TEST

Suite *suite_bracket(void)
{
    Suite *s = suite_create("bracket");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_exact_two_points);
    tcase_add_test(tc, test_exact_three_four_points);
    tcase_add_test(tc, test_random_consistent);
    tcase_add_test(tc, test_multiplicity_overlap);
    tcase_add_test(tc, test_offset_invariance);
    tcase_add_test(tc, test_bad_input);
    tcase_add_test(tc, test_stream_matches_memory);
    tcase_add_test(tc, test_dense_threads_and_svd);
    tcase_add_test(tc, test_stream_memory_rule);
    tcase_add_test(tc, test_lower_from_matrix_invariance);
    tcase_add_test(tc, test_full_rank_decided);
    tcase_add_test(tc, test_blocks_fps_lazy_order);
    suite_add_tcase(s, tc);
    return s;
}
