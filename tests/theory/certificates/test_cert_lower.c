/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_lower.c -- lower certificates (THEORY 3.4): soundness against
 * exact rational arithmetic on small matrices whose double image is taken
 * as an exact point of the enclosure, the exact 2x2 eps-rank formula, both
 * certification paths (Varah / verified inverse norm), and full rank on
 * well-separated packings. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <flint/fmpz.h>
#include <flint/fmpq.h>
#include <flint/fmpq_mat.h>
#include "testutil.h"
#include "numerics/rng.h"
#include "numerics/softmax.h"
#include "numerics/fps.h"
#include "constructions/pointsets/pointset.h"
#include "constructions/pointsets/sphere.h"
#include "theory/certificates/cert_lower.h"

/* exact rational value of a finite double */
static void fmpq_set_double(fmpq_t q, double x)
{
    int e;
    double mant = frexp(x, &e);                 /* x = mant 2^e, |mant| in [0.5, 1) */
    fmpz_t num;
    fmpz_init(num);
    fmpz_set_d(num, ldexp(mant, 53));           /* integer, exact */
    fmpz_set(fmpq_numref(q), num);
    fmpz_one(fmpq_denref(q));
    if (e - 53 >= 0)
        fmpq_mul_2exp(q, q, (flint_bitcnt_t)(e - 53));
    else
        fmpq_div_2exp(q, q, (flint_bitcnt_t)(53 - e));
    fmpz_clear(num);
}

/* A crafted enclosure: a (m x n column-major) and rowerr given by the test */
static smx_t make_smx(size_t m, size_t n, double *a, double *rowerr)
{
    smx_t A;
    memset(&A, 0, sizeof A);
    A.m = m; A.n = n; A.a = a; A.rowerr = rowerr;
    A.maxerr = 0;
    for (size_t i = 0; i < m; i++)
        if (rowerr[i] > A.maxerr)
            A.maxerr = rowerr[i];
    A.prec = 53;
    return A;
}

/* Exact ||M^{-1}||_inf of the test matrix of rows S (m of them) whose column j lies in block
 * blk[j] (blk[j] == m: in no block), M = block sums of the double image.  Returns 0 if M is
 * singular (then *res untouched). */
static int exact_assign_invnorm(fmpq_t res, const double *a, size_t Am, size_t n, const size_t *rows, size_t m,
                                const size_t *blk)
{
    fmpq_mat_t M, Mi;
    fmpq_mat_init(M, (slong)m, (slong)m);
    fmpq_mat_init(Mi, (slong)m, (slong)m);
    fmpq_t x, rs;
    fmpq_init(x); fmpq_init(rs);
    for (size_t j = 0; j < n; j++) {
        if (blk[j] == m)
            continue;
        for (size_t t = 0; t < m; t++) {
            fmpq_set_double(x, a[rows[t] + j * Am]);
            fmpq_add(fmpq_mat_entry(M, (slong)t, (slong)blk[j]), fmpq_mat_entry(M, (slong)t, (slong)blk[j]), x);
        }
    }
    int ok = fmpq_mat_inv(Mi, M);
    if (ok) {
        fmpq_zero(res);
        for (size_t t = 0; t < m; t++) {
            fmpq_zero(rs);
            for (size_t u = 0; u < m; u++) {
                fmpq_abs(x, fmpq_mat_entry(Mi, (slong)t, (slong)u));
                fmpq_add(rs, rs, x);
            }
            if (fmpq_cmp(rs, res) > 0)
                fmpq_set(res, rs);
        }
    }
    fmpq_clear(x); fmpq_clear(rs);
    fmpq_mat_clear(M); fmpq_mat_clear(Mi);
    return ok;
}

/* The position of the largest a_{rows[t], j} over t < m (ties to the first). */
static size_t argmax_row(const double *a, size_t Am, size_t j, const size_t *rows, size_t m)
{
    size_t b = 0;
    for (size_t t = 1; t < m; t++)
        if (a[rows[t] + j * Am] > a[rows[b] + j * Am])
            b = t;
    return b;
}

/* Exact ||M^{-1}||_inf for the block test matrix of rows S (argmax blocks,
 * ties to the first), M = block sums of the double image.  Returns 0 if M is
 * singular (then *res untouched). */
static int exact_block_invnorm(fmpq_t res, const double *a, size_t Am, size_t n,
                               const size_t *rows, size_t m)
{
    size_t *blk = malloc(n * sizeof *blk);
    for (size_t j = 0; j < n; j++)
        blk[j] = argmax_row(a, Am, j, rows, m);
    int ok = exact_assign_invnorm(res, a, Am, n, rows, m, blk);
    free(blk);
    return ok;
}

/* 2x2 symmetric stochastic [[a,1-a],[1-a,a]]: rank_eps = 2 iff eps < 2a - 1.
 * Any stochastic symmetric A' within rowerr of the image has 2a'-1 >=
 * 2a-1-rowerr, so a certificate is sound only if eps + rowerr < 2a - 1. */
START_TEST(test_2x2_exact)
{
    rng_t r;
    rng_init(&r, test_seed() + 501);
    int certified = 0;
    for (int it = 0; it < 4000; it++) {
        double av = 0.5 + 0.5 * rng_uniform(&r);
        double a[4] = { av, 1 - av, 1 - av, av };          /* 1 - av exact (Sterbenz) */
        double re = (it % 3 == 0) ? 0.0 : ldexp(rng_uniform(&r), -20 - (int)(rng_u64(&r) % 30));
        double rowerr[2] = { re, re };
        double gap = 2 * av - 1;
        double eps = (it % 2) ? rng_uniform(&r) : gap * (0.9 + 0.2 * rng_uniform(&r));
        if (!(eps > 0 && eps < 1))
            continue;
        smx_t A = make_smx(2, 2, a, rowerr);
        size_t rows[2] = { 0, 1 }, cols[2] = { 0, 1 };
        lower_cert_t c, dd;
        ck_assert_int_eq(lower_blocks_rows(&A, rows, 2, eps, &c), AR_OK);
        ck_assert_int_eq(lower_diagdom(&A, rows, cols, 2, eps, &dd), AR_OK);
        /* exact: eps + re + 1 < 2 av ? (all dyadic, fmpq) */
        fmpq_t lhs, rhs, x;
        fmpq_init(lhs); fmpq_init(rhs); fmpq_init(x);
        fmpq_set_double(lhs, eps);
        fmpq_set_double(x, re);
        fmpq_add(lhs, lhs, x);
        fmpq_set_si(x, 1, 1);
        fmpq_add(lhs, lhs, x);
        fmpq_set_double(rhs, av);
        fmpq_mul_2exp(rhs, rhs, 1);
        int truth = fmpq_cmp(lhs, rhs) < 0;
        fmpq_clear(lhs); fmpq_clear(rhs); fmpq_clear(x);
        for (int v = 0; v < 2; v++) {
            const lower_cert_t *cc = v ? &dd : &c;
            ck_assert_msg(cc->rank == 1 || cc->rank == 2, "rank %zu", cc->rank);
            ck_assert_msg(cc->rank == 1 || truth,
                          "seed=%llu it=%d %s: certified rank 2 for a=%a eps=%a rowerr=%a, but eps+rowerr >= 2a-1",
                          (unsigned long long)test_seed(), it, v ? "lower_diagdom" : "lower_blocks_rows",
                          av, eps, re);
            /* completeness with a 1% margin */
            if (eps + re < 0.99 * gap)
                ck_assert_msg(cc->rank == 2, "seed=%llu it=%d %s: a=%a eps=%a rowerr=%a not certified",
                              (unsigned long long)test_seed(), it, v ? "diagdom" : "blocks", av, eps, re);
        }
        certified += c.rank == 2;
    }
    ck_assert_int_gt(certified, 100);
}
END_TEST

