/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_softmax_dbl.c -- the double-arithmetic enclosure (numerics/softmax_dbl.h):
 * against a 300-bit Arb enclosure of the same matrix, the image stays within
 * its a-priori rowerr (a failure would show a wrong bound); rows are the same
 * bits whatever the blocking, the row order or the thread count. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <flint/fmpz.h>
#include <flint/fmpz_vec.h>
#include <mpfr.h>
#include "testutil.h"
#include "numerics/softmax.h"
#include "numerics/softmax_dbl.h"

static void fill(double *x, size_t len, double scale)
{
    for (size_t t = 0; t < len; t++)
        x[t] = scale * (2 * test_unif() - 1);
}

START_TEST(test_smxd_contains_arb)
{
    test_rng_init(test_seed() + 21);
    for (int it = 0; it < 12; it++) {
        size_t m = (size_t)test_irand(1, 70), n = (size_t)test_irand(1, 90), d = (size_t)test_irand(1, 5);
        double beta = it % 4 == 0 ? 0.0 : pow(10.0, 3 * test_unif() - 0.5);
        int weighted = it % 3 == 1, self = it % 4 == 3;
        if (self)
            m = n;
        double *q = malloc(m * d * sizeof *q), *k = malloc(n * d * sizeof *k);
        fill(k, n * d, 1.5);
        if (self)
            memcpy(q, k, n * d * sizeof *q);
        else
            fill(q, m * d, 2.0);
        fmpz *w = NULL;
        if (weighted) {
            w = _fmpz_vec_init((slong)n);
            for (size_t j = 0; j < n; j++) {
                fmpz_set_ui(w + j, 1 + (ulong)test_irand(0, 1000));
                fmpz_mul_2exp(w + j, w + j, (ulong)test_irand(0, 300));
            }
        }
        smx_t D, T;
        ck_assert_int_eq(smx_compute_dbl(&D, q, m, self ? q : k, n, d, w, beta, 2), AR_OK);
        ck_assert_int_eq(smx_compute(&T, q, m, self ? q : k, n, d, w, beta, 300, 2), AR_OK);
        ck_assert_str_eq(D.method, "double");
        for (size_t i = 0; i < m; i++) {
            double s = 0;
            for (size_t j = 0; j < n; j++)
                s += fabs(D.a[i + j * m] - T.a[i + j * m]);
            /* sum |a_dbl - a_arb| <= sum |a_dbl - A| + sum |A - a_arb| (the sum s itself is computed
             * with relative error n u, allowed for) */
            double lim = (D.rowerr[i] + T.rowerr[i]) * (1 + 1e-12);
            ck_assert_msg(s <= lim, "it %d (m %zu n %zu d %zu beta %g w %d) row %zu: %.3g > rowerr %.3g", it, m, n,
                          d, beta, weighted, i, s, D.rowerr[i]);
            ck_assert_msg(D.rowerr[i] < 1e-11, "it %d row %zu: rowerr %.3g not small", it, i, D.rowerr[i]);
            ck_assert_msg(fabs(D.lognorm[i] - T.lognorm[i]) <= 1e-9 * (1 + fabs(T.lognorm[i])), "lognorm");
        }
        smx_clear(&D);
        smx_clear(&T);
        free(q);
        free(k);
        if (w)
            _fmpz_vec_clear(w, (slong)n);
    }
}
END_TEST

/* The edge of the double range (issue 24): a scaled key beta k that is
 * subnormal (its rounding error is absolute, up to half its value) makes the
 * double path decline, so the Arb enclosure is used; queries near 1e308
 * against keys whose products with them are subnormal, or huge queries with
 * tiny normal scaled keys, stay in the double path and are contained in a
 * 300-bit Arb enclosure (the absolute underflow term of Lemma 2). */
