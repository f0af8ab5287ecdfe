/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_softmax.c -- the rigorous softmax enclosure (numerics/softmax.h).
 *
 * Truth: an independent MPFR evaluation at 400 bits written the plain way
 * (no shift, no symmetric kernel): A_ij = w_j exp(beta q_i.k_j) / sum_l (...).
 * With |logits| < 2^30 every MPFR quantity has relative error below 2^-360,
 * so the truth is known to within n 2^-360 per row: that slack (and nothing
 * else) is added to the enclosure checks.  Comparisons between two double
 * images are done exactly in MPFR (1200 bits hold any sum of doubles in
 * [-2, 2]). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include <flint/flint.h>
#include <flint/fmpz.h>
#include <flint/fmpz_vec.h>
#include "numerics/softmax.h"
#include "testutil.h"

#define TRUTH_PREC 400
#define EXACT_PREC 1200

static double rnd_unit(flint_rand_t st) /* uniform in [0,1) */
{
    return (double)(n_randlimb(st) >> 11) * 0x1p-53;
}

static double rnd_range(flint_rand_t st, double lo, double hi)
{
    return lo + (hi - lo) * rnd_unit(st);
}

/* Random multiplicity: 1, small, or up to 60+ decimal digits. */
static void rnd_weight(fmpz_t w, flint_rand_t st)
{
    switch (n_randint(st, 4)) {
    case 0:
        fmpz_one(w);
        break;
    case 1:
        fmpz_set_ui(w, 1 + n_randint(st, 1000));
        break;
    default:
        fmpz_randbits(w, st, 1 + n_randint(st, 220)); /* 2^220 ~ 1.7e66 */
        fmpz_abs(w, w);
        fmpz_add_ui(w, w, 1);
        break;
    }
}

/* T[j] = truth of row i (m rows implied by q). */
static void truth_row(mpfr_t *T, const double *qi, const double *k, size_t n, size_t d,
                      const fmpz *w, double beta)
{
    mpfr_t z, t, p;
    mpz_t wz;
    mpfr_inits2(TRUTH_PREC, z, t, p, (mpfr_ptr)0);
    mpz_init(wz);
    mpfr_set_zero(z, 1);
    for (size_t j = 0; j < n; j++) {
        mpfr_set_zero(t, 1);
        for (size_t c = 0; c < d; c++) {
            mpfr_set_d(p, qi[c], MPFR_RNDN);
            mpfr_mul_d(p, p, k[j * d + c], MPFR_RNDN);
            mpfr_add(t, t, p, MPFR_RNDN);
        }
        mpfr_mul_d(t, t, beta, MPFR_RNDN);
        mpfr_exp(T[j], t, MPFR_RNDN);
        if (w) {
            fmpz_get_mpz(wz, w + j);
            mpfr_mul_z(T[j], T[j], wz, MPFR_RNDN);
        }
        mpfr_add(z, z, T[j], MPFR_RNDN);
    }
    for (size_t j = 0; j < n; j++)
        mpfr_div(T[j], T[j], z, MPFR_RNDN);
    mpfr_clears(z, t, p, (mpfr_ptr)0);
    mpz_clear(wz);
}

/* Is sum_j |x_ij - y_ij| <= e1 + e2 (exactly)? */
static int row_l1_le(const double *x, const double *y, size_t m, size_t n, size_t i, double e1,
                     double e2, double *got)
{
    mpfr_t s, t;
    mpfr_inits2(EXACT_PREC, s, t, (mpfr_ptr)0);
    mpfr_set_zero(s, 1);
    for (size_t j = 0; j < n; j++) {
        mpfr_set_d(t, x[i + j * m], MPFR_RNDN);
        mpfr_sub_d(t, t, y[i + j * m], MPFR_RNDN);
        mpfr_abs(t, t, MPFR_RNDN);
        mpfr_add(s, s, t, MPFR_RNDN);
    }
    *got = mpfr_get_d(s, MPFR_RNDU);
    mpfr_set_d(t, e1, MPFR_RNDN);
    mpfr_add_d(t, t, e2, MPFR_RNDN);
    int ok = mpfr_lessequal_p(s, t);
    mpfr_clears(s, t, (mpfr_ptr)0);
    return ok;
}