/* Random small nonnegative matrices, rows S of size 2..3 (m = 3 or 4 rows in
 * A, n = 3..6 columns): whenever the code certifies rank m_S, the exact block
 * test matrix of the image satisfies (eps + max rowerr) ||M^{-1}||_inf < 1
 * (a necessary condition for the claim to hold for every A in the
 * enclosure) and the reported invnorm bounds ||M^{-1}||_inf.  Both paths
 * must occur; with a 5% margin the code must certify. */
START_TEST(test_small_fmpq_soundness)
{
    rng_t r;
    rng_init(&r, test_seed() + 502);
    int n_diag = 0, n_inv = 0, n_fail = 0;
    for (int it = 0; it < 3000; it++) {
        size_t Am = 3 + rng_u64(&r) % 2, n = 3 + rng_u64(&r) % 4;
        size_t mS = 2 + rng_u64(&r) % 2;
        double a[4 * 6], rowerr[4];
        double p = 0.3 + 5 * rng_uniform(&r);
        for (size_t i = 0; i < Am; i++) {
            double s = 0;
            for (size_t j = 0; j < n; j++) {
                a[i + j * Am] = pow(rng_uniform(&r), p);
                if (j == i % n)
                    a[i + j * Am] += rng_uniform(&r) * 2;       /* some diagonal weight */
                s += a[i + j * Am];
            }
            for (size_t j = 0; j < n; j++)
                a[i + j * Am] /= s;
            rowerr[i] = (it % 4 == 0) ? 0.0 : ldexp(rng_uniform(&r), -10 - (int)(rng_u64(&r) % 40));
        }
        size_t rows[3];
        size_t perm[4] = { 0, 1, 2, 3 };
        for (size_t t = Am - 1; t > 0; t--) {
            size_t u = rng_u64(&r) % (t + 1), tmp = perm[t];
            perm[t] = perm[u]; perm[u] = tmp;
        }
        for (size_t t = 0; t < mS; t++)
            rows[t] = perm[t];
        double eps = rng_uniform(&r) * (it % 2 ? 1.0 : 0.3);
        if (!(eps > 0))
            continue;
        smx_t A = make_smx(Am, n, a, rowerr);
        lower_cert_t c;
        ck_assert_int_eq(lower_blocks_rows(&A, rows, mS, eps, &c), AR_OK);
        double emax = 0;
        for (size_t t = 0; t < mS; t++)
            if (rowerr[rows[t]] > emax)
                emax = rowerr[rows[t]];
        fmpq_t inv, lhs, x;
        fmpq_init(inv); fmpq_init(lhs); fmpq_init(x);
        int invertible = exact_block_invnorm(inv, a, Am, n, rows, mS);
        fmpq_set_double(lhs, eps);
        fmpq_set_double(x, emax);
        fmpq_add(lhs, lhs, x);
        fmpq_mul(lhs, lhs, inv);                     /* (eps + e) ||M^{-1}|| */
        if (c.rank == mS) {
            ck_assert_msg(invertible && fmpq_cmp_ui(lhs, 1) < 0,
                          "seed=%llu it=%d m=%zu n=%zu |S|=%zu eps=%a: certified (%s) but exact "
                          "(eps+rowerr)||M^-1|| = %g (invertible %d)", (unsigned long long)test_seed(), it,
                          Am, n, mS, eps, c.method, fmpq_get_d(lhs), invertible);
            fmpq_set_double(x, c.invnorm);
            ck_assert_msg(fmpq_cmp(x, inv) >= 0, "seed=%llu it=%d: reported invnorm %.17g < exact %.17g",
                          (unsigned long long)test_seed(), it, c.invnorm, fmpq_get_d(inv));
            if (strcmp(c.method, "diagdom") == 0) n_diag++;
            else if (strcmp(c.method, "invnorm") == 0) n_inv++;
            else ck_abort_msg("certified with method %s", c.method);
        } else {
            ck_assert_msg(c.rank == 1 && strcmp(c.method, "trivial") == 0, "rank %zu method %s", c.rank, c.method);
            n_fail++;
            /* completeness: a clear margin must be certified */
            if (invertible && emax < 1e-6) {
                fmpq_set_si(x, 21, 20);
                fmpq_mul(lhs, lhs, x);
                ck_assert_msg(fmpq_cmp_ui(lhs, 1) >= 0,
                              "seed=%llu it=%d m=%zu n=%zu |S|=%zu eps=%a: 1.05 (eps+e)||M^-1|| = %g < 1 "
                              "but not certified", (unsigned long long)test_seed(), it, Am, n, mS, eps,
                              fmpq_get_d(lhs));
            }
        }
        fmpq_clear(inv); fmpq_clear(lhs); fmpq_clear(x);
    }
    ck_assert_msg(n_diag > 50 && n_inv > 50 && n_fail > 50, "paths exercised: diagdom %d invnorm %d failed %d",
                  n_diag, n_inv, n_fail);
}
END_TEST

