/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_ball_harmonic.c -- the shells-continuum upper certificate of
 * claim B (proofs-notes/claim-B.md section 8).
 *
 * The certified row errors are compared with an independent computation of
 * the same approximant's row errors: direct double evaluation of the kernel
 * e^{-beta |x - y|^2 / 2} and of B from its factors with Gegenbauer
 * recurrences (no Bessel function, no trigonometric conversion, no Gram
 * matrix), integrated over the angle by composite Gauss-Legendre.  The
 * certificate must never be below that (up to the quadrature's own ~1e-7)
 * and must be tight (within 20 %).  A damaged candidate must be caught, and
 * the rank must stay within 2x of the dense SVD of a fine weighted lattice. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "base/config.h"
#include "testutil.h"
#include "constructions/pointsets/ball.h"
#include "constructions/pointsets/ball_shells.h"
#include "theory/brackets/route.h"
#include "theory/certificates/cert_ball_harmonic.h"
#include "theory/certificates/cert_ball_harmonic_impl.h"

static const double gl_x[10] = { -0.9739065285171717, -0.8650633666889845, -0.6794095682990244,
                                  -0.4333953941292472, -0.1488743389816312, 0.1488743389816312,
                                  0.4333953941292472, 0.6794095682990244, 0.8650633666889845,
                                  0.9739065285171717 };
static const double gl_w[10] = { 0.0666713443086881, 0.1494513491505806, 0.2190863625159820,
                                 0.2692667193099963, 0.2955242247147529, 0.2955242247147529,
                                 0.2692667193099963, 0.2190863625159820, 0.1494513491505806,
                                 0.0666713443086881 };

/* P_l(cos th) for l = 0..L, normalised P_l(1) = 1 (d = 2: cos; 3: Legendre; 4: U_l / (l + 1);
 * 5: C^{3/2}_l / ((l + 1)(l + 2) / 2) by the three-term recurrence
 * (l + 1) C_{l+1} = (2l + 3) t C_l - (l + 2) C_{l-1}, no trigonometric form) */
static void gegen(int d, size_t L, double th, double *P)
{
    double t = cos(th);
    if (d == 2) {
        for (size_t l = 0; l <= L; l++)
            P[l] = cos((double)l * th);
        return;
    }
    if (d == 5) {
        double a = 1, b = 3 * t;
        P[0] = 1;
        if (L >= 1)
            P[1] = t;
        for (size_t l = 1; l < L; l++) {
            double c = ((2.0 * l + 3) * t * b - (double)(l + 2) * a) / (double)(l + 1);
            a = b;
            b = c;
            P[l + 1] = c / (0.5 * (double)(l + 2) * (double)(l + 3));
        }
        return;
    }
    double a = 1, b = d == 3 ? t : 2 * t;
    P[0] = 1;
    if (L >= 1)
        P[1] = d == 3 ? t : b / 2;
    for (size_t l = 1; l < L; l++) {
        double c = d == 3 ? ((2.0 * l + 1) * t * b - (double)l * a) / (double)(l + 1) : 2 * t * b - a;
        a = b;
        b = c;
        P[l + 1] = d == 3 ? c : c / (double)(l + 2);
    }
}

static double nu_density(int d, double th)
{
    return d == 2 ? 1.0 / M_PI : d == 3 ? 0.5 * sin(th) : d == 4 ? 2.0 / M_PI * sin(th) * sin(th)
         : 0.75 * sin(th) * sin(th) * sin(th);
}

static double mult(int d, size_t l)
{
    return d == 2 ? (l ? 2.0 : 1.0) : d == 3 ? 2.0 * l + 1 : d == 4 ? (double)((l + 1) * (l + 1))
         : (double)((l + 1) * (l + 2) * (2 * l + 3) / 6);
}

/* Row errors of B = sum_l N_l (X_l Y_l^T) P_l by quadrature (independent of the certificate). */
static void quad_row_errors(const ball_shells_t *S, const size_t *R, double *const *X, double *const *Y, size_t L,
                            double *row)
{
    int d = S->d;
    size_t Q = S->Q;
    const int npan = 1500;
    double *P = malloc((L + 1) * sizeof(double));
    double *coef = malloc((L + 1) * sizeof(double));
    for (size_t q = 0; q < Q; q++) {
        double num = 0, Z = 0;
        for (size_t qp = 0; qp < Q; qp++) {
            for (size_t l = 0; l <= L; l++) {
                double s = 0;
                for (size_t k = 0; k < R[l]; k++)
                    s += X[l][q + Q * k] * Y[l][qp + Q * k];
                coef[l] = mult(d, l) * s;
            }
            double r = S->radius[q], rp = S->radius[qp], h = M_PI / npan, eint = 0, kint = 0;
            for (int pn = 0; pn < npan; pn++)
                for (int j = 0; j < 10; j++) {
                    double th = (pn + 0.5) * h + 0.5 * h * gl_x[j], w = gl_w[j] * 0.5 * h * nu_density(d, th);
                    double K = exp(-0.5 * S->beta * (r * r + rp * rp - 2 * r * rp * cos(th)));
                    gegen(d, L, th, P);
                    double B = 0;
                    for (size_t l = 0; l <= L; l++)
                        B += coef[l] * P[l];
                    eint += w * fabs(K - B);
                    kint += w * K;
                }
            num += S->weight[qp] * eint;
            Z += S->weight[qp] * kint;
        }
        row[q] = num / Z;
    }
    free(P);
    free(coef);
}

START_TEST(test_shells_object)
{
    ball_shells_t S;
    ck_assert_int_eq(ball_shells_make(&S, 3, 100.0, 0.0, 0.5, 1), AR_OK);
    ck_assert_uint_eq(S.Q, 20);                       /* ceil(sqrt(100) / 0.5) */
    ck_assert(S.h_sqrt_beta <= 0.5 + 1e-15);
    for (size_t q = 0; q < S.Q; q++) {
        ck_assert(fabs(S.radius[q] - (q + 0.5) / 20.0) < 1e-15);
        /* weights: cell volumes relative to the outermost */
        double a = q / 20.0, b = (q + 1) / 20.0, v = (b * b * b - a * a * a) / (1 - pow(19 / 20.0, 3));
        ck_assert(fabs(S.weight[q] - v) < 1e-13 * v);
    }
    ball_shells_clear(&S);
    /* unweighted: g_q = volume e^{beta r^2 / 2} relative to the largest */
    ck_assert_int_eq(ball_shells_make(&S, 2, 50.0, 0.5, 1.0, 0), AR_OK);
    ck_assert_uint_eq(S.Q, (size_t)ceil(0.5 * sqrt(50.0)));
    ck_assert(fabs(S.weight[S.Q - 1] - 1.0) < 1e-15 && S.weight[0] < S.weight[S.Q - 1]);
    ball_shells_clear(&S);
    ck_assert_int_eq(ball_shells_make(&S, 1, 10, 0, 0.5, 1), AR_EINVAL);
    ck_assert_int_eq(ball_shells_make(&S, 3, -1, 0, 0.5, 1), AR_EINVAL);
    ck_assert_int_eq(ball_shells_make(&S, 3, 10, 1.0, 0.5, 1), AR_EINVAL);
    ck_assert_int_eq(ball_shells_make(&S, 3, 10, 0, 0.0, 1), AR_EINVAL);
    ck_assert_int_eq(ball_shells_make(&S, 3, 1e12, 0, 1e-3, 1), AR_EINVAL);
}
END_TEST

START_TEST(test_bound_vs_quadrature)
{
    const int ds[5] = { 2, 3, 4, 5, 5 };
    const double betas[5] = { 40.0, 30.0, 15.0, 12.0, 40.0 };
    for (int c = 0; c < 5; c++) {
        ball_shells_t S;
        ck_assert_int_eq(ball_shells_make(&S, ds[c], betas[c], 0.0, 0.5, 1), AR_OK);
        ball_harmonic_opts_t o;
        ball_harmonic_opts_default(&o);
        o.keep_factors = 1;
        ball_harmonic_cert_t C;
        ck_assert_int_eq(ball_harmonic_upper(&S, 0.1, &o, &C), AR_OK);
        ck_assert_msg(C.certified && C.err <= 0.1, "d=%d: not certified (err %g)", ds[c], C.err);
        size_t rank = 0;
        for (size_t l = 0; l <= C.Lp; l++)
            rank += (size_t)mult(ds[c], l) * C.R[l];
        ck_assert_uint_eq(rank, C.rank);
        double *row = calloc(S.Q, sizeof(double));
        quad_row_errors(&S, C.R, C.X, C.Y, C.Lp, row);
        double worst_ratio = 0;
        for (size_t q = 0; q < S.Q; q++) {
            ck_assert_msg(C.row_err[q] >= row[q] * (1 - 1e-6),
                          "d=%d sphere %zu: certified %.9g below the quadrature %.9g", ds[c], q, C.row_err[q], row[q]);
            worst_ratio = fmax(worst_ratio, C.row_err[q] / row[q]);
        }
        ck_assert_msg(worst_ratio <= 1.2, "d=%d: certificate %.3fx the quadrature (loose)", ds[c], worst_ratio);
        fprintf(stderr, "ball_harmonic d=%d beta=%g: rank %zu (Q=%zu, L=%lu), err %.4f, max cert/quad %.4f\n", ds[c],
                betas[c], C.rank, C.Q, C.L, C.err, worst_ratio);
        free(row);
        ball_harmonic_cert_clear(&C);
        ball_shells_clear(&S);
    }
}
END_TEST

/* A damaged candidate (degree 0 and 1 factors scaled by 1.03) is caught:
 * its certified error rises above the good one's and is still >= its own
 * quadrature error; dropping a degree's term entirely is caught too. */
START_TEST(test_bound_detects_damage)
{
    ball_shells_t S;
    ck_assert_int_eq(ball_shells_make(&S, 3, 30.0, 0.0, 0.5, 1), AR_OK);
    ball_harmonic_opts_t o;
    ball_harmonic_opts_default(&o);
    o.keep_factors = 1;
    ball_harmonic_cert_t C;
    ck_assert_int_eq(ball_harmonic_upper(&S, 0.1, &o, &C), AR_OK);
    bh_setup_t B;
    ck_assert_int_eq(bh_setup_init(&B, &S, 0.1, 1e-6, 16), AR_OK);
    ck_assert_uint_eq(B.Lp, C.Lp);
    double *row = calloc(S.Q, sizeof(double)), *qrow = calloc(S.Q, sizeof(double)), err, err0, tm;
    ck_assert_int_eq(bh_certify(&B, C.R, C.X, C.Y, row, &err0, &tm), AR_OK);
    ck_assert(fabs(err0 - C.err) <= 1e-12 * C.err);
    for (int l = 0; l < 2; l++)
        for (size_t i = 0; i < S.Q * C.R[l]; i++)
            C.X[l][i] *= 1.03;
    ck_assert_int_eq(bh_certify(&B, C.R, C.X, C.Y, row, &err, &tm), AR_OK);
    quad_row_errors(&S, C.R, C.X, C.Y, C.Lp, qrow);
    ck_assert_msg(err > err0 + 0.005, "damage not seen: %g vs %g", err, err0);
    for (size_t q = 0; q < S.Q; q++)
        ck_assert(row[q] >= qrow[q] * (1 - 1e-6));
    /* drop degree 2 entirely */
    size_t R2 = C.R[2];
    C.R[2] = 0;
    ck_assert_int_eq(bh_certify(&B, C.R, C.X, C.Y, row, &err, &tm), AR_OK);
    quad_row_errors(&S, C.R, C.X, C.Y, C.Lp, qrow);
    ck_assert(err > 0.1);
    for (size_t q = 0; q < S.Q; q++)
        ck_assert(row[q] >= qrow[q] * (1 - 1e-6));
    C.R[2] = R2;
    free(row);
    free(qrow);
    bh_setup_clear(&B);
    ball_harmonic_cert_clear(&C);
    ball_shells_clear(&S);
}
END_TEST

/* The shells continuum's certified rank against the dense SVD route of a
 * fine weighted lattice of the same disk (h sqrt(beta) ~ 0.3): within 2x. */
START_TEST(test_rank_vs_dense_lattice)
{
    double beta = 30.0;
    ball_shells_t S;
    ck_assert_int_eq(ball_shells_make(&S, 2, beta, 0.0, 0.5, 1), AR_OK);
    ball_harmonic_cert_t C;
    ck_assert_int_eq(ball_harmonic_upper(&S, 0.1, NULL, &C), AR_OK);
    ck_assert(C.certified);
    ball_spec_t sp;
    ball_spec_default(&sp, BALL_DENSE, 2, beta);
    sp.rho0 = 0.0;
    sp.npoints = 1000;
    pointset_t P;
    memset(&P, 0, sizeof P);
    ck_assert_int_eq(ball_generate(&P, &sp), AR_OK);
    route_result_t rr;
    ck_assert_int_eq(route_bracket(&P, &P, beta, 0.1, NULL, &rr), AR_OK);
    fprintf(stderr, "ball_harmonic d=2 beta=%g: continuum rank %zu, lattice (%zu points) bracket [%zu, %zu]\n", beta,
            C.rank, P.n, rr.b.lower, rr.b.upper);
    ck_assert_msg(C.rank <= 2 * rr.b.upper && 2 * C.rank >= rr.b.upper, "continuum %zu vs lattice upper %zu",
                  C.rank, rr.b.upper);
    pointset_clear(&P);
    ball_harmonic_cert_clear(&C);
    ball_shells_clear(&S);
}
END_TEST

/* Past the sphere polynomial's old cliff (issue 36: e^{-2 beta} underflows a
 * double from beta ~ 372): the shells continuum of the CLI's default shell
 * (rho0 = sqrt(3)/2) in d = 3 at beta = 640 certifies, and its rank is not
 * below the rank certified at beta = 320. */
START_TEST(test_past_cliff)
{
    size_t rank[2];
    double betas[2] = {320.0, 640.0};
    for (int t = 0; t < 2; t++) {
        ball_shells_t S;
        ck_assert_int_eq(ball_shells_make(&S, 3, betas[t], 0.8660254037844386, 0.5, 1), AR_OK);
        ball_harmonic_cert_t C;
        ck_assert_msg(ball_harmonic_upper(&S, 0.1, NULL, &C) == AR_OK, "beta %g: %s", betas[t], ar_error_get());
        ck_assert_msg(C.certified && C.err <= 0.1, "beta %g: certified=%d err=%g", betas[t], C.certified, C.err);
        rank[t] = C.rank;
        ball_harmonic_cert_clear(&C);
        ball_shells_clear(&S);
    }
    ck_assert_msg(rank[1] >= rank[0], "rank fell with beta: %zu at 320, %zu at 640", rank[0], rank[1]);
}
END_TEST

/* issue 35: the certificate runs its degrees and pieces side by side; every certified number (rank,
 * degrees, R_l, tau, the error and every row error, the evaluations) is the same bits for every
 * thread count, d = 2..5. */
START_TEST(test_thread_counts)
{
    struct { int d; double beta; } cs[] = { {2, 100.0}, {3, 60.0}, {4, 30.0}, {5, 20.0} };
    for (size_t it = 0; it < sizeof cs / sizeof cs[0]; it++) {
        ball_shells_t S;
        ck_assert_int_eq(ball_shells_make(&S, cs[it].d, cs[it].beta, 0.0, 0.5, 1), AR_OK);
        ball_harmonic_cert_t C1;
        for (size_t t = 0; t < TEST_NTHREAD_COUNTS; t++) {
            ar_config_t cfg;
            const ar_config_t *prev = test_threads_install(&cfg, TEST_THREAD_COUNTS[t]);
            ball_harmonic_cert_t C;
            ck_assert_int_eq(ball_harmonic_upper(&S, 0.1, NULL, t ? &C : &C1), AR_OK);
            ar_config_install(prev);
            if (t == 0) {
                ck_assert(C1.certified);
                continue;
            }
            ck_assert_msg(C.rank == C1.rank && C.L == C1.L && C.Lp == C1.Lp && C.evals == C1.evals &&
                              C.pieces == C1.pieces && C.certified == C1.certified &&
                              memcmp(&C.err, &C1.err, sizeof C.err) == 0 &&
                              memcmp(&C.tau, &C1.tau, sizeof C.tau) == 0 &&
                              memcmp(&C.tail_max, &C1.tail_max, sizeof C.tail_max) == 0 &&
                              memcmp(C.R, C1.R, (C1.Lp + 1) * sizeof *C.R) == 0 &&
                              memcmp(C.row_err, C1.row_err, C1.Q * sizeof *C.row_err) == 0,
                          "d=%d beta=%g, %d threads: rank %zu err %a tau %a evals %u; one thread: %zu %a %a %u",
                          cs[it].d, cs[it].beta, TEST_THREAD_COUNTS[t], C.rank, C.err, C.tau, C.evals, C1.rank,
                          C1.err, C1.tau, C1.evals);
            ball_harmonic_cert_clear(&C);
        }
        ball_harmonic_cert_clear(&C1);
        ball_shells_clear(&S);
    }
}
END_TEST

START_TEST(test_bad_input)
{
    ball_shells_t S;
    ck_assert_int_eq(ball_shells_make(&S, 3, 20.0, 0.0, 0.5, 1), AR_OK);
    ball_harmonic_cert_t C;
    ck_assert_int_eq(ball_harmonic_upper(&S, 0.0, NULL, &C), AR_EINVAL);
    ck_assert_int_eq(ball_harmonic_upper(&S, 1.0, NULL, &C), AR_EINVAL);
    ck_assert_int_eq(ball_harmonic_upper(&S, NAN, NULL, &C), AR_EINVAL);
    ball_harmonic_opts_t o;
    ball_harmonic_opts_default(&o);
    o.reweight = 9;
    ck_assert_int_eq(ball_harmonic_upper(&S, 0.1, &o, &C), AR_EINVAL);
    ball_shells_clear(&S);
    ck_assert_int_eq(ball_shells_make(&S, 6, 20.0, 0.0, 0.5, 1), AR_OK);
    ck_assert_int_eq(ball_harmonic_upper(&S, 0.1, NULL, &C), AR_EINVAL);
    ball_shells_clear(&S);
    /* larger eps never needs more rank */
    ck_assert_int_eq(ball_shells_make(&S, 3, 20.0, 0.0, 0.5, 1), AR_OK);
    ball_harmonic_cert_t C1, C2;
    ck_assert_int_eq(ball_harmonic_upper(&S, 0.05, NULL, &C1), AR_OK);
    ck_assert_int_eq(ball_harmonic_upper(&S, 0.2, NULL, &C2), AR_OK);
    ck_assert(C1.certified && C2.certified && C2.rank <= C1.rank);
    ball_harmonic_cert_clear(&C1);
    ball_harmonic_cert_clear(&C2);
    ball_shells_clear(&S);
}
END_TEST

Suite *suite_cert_ball_harmonic(void)
{
    Suite *s = suite_create("cert_ball_harmonic");
    TEST_TCASE(tc, "cert_ball_harmonic");
    tcase_add_test(tc, test_shells_object);
    tcase_add_test(tc, test_bound_vs_quadrature);
    tcase_add_test(tc, test_bound_detects_damage);
    tcase_add_test(tc, test_thread_counts);
    tcase_add_test(tc, test_rank_vs_dense_lattice);
    tcase_add_test(tc, test_past_cliff);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