START_TEST(test_smxd_extreme_doubles)
{
    enum { D = 50 };
    double q[2 * D], k[2 * D];
    for (size_t c = 0; c < D; c++) {
        q[c] = 1e308;
        q[D + c] = -1e308;
        k[c] = 2.5 * 0x1p-74;
        k[D + c] = 0x1p-73;
    }
    smxd_t S;
    double beta = 9.3326361850321888e-302;   /* beta k ~ 2.5 2^-1074: subnormal */
    ck_assert_int_eq(smxd_prepare(&S, q, 2, k, 2, D, NULL, beta, 0), AR_OK);
    ck_assert(S.subnormal && !S.ok);
    smxd_clear(&S);
    smx_t A;
    ck_assert_int_eq(smx_compute_dbl(&A, q, 2, k, 2, D, NULL, beta, 0), AR_OK);
    ck_assert_str_eq(A.method, "arb");
    smx_clear(&A);
    /* subnormal products q_ic (beta k_jc) with normal factors: tiny queries against tiny scaled keys,
     * and, in the other cases, products near the overflow threshold that the bound must cover */
    const double qs[] = { 1e-300, 3e-160, 1e300, -7e307 }, ks[] = { 1e-20, 2e-160, 1e-310 / 1e-3, 1e-305 };
    for (size_t t = 0; t < 4; t++) {
        for (size_t c = 0; c < D; c++) {
            q[c] = qs[t] * (1 + 0.01 * (double)c);
            q[D + c] = -qs[t] * (1 - 0.003 * (double)c);
            k[c] = ks[t] * (1 + 0.02 * (double)c);
            k[D + c] = ks[t] * (2 - 0.01 * (double)c);
        }
        smx_t Dd, T;
        ck_assert_int_eq(smxd_prepare(&S, q, 2, k, 2, D, NULL, 1.0, 0), AR_OK);
        int ok = S.ok;
        smxd_clear(&S);
        ck_assert_int_eq(smx_compute_dbl(&Dd, q, 2, k, 2, D, NULL, 1.0, 2), AR_OK);
        ck_assert_int_eq(smx_compute(&T, q, 2, k, 2, D, NULL, 1.0, 300, 2), AR_OK);
        ck_assert_str_eq(Dd.method, ok ? "double" : "arb");
        for (size_t i = 0; i < 2; i++) {
            double s = 0;
            for (size_t j = 0; j < 2; j++)
                s += fabs(Dd.a[i + j * 2] - T.a[i + j * 2]);
            ck_assert_msg(s <= (Dd.rowerr[i] + T.rowerr[i]) * (1 + 1e-12), "case %zu row %zu: %.3g > %.3g + %.3g", t,
                          i, s, Dd.rowerr[i], T.rowerr[i]);
        }
        smx_clear(&Dd);
        smx_clear(&T);
    }
}
END_TEST

/* Same bits for any split into blocks, any row order (smxd_rows_at), thread count and layout. */
START_TEST(test_smxd_blocking_deterministic)
{
    test_rng_init(test_seed() + 22);
    size_t m = 157, n = 211, d = 3;
    double *q = malloc(m * d * sizeof *q), *k = malloc(n * d * sizeof *k);
    fill(q, m * d, 1);
    fill(k, n * d, 1);
    smxd_t S1, S3;
    ck_assert_int_eq(smxd_prepare(&S1, q, m, k, n, d, NULL, 30.0, 1), AR_OK);
    ck_assert_int_eq(smxd_prepare(&S3, q, m, k, n, d, NULL, 30.0, 3), AR_OK);
    ck_assert(S1.ok && S3.ok);
    double *a = malloc(m * n * sizeof *a), *b = malloc(m * n * sizeof *b);
    double *ea = malloc(m * sizeof *ea), *eb = malloc(m * sizeof *eb);
    ck_assert_int_eq(smxd_rows(&S1, 0, m, a, m, ea, NULL), AR_OK);
    /* blocks of 7 rows, each with its own leading dimension */
    double *blk = malloc(7 * n * sizeof *blk);
    for (size_t i0 = 0; i0 < m; i0 += 7) {
        size_t i1 = i0 + 7 < m ? i0 + 7 : m;
        ck_assert_int_eq(smxd_rows(&S3, i0, i1, blk, i1 - i0, eb + i0, NULL), AR_OK);
        for (size_t j = 0; j < n; j++)
            for (size_t i = i0; i < i1; i++)
                b[i + j * m] = blk[(i - i0) + j * (i1 - i0)];
    }
    ck_assert(memcmp(a, b, m * n * sizeof *a) == 0 && memcmp(ea, eb, m * sizeof *ea) == 0);
    /* reversed row order */
    size_t *rows = malloc(m * sizeof *rows);
    for (size_t t = 0; t < m; t++)
        rows[t] = m - 1 - t;
    ck_assert_int_eq(smxd_rows_at(&S3, rows, m, b, m, eb, NULL), AR_OK);
    for (size_t t = 0; t < m; t++) {
        ck_assert(eb[t] == ea[rows[t]]);
        for (size_t j = 0; j < n; j++)
            ck_assert(b[t + j * m] == a[rows[t] + j * m]);
    }
    /* row-major rows (written in place, one row at a time) against the column-major ones
     * (computed a chunk of rows at a time and written out column tile by column tile; 157 rows
     * and 211 columns end in a partial chunk and a partial tile) */
    double *rm = malloc(m * (n + 3) * sizeof *rm);
    smxd_rows_rm(&S3, NULL, 0, m, rm, n + 3, eb, NULL);
    for (size_t i = 0; i < m; i++) {
        ck_assert(eb[i] == ea[i]);
        for (size_t j = 0; j < n; j++)
            ck_assert(rm[i * (n + 3) + j] == a[i + j * m]);
    }
    smxd_clear(&S1);
    smxd_clear(&S3);
    free(q); free(k); free(a); free(b); free(ea); free(eb); free(blk); free(rows); free(rm);
}
END_TEST