/* Compute the enclosure and compare every row with the MPFR truth:
 * sum_j |truth_ij - a_ij| <= rowerr_i (+ the truth's own error n 2^-360,
 * valid for |logits| < 2^30), rowerr tiny, lognorm close, maxerr consistent. */
static void check_truth(const double *qq, size_t m, const double *k, size_t n, size_t d,
                        const fmpz *w, double beta, long prec, int nthreads, const char *label,
                        uint64_t seed, int iter)
{
    int sym = (qq == k);
    smx_t A;
    ar_status rc = smx_compute(&A, qq, m, k, n, d, w, beta, prec, nthreads);
    ck_assert_msg(rc == AR_OK, "%s seed=%llu iter=%d: status %d (%s)", label, (unsigned long long)seed,
                  iter, (int)rc, ar_error_get());
    mpfr_t *T = malloc(n * sizeof(mpfr_t));
    mpfr_t s, t, slack;
    for (size_t j = 0; j < n; j++)
        mpfr_init2(T[j], TRUTH_PREC);
    mpfr_inits2(TRUTH_PREC, s, t, slack, (mpfr_ptr)0);
    for (size_t i = 0; i < m; i++) {
        truth_row(T, qq + i * d, k, n, d, w, beta);
        mpfr_set_zero(s, 1);
        mpfr_set_zero(t, 1);
        for (size_t j = 0; j < n; j++) {
            mpfr_sub_d(t, T[j], A.a[i + j * m], MPFR_RNDU);
            mpfr_abs(t, t, MPFR_RNDU);
            mpfr_add(s, s, t, MPFR_RNDU);
        }
        mpfr_set_d(slack, A.rowerr[i], MPFR_RNDN);
        mpfr_add_d(t, slack, (double)n * 0x1p-360, MPFR_RNDU);
        ck_assert_msg(mpfr_lessequal_p(s, t),
                      "%s seed=%llu iter=%d m=%zu n=%zu d=%zu beta=%.17g prec=%ld sym=%d row %zu: "
                      "sum|truth-a|=%.6g > rowerr=%.6g",
                      label, (unsigned long long)seed, iter, m, n, d, beta, prec, sym, i,
                      mpfr_get_d(s, MPFR_RNDU), A.rowerr[i]);
        ck_assert_msg(A.rowerr[i] < 1e-13,
                      "%s seed=%llu iter=%d m=%zu n=%zu d=%zu beta=%.17g prec=%ld sym=%d row %zu: "
                      "rowerr=%.6g not tiny",
                      label, (unsigned long long)seed, iter, m, n, d, beta, prec, sym, i, A.rowerr[i]);
        /* lognorm ~ log sum_l w_l exp(beta q_i.k_l), recomputed here */
        mpfr_set_zero(s, 1);
        for (size_t j = 0; j < n; j++) {
            mpfr_set_zero(t, 1);
            for (size_t c = 0; c < d; c++) {
                mpfr_set_d(slack, qq[i * d + c], MPFR_RNDN);
                mpfr_mul_d(slack, slack, k[j * d + c], MPFR_RNDN);
                mpfr_add(t, t, slack, MPFR_RNDN);
            }
            mpfr_mul_d(t, t, beta, MPFR_RNDN);
            mpfr_exp(t, t, MPFR_RNDN);
            if (w) {
                mpz_t wz;
                mpz_init(wz);
                fmpz_get_mpz(wz, w + j);
                mpfr_mul_z(t, t, wz, MPFR_RNDN);
                mpz_clear(wz);
            }
            mpfr_add(s, s, t, MPFR_RNDN);
        }
        mpfr_log(s, s, MPFR_RNDN);
        double ln = mpfr_get_d(s, MPFR_RNDN);
        ck_assert_msg(fabs(A.lognorm[i] - ln) <= 1e-9 * fmax(1.0, fabs(ln)),
                      "%s seed=%llu iter=%d sym=%d row %zu: lognorm %.17g vs %.17g",
                      label, (unsigned long long)seed, iter, sym, i, A.lognorm[i], ln);
    }
    ck_assert_msg(A.m == m && A.n == n && A.prec == (prec ? prec : 96),
                  "seed=%llu iter=%d: header fields", (unsigned long long)seed, iter);
    double mx = 0;
    for (size_t i = 0; i < m; i++)
        mx = fmax(mx, A.rowerr[i]);
    ck_assert_msg(A.maxerr == mx, "seed=%llu iter=%d: maxerr %g != max rowerr %g",
                  (unsigned long long)seed, iter, A.maxerr, mx);
    for (size_t j = 0; j < n; j++)
        mpfr_clear(T[j]);
    mpfr_clears(s, t, slack, (mpfr_ptr)0);
    free(T);
    smx_clear(&A);
}

