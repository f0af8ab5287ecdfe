/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_rsvd_search.c -- the certified search over the ranks of randomized factors
 * (theory/certificates/cert_rsvd_search.c): the certified errors of several ranks in one pass
 * bound the true residual (checked in MPFR against a 300-bit Arb enclosure), whether A is held
 * or streamed, row by row too; the gaps decided from per-row bounds give the same rank as full
 * passes, with fewer passes. */
#include <check.h>
#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>
#include <flint/fmpz.h>
#include <flint/fmpz_vec.h>
#include "testutil.h"
#include "numerics/amat.h"
#include "numerics/linalg.h"
#include "numerics/rng.h"
#include "numerics/softmax.h"
#include "numerics/softmax_dbl.h"
#include "theory/certificates/cert_rsvd.h"
#include "theory/certificates/cert_upper.h"
#include "rsvdutil.h"

/* max_i sum_j |a_ij - (U_k V_k^T)_ij| + T.rowerr_i in MPFR (a_ij from the 300-bit enclosure T):
 * an upper bound on the true residual, as sharp as the enclosure. */
static double sharp_residual(const smx_t *T, const double *U, const double *V, size_t k)
{
    size_t m = T->m, n = T->n;
    mpfr_t s, e, p;
    mpfr_inits2(2200, s, e, p, (mpfr_ptr)0);
    double worst = 0;
    for (size_t i = 0; i < m; i++) {
        mpfr_set_d(s, T->rowerr[i], MPFR_RNDU);
        for (size_t j = 0; j < n; j++) {
            mpfr_set_d(e, T->a[i + j * m], MPFR_RNDN);
            for (size_t c = 0; c < k; c++) {
                mpfr_set_d(p, U[i + c * m], MPFR_RNDN);
                mpfr_mul_d(p, p, V[j + c * n], MPFR_RNDN);     /* exact at 2200 bits */
                mpfr_sub(e, e, p, MPFR_RNDN);                   /* exact */
            }
            mpfr_abs(e, e, MPFR_RNDN);
            mpfr_add(s, s, e, MPFR_RNDU);
        }
        worst = fmax(worst, mpfr_get_d(s, MPFR_RNDU));
    }
    mpfr_clears(s, e, p, (mpfr_ptr)0);
    return worst;
}

/* rsvd_certify_ranks: truncated-SVD factors of the double image, several ranks in one pass,
 * held (one block) and streamed (blocks of 7 rows, row-major): every error bounds the truth. */