/* The held enclosure (smx_compute_dbl, column-major) and the streamed rows (smxd_rows_rm,
 * row-major) are the same bits for every thread count, given as an argument and through the
 * configuration (issue 35): shapes whose chunks of 64 rows make 1, 2 and several parts of the
 * fixed partition, with a partial last chunk. */
START_TEST(test_smxd_thread_counts)
{
    static const size_t shapes[][2] = { { 5, 33 }, { 300, 41 }, { 1300, 97 }, { 2049, 17 } };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        size_t m = shapes[s][0], n = shapes[s][1], d = 3;
        test_rng_init(test_seed() + 40 + s);
        double *q = malloc(m * d * sizeof *q), *k = malloc(n * d * sizeof *k);
        fill(q, m * d, 1);
        fill(k, n * d, 1);
        smx_t A1;
        ck_assert_int_eq(smx_compute_dbl(&A1, q, m, k, n, d, NULL, 20.0, 1), AR_OK);
        ck_assert_str_eq(A1.method, "double");
        double *rm1 = malloc(m * n * sizeof *rm1), *rm = malloc(m * n * sizeof *rm);
        double *e1 = malloc(m * sizeof *e1), *e = malloc(m * sizeof *e);
        smxd_t S;
        ck_assert_int_eq(smxd_prepare(&S, q, m, k, n, d, NULL, 20.0, 1), AR_OK);
        smxd_rows_rm(&S, NULL, 0, m, rm1, n, e1, NULL);
        smxd_clear(&S);
        for (size_t c = 0; c < TEST_NTHREAD_COUNTS; c++)
            for (int via_config = 0; via_config < 2; via_config++) {
                ar_config_t cfg;
                int T = TEST_THREAD_COUNTS[c];
                const ar_config_t *prev = via_config ? test_threads_install(&cfg, T) : NULL;
                int arg = via_config ? 0 : T;
                smx_t A;
                ck_assert_int_eq(smx_compute_dbl(&A, q, m, k, n, d, NULL, 20.0, arg), AR_OK);
                ck_assert_msg(memcmp(A.a, A1.a, m * n * sizeof *A.a) == 0 &&
                                  memcmp(A.rowerr, A1.rowerr, m * sizeof *A.rowerr) == 0 &&
                                  memcmp(A.lognorm, A1.lognorm, m * sizeof *A.lognorm) == 0 && A.maxerr == A1.maxerr,
                              "m=%zu n=%zu: the held enclosure on %d threads differs from one thread's", m, n, T);
                smx_clear(&A);
                ck_assert_int_eq(smxd_prepare(&S, q, m, k, n, d, NULL, 20.0, arg), AR_OK);
                smxd_rows_rm(&S, NULL, 0, m, rm, n, e, NULL);
                smxd_clear(&S);
                ck_assert_msg(memcmp(rm, rm1, m * n * sizeof *rm) == 0 && memcmp(e, e1, m * sizeof *e) == 0,
                              "m=%zu n=%zu: the streamed rows on %d threads differ from one thread's", m, n, T);
                if (via_config)
                    ar_config_install(prev);
            }
        for (size_t i = 0; i < m; i++) {       /* the two layouts agree */
            ck_assert(e1[i] == A1.rowerr[i]);
            for (size_t j = 0; j < n; j++)
                ck_assert(rm1[i * n + j] == A1.a[i + j * m]);
        }
        smx_clear(&A1);
        free(q); free(k); free(rm1); free(rm); free(e1); free(e);
    }
}
END_TEST