/* lower_diagdom against the exact THEORY 3.4(a) condition */
START_TEST(test_diagdom_exact)
{
    rng_t r;
    rng_init(&r, test_seed() + 503);
    int yes = 0, no = 0;
    for (int it = 0; it < 3000; it++) {
        size_t Am = 2 + rng_u64(&r) % 4, n = Am + rng_u64(&r) % 3;
        double a[5 * 7], rowerr[5];
        for (size_t i = 0; i < Am; i++) {
            for (size_t j = 0; j < n; j++)
                a[i + j * Am] = rng_uniform(&r) * (j == i ? 2 + 10 * rng_uniform(&r) : 1.0);
            rowerr[i] = (it % 3 == 0) ? 0.0 : ldexp(rng_uniform(&r), -3 - (int)(rng_u64(&r) % 40));
        }
        size_t m = 1 + rng_u64(&r) % Am;
        size_t rows[5], cols[5];
        for (size_t t = 0; t < m; t++) {
            rows[t] = t;
            cols[t] = t;
        }
        double eps = rng_uniform(&r);
        if (!(eps > 0))
            continue;
        smx_t A = make_smx(Am, n, a, rowerr);
        lower_cert_t c;
        ck_assert_int_eq(lower_diagdom(&A, rows, cols, m, eps, &c), AR_OK);
        /* exact: for all t, a_tt - sum_{u != t} a_tu - rowerr_t > eps */
        int truth = 1;
        fmpq_t s, x;
        fmpq_init(s); fmpq_init(x);
        for (size_t t = 0; t < m; t++) {
            fmpq_set_double(s, a[t + t * Am]);
            for (size_t u = 0; u < m; u++)
                if (u != t) {
                    fmpq_set_double(x, a[t + u * Am]);
                    fmpq_sub(s, s, x);
                }
            fmpq_set_double(x, rowerr[t]);
            fmpq_sub(s, s, x);
            fmpq_set_double(x, eps);
            if (fmpq_cmp(s, x) <= 0)
                truth = 0;
        }
        fmpq_clear(s); fmpq_clear(x);
        ck_assert_msg(c.rank == (truth ? m : 1),
                      "seed=%llu it=%d m=%zu eps=%a: lower_diagdom rank %zu, exact condition %d",
                      (unsigned long long)test_seed(), it, m, eps, c.rank, truth);
        if (truth && m > 1) yes++;
        else if (!truth) no++;
    }
    ck_assert_msg(yes > 100 && no > 100, "diagdom yes %d no %d", yes, no);
}
END_TEST

/* The inverse-norm bound of lower_diagdom is rounded upward: invnorm >=
 * 1/minmargin exactly (fmpq), where minmargin is the exact smallest margin
 * a_tt - sum_{u != t} a_tu - rowerr_t.  Random 2x2 cases (a round-to-nearest
 * reciprocal falls below the exact one in about half of them), and cases
 * constructed so that the nearest double of 1/margin is strictly below it:
 * this fails whenever the division escapes the upward mode (GCC moving it
 * across fesetround). */
static void check_diagdom_inv(const double *a, const double *rowerr, size_t m, double eps,
                              int *certified, const char *what, int it)
{
    size_t rows[4] = {0, 1, 2, 3}, cols[4] = {0, 1, 2, 3};
    double aa[16], re[4];
    memcpy(aa, a, m * m * sizeof *aa);
    memcpy(re, rowerr, m * sizeof *re);
    smx_t A = make_smx(m, m, aa, re);
    lower_cert_t c;
    ck_assert_int_eq(lower_diagdom(&A, rows, cols, m, eps, &c), AR_OK);
    if (c.rank != m)
        return;
    (*certified)++;
    fmpq_t mg, s, x;
    fmpq_init(mg); fmpq_init(s); fmpq_init(x);
    for (size_t t = 0; t < m; t++) {
        fmpq_set_double(s, a[t + t * m]);
        for (size_t u = 0; u < m; u++)
            if (u != t) {
                fmpq_set_double(x, a[t + u * m]);
                fmpq_sub(s, s, x);
            }
        fmpq_set_double(x, rowerr[t]);
        fmpq_sub(s, s, x);
        if (t == 0 || fmpq_cmp(s, mg) < 0)
            fmpq_set(mg, s);
    }
    ck_assert(fmpq_sgn(mg) > 0);
    fmpq_inv(mg, mg);                        /* exact 1/minmargin */
    fmpq_set_double(x, c.invnorm);
    ck_assert_msg(fmpq_cmp(x, mg) >= 0,
                  "seed=%llu %s it=%d: diagdom invnorm %a below the exact 1/minmargin",
                  (unsigned long long)test_seed(), what, it, c.invnorm);
    fmpq_clear(mg); fmpq_clear(s); fmpq_clear(x);
}

START_TEST(test_diagdom_invnorm_upward)
{
    rng_t r;
    rng_init(&r, test_seed() + 907);
    int certified = 0;
    for (int it = 0; it < 200; it++) {
        double a[4], re[2] = {0, 0};
        a[0] = 0.5 + 0.5 * rng_uniform(&r);
        a[3] = 0.5 + 0.5 * rng_uniform(&r);
        a[1] = 0.25 * rng_uniform(&r);
        a[2] = 0.25 * rng_uniform(&r);
        if (it % 2)
            re[0] = re[1] = ldexp(rng_uniform(&r), -20);
        check_diagdom_inv(a, re, 2, 0.1, &certified, "random 2x2", it);
    }
    ck_assert_int_eq(certified, 200);
    /* constructed: exact margins (doubles) for which the nearest double of
     * the reciprocal is strictly below it (asserted below) */
    const double marg[] = {0.75, 0.375 + 0x1p-10, 0.7, 0.65};
    int below = 0;
    for (size_t t = 0; t < sizeof marg / sizeof marg[0]; t++) {
        double off = 0.0625;                 /* a = [[marg + off, off], [off, marg + off]] */
        double a[4] = {marg[t] + off, off, off, marg[t] + off}, re[2] = {0, 0};
        fmpq_t q, x;
        fmpq_init(q); fmpq_init(x);
        fmpq_set_double(q, marg[t]);
        fmpq_inv(q, q);
        fmpq_set_double(x, 1.0 / marg[t]);  /* round-to-nearest reciprocal */
        if (fmpq_cmp(x, q) < 0)
            below++;
        fmpq_clear(q); fmpq_clear(x);
        int cert = 0;
        check_diagdom_inv(a, re, 2, 0.1, &cert, "constructed", (int)t);
        ck_assert_int_eq(cert, 1);
    }
    ck_assert_msg(below == 4, "only %d constructed cases have RN(1/margin) below 1/margin", below);
}
END_TEST

/* packings at large beta: the block certificate gives full rank by
 * diagonal dominance; lower_blocks reports exactly the packing size, and
 * every length it reports is certified when re-checked. */