/* (a) the enclosure contains the truth; rowerr is tiny; lognorm approximates. */
START_TEST(test_softmax_contains_truth)
{
    uint64_t seed = test_seed();
    flint_rand_t st;
    flint_randinit(st);
    flint_randseed(st, seed * 1000003u + 11u, 0x9e3779b97f4a7c15u);
    for (int iter = 0; iter < 250; iter++) {
        int sym = n_randint(st, 3) == 0;
        size_t n = 1 + n_randint(st, 12), d = 1 + n_randint(st, 4);
        size_t m = sym ? n : 1 + n_randint(st, 12);
        double scale = n_randint(st, 2) ? 1.0 : 3.0;
        double beta = n_randint(st, 8) == 0 ? 0.0 : rnd_range(st, 0, 200);
        if (iter % 25 == 24)
            beta = rnd_range(st, 1000, 10000);
        long prec = (long[]){0, 53, 64, 96, 128, 200}[n_randint(st, 6)];
        int nthreads = (int)n_randint(st, 4);
        double *q = malloc(m * d * sizeof(double)), *k = malloc(n * d * sizeof(double));
        fmpz *w = n_randint(st, 4) == 0 ? NULL : _fmpz_vec_init((slong)n);
        for (size_t t = 0; t < n * d; t++)
            k[t] = rnd_range(st, -scale, scale);
        for (size_t t = 0; t < m * d; t++)
            q[t] = rnd_range(st, -scale, scale);
        if (w)
            for (size_t j = 0; j < n; j++)
                rnd_weight(w + j, st);
        const double *qq = sym ? k : q;

        check_truth(qq, m, k, n, d, w, beta, prec, nthreads, "random", seed, iter);
        free(q);
        free(k);
        if (w)
            _fmpz_vec_clear(w, (slong)n);
    }
    flint_randclear(st);
}
END_TEST

/* (a') hand-picked extreme inputs: huge coordinates with tiny beta, huge beta
 * (near one-hot rows), 1000-digit multiplicities next to 1, all paths. */
START_TEST(test_softmax_extreme_inputs)
{
    uint64_t seed = test_seed();
    flint_rand_t st;
    flint_randinit(st);
    flint_randseed(st, seed * 8191u + 19u, 2718u);
    for (int iter = 0; iter < 48; iter++) {
        int kind = iter % 4, sym = (iter / 4) % 2;
        size_t n = 2 + n_randint(st, 9), d = 1 + n_randint(st, 3);
        size_t m = sym ? n : 1 + n_randint(st, 9);
        double scale = 1.0, beta = 1.0;
        if (kind == 0) { /* coordinates ~1e150, logits O(10) */
            scale = 1e150;
            beta = 1e-299;
        } else if (kind == 1) { /* huge beta */
            beta = rnd_range(st, 1e5, 1e6);
        } else if (kind == 2) { /* tiny coordinates, moderate beta: nearly uniform rows */
            scale = 1e-150;
            beta = 1e3;
        } else { /* moderate beta, giant multiplicities */
            beta = rnd_range(st, 10, 300);
        }
        double *q = malloc(m * d * sizeof(double)), *k = malloc(n * d * sizeof(double));
        for (size_t t = 0; t < n * d; t++)
            k[t] = rnd_range(st, -scale, scale);
        for (size_t t = 0; t < m * d; t++)
            q[t] = rnd_range(st, -scale, scale);
        fmpz *w = _fmpz_vec_init((slong)n);
        for (size_t j = 0; j < n; j++) {
            if (kind == 3 && n_randint(st, 2)) {
                fmpz_set_ui(w + j, 10);
                fmpz_pow_ui(w + j, w + j, 1000 + n_randint(st, 3));
                fmpz_add_ui(w + j, w + j, n_randint(st, 1000));
            } else {
                rnd_weight(w + j, st);
            }
        }
        check_truth(sym ? k : q, m, k, n, d, w, beta, 0, 2, "extreme", seed, iter);
        free(q);
        free(k);
        _fmpz_vec_clear(w, (slong)n);
    }
    flint_randclear(st);
}
END_TEST