START_TEST(test_rsvd_certify_ranks_rigorous)
{
    test_rng_init(test_seed() + 31);
    for (int it = 0; it < 3; it++) {
        size_t m = 23 + 11 * (size_t)it, n = 31 + 5 * (size_t)it, d = 3, r = m < n ? m : n;
        double beta = 3 + 6 * it;
        double *q = malloc(m * d * sizeof *q), *k = malloc(n * d * sizeof *k);
        points(q, m * d);
        points(k, n * d);
        smx_t A, T;
        smxd_t S;
        ck_assert_int_eq(smx_compute_dbl(&A, q, m, k, n, d, NULL, beta, 0), AR_OK);
        ck_assert_int_eq(smx_compute(&T, q, m, k, n, d, NULL, beta, 300, 0), AR_OK);
        ck_assert_int_eq(smxd_prepare(&S, q, m, k, n, d, NULL, beta, 0), AR_OK);
        double *U0, *s, *VT;
        ck_assert_int_eq(la_svd(m, n, A.a, &U0, &s, &VT), AR_OK);
        double *U = malloc(m * r * sizeof *U), *V = malloc(n * r * sizeof *V);
        for (size_t c = 0; c < r; c++) {
            for (size_t i = 0; i < m; i++)
                U[i + c * m] = U0[i + c * m] * s[c];
            for (size_t j = 0; j < n; j++)
                V[j + c * n] = VT[c + j * r];
        }
        size_t ks[5] = { 0, 1, 4, 9, r };
        double eh[5], es[5];
        amat_t Mh, Ms;
        amat_memory(&Mh, &A);
        amat_stream(&Ms, &S);
        Ms.blk = 7;
        ck_assert_int_eq(rsvd_certify_ranks(&Mh, U, V, r, ks, 5, eh), AR_OK);
        ck_assert_int_eq(rsvd_certify_ranks(&Ms, U, V, r, ks, 5, es), AR_OK);
        for (int t = 0; t < 5; t++) {
            double sharp = sharp_residual(&T, U, V, ks[t]);
            ck_assert_msg(sharp <= eh[t] && sharp <= es[t], "it %d k %zu: sharp %.17g > certified %.17g / %.17g", it,
                          ks[t], sharp, eh[t], es[t]);
            ck_assert_msg(eh[t] <= sharp + 1e-10 && es[t] <= sharp + 1e-10, "it %d k %zu: bound far above truth", it,
                          ks[t]);
        }
        ck_assert(eh[4] < 1e-9);                    /* full rank reproduces A */
        /* the per-row bounds: each row's bounds its residual, their maximum is the error */
        double *rb = malloc(m * 5 * sizeof *rb), er[5];
        ck_assert_int_eq(rsvd_certify_rows(&Ms, U, V, r, ks, 5, er, rb), AR_OK);
        for (int t = 0; t < 5; t++) {
            double mx = 0;
            for (size_t i = 0; i < m; i++) {
                smx_t Ti = T;                       /* row i alone: a 1 x n view of the enclosure */
                double *ai = malloc(n * sizeof *ai), *ui = malloc(r * sizeof *ui);
                for (size_t j = 0; j < n; j++)
                    ai[j] = T.a[i + j * m];
                for (size_t c = 0; c < r; c++)
                    ui[c] = U[i + c * m];
                Ti.m = 1;
                Ti.a = ai;
                Ti.rowerr = T.rowerr + i;
                double sharp = sharp_residual(&Ti, ui, V, ks[t]);
                ck_assert_msg(sharp <= rb[t * m + i], "it %d k %zu row %zu: sharp %.17g > row bound %.17g", it,
                              ks[t], i, sharp, rb[t * m + i]);
                mx = fmax(mx, rb[t * m + i]);
                free(ai);
                free(ui);
            }
            ck_assert_msg(mx == er[t] && er[t] == es[t], "it %d k %zu: max row bound %.17g, error %.17g / %.17g",
                          it, ks[t], mx, er[t], es[t]);
        }
        free(rb);
        free(U0); free(s); free(VT); free(U); free(V); free(q); free(k);
        smx_clear(&A);
        smx_clear(&T);
        smxd_clear(&S);
    }
}
END_TEST

/* Issue 35: the certifying pass's blocks run side by side on attnrank's threads; the errors
 * and the per-row bounds are the same bits (memcmp against one thread) for every thread count,
 * held (one block; blocks of 97 rows) and streamed (blocks of 200 rows; the default block),
 * with wide ranks (dgemm segments) and narrow ones (fused runs). */
START_TEST(test_rsvd_certify_thread_counts)
{
    test_rng_init(test_seed() + 35);
    static const size_t shapes[][2] = { { 1100, 700 }, { 430, 1210 } };
    for (size_t sh = 0; sh < 2; sh++) {
        size_t m = shapes[sh][0], n = shapes[sh][1], d = 3, r = 40;
        double *q = malloc(m * d * sizeof *q), *k = malloc(n * d * sizeof *k);
        points(q, m * d);
        points(k, n * d);
        smx_t A;
        smxd_t S;
        ck_assert_int_eq(smx_compute_dbl(&A, q, m, k, n, d, NULL, 8.0, 0), AR_OK);
        ck_assert_int_eq(smxd_prepare(&S, q, m, k, n, d, NULL, 8.0, 0), AR_OK);
        double *U = malloc(m * r * sizeof *U), *V = malloc(n * r * sizeof *V);
        for (size_t t = 0; t < m * r; t++)
            U[t] = (2 * test_unif() - 1) / (double)n;
        for (size_t t = 0; t < n * r; t++)
            V[t] = 2 * test_unif() - 1;
        size_t ks[7] = { 0, 2, 3, 7, 20, 23, 40 };
        for (int v = 0; v < 4; v++) {
            double e1[7], e[7], *rb1 = malloc(m * 7 * sizeof *rb1), *rb = malloc(m * 7 * sizeof *rb);
            for (size_t c = 0; c < TEST_NTHREAD_COUNTS; c++) {
                ar_config_t cfg;
                const ar_config_t *prev = test_threads_install(&cfg, TEST_THREAD_COUNTS[c]);
                amat_t M;
                if (v < 2)
                    amat_memory(&M, &A);
                else
                    amat_stream(&M, &S);
                M.blk = v == 1 ? 97 : v == 2 ? 200 : 0;
                ck_assert_int_eq(rsvd_certify_rows(&M, U, V, r, ks, 7, c ? e : e1, c ? rb : rb1), AR_OK);
                ck_assert_int_eq(M.passes, 1);
                ar_config_install(prev);
                ck_assert_msg(c == 0 || (memcmp(e, e1, sizeof e) == 0 && memcmp(rb, rb1, m * 7 * sizeof *rb) == 0),
                              "m=%zu n=%zu variant %d: %d threads differ from one", m, n, v, TEST_THREAD_COUNTS[c]);
            }
            for (int t = 0; t < 7; t++) {           /* the error is the largest row bound */
                double mx = 0;
                for (size_t i = 0; i < m; i++)
                    mx = fmax(mx, rb1[t * m + i]);
                ck_assert(mx == e1[t] && e1[t] > 0 && isfinite(e1[t]));
            }
            free(rb1); free(rb);
        }
        free(U); free(V); free(q); free(k);
        smx_clear(&A);
        smxd_clear(&S);
    }
}
END_TEST