/* Logits beyond the bound's range: the double path declines and smx_compute_dbl falls back to Arb. */
START_TEST(test_smxd_falls_back)
{
    double q[2] = { 1.0, -1.0 }, k[2] = { 1.0, 0.5 };
    smxd_t S;
    ck_assert_int_eq(smxd_prepare(&S, q, 2, k, 2, 1, NULL, 1e12, 0), AR_OK);
    ck_assert(!S.ok);
    smxd_clear(&S);
    smx_t A;
    ck_assert_int_eq(smx_compute_dbl(&A, q, 2, k, 2, 1, NULL, 1e12, 0), AR_OK);
    ck_assert_str_eq(A.method, "arb");
    smx_clear(&A);
    ck_assert_int_eq(smxd_prepare(&S, q, 2, k, 2, 1, NULL, -1.0, 0), AR_EINVAL);
}
END_TEST

/* The exact row i of A_ij ~ w_j exp(beta q_i.k_j + b_ij) in MPFR at 300 bits into T (n doubles,
 * rounded to nearest); masked entries (-inf) exactly 0. */
static void truth_row(const double *q, const double *k, size_t n, size_t d, const fmpz *w, const double *b,
                      double beta, double *T)
{
    mpfr_t *L = malloc(n * sizeof *L), t, mx, z;
    mpfr_inits2(300, t, mx, z, (mpfr_ptr)0);
    mpfr_set_inf(mx, -1);
    for (size_t j = 0; j < n; j++) {
        mpfr_init2(L[j], 300);
        if (b[j] == -INFINITY) {
            mpfr_set_inf(L[j], -1);
            continue;
        }
        mpfr_set_zero(L[j], 1);
        for (size_t c = 0; c < d; c++) {
            mpfr_set_d(t, q[c], MPFR_RNDN);
            mpfr_mul_d(t, t, k[j * d + c], MPFR_RNDN);
            mpfr_add(L[j], L[j], t, MPFR_RNDN);
        }
        mpfr_mul_d(L[j], L[j], beta, MPFR_RNDN);
        mpfr_add_d(L[j], L[j], b[j], MPFR_RNDN);
        if (w) {
            mpz_t wz;
            mpz_init(wz);
            fmpz_get_mpz(wz, w + j);
            mpfr_set_z(t, wz, MPFR_RNDN);
            mpfr_log(t, t, MPFR_RNDN);
            mpfr_add(L[j], L[j], t, MPFR_RNDN);
            mpz_clear(wz);
        }
        if (mpfr_cmp(L[j], mx) > 0)
            mpfr_set(mx, L[j], MPFR_RNDN);
    }
    mpfr_set_zero(z, 1);
    for (size_t j = 0; j < n; j++) {
        mpfr_sub(L[j], L[j], mx, MPFR_RNDN);
        mpfr_exp(L[j], L[j], MPFR_RNDN);          /* exp(-inf) = 0 */
        mpfr_add(z, z, L[j], MPFR_RNDN);
    }
    for (size_t j = 0; j < n; j++) {
        mpfr_div(L[j], L[j], z, MPFR_RNDN);
        T[j] = mpfr_get_d(L[j], MPFR_RNDN);
        mpfr_clear(L[j]);
    }
    mpfr_clears(t, mx, z, (mpfr_ptr)0);
    free(L);
}

/* A logit bias (issue 32: attention masks): on random instances with masked (-inf) entries,
 * causal patterns and finite biases up to 50 in magnitude, with and without multiplicities, the
 * double and the Arb enclosures contain the exact matrix (a 300-bit MPFR evaluation, independent
 * of both) within their rowerr, masked entries are exactly 0, and a NaN or +inf entry or a row
 * with every key masked is refused. */