/* (b) every row of the image sums to 1 within rowerr (sum computed exactly). */
START_TEST(test_softmax_rows_sum_to_one)
{
    uint64_t seed = test_seed();
    flint_rand_t st;
    flint_randinit(st);
    flint_randseed(st, seed * 7919u + 3u, 12345u);
    for (int iter = 0; iter < 200; iter++) {
        int sym = n_randint(st, 2);
        size_t n = 1 + n_randint(st, 40), d = 1 + n_randint(st, 5);
        size_t m = sym ? n : 1 + n_randint(st, 40);
        double beta = rnd_range(st, 0, 500);
        double *q = malloc(m * d * sizeof(double)), *k = malloc(n * d * sizeof(double));
        fmpz *w = _fmpz_vec_init((slong)n);
        for (size_t t = 0; t < n * d; t++)
            k[t] = rnd_range(st, -1.5, 1.5);
        for (size_t t = 0; t < m * d; t++)
            q[t] = rnd_range(st, -1.5, 1.5);
        for (size_t j = 0; j < n; j++)
            rnd_weight(w + j, st);
        smx_t A;
        ar_status rc = smx_compute(&A, sym ? k : q, m, k, n, d, w, beta, 0, 2);
        ck_assert_msg(rc == AR_OK, "seed=%llu iter=%d: %s", (unsigned long long)seed, iter,
                      ar_error_get());
        mpfr_t s, e;
        mpfr_inits2(EXACT_PREC, s, e, (mpfr_ptr)0);
        for (size_t i = 0; i < m; i++) {
            mpfr_set_si(s, -1, MPFR_RNDN);
            for (size_t j = 0; j < n; j++)
                mpfr_add_d(s, s, A.a[i + j * m], MPFR_RNDN); /* exact */
            mpfr_abs(s, s, MPFR_RNDN);
            mpfr_set_d(e, A.rowerr[i], MPFR_RNDN);
            ck_assert_msg(mpfr_lessequal_p(s, e),
                          "seed=%llu iter=%d m=%zu n=%zu d=%zu beta=%.17g sym=%d row %zu: "
                          "|sum a - 1| = %.6g > rowerr %.6g",
                          (unsigned long long)seed, iter, m, n, d, beta, sym, i,
                          mpfr_get_d(s, MPFR_RNDU), A.rowerr[i]);
        }
        mpfr_clears(s, e, (mpfr_ptr)0);
        smx_clear(&A);
        free(q);
        free(k);
        _fmpz_vec_clear(w, (slong)n);
    }
    flint_randclear(st);
}
END_TEST

/* Small dyadic coordinate j/32, |j| <= 64, so that sums stay exact. */
static double rnd_dyadic(flint_rand_t st)
{
    return ((double)n_randint(st, 129) - 64.0) / 32.0;
}

/* (c) THEORY 3.1: a common key offset and query components orthogonal to all
 * key differences are invisible. */