/* The gaps between a refuted and a certified rank decided from per-row bounds (gap_fill) give
 * the search's result without the full pass: the same certified rank as with every gap by a full
 * pass, an error <= eps, and fewer passes over A, held and streamed. */
START_TEST(test_upper_rsvd_gap_fill)
{
    /* uniform in the 3-ball from a fixed seed (not the test seed): an instance whose first
     * full pass leaves a gap, so that the fill is exercised */
    rng_t r;
    rng_init(&r, 1);
    size_t m = 1500, n = 1400, d = 3;
    double *q = malloc(m * d * sizeof *q), *k = malloc(n * d * sizeof *k);
    for (size_t i = 0; i < m + n; i++) {
        double x, y, z;
        do {
            x = 2 * rng_uniform(&r) - 1;
            y = 2 * rng_uniform(&r) - 1;
            z = 2 * rng_uniform(&r) - 1;
        } while (x * x + y * y + z * z > 1);
        double *p = i < m ? q + 3 * i : k + 3 * (i - m);
        p[0] = x;
        p[1] = y;
        p[2] = z;
    }
    smx_t A;
    smxd_t S;
    ck_assert_int_eq(smx_compute_dbl(&A, q, m, k, n, d, NULL, 20, 0), AR_OK);
    ck_assert_int_eq(smxd_prepare(&S, q, m, k, n, d, NULL, 20, 0), AR_OK);
    int filled = 0;
    for (int held = 0; held <= 1; held++) {
        amat_t M;
        if (held)
            amat_memory(&M, &A);
        else
            amat_stream(&M, &S);
        rsvd_opts_t o;
        rsvd_opts_default(&o);
        o.power = 1;
        o.l0 = 150;
        upper_cert_t a, b;
        rsvd_info_t ia, ib;
        ck_assert_int_eq(upper_rsvd(&M, 0.1, &o, &a, &ia), AR_OK);
        o.no_gap_fill = 1;
        ck_assert_int_eq(upper_rsvd(&M, 0.1, &o, &b, &ib), AR_OK);
        ck_assert_str_eq(ar_method_name(a.method), "rsvd");
        ck_assert_uint_eq(ib.gap_fills, 0);
        ck_assert_msg(a.rank == b.rank && a.err <= 0.1 && b.err <= 0.1,
                      "held %d: with the gap fill rank %zu (err %.17g), with full passes %zu (%.17g)", held, a.rank,
                      a.err, b.rank, b.err);
        if (ia.gap_fills > 0) {
            filled++;
            ck_assert_msg(ia.passes < ib.passes, "held %d: %zu passes with the gap fill, %zu without", held,
                          ia.passes, ib.passes);
        }
    }
    ck_assert_msg(filled == 2, "the gap fill ran on %d of 2 runs", filled);
    smx_clear(&A);
    smxd_clear(&S);
    free(q);
    free(k);
}
END_TEST

Suite *suite_cert_rsvd_search(void)
{
    Suite *s = suite_create("cert_rsvd_search");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_rsvd_certify_ranks_rigorous);
    tcase_add_test(tc, test_rsvd_certify_thread_counts);
    tcase_add_test(tc, test_upper_rsvd_gap_fill);
    suite_add_tcase(s, tc);
    return s;
}
