/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_head.c -- head constructions (constructions/pointsets/head.h): lattice counts
 * and membership, exact Gaussian multiplicities, random balls, and the
 * embedding (exactness of the dyadic Hadamard embedding, orthogonality of
 * the random rotation, invisible directions, noise placement). */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include <mpfr.h>
#include <flint/fmpz.h>
#include "testutil.h"
#include "constructions/pointsets/head.h"

START_TEST(test_lattice)
{
    pointset_t P;
    /* r = 1, h = 1/4: -1, -3/4, ..., 1 */
    ck_assert_int_eq(head_ball_lattice(&P, 1, 0.25), AR_OK);
    ck_assert_int_eq((int)P.n, 9);
    ck_assert(P.x[0] == -1.0 && P.x[8] == 1.0);
    pointset_clear(&P);
    /* r = 2, h = 1/2: points of (Z/2)^2 with norm <= 1: 1 + 4 + 4 + 4 = 13 */
    ck_assert_int_eq(head_ball_lattice(&P, 2, 0.5), AR_OK);
    ck_assert_int_eq((int)P.n, 13);
    for (size_t i = 0; i < P.n; i++)
        ck_assert(P.x[2 * i] * P.x[2 * i] + P.x[2 * i + 1] * P.x[2 * i + 1] <= 1.0);
    pointset_clear(&P);
    /* r = 3, h = 1: the origin and the 6 unit vectors */
    ck_assert_int_eq(head_ball_lattice(&P, 3, 1.0), AR_OK);
    ck_assert_int_eq((int)P.n, 7);
    pointset_clear(&P);
    ck_assert_int_eq(head_ball_lattice(&P, 0, 0.5), AR_EINVAL);
    ck_assert_int_eq(head_ball_lattice(&P, 2, 0.0), AR_EINVAL);
    ck_assert_int_eq(head_ball_lattice(&P, 2, 1.5), AR_EINVAL);
    ck_assert_int_eq(head_ball_lattice(&P, 8, 1e-3), AR_EINVAL);   /* too many points */
}
END_TEST