START_TEST(test_packing_full_rank)
{
    struct { size_t d; double theta, beta; size_t maxp; } cs[] = {
        { 2, 0.4, 80.0, 200 }, { 3, 0.5, 100.0, 60 }, { 4, 0.8, 60.0, 60 }, { 3, 0.25, 400.0, 150 },
    };
    for (size_t q = 0; q < sizeof cs / sizeof cs[0]; q++) {
        pointset_t P;
        memset(&P, 0, sizeof P);
        ck_assert_int_eq(sphere_packing(&P, cs[q].d, cs[q].theta, cs[q].maxp, test_seed() + q, 0), AR_OK);
        smx_t A;
        memset(&A, 0, sizeof A);
        ck_assert_int_eq(smx_compute(&A, P.x, P.n, P.x, P.n, P.d, NULL, cs[q].beta, 0, 1), AR_OK);
        size_t *order = malloc(P.n * sizeof *order);
        ck_assert_int_eq(fps_order(P.x, P.n, P.d, 0, order, NULL), AR_OK);
        lower_cert_t c, c2;
        ck_assert_int_eq(lower_blocks(&A, order, P.n, 0.5, &c), AR_OK);
        ck_assert_msg(c.rank == P.n && strcmp(c.method, "diagdom") == 0,
                      "packing d=%zu theta=%g beta=%g n=%zu: rank %zu method %s", cs[q].d, cs[q].theta,
                      cs[q].beta, P.n, c.rank, c.method);
        /* eps near 1: whatever length is reported re-certifies on its own */
        lower_cert_t c3;
        ck_assert_int_eq(lower_blocks(&A, order, P.n, 0.999, &c2), AR_OK);
        ck_assert_int_eq(lower_blocks_rows(&A, order, c2.rank, 0.999, &c3), AR_OK);
        ck_assert_msg(c3.rank == c2.rank && c2.rank >= 1, "eps 0.999: reported %zu, re-check %zu", c2.rank, c3.rank);
        free(order);
        smx_clear(&A);
        pointset_clear(&P);
    }
    /* dense Fibonacci set: the reported length re-certifies */
    pointset_t F;
    memset(&F, 0, sizeof F);
    ck_assert_int_eq(sphere_fibonacci(&F, 300), AR_OK);
    smx_t A;
    memset(&A, 0, sizeof A);
    ck_assert_int_eq(smx_compute(&A, F.x, F.n, F.x, F.n, 3, NULL, 30.0, 0, 1), AR_OK);
    size_t *order = malloc(F.n * sizeof *order);
    ck_assert_int_eq(fps_order(F.x, F.n, 3, 0, order, NULL), AR_OK);
    lower_cert_t c, c2;
    ck_assert_int_eq(lower_blocks(&A, order, F.n, 0.1, &c), AR_OK);
    ck_assert_msg(c.rank > 1 && c.rank < F.n, "fibonacci 300 beta 30: rank %zu", c.rank);
    ck_assert_int_eq(lower_blocks_rows(&A, order, c.rank, 0.1, &c2), AR_OK);
    ck_assert_msg(c2.rank == c.rank && strcmp(c2.method, c.method) == 0, "re-check %zu %s vs %zu %s",
                  c2.rank, c2.method, c.rank, c.method);
    free(order);
    smx_clear(&A);
    pointset_clear(&F);
}
END_TEST