START_TEST(test_softmax_row_shift_invariance)
{
    uint64_t seed = test_seed();
    flint_rand_t st;
    flint_randinit(st);
    flint_randseed(st, seed * 31337u + 5u, 777u);
    for (int iter = 0; iter < 200; iter++) {
        size_t n = 1 + n_randint(st, 15), m = 1 + n_randint(st, 15), d = 2 + n_randint(st, 4);
        double beta = rnd_range(st, 0, 200);
        double *q = malloc(m * d * sizeof(double)), *q2 = malloc(m * d * sizeof(double));
        double *k = malloc(n * d * sizeof(double)), *k2 = malloc(n * d * sizeof(double));
        double *off = malloc(d * sizeof(double));
        fmpz *w = n_randint(st, 2) ? NULL : _fmpz_vec_init((slong)n);
        if (w)
            for (size_t j = 0; j < n; j++)
                rnd_weight(w + j, st);
        for (size_t c = 0; c < d; c++)
            off[c] = rnd_dyadic(st);
        for (size_t t = 0; t < m * d; t++)
            q[t] = rnd_dyadic(st);
        for (size_t t = 0; t < n * d; t++) {
            k[t] = rnd_dyadic(st);
            k2[t] = k[t] + off[t % d]; /* exact */
        }
        smx_t A, B;
        ck_assert(smx_compute(&A, q, m, k, n, d, w, beta, 0, 2) == AR_OK);
        ck_assert(smx_compute(&B, q, m, k2, n, d, w, beta, 0, 1) == AR_OK);
        for (size_t i = 0; i < m; i++) {
            double got;
            ck_assert_msg(row_l1_le(A.a, B.a, m, n, i, A.rowerr[i], B.rowerr[i], &got),
                          "seed=%llu iter=%d m=%zu n=%zu d=%zu beta=%.17g row %zu: key offset "
                          "changed the row by %.6g > %.6g + %.6g",
                          (unsigned long long)seed, iter, m, n, d, beta, i, got, A.rowerr[i],
                          B.rowerr[i]);
        }
        smx_clear(&B);
        /* keys sharing the last coordinate: query's last coordinate is invisible */
        double tlast = rnd_dyadic(st);
        for (size_t j = 0; j < n; j++)
            k2[j * d + d - 1] = tlast;
        memcpy(q2, q, m * d * sizeof(double));
        for (size_t i = 0; i < m; i++)
            q2[i * d + d - 1] = rnd_dyadic(st);
        smx_clear(&A);
        ck_assert(smx_compute(&A, q, m, k2, n, d, w, beta, 0, 2) == AR_OK);
        ck_assert(smx_compute(&B, q2, m, k2, n, d, w, beta, 0, 2) == AR_OK);
        for (size_t i = 0; i < m; i++) {
            double got;
            ck_assert_msg(row_l1_le(A.a, B.a, m, n, i, A.rowerr[i], B.rowerr[i], &got),
                          "seed=%llu iter=%d m=%zu n=%zu d=%zu beta=%.17g row %zu: invisible query "
                          "component changed the row by %.6g",
                          (unsigned long long)seed, iter, m, n, d, beta, i, got);
        }
        smx_clear(&A);
        smx_clear(&B);
        free(q);
        free(q2);
        free(k);
        free(k2);
        free(off);
        if (w)
            _fmpz_vec_clear(w, (slong)n);
    }
    flint_randclear(st);
}
END_TEST

/* (d) THEORY 3.2 at matrix level: multiplicity w_j equals w_j repeated keys;
 * the compressed column is the sum of the expanded columns. */
START_TEST(test_softmax_multiplicity_expansion)
{
    uint64_t seed = test_seed();
    flint_rand_t st;
    flint_randinit(st);
    flint_randseed(st, seed * 65537u + 17u, 4242u);
    for (int iter = 0; iter < 150; iter++) {
        size_t n = 1 + n_randint(st, 10), m = 1 + n_randint(st, 10), d = 1 + n_randint(st, 4);
        double beta = rnd_range(st, 0, 100);
        double *q = malloc(m * d * sizeof(double)), *k = malloc(n * d * sizeof(double));
        fmpz *w = _fmpz_vec_init((slong)n);
        size_t ne = 0;
        for (size_t j = 0; j < n; j++) {
            fmpz_set_ui(w + j, 1 + n_randint(st, 5));
            ne += fmpz_get_ui(w + j);
        }
        for (size_t t = 0; t < m * d; t++)
            q[t] = rnd_range(st, -1, 1);
        for (size_t t = 0; t < n * d; t++)
            k[t] = rnd_range(st, -1, 1);
        double *ke = malloc(ne * d * sizeof(double));
        size_t *grp = malloc(ne * sizeof(size_t));
        size_t p = 0;
        for (size_t j = 0; j < n; j++)
            for (ulong r = 0; r < fmpz_get_ui(w + j); r++, p++) {
                memcpy(ke + p * d, k + j * d, d * sizeof(double));
                grp[p] = j;
            }
        smx_t A, B;
        ck_assert(smx_compute(&A, q, m, k, n, d, w, beta, 0, 2) == AR_OK);
        ck_assert(smx_compute(&B, q, m, ke, ne, d, NULL, beta, 0, 2) == AR_OK);
        mpfr_t *S = malloc(n * sizeof(mpfr_t));
        mpfr_t s, t;
        for (size_t j = 0; j < n; j++)
            mpfr_init2(S[j], EXACT_PREC);
        mpfr_inits2(EXACT_PREC, s, t, (mpfr_ptr)0);
        for (size_t i = 0; i < m; i++) {
            for (size_t j = 0; j < n; j++)
                mpfr_set_zero(S[j], 1);
            for (size_t c = 0; c < ne; c++)
                mpfr_add_d(S[grp[c]], S[grp[c]], B.a[i + c * m], MPFR_RNDN); /* exact */
            mpfr_set_zero(s, 1);
            for (size_t j = 0; j < n; j++) {
                mpfr_sub_d(t, S[j], A.a[i + j * m], MPFR_RNDN);
                mpfr_abs(t, t, MPFR_RNDN);
                mpfr_add(s, s, t, MPFR_RNDN);
            }
            mpfr_set_d(t, A.rowerr[i], MPFR_RNDN);
            mpfr_add_d(t, t, B.rowerr[i], MPFR_RNDN);
            ck_assert_msg(mpfr_lessequal_p(s, t),
                          "seed=%llu iter=%d m=%zu n=%zu ne=%zu d=%zu beta=%.17g row %zu: "
                          "compressed vs expanded differ by %.6g > %.6g",
                          (unsigned long long)seed, iter, m, n, ne, d, beta, i,
                          mpfr_get_d(s, MPFR_RNDU), mpfr_get_d(t, MPFR_RNDU));
        }
        for (size_t j = 0; j < n; j++)
            mpfr_clear(S[j]);
        mpfr_clears(s, t, (mpfr_ptr)0);
        free(S);
        smx_clear(&A);
        smx_clear(&B);
        free(q);
        free(k);
        free(ke);
        free(grp);
        _fmpz_vec_clear(w, (slong)n);
    }
    flint_randclear(st);
}
END_TEST