/* w_j = round(2^40 exp(beta (1 - |y|^2)/2)), checked against MPFR at 300 bits */
START_TEST(test_gaussian_weights)
{
    pointset_t Q, K;
    ck_assert_int_eq(head_construction(&Q, &K, 2, 50.0, 0.25), AR_OK);
    ck_assert(K.w != NULL && Q.w == NULL);
    ck_assert_int_eq((int)Q.n, (int)K.n);
    mpfr_t t;
    mpfr_init2(t, 300);
    mpz_t zz;
    mpz_init(zz);
    fmpz_t z, diff;
    fmpz_init(z);
    fmpz_init(diff);
    for (size_t j = 0; j < K.n; j++) {
        double s = K.x[2 * j] * K.x[2 * j] + K.x[2 * j + 1] * K.x[2 * j + 1];   /* exact: quarter-integers */
        mpfr_set_d(t, 1.0 - s, MPFR_RNDN);
        mpfr_mul_d(t, t, 25.0, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_mul_2ui(t, t, 40, MPFR_RNDN);
        mpfr_get_z(zz, t, MPFR_RNDN);
        fmpz_set_mpz(z, zz);
        fmpz_sub(diff, z, K.w + j);
        ck_assert_msg(fmpz_cmp_si(diff, -1) >= 0 && fmpz_cmp_si(diff, 1) <= 0, "j=%zu: weight off by more than 1", j);
        ck_assert(fmpz_cmp_ui(K.w + j, 1) >= 0);
    }
    fmpz_clear(z);
    fmpz_clear(diff);
    mpz_clear(zz);
    mpfr_clear(t);
    pointset_clear(&Q);
    pointset_clear(&K);
}
END_TEST

START_TEST(test_random_ball)
{
    pointset_t Q, K, Q2, K2;
    ck_assert_int_eq(head_random_ball(&Q, &K, 3, 200, 150, 42), AR_OK);
    ck_assert_int_eq(head_random_ball(&Q2, &K2, 3, 200, 150, 42), AR_OK);
    ck_assert(memcmp(Q.x, Q2.x, 600 * sizeof(double)) == 0);       /* deterministic */
    double maxn = 0;
    for (size_t i = 0; i < 200; i++) {
        double s = 0;
        for (int c = 0; c < 3; c++)
            s += Q.x[3 * i + c] * Q.x[3 * i + c];
        ck_assert(s <= 1.0 + 1e-12);
        if (s > maxn)
            maxn = s;
    }
    ck_assert(maxn > 0.8);            /* fills the ball, not a shrunken set */
    pointset_clear(&Q); pointset_clear(&K); pointset_clear(&Q2); pointset_clear(&K2);
}
END_TEST

/* exact embedding: Hadamard rotation, dyadic offsets/invisible parts: the
 * differences of logits across keys are exactly those of the r-dim head */
START_TEST(test_embed_exact)
{
    pointset_t Q, K, Qh, Kh;
    ck_assert_int_eq(head_construction(&Q, &K, 2, 10.0, 0.25), AR_OK);
    head_embed_t e = { .dh = 16, .key_offset = 3.0, .query_invisible = 2.0, .rotate = HEAD_ROT_HADAMARD,
                       .seed = 9, .dyadic = 1 };
    ck_assert_int_eq(head_embed(&Q, &K, &e, &Qh, &Kh), AR_OK);
    ck_assert(Kh.w != NULL && fmpz_equal(Kh.w + 3, K.w + 3));
    for (size_t i = 0; i < Q.n; i++)
        for (size_t j = 1; j < K.n; j++) {
            /* q.(k_j - k_0) in dh dims (all terms exact dyadics of few bits) vs r dims */
            double a = 0, b = 0;
            for (size_t c = 0; c < 16; c++)
                a += Qh.x[i * 16 + c] * (Kh.x[j * 16 + c] - Kh.x[c]);
            for (size_t c = 0; c < 2; c++)
                b += Q.x[i * 2 + c] * (K.x[j * 2 + c] - K.x[c]);
            ck_assert_msg(a == b, "i=%zu j=%zu: %.17g vs %.17g", i, j, a, b);
        }
    pointset_clear(&Qh);
    pointset_clear(&Kh);
    /* the Hadamard rotation needs dh a power of 4 */
    e.dh = 8;
    ck_assert_int_eq(head_embed(&Q, &K, &e, &Qh, &Kh), AR_EINVAL);
    pointset_clear(&Q); pointset_clear(&K);
}
END_TEST

/* random rotation: norms preserved to rounding; noise only where declared */
START_TEST(test_embed_random)
{
    pointset_t Q, K, Qh, Kh;
    ck_assert_int_eq(head_random_ball(&Q, &K, 3, 20, 30, 3), AR_OK);
    head_embed_t e = { .dh = 40, .rotate = HEAD_ROT_RANDOM, .seed = 4 };
    ck_assert_int_eq(head_embed(&Q, &K, &e, &Qh, &Kh), AR_OK);
    for (size_t i = 0; i < 20; i++) {
        double s = 0, t = 0;
        for (size_t c = 0; c < 3; c++) s += Q.x[3 * i + c] * Q.x[3 * i + c];
        for (size_t c = 0; c < 40; c++) t += Qh.x[40 * i + c] * Qh.x[40 * i + c];
        ck_assert(fabs(s - t) <= 1e-13);
    }
    pointset_clear(&Qh); pointset_clear(&Kh);
    /* without rotation: noise sits in coordinates r..r+nnoise-1 of the keys only */
    head_embed_t f = { .dh = 10, .nnoise = 4, .delta = 1e-3, .seed = 4 };
    ck_assert_int_eq(head_embed(&Q, &K, &f, &Qh, &Kh), AR_OK);
    for (size_t j = 0; j < 30; j++)
        for (size_t c = 0; c < 10; c++) {
            double x = Kh.x[10 * j + c];
            if (c < 3)
                ck_assert(x == K.x[3 * j + c]);
            else if (c < 7)
                ck_assert(fabs(x) > 0 && fabs(x) < 1e-2);
            else
                ck_assert(x == 0.0);
        }
    for (size_t i = 0; i < 20; i++)
        for (size_t c = 3; c < 10; c++)
            ck_assert(Qh.x[10 * i + c] == 0.0);
    pointset_clear(&Qh); pointset_clear(&Kh);
    head_embed_t bad = { .dh = 5, .nnoise = 4 };
    ck_assert_int_eq(head_embed(&Q, &K, &bad, &Qh, &Kh), AR_EINVAL);
    pointset_clear(&Q); pointset_clear(&K);
}
END_TEST

Suite *suite_head(void)
{
    Suite *s = suite_create("head");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_lattice);
    tcase_add_test(tc, test_gaussian_weights);
    tcase_add_test(tc, test_random_ball);
    tcase_add_test(tc, test_embed_exact);
    tcase_add_test(tc, test_embed_random);
    suite_add_tcase(s, tc);
    return s;
}