START_TEST(test_bad_input)
{
    double a[4] = { 0.8, 0.2, 0.2, 0.8 }, re[2] = { 0, 0 };
    smx_t A = make_smx(2, 2, a, re);
    lower_cert_t c;
    size_t dup[2] = { 1, 1 }, oob[2] = { 0, 2 }, ok[2] = { 0, 1 };
    ck_assert_int_eq(lower_blocks_rows(&A, dup, 2, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(lower_blocks_rows(&A, oob, 2, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(lower_blocks_rows(&A, ok, 2, 0.0, &c), AR_EINVAL);
    ck_assert_int_eq(lower_blocks_rows(&A, ok, 2, 1.0, &c), AR_EINVAL);
    ck_assert_int_eq(lower_blocks_rows(&A, ok, 2, NAN, &c), AR_EINVAL);
    ck_assert_int_eq(lower_blocks(&A, dup, 2, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(lower_diagdom(&A, ok, dup, 2, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(lower_blocks(&A, ok, 2, 0.5, &c), AR_OK);
    ck_assert_int_eq(c.rank, 2);                       /* 0.5 < 2*0.8 - 1 = 0.6 */
    ck_assert_int_eq(lower_blocks(&A, ok, 2, 0.7, &c), AR_OK);
    ck_assert_int_eq(c.rank, 1);
}
END_TEST


/* lower_grow_cap: whenever it certifies, the exact block matrix of its reported rows (fmpq,
 * argmax blocks, ties to the first) is invertible with (eps + max rowerr) ||M^{-1}|| < 1 and the
 * reported invnorm bounds ||M^{-1}|| (Theorem 3 recomputed independently); a certificate never
 * exceeds a certified upper end passed as cap; it certifies non-trivially often. */
START_TEST(test_grow_fmpq_soundness)
{
    rng_t r;
    rng_init(&r, test_seed() + 517);
    int n_cert = 0;
    for (int it = 0; it < 400; it++) {
        size_t Am = 4 + rng_u64(&r) % 5, n = 5 + rng_u64(&r) % 6;
        double a[8 * 10], rowerr[8];
        double p = 0.5 + 6 * rng_uniform(&r);
        for (size_t i = 0; i < Am; i++) {
            double s = 0;
            for (size_t j = 0; j < n; j++) {
                a[i + j * Am] = pow(rng_uniform(&r), p);
                if (j == (i * 3) % n)
                    a[i + j * Am] += 3 * rng_uniform(&r);
                s += a[i + j * Am];
            }
            for (size_t j = 0; j < n; j++)
                a[i + j * Am] /= s;
            rowerr[i] = (it % 3 == 0) ? 0.0 : ldexp(rng_uniform(&r), -12 - (int)(rng_u64(&r) % 30));
        }
        size_t cand[8], rows[8];
        for (size_t t = 0; t < Am; t++)
            cand[t] = t;
        for (size_t t = Am - 1; t > 0; t--) {
            size_t u = rng_u64(&r) % (t + 1), tmp = cand[t];
            cand[t] = cand[u]; cand[u] = tmp;
        }
        double eps = 0.02 + 0.5 * rng_uniform(&r);
        size_t cap = it % 5 == 0 ? 2 + rng_u64(&r) % 3 : (size_t)-1;
        smx_t A = make_smx(Am, n, a, rowerr);
        lower_cert_t c;
        ck_assert_int_eq(lower_grow_cap(&A, cand, Am, eps, cap, &c, rows), AR_OK);
        ck_assert_uint_le(c.rank, cap);
        if (strcmp(c.method, "trivial") == 0) {
            ck_assert_uint_eq(c.rank, 1);
            continue;
        }
        n_cert++;
        double emax = 0;
        for (size_t t = 0; t < c.rank; t++)
            if (rowerr[rows[t]] > emax)
                emax = rowerr[rows[t]];
        fmpq_t inv, lhs, x;
        fmpq_init(inv); fmpq_init(lhs); fmpq_init(x);
        int invertible = exact_block_invnorm(inv, a, Am, n, rows, c.rank);
        fmpq_set_double(lhs, eps);
        fmpq_set_double(x, emax);
        fmpq_add(lhs, lhs, x);
        fmpq_mul(lhs, lhs, inv);
        ck_assert_msg(invertible && fmpq_cmp_ui(lhs, 1) < 0, "seed=%llu it=%d: grown set of %zu rows certified (%s) "
                      "but exact (eps+rowerr)||M^-1|| = %g", (unsigned long long)test_seed(), it, c.rank, c.method,
                      fmpq_get_d(lhs));
        fmpq_set_double(x, c.invnorm);
        ck_assert_msg(fmpq_cmp(x, inv) >= 0, "seed=%llu it=%d: reported invnorm %.17g < exact %.17g",
                      (unsigned long long)test_seed(), it, c.invnorm, fmpq_get_d(inv));
        fmpq_clear(inv); fmpq_clear(lhs); fmpq_clear(x);
    }
    ck_assert_msg(n_cert > 40, "only %d non-trivial grown certificates", n_cert);
    size_t bad[2] = { 0, 0 };
    double a2[4] = { 0.8, 0.2, 0.2, 0.8 }, re[2] = { 0, 0 };
    smx_t A2 = make_smx(2, 2, a2, re);
    lower_cert_t c2;
    ck_assert_int_eq(lower_grow_cap(&A2, bad, 2, 0.5, (size_t)-1, &c2, NULL), AR_EINVAL);   /* repeated row */
    bad[1] = 1;
    ck_assert_int_eq(lower_grow_cap(&A2, bad, 2, 0.5, (size_t)-1, &c2, NULL), AR_OK);
    ck_assert_uint_eq(c2.rank, 2);                    /* threshold 0.6 */
    ck_assert_int_eq(lower_grow_cap(&A2, bad, 2, 0.7, (size_t)-1, &c2, NULL), AR_OK);
    ck_assert_uint_eq(c2.rank, 1);
}
END_TEST

/* lower_weighted_cap on small random row-stochastic images: every certified (S, W) is recomputed in
 * exact rationals from the double image: ||W||_r1 <= 1 exactly, M = a_S W invertible with
 * (eps + max rowerr) ||M^{-1}||_inf < 1 (then every A within rowerr of the image is certified,
 * Theorem 3), and the reported bound is >= the exact ||M^{-1}||_inf.  Bad input is refused. */
START_TEST(test_weighted_fmpq_soundness)
{
    rng_t r;
    rng_init(&r, test_seed() + 733);
    int n_cert = 0, n_weighted = 0;
    for (int it = 0; it < 300; it++) {
        size_t Am = 4 + rng_u64(&r) % 5, n = 5 + rng_u64(&r) % 6;
        double a[8 * 10], rowerr[8], W[8 * 10];
        double p = 0.5 + 6 * rng_uniform(&r);
        for (size_t i = 0; i < Am; i++) {
            double s = 0;
            for (size_t j = 0; j < n; j++) {
                a[i + j * Am] = pow(rng_uniform(&r), p);
                if (j == (i * 3) % n)
                    a[i + j * Am] += 3 * rng_uniform(&r);
                s += a[i + j * Am];
            }
            for (size_t j = 0; j < n; j++)
                a[i + j * Am] /= s;
            rowerr[i] = (it % 3 == 0) ? 0.0 : ldexp(rng_uniform(&r), -12 - (int)(rng_u64(&r) % 30));
        }
        size_t cand[8], rows[8];
        for (size_t t = 0; t < Am; t++)
            cand[t] = t;
        for (size_t t = Am - 1; t > 0; t--) {
            size_t u = rng_u64(&r) % (t + 1), tmp = cand[t];
            cand[t] = cand[u]; cand[u] = tmp;
        }
        double eps = 0.02 + 0.5 * rng_uniform(&r);
        size_t first = rng_u64(&r) % 3;
        smx_t A = make_smx(Am, n, a, rowerr);
        lower_cert_t c;
        ck_assert_int_eq(lower_weighted_cap(&A, cand, Am, first, eps, (size_t)-1, &c, rows, W), AR_OK);
        if (strcmp(c.method, "trivial") == 0) {
            ck_assert_uint_eq(c.rank, 1);
            continue;
        }
        n_cert++;
        size_t s = c.rank;
        ck_assert_uint_gt(s, first);
        for (size_t t = 0; t < s; t++)
            ck_assert_uint_eq(rows[t], cand[t]);
        double emax = 0;
        for (size_t t = 0; t < s; t++)
            if (rowerr[rows[t]] > emax)
                emax = rowerr[rows[t]];
        fmpq_mat_t M, Mi;
        fmpq_mat_init(M, (slong)s, (slong)s);
        fmpq_mat_init(Mi, (slong)s, (slong)s);
        fmpq_t x, y, rs, inv, lhs;
        fmpq_init(x); fmpq_init(y); fmpq_init(rs); fmpq_init(inv); fmpq_init(lhs);
        int signed_w = 0;
        for (size_t j = 0; j < n; j++) {
            fmpq_zero(rs);
            for (size_t b = 0; b < s; b++) {
                double w = W[b + j * s];
                signed_w |= w < 0 || (w != 0 && w != 1);
                fmpq_set_double(x, fabs(w));
                fmpq_add(rs, rs, x);
            }
            ck_assert_msg(fmpq_cmp_ui(rs, 1) <= 0, "seed=%llu it=%d: row %zu of W has l1 norm %.17g > 1",
                          (unsigned long long)test_seed(), it, j, fmpq_get_d(rs));
        }
        n_weighted += signed_w;
        for (size_t t = 0; t < s; t++)
            for (size_t b = 0; b < s; b++) {
                fmpq_zero(rs);
                for (size_t j = 0; j < n; j++) {
                    fmpq_set_double(x, a[rows[t] + j * Am]);
                    fmpq_set_double(y, W[b + j * s]);
                    fmpq_mul(x, x, y);
                    fmpq_add(rs, rs, x);
                }
                fmpq_set(fmpq_mat_entry(M, (slong)t, (slong)b), rs);
            }
        int invertible = fmpq_mat_inv(Mi, M);
        ck_assert_msg(invertible, "seed=%llu it=%d: certified (%s) but M singular", (unsigned long long)test_seed(), it,
                      c.method);
        fmpq_zero(inv);
        for (size_t t = 0; t < s; t++) {
            fmpq_zero(rs);
            for (size_t u = 0; u < s; u++) {
                fmpq_abs(x, fmpq_mat_entry(Mi, (slong)t, (slong)u));
                fmpq_add(rs, rs, x);
            }
            if (fmpq_cmp(rs, inv) > 0)
                fmpq_set(inv, rs);
        }
        fmpq_set_double(lhs, eps);
        fmpq_set_double(x, emax);
        fmpq_add(lhs, lhs, x);
        fmpq_mul(lhs, lhs, inv);
        ck_assert_msg(fmpq_cmp_ui(lhs, 1) < 0, "seed=%llu it=%d: %zu rows certified (%s) but exact "
                      "(eps+rowerr)||M^-1|| = %g", (unsigned long long)test_seed(), it, s, c.method, fmpq_get_d(lhs));
        fmpq_set_double(x, c.invnorm);
        ck_assert_msg(fmpq_cmp(x, inv) >= 0, "seed=%llu it=%d: reported invnorm %.17g < exact %.17g",
                      (unsigned long long)test_seed(), it, c.invnorm, fmpq_get_d(inv));
        fmpq_clear(x); fmpq_clear(y); fmpq_clear(rs); fmpq_clear(inv); fmpq_clear(lhs);
        fmpq_mat_clear(M); fmpq_mat_clear(Mi);
    }
    ck_assert_msg(n_cert > 40 && n_weighted > 20, "only %d non-trivial weighted certificates (%d with weights)", n_cert,
                  n_weighted);
    size_t bad[2] = { 0, 0 };
    double a2[4] = { 0.8, 0.2, 0.2, 0.8 }, re[2] = { 0, 0 };
    smx_t A2 = make_smx(2, 2, a2, re);
    lower_cert_t c2;
    ck_assert_int_eq(lower_weighted_cap(&A2, bad, 2, 0, 0.5, (size_t)-1, &c2, NULL, NULL), AR_EINVAL);
    bad[1] = 1;
    ck_assert_int_eq(lower_weighted_cap(&A2, bad, 2, 3, 0.5, (size_t)-1, &c2, NULL, NULL), AR_EINVAL);
    ck_assert_int_eq(lower_weighted_cap(&A2, bad, 2, 0, 0.5, (size_t)-1, &c2, NULL, NULL), AR_OK);
    ck_assert_uint_eq(c2.rank, 2);                    /* W = M^{-1} / c: the threshold is 0.6 again */
    ck_assert_int_eq(lower_weighted_cap(&A2, bad, 2, 0, 0.7, (size_t)-1, &c2, NULL, NULL), AR_OK);
    ck_assert_uint_eq(c2.rank, 1);
}
END_TEST

/* A row-stochastic m x n image (column-major) with a strong diagonal: the self-attention of
 * N(0,1) rows in dimension dim at beta 1/sqrt(dim), its double image (a high-rank instance). */
static double *diag_image(rng_t *r, size_t m, size_t dim)
{
    double *x = malloc(m * dim * sizeof *x), *a = malloc(m * m * sizeof *a), beta = 1.0 / sqrt((double)dim);
    for (size_t i = 0; i < m * dim; i++)
        x[i] = sqrt(-2.0 * log(1.0 - rng_uniform(r))) * cos(6.283185307179586 * rng_uniform(r));
    for (size_t i = 0; i < m; i++) {
        double mx = -INFINITY, s = 0;
        double *row = malloc(m * sizeof *row);
        for (size_t j = 0; j < m; j++) {
            double dot = 0;
            for (size_t c = 0; c < dim; c++)
                dot += x[i * dim + c] * x[j * dim + c];
            row[j] = beta * dot;
            mx = fmax(mx, row[j]);
        }
        for (size_t j = 0; j < m; j++)
            s += (row[j] = exp(row[j] - mx));
        for (size_t j = 0; j < m; j++)
            a[i + j * m] = row[j] / s;
        free(row);
    }
    free(x);
    return a;
}

/* Exact ||M^{-1}||_inf of the peeled test matrix: blocks by argmax over cand[0..s0) (ties to the
 * first), a column in the block of a row not among rows[0..k) in no block, block b of rows[b]. */
static int exact_peel_invnorm(fmpq_t res, const double *a, size_t Am, size_t n, const size_t *cand, size_t s0,
                              const size_t *rows, size_t k)
{
    size_t *blk = malloc(n * sizeof *blk);
    for (size_t j = 0; j < n; j++) {
        size_t b = argmax_row(a, Am, j, cand, s0);
        blk[j] = k;
        for (size_t u = 0; u < k; u++)
            if (rows[u] == cand[b])
                blk[j] = u;
    }
    int ok = exact_assign_invnorm(res, a, Am, n, rows, k, blk);
    free(blk);
    return ok;
}

/* lower_peel_cap (issue 32): whenever it certifies, the exact test matrix of its rows and blocks
 * (exact_peel_invnorm, recomputed in rationals from the double image) is invertible with
 * (eps + max rowerr) ||M^{-1}||_inf < 1 and the reported bound is at least the exact norm; the
 * rows come in candidate order, never more than cap; it certifies non-trivially often. */
START_TEST(test_peel_fmpq_soundness)
{
    rng_t r;
    rng_init(&r, test_seed() + 911);
    int n_cert = 0;
    for (int it = 0; it < 200; it++) {
        size_t Am = 6 + rng_u64(&r) % 7, n = Am + rng_u64(&r) % 4;
        double a[12 * 15], rowerr[12];
        for (size_t i = 0; i < Am; i++) {
            double s = 0;
            for (size_t j = 0; j < n; j++) {
                a[i + j * Am] = rng_uniform(&r);
                if (j == i)
                    a[i + j * Am] += (double)n * (0.3 + 1.5 * rng_uniform(&r));
                s += a[i + j * Am];
            }
            for (size_t j = 0; j < n; j++)
                a[i + j * Am] /= s;
            rowerr[i] = (it % 3 == 0) ? 0.0 : ldexp(rng_uniform(&r), -12 - (int)(rng_u64(&r) % 30));
        }
        size_t cand[12], rows[12];
        for (size_t t = 0; t < Am; t++)
            cand[t] = t;
        for (size_t t = Am - 1; t > 0; t--) {
            size_t u = rng_u64(&r) % (t + 1), tmp = cand[t];
            cand[t] = cand[u]; cand[u] = tmp;
        }
        double eps = 0.05 + 0.4 * rng_uniform(&r);
        size_t cap = it % 5 == 0 ? 3 + rng_u64(&r) % 4 : (size_t)-1, s0 = Am < cap ? Am : cap;
        smx_t A = make_smx(Am, n, a, rowerr);
        lower_cert_t c;
        ck_assert_int_eq(lower_peel_cap(&A, cand, Am, eps, cap, NULL, &c, rows), AR_OK);
        ck_assert_uint_le(c.rank, cap);
        if (strcmp(c.method, "trivial") == 0) {
            ck_assert_uint_eq(c.rank, 1);
            continue;
        }
        n_cert++;
        for (size_t t = 1; t < c.rank; t++) {          /* candidate order */
            size_t p0 = 0, p1 = 0;
            for (size_t u = 0; u < Am; u++) {
                p0 = cand[u] == rows[t - 1] ? u : p0;
                p1 = cand[u] == rows[t] ? u : p1;
            }
            ck_assert_uint_lt(p0, p1);
        }
        double emax = 0;
        for (size_t t = 0; t < c.rank; t++)
            emax = fmax(emax, rowerr[rows[t]]);
        fmpq_t inv, lhs, x;
        fmpq_init(inv); fmpq_init(lhs); fmpq_init(x);
        int invertible = exact_peel_invnorm(inv, a, Am, n, cand, s0, rows, c.rank);
        fmpq_set_double(lhs, eps);
        fmpq_set_double(x, emax);
        fmpq_add(lhs, lhs, x);
        fmpq_mul(lhs, lhs, inv);
        ck_assert_msg(invertible && fmpq_cmp_ui(lhs, 1) < 0, "seed=%llu it=%d: peeled set of %zu rows certified "
                      "(%s) but exact (eps+rowerr)||M^-1|| = %g", (unsigned long long)test_seed(), it, c.rank,
                      c.method, fmpq_get_d(lhs));
        fmpq_set_double(x, c.invnorm);
        ck_assert_msg(fmpq_cmp(x, inv) >= 0, "seed=%llu it=%d: reported invnorm %.17g < exact %.17g",
                      (unsigned long long)test_seed(), it, c.invnorm, fmpq_get_d(inv));
        fmpq_clear(inv); fmpq_clear(lhs); fmpq_clear(x);
    }
    ck_assert_msg(n_cert > 60, "only %d non-trivial peeled certificates", n_cert);
}
END_TEST

/* lower_dominant_rows (issue 32): whenever it certifies, the exact test matrix of its rows with
 * their own blocks (argmax over the kept rows, exact_peel_invnorm) is invertible with
 * (eps + max rowerr) ||M^{-1}||_inf < 1 and the reported bound is at least the exact norm; the
 * rows come in candidate order, never more than cap; it certifies non-trivially often. */
START_TEST(test_dominant_fmpq_soundness)
{
    rng_t r;
    rng_init(&r, test_seed() + 1201);
    int n_cert = 0;
    for (int it = 0; it < 200; it++) {
        size_t Am = 6 + rng_u64(&r) % 7, n = Am + rng_u64(&r) % 4;
        double a[12 * 15], rowerr[12];
        for (size_t i = 0; i < Am; i++) {
            double s = 0;
            for (size_t j = 0; j < n; j++) {
                a[i + j * Am] = rng_uniform(&r);
                if (j == i)
                    a[i + j * Am] += (double)n * (0.2 + 2.0 * rng_uniform(&r));
                s += a[i + j * Am];
            }
            for (size_t j = 0; j < n; j++)
                a[i + j * Am] /= s;
            rowerr[i] = (it % 3 == 0) ? 0.0 : ldexp(rng_uniform(&r), -12 - (int)(rng_u64(&r) % 30));
        }
        size_t cand[12], rows[12];
        for (size_t t = 0; t < Am; t++)
            cand[t] = t;
        for (size_t t = Am - 1; t > 0; t--) {
            size_t u = rng_u64(&r) % (t + 1), tmp = cand[t];
            cand[t] = cand[u]; cand[u] = tmp;
        }
        double eps = 0.05 + 0.4 * rng_uniform(&r);
        size_t cap = it % 5 == 0 ? 3 + rng_u64(&r) % 4 : (size_t)-1;
        smx_t A = make_smx(Am, n, a, rowerr);
        lower_cert_t c;
        ck_assert_int_eq(lower_dominant_rows(&A, cand, Am, eps, cap, &c, rows), AR_OK);
        ck_assert_uint_le(c.rank, cap);
        if (strcmp(c.method, "trivial") == 0) {
            ck_assert_uint_eq(c.rank, 1);
            continue;
        }
        n_cert++;
        for (size_t t = 1; t < c.rank; t++) {          /* candidate order */
            size_t p0 = 0, p1 = 0;
            for (size_t u = 0; u < Am; u++) {
                p0 = cand[u] == rows[t - 1] ? u : p0;
                p1 = cand[u] == rows[t] ? u : p1;
            }
            ck_assert_uint_lt(p0, p1);
        }
        double emax = 0;
        for (size_t t = 0; t < c.rank; t++)
            emax = fmax(emax, rowerr[rows[t]]);
        fmpq_t inv, lhs, x;
        fmpq_init(inv); fmpq_init(lhs); fmpq_init(x);
        int invertible = exact_peel_invnorm(inv, a, Am, n, rows, c.rank, rows, c.rank);
        fmpq_set_double(lhs, eps);
        fmpq_set_double(x, emax);
        fmpq_add(lhs, lhs, x);
        fmpq_mul(lhs, lhs, inv);
        ck_assert_msg(invertible && fmpq_cmp_ui(lhs, 1) < 0, "seed=%llu it=%d: dominant set of %zu rows "
                      "certified (%s) but exact (eps+rowerr)||M^-1|| = %g", (unsigned long long)test_seed(), it,
                      c.rank, c.method, fmpq_get_d(lhs));
        fmpq_set_double(x, c.invnorm);
        ck_assert_msg(fmpq_cmp(x, inv) >= 0, "seed=%llu it=%d: reported invnorm %.17g < exact %.17g",
                      (unsigned long long)test_seed(), it, c.invnorm, fmpq_get_d(inv));
        fmpq_clear(inv); fmpq_clear(lhs); fmpq_clear(x);
    }
    ck_assert_msg(n_cert > 60, "only %d non-trivial dominant-row certificates", n_cert);
}
END_TEST

/* lower_blocks_gallop: with bisect_max at least the first failed length it is lower_blocks_cap
 * (same rank and bound, *failed = 0); below it no bisection runs, *failed is the first failed
 * length (a power of two, or the order's length) and the result is the last certified length
 * before it (its half, or 1); on a self-attention head of 300 rows in d = 32 the first failure
 * lies above 16 rows. */
START_TEST(test_blocks_gallop)
{
    rng_t r;
    rng_init(&r, test_seed() + 1301);
    size_t m = 300;
    double *a = diag_image(&r, m, 32), *rowerr = calloc(m, sizeof *rowerr);
    size_t *order = malloc(m * sizeof *order);
    for (size_t t = 0; t < m; t++)
        order[t] = (t * 7) % m;                 /* 7 is prime to 300: a permutation */
    smx_t A = make_smx(m, m, a, rowerr);
    lower_cert_t full, g;
    size_t failed = 99;
    ck_assert_int_eq(lower_blocks_cap(&A, order, m, 0.1, (size_t)-1, &full), AR_OK);
    ck_assert_int_eq(lower_blocks_gallop(&A, order, m, 0.1, (size_t)-1, (size_t)-1, &g, &failed), AR_OK);
    ck_assert_uint_eq(g.rank, full.rank);
    ck_assert_uint_eq(failed, 0);
    ck_assert_int_eq(lower_blocks_gallop(&A, order, m, 0.1, (size_t)-1, 16, &g, &failed), AR_OK);
    if (full.rank < m) {
        ck_assert_uint_gt(failed, 16);
        ck_assert(failed == m || (failed & (failed - 1)) == 0);
        size_t last = 1;                        /* the last power of two below failed */
        while (2 * last < failed)
            last *= 2;
        ck_assert_uint_eq(g.rank, last);
        ck_assert_uint_le(g.rank, full.rank);
    }
    free(a); free(rowerr); free(order);
}
END_TEST

/* On a high-rank image (self-attention of 400 N(0,1) rows in d = 32 at beta 1/sqrt(32)) the peel
 * certifies at least half the rows (268 with the default seed), at least as many as the greedy
 * growth on the same candidates (77); its spending is its estimate; a second peel from the same
 * set is skipped; the budget is
 * honoured: a peel whose estimate exceeds it is refused (cut), a growth or weighted search under
 * a small budget stops early (cut) with a smaller certificate and spends at most its budget. */
START_TEST(test_peel_budget)
{
    rng_t r;
    rng_init(&r, test_seed() + 1013);
    size_t m = 400;
    double *a = diag_image(&r, m, 32), *rowerr = calloc(m, sizeof *rowerr);
    size_t *cand = malloc(m * sizeof *cand), *rows = malloc(m * sizeof *rows);
    for (size_t t = 0; t < m; t++)
        cand[t] = t;
    smx_t A = make_smx(m, m, a, rowerr);
    double eps = 0.1;
    lower_cert_t cp, cg;
    lower_ctl_t ctl = { 0 };
    ck_assert_int_eq(lower_peel_cap(&A, cand, m, eps, (size_t)-1, &ctl, &cp, rows), AR_OK);
    double peel_spent = ctl.spent;
    ck_assert_double_eq(peel_spent, lower_peel_cost(m, m));
    ck_assert_int_eq(ctl.cut, 0);
    lower_ctl_t gctl = { 0 };
    ck_assert_int_eq(lower_grow_ctl(&A, cand, m, eps, (size_t)-1, &gctl, &cg, NULL), AR_OK);
    fprintf(stderr, "peel %zu rows (%.3g flops), growth %zu rows (%.3g flops) of %zu\n", cp.rank, peel_spent, cg.rank,
           gctl.spent, m);
    ck_assert_uint_ge(cp.rank, m / 2);
    ck_assert_uint_ge(cp.rank, cg.rank);
    /* the same set again: skipped, nothing spent */
    lower_cert_t c2;
    ck_assert_int_eq(lower_peel_cap(&A, cand, m, eps, (size_t)-1, &ctl, &c2, NULL), AR_OK);
    ck_assert_str_eq(c2.method, "trivial");
    ck_assert_double_eq(ctl.spent, peel_spent);
    /* budgets */
    lower_ctl_t small = { .budget = 0.5 * lower_peel_cost(m, m) };
    ck_assert_int_eq(lower_peel_cap(&A, cand, m, eps, (size_t)-1, &small, &c2, NULL), AR_OK);
    ck_assert_str_eq(c2.method, "trivial");
    ck_assert_int_eq(small.cut, 1);
    ck_assert_double_eq(small.spent, 0.0);
    lower_ctl_t gsmall = { .budget = gctl.spent / 20 };
    ck_assert_int_eq(lower_grow_ctl(&A, cand, m, eps, (size_t)-1, &gsmall, &c2, NULL), AR_OK);
    ck_assert_int_eq(gsmall.cut, 1);
    ck_assert(gsmall.spent <= gsmall.budget);
    ck_assert_uint_lt(c2.rank, cg.rank);
    ck_assert_uint_gt(c2.rank, 1);                     /* the partial set is still certified */
    lower_ctl_t wsmall = { .budget = 1e6 };
    ck_assert_int_eq(lower_weighted_ctl(&A, cand, m, 0, eps, (size_t)-1, &wsmall, &c2, NULL, NULL), AR_OK);
    ck_assert_int_eq(wsmall.cut, 1);
    ck_assert(wsmall.spent <= wsmall.budget);
    free(a); free(rowerr); free(cand); free(rows);
}
END_TEST

Suite *suite_cert_lower(void)
{
    Suite *s = suite_create("cert_lower");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_2x2_exact);
    tcase_add_test(tc, test_small_fmpq_soundness);
    tcase_add_test(tc, test_grow_fmpq_soundness);
    tcase_add_test(tc, test_weighted_fmpq_soundness);
    tcase_add_test(tc, test_peel_fmpq_soundness);
    tcase_add_test(tc, test_peel_budget);
    tcase_add_test(tc, test_dominant_fmpq_soundness);
    tcase_add_test(tc, test_blocks_gallop);
    tcase_add_test(tc, test_diagdom_exact);
    tcase_add_test(tc, test_diagdom_invnorm_upward);
    tcase_add_test(tc, test_packing_full_rank);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