/* (e) symmetric path (q == k) agrees with the general path (a copy of the
 * points); the thread count does not change a single bit. */
START_TEST(test_softmax_symmetric_and_threads)
{
    uint64_t seed = test_seed();
    flint_rand_t st;
    flint_randinit(st);
    flint_randseed(st, seed * 104729u + 23u, 99u);
    for (int iter = 0; iter < 60; iter++) {
        size_t n = 1 + n_randint(st, 70), d = 1 + n_randint(st, 4);
        double beta = iter % 10 == 9 ? rnd_range(st, 1e3, 1e5) : rnd_range(st, 0, 300);
        double *x = malloc(n * d * sizeof(double)), *y = malloc(n * d * sizeof(double));
        fmpz *w = n_randint(st, 2) ? NULL : _fmpz_vec_init((slong)n);
        for (size_t t = 0; t < n * d; t++)
            x[t] = rnd_range(st, -1, 1);
        memcpy(y, x, n * d * sizeof(double));
        if (w)
            for (size_t j = 0; j < n; j++)
                rnd_weight(w + j, st);
        smx_t S, G, S3;
        ck_assert(smx_compute(&S, x, n, x, n, d, w, beta, 0, 1) == AR_OK);
        ck_assert(smx_compute(&G, y, n, x, n, d, w, beta, 0, 2) == AR_OK);
        ck_assert(smx_compute(&S3, x, n, x, n, d, w, beta, 0, 3) == AR_OK);
        for (size_t i = 0; i < n; i++) {
            double got;
            ck_assert_msg(row_l1_le(S.a, G.a, n, n, i, S.rowerr[i], G.rowerr[i], &got),
                          "seed=%llu iter=%d n=%zu d=%zu beta=%.17g row %zu: symmetric vs general "
                          "differ by %.6g > %.6g + %.6g",
                          (unsigned long long)seed, iter, n, d, beta, i, got, S.rowerr[i],
                          G.rowerr[i]);
            ck_assert_msg(S.rowerr[i] < 1e-13 && G.rowerr[i] < 1e-13,
                          "seed=%llu iter=%d n=%zu beta=%.17g row %zu: rowerr %.3g / %.3g",
                          (unsigned long long)seed, iter, n, beta, i, S.rowerr[i], G.rowerr[i]);
            ck_assert_msg(fabs(S.lognorm[i] - G.lognorm[i]) <= 1e-9 * fmax(1, fabs(G.lognorm[i])),
                          "seed=%llu iter=%d row %zu: lognorm %.17g vs %.17g",
                          (unsigned long long)seed, iter, i, S.lognorm[i], G.lognorm[i]);
        }
        ck_assert_msg(memcmp(S.a, S3.a, n * n * sizeof(double)) == 0 &&
                          memcmp(S.rowerr, S3.rowerr, n * sizeof(double)) == 0,
                      "seed=%llu iter=%d n=%zu: 1 vs 3 threads differ", (unsigned long long)seed,
                      iter, n);
        smx_clear(&S3);
        ck_assert(smx_compute(&S3, y, n, x, n, d, w, beta, 0, 1) == AR_OK);
        ck_assert_msg(memcmp(G.a, S3.a, n * n * sizeof(double)) == 0 &&
                          memcmp(G.rowerr, S3.rowerr, n * sizeof(double)) == 0,
                      "seed=%llu iter=%d n=%zu: general path, 1 vs 2 threads differ",
                      (unsigned long long)seed, iter, n);
        smx_clear(&S);
        smx_clear(&G);
        smx_clear(&S3);
        free(x);
        free(y);
        if (w)
            _fmpz_vec_clear(w, (slong)n);
    }
    flint_randclear(st);
}
END_TEST

