/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_trig_gram.c -- closed-form Gram matrices of trigonometric bases on
 * pieces of [0, pi] against an independent composite Gauss-Legendre
 * quadrature of the defining integrals, the quadratic form against direct
 * integration of (sum f_j phi_j)^2 w, the piece masses, and bad input, for
 * the four bases (S^1, S^2, S^3 and, with weight sin^3, S^4). */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include "testutil.h"
#include "numerics/trig_gram.h"

/* 10-point Gauss-Legendre on [-1, 1] */
static const double gl_x[10] = { -0.9739065285171717, -0.8650633666889845, -0.6794095682990244,
                                  -0.4333953941292472, -0.1488743389816312, 0.1488743389816312,
                                  0.4333953941292472, 0.6794095682990244, 0.8650633666889845,
                                  0.9739065285171717 };
static const double gl_w[10] = { 0.0666713443086881, 0.1494513491505806, 0.2190863625159820,
                                 0.2692667193099963, 0.2955242247147529, 0.2955242247147529,
                                 0.2692667193099963, 0.2190863625159820, 0.1494513491505806,
                                 0.0666713443086881 };

static double phi(trig_basis b, size_t j, double th)
{
    return b == TRIG_SIN ? sin((double)(j + 1) * th) : cos((double)j * th);
}

static double weight(trig_basis b, double th)
{
    return b == TRIG_COS ? 1.0 / M_PI : b == TRIG_COS_SIN ? 0.5 * sin(th)
         : b == TRIG_COS_SIN3 ? 0.75 * sin(th) * sin(th) * sin(th) : 2.0 / M_PI;
}

/* int over [pi a, pi b] of g(th) by composite 10-point Gauss-Legendre, npan panels */
typedef double (*fn_t)(double th, void *ctx);
static double quad(fn_t g, void *ctx, double a, double b, int npan)
{
    double A = M_PI * a, B = M_PI * b, h = (B - A) / npan, s = 0;
    for (int p = 0; p < npan; p++) {
        double c = A + (p + 0.5) * h;
        for (int k = 0; k < 10; k++)
            s += gl_w[k] * 0.5 * h * g(c + 0.5 * h * gl_x[k], ctx);
    }
    return s;
}

typedef struct { trig_basis b; size_t j, k; const double *f; size_t M; } qctx;
static double entry_fn(double th, void *c)
{
    qctx *q = c;
    return phi(q->b, q->j, th) * phi(q->b, q->k, th) * weight(q->b, th);
}
static double square_fn(double th, void *c)
{
    qctx *q = c;
    double s = 0;
    for (size_t j = 0; j < q->M; j++)
        s += q->f[j] * phi(q->b, j, th);
    return s * s * weight(q->b, th);
}
static double mass_fn(double th, void *c)
{
    qctx *q = c;
    double w = weight(q->b, th);
    return q->b == TRIG_SIN ? w * sin(th) * sin(th) : w;
}

START_TEST(gram_entries_and_forms)
{
    test_rng_init(test_seed() + 71);
    const trig_basis bases[4] = { TRIG_COS, TRIG_COS_SIN, TRIG_SIN, TRIG_COS_SIN3 };
    const double pieces[4][2] = { { 0.0, 0.01 }, { 0.01, 0.0375 }, { 0.25, 0.625 }, { 0.0, 1.0 } };
    size_t M = 40;
    for (int bi = 0; bi < 4; bi++)
        for (int pi = 0; pi < 4; pi++) {
            trig_gram_t G;
            ck_assert_int_eq(trig_gram(bases[bi], M, pieces[pi][0], pieces[pi][1], &G), AR_OK);
            ck_assert(G.rad >= 0 && G.rad <= 1e-15 * G.gmax + 1e-300);
            double maxdiff = 0, scale = 0;
            for (size_t j = 0; j < M; j += 3)
                for (size_t k = 0; k < M; k += 5) {
                    qctx q = { bases[bi], j, k, NULL, 0 };
                    double ref = quad(entry_fn, &q, pieces[pi][0], pieces[pi][1], 400);
                    maxdiff = fmax(maxdiff, fabs(ref - G.G[j + k * M]));
                    scale = fmax(scale, fabs(ref));
                    ck_assert(G.G[j + k * M] == G.G[k + j * M]);
                }
            ck_assert_msg(maxdiff <= 1e-12 * fmax(scale, 1e-3), "basis %d piece %d: Gram entries off by %g", bi, pi,
                          maxdiff);
            ck_assert(G.gmax >= 0.999 * scale);
            /* the quadratic form is the integral of the square, and >= 0 */
            double f[40];
            for (size_t j = 0; j < M; j++)
                f[j] = 2 * test_unif() - 1;
            double form = 0;
            for (size_t j = 0; j < M; j++)
                for (size_t k = 0; k < M; k++)
                    form += f[j] * G.G[j + k * M] * f[k];
            qctx q = { bases[bi], 0, 0, f, M };
            double ref = quad(square_fn, &q, pieces[pi][0], pieces[pi][1], 400);
            ck_assert_msg(fabs(form - ref) <= 1e-10 * fmax(ref, 1e-6), "basis %d piece %d: form %g vs %g", bi, pi,
                          form, ref);
            double mass = quad(mass_fn, &q, pieces[pi][0], pieces[pi][1], 400);
            ck_assert_msg(fabs(G.nu_up - mass) <= 1e-12 * mass + 1e-300,   /* the reference quadrature is good to ~1e-14 */
                          "basis %d piece %d: mass %.17g vs %.17g", bi, pi, G.nu_up, mass);
            trig_gram_clear(&G);
        }
    /* whole-interval masses of the normalised measures are 1 */
    for (int bi = 0; bi < 4; bi++) {
        trig_gram_t G;
        ck_assert_int_eq(trig_gram(bases[bi], 2, 0.0, 1.0, &G), AR_OK);
        ck_assert(fabs(G.nu_up - 1.0) < 1e-14);
        trig_gram_clear(&G);
    }
}
END_TEST

START_TEST(gram_bad_input)
{
    trig_gram_t G;
    ck_assert_int_eq(trig_gram(TRIG_COS, 0, 0.0, 1.0, &G), AR_EINVAL);
    ck_assert_int_eq(trig_gram(TRIG_COS, 4, 0.5, 0.5, &G), AR_EINVAL);
    ck_assert_int_eq(trig_gram(TRIG_COS, 4, -0.1, 0.5, &G), AR_EINVAL);
    ck_assert_int_eq(trig_gram(TRIG_COS, 4, 0.1, 1.5, &G), AR_EINVAL);
    ck_assert_int_eq(trig_gram((trig_basis)7, 4, 0.1, 0.5, &G), AR_EINVAL);
    ck_assert_int_eq(trig_gram(TRIG_SIN, 4, 0.1, NAN, &G), AR_EINVAL);
}
END_TEST

Suite *suite_trig_gram(void)
{
    Suite *s = suite_create("trig_gram");
    TEST_TCASE(tc, "trig_gram");
    tcase_add_test(tc, gram_entries_and_forms);
    tcase_add_test(tc, gram_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