START_TEST(test_bias_contains_truth)
{
    test_rng_init(test_seed() + 29);
    for (int it = 0; it < 24; it++) {
        size_t m = (size_t)test_irand(1, 40), n = (size_t)test_irand(2, 50), d = (size_t)test_irand(1, 6);
        double beta = pow(10.0, 2.5 * test_unif() - 0.5);
        double *q = malloc(m * d * sizeof *q), *k = malloc(n * d * sizeof *k), *b = malloc(m * n * sizeof *b);
        double *T = malloc(n * sizeof *T);
        fill(k, n * d, 1.5);
        fill(q, m * d, 2.0);
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++) {
                double u = test_unif();
                b[i * n + j] = it % 3 == 0 ? (j > i % n ? -INFINITY : 0.0)           /* causal */
                             : u < 0.3 ? -INFINITY : u < 0.6 ? 0.0 : 100.0 * (test_unif() - 0.5);
            }
        for (size_t i = 0; i < m; i++)
            b[i * n + (size_t)test_irand(0, (long)n - 1)] = 0.0;   /* one kept key per row */
        fmpz *w = NULL;
        if (it % 2) {
            w = _fmpz_vec_init((slong)n);
            for (size_t j = 0; j < n; j++)
                fmpz_set_ui(w + j, 1 + (ulong)test_irand(0, 1000));
        }
        smx_t D, A;
        ck_assert_int_eq(smx_compute_dbl_bias(&D, q, m, k, n, d, w, b, beta, 2), AR_OK);
        ck_assert_int_eq(smx_compute_bias(&A, q, m, k, n, d, w, b, beta, it % 2 ? 53 : 96, 2), AR_OK);
        ck_assert_str_eq(D.method, "double");
        for (size_t i = 0; i < m; i++) {
            truth_row(q + i * d, k, n, d, w, b + i * n, beta, T);
            double sd = 0, sa = 0;
            for (size_t j = 0; j < n; j++) {
                if (b[i * n + j] == -INFINITY) {
                    ck_assert_msg(D.a[i + j * m] == 0.0 && A.a[i + j * m] == 0.0, "masked entry not 0");
                    continue;
                }
                sd += fabs(D.a[i + j * m] - T[j]);
                sa += fabs(A.a[i + j * m] - T[j]);
            }
            /* T is the truth rounded to doubles: n 2^-53 of slack, and the sums' own rounding */
            double slack = (double)n * 0x1p-52;
            ck_assert_msg(sd <= D.rowerr[i] * (1 + 1e-12) + slack, "it %d row %zu: double %.3g > rowerr %.3g", it, i,
                          sd, D.rowerr[i]);
            ck_assert_msg(sa <= A.rowerr[i] * (1 + 1e-12) + slack, "it %d row %zu: arb %.3g > rowerr %.3g", it, i, sa,
                          A.rowerr[i]);
            ck_assert_msg(D.rowerr[i] < 1e-10, "it %d row %zu: rowerr %.3g not small", it, i, D.rowerr[i]);
        }
        smx_clear(&D);
        smx_clear(&A);
        /* refusals */
        double keep = b[0];
        b[0] = NAN;
        ck_assert_int_eq(smx_compute_dbl_bias(&D, q, m, k, n, d, w, b, beta, 2), AR_EINVAL);
        b[0] = INFINITY;
        ck_assert_int_eq(smx_compute_bias(&A, q, m, k, n, d, w, b, beta, 96, 2), AR_EINVAL);
        b[0] = keep;
        for (size_t j = 0; j < n; j++)
            b[j] = -INFINITY;
        ck_assert_int_eq(smx_compute_dbl_bias(&D, q, m, k, n, d, w, b, beta, 2), AR_EINVAL);
        ck_assert_msg(strstr(ar_error_get(), "every key of query 0 is masked"), "%s", ar_error_get());
        free(q); free(k); free(b); free(T);
        if (w)
            _fmpz_vec_clear(w, (slong)n);
    }
}
END_TEST

Suite *suite_softmax_dbl(void)
{
    Suite *s = suite_create("softmax_dbl");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_smxd_contains_arb);
    tcase_add_test(tc, test_smxd_blocking_deterministic);
    tcase_add_test(tc, test_smxd_thread_counts);
    tcase_add_test(tc, test_smxd_falls_back);
    tcase_add_test(tc, test_smxd_extreme_doubles);
    tcase_add_test(tc, test_bias_contains_truth);
    suite_add_tcase(s, tc);
    return s;
}