/* (f) invalid input is refused with AR_EINVAL and a one-line message. */
START_TEST(test_softmax_bad_input)
{
    double q[6] = {0.5, -1, 2, 0.25, 1, 1};
    double k[6] = {1, 0, 0, 1, -1, 0.5};
    fmpz w[3];
    for (int j = 0; j < 3; j++)
        fmpz_init_set_ui(w + j, 2);
    smx_t A;
    struct {
        const char *what;
        double qv, beta;
        long wv;
        size_t m, n, d;
        long prec;
        int nthreads;
    } cases[] = {
        {"NaN coordinate", NAN, 1.0, 2, 2, 3, 2, 0, 0},
        {"infinite coordinate", INFINITY, 1.0, 2, 2, 3, 2, 0, 0},
        {"negative beta", 0.5, -1.0, 2, 2, 3, 2, 0, 0},
        {"NaN beta", 0.5, NAN, 2, 2, 3, 2, 0, 0},
        {"infinite beta", 0.5, INFINITY, 2, 2, 3, 2, 0, 0},
        {"zero weight", 0.5, 1.0, 0, 2, 3, 2, 0, 0},
        {"negative weight", 0.5, 1.0, -3, 2, 3, 2, 0, 0},
        {"m = 0", 0.5, 1.0, 2, 0, 3, 2, 0, 0},
        {"n = 0", 0.5, 1.0, 2, 2, 0, 2, 0, 0},
        {"d = 0", 0.5, 1.0, 2, 2, 3, 0, 0, 0},
        {"precision 20", 0.5, 1.0, 2, 2, 3, 2, 20, 0},
        {"negative threads", 0.5, 1.0, 2, 2, 3, 2, 0, -1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        q[1] = cases[c].qv;
        fmpz_set_si(w + 1, cases[c].wv);
        ar_error_set("%s", "");
        ar_status rc = smx_compute(&A, q, cases[c].m, k, cases[c].n, cases[c].d, w,
                                   cases[c].beta, cases[c].prec, cases[c].nthreads);
        const char *msg = ar_error_get();
        ck_assert_msg(rc == AR_EINVAL, "%s: status %d, expected AR_EINVAL", cases[c].what, (int)rc);
        ck_assert_msg(msg[0] != '\0' && strchr(msg, '\n') == NULL, "%s: message '%s'",
                      cases[c].what, msg);
        ck_assert_msg(A.a == NULL && A.rowerr == NULL, "%s: arrays left allocated",
                      cases[c].what);
        smx_clear(&A);
    }
    /* the valid version of the same input works */
    q[1] = -1;
    fmpz_set_ui(w + 1, 2);
    ck_assert_msg(smx_compute(&A, q, 2, k, 3, 2, w, 1.0, 0, 0) == AR_OK, "valid input refused: %s",
                  ar_error_get());
    smx_clear(&A);
    smx_clear(&A); /* idempotent */
    for (int j = 0; j < 3; j++)
        fmpz_clear(w + j);
}
END_TEST

Suite *suite_softmax(void)
{
    Suite *s = suite_create("softmax");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_softmax_contains_truth);
    tcase_add_test(tc, test_softmax_extreme_inputs);
    tcase_add_test(tc, test_softmax_rows_sum_to_one);
    tcase_add_test(tc, test_softmax_row_shift_invariance);
    tcase_add_test(tc, test_softmax_multiplicity_expansion);
    tcase_add_test(tc, test_softmax_symmetric_and_threads);
    tcase_add_test(tc, test_softmax_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
