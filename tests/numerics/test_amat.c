/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_amat.c -- the enclosure as an operator: products with a held image (one block, or the
 * blocks of a set block size) and with a streamed one (row-major blocks) against a long-double
 * reference, the pass count, and amat_rows against the image's rows. */
#include <check.h>
#include <stdatomic.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "base/parallel.h"
#include "numerics/amat.h"
#include "numerics/rng.h"
#include "numerics/softmax_dbl.h"

/* max |x - ref| / max |ref| */
static double rel_err(const double *x, const long double *ref, size_t len)
{
    long double num = 0, den = 0;
    for (size_t t = 0; t < len; t++) {
        long double e = fabsl((long double)x[t] - ref[t]);
        num = e > num ? e : num;
        den = fabsl(ref[t]) > den ? fabsl(ref[t]) : den;
    }
    return (double)(num / (den > 0 ? den : 1));
}

/* Queries (m x d) and keys (n x d) uniform in [lo, lo + 1)^d from r, and their enclosure at
 * beta twice: held (A, by smx_compute_dbl) and prepared for streaming (S, which reads the points:
 * the caller frees *qo and *ko after smxd_clear). */
static void make_image(rng_t *r, size_t m, size_t n, size_t d, double lo, double beta, smx_t *A, smxd_t *S,
                       double **qo, double **ko)
{
    double *q = malloc(m * d * sizeof *q), *k = malloc(n * d * sizeof *k);
    for (size_t t = 0; t < m * d; t++)
        q[t] = rng_uniform(r) + lo;
    for (size_t t = 0; t < n * d; t++)
        k[t] = rng_uniform(r) + lo;
    ck_assert_int_eq(smx_compute_dbl(A, q, m, k, n, d, NULL, beta, 0), AR_OK);
    ck_assert_int_eq(smxd_prepare(S, q, m, k, n, d, NULL, beta, 0), AR_OK);
    ck_assert(S->ok);
    *qo = q;
    *ko = k;
}

/* Y = A X and Z = A^T Y on the held image with blk 0 (one block), blk 5 (blocks of 5 rows), and
 * streamed in blocks of 5 and of all rows: each within 4 (m + n) u of the long-double product,
 * one pass each, and the streamed blocks see the same image. */
START_TEST(test_amat_products)
{
    rng_t r;
    rng_init(&r, test_seed() + 7);
    size_t m = 37, n = 29, l = 6;
    smx_t A;
    smxd_t S;
    double *q, *k;
    make_image(&r, m, n, 3, -0.5, 4.0, &A, &S, &q, &k);
    double *X = malloc(n * l * sizeof *X), *Yt = malloc(m * l * sizeof *Yt);
    for (size_t t = 0; t < n * l; t++)
        X[t] = rng_normal(&r);
    for (size_t t = 0; t < m * l; t++)
        Yt[t] = rng_normal(&r);
    long double *ry = calloc(m * l, sizeof *ry), *rz = calloc(n * l, sizeof *rz);
    for (size_t c = 0; c < l; c++)
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++) {
                ry[i + c * m] += (long double)A.a[i + j * m] * X[j + c * n];
                rz[j + c * n] += (long double)A.a[i + j * m] * Yt[i + c * m];
            }
    double tol = 4.0 * (double)(m + n) * 0x1p-53;
    for (int v = 0; v < 4; v++) {
        amat_t M;
        if (v < 2)
            amat_memory(&M, &A);
        else
            amat_stream(&M, &S);
        M.blk = v == 1 || v == 2 ? 5 : (v == 3 ? m : 0);
        double *Y = malloc(m * l * sizeof *Y), *Z = malloc(n * l * sizeof *Z);
        ck_assert_int_eq(amat_mul(&M, l, X, Y), AR_OK);
        ck_assert_int_eq(amat_tmul(&M, l, Yt, Z), AR_OK);
        ck_assert_uint_eq(M.passes, 2);
        double ey = rel_err(Y, ry, m * l), ez = rel_err(Z, rz, n * l);
        ck_assert_msg(ey <= tol && ez <= tol, "variant %d: relative errors %g (mul), %g (tmul) above %g", v, ey, ez,
                      tol);
        free(Y);
        free(Z);
    }
    smxd_clear(&S);
    smx_clear(&A);
    free(q); free(k); free(X); free(Yt); free(ry); free(rz);
}
END_TEST

/* amat_rows copies the chosen rows of a held image (values, row errors) exactly, and a streamed
 * one gives the same rows. */
START_TEST(test_amat_rows)
{
    rng_t r;
    rng_init(&r, test_seed() + 8);
    size_t m = 21, n = 17;
    smx_t A;
    smxd_t S;
    double *q, *k;
    make_image(&r, m, n, 2, 0.0, 3.0, &A, &S, &q, &k);
    size_t rows[4] = { 20, 0, 7, 7 };
    amat_t Mh, Ms;
    amat_memory(&Mh, &A);
    amat_stream(&Ms, &S);
    smx_t Rh, Rs;
    ck_assert_int_eq(amat_rows(&Mh, rows, 4, &Rh), AR_OK);
    ck_assert_int_eq(amat_rows(&Ms, rows, 4, &Rs), AR_OK);
    for (size_t t = 0; t < 4; t++) {
        ck_assert(Rh.rowerr[t] == A.rowerr[rows[t]]);
        ck_assert(Rs.rowerr[t] == A.rowerr[rows[t]]);
        for (size_t j = 0; j < n; j++) {
            ck_assert(Rh.a[t + j * 4] == A.a[rows[t] + j * m]);
            ck_assert(Rs.a[t + j * 4] == A.a[rows[t] + j * m]);
        }
    }
    ck_assert_uint_eq(Mh.passes, 0);
    smx_clear(&Rh);
    smx_clear(&Rs);
    smxd_clear(&S);
    smx_clear(&A);
    free(q); free(k);
}
END_TEST

/* Issue 35: the products' partition is a function of the shape alone, so Y = A X and Z = A^T Y
 * are bit-identical (memcmp against one thread) for every thread count: m != n, sizes not
 * multiples of the part size and smaller than one part, held (one block, blocks of 97 rows) and
 * streamed (the default block, blocks of 200 rows). */
START_TEST(test_amat_thread_counts)
{
    rng_t r;
    rng_init(&r, test_seed() + 9);
    size_t shapes[][3] = { { 1300, 1100, 8 }, { 1000, 513, 12 }, { 300, 700, 9 }, { 70, 50, 100 }, { 40, 33, 5 } };
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
        size_t m = shapes[sh][0], n = shapes[sh][1], l = shapes[sh][2];
        smx_t A;
        smxd_t S;
        double *q, *k;
        make_image(&r, m, n, 3, -0.5, 6.0, &A, &S, &q, &k);
        double *X = malloc(n * l * sizeof *X), *Yt = malloc(m * l * sizeof *Yt);
        for (size_t t = 0; t < n * l; t++)
            X[t] = rng_normal(&r);
        for (size_t t = 0; t < m * l; t++)
            Yt[t] = rng_normal(&r);
        for (int v = 0; v < 4; v++) {
            double *Y1 = malloc(m * l * sizeof *Y1), *Z1 = malloc(n * l * sizeof *Z1);
            double *Y = malloc(m * l * sizeof *Y), *Z = malloc(n * l * sizeof *Z);
            for (size_t c = 0; c < TEST_NTHREAD_COUNTS; c++) {
                ar_config_t cfg;
                const ar_config_t *prev = test_threads_install(&cfg, TEST_THREAD_COUNTS[c]);
                amat_t M;
                if (v < 2)
                    amat_memory(&M, &A);
                else
                    amat_stream(&M, &S);
                M.blk = v == 1 ? 97 : v == 3 ? 200 : 0;
                ck_assert_int_eq(amat_mul(&M, l, X, c ? Y : Y1), AR_OK);
                ck_assert_int_eq(amat_tmul(&M, l, Yt, c ? Z : Z1), AR_OK);
                ar_config_install(prev);
                ck_assert_msg(c == 0 || (memcmp(Y, Y1, m * l * sizeof *Y) == 0 && memcmp(Z, Z1, n * l * sizeof *Z) == 0),
                              "m=%zu n=%zu l=%zu variant %d: %d threads differ from one", m, n, l, v,
                              TEST_THREAD_COUNTS[c]);
            }
            free(Y1); free(Z1); free(Y); free(Z);
        }
        smxd_clear(&S);
        smx_clear(&A);
        free(q); free(k); free(X); free(Yt);
    }
}
END_TEST

/* amat_visit_par: every block of amat_visit once, each seeing the same rows and row errors as
 * amat_visit hands out (held: the image; streamed: the rows evaluated on the slot's thread), slots
 * below amat_visit_slots and never shared by two calls at once, one pass; for every thread count. */
typedef struct {
    size_t m, n, slots, blk;
    int share;                      /* par_threads() inside a block: the slot's share */
    const smx_t *A;
    atomic_int seen[64];            /* per block: calls */
    atomic_int busy[PAR_MAX_JOBS];  /* per slot: calls in progress */
    atomic_int bad;
} vpar_check;

static ar_status vpar_check_block(void *arg, const amat_block_t *B, size_t slot)
{
    vpar_check *c = arg;
    if (slot >= c->slots || atomic_fetch_add(&c->busy[slot], 1) != 0)
        atomic_store(&c->bad, 1);
    if (par_threads() != c->share)
        atomic_store(&c->bad, 1);
    size_t blk = B->i0 / c->blk;
    atomic_fetch_add(&c->seen[blk < 64 ? blk : 63], 1);
    for (size_t t = 0; t < B->b; t++) {
        size_t i = B->i0 + t;
        if (B->rowerr[t] != c->A->rowerr[i])
            atomic_store(&c->bad, 1);
        for (size_t j = 0; j < c->n; j++) {
            double v = B->rowmajor ? B->a[t * B->lda + j] : B->a[t + j * B->lda];
            if (v != c->A->a[i + j * c->m])
                atomic_store(&c->bad, 1);
        }
    }
    atomic_fetch_sub(&c->busy[slot], 1);
    return AR_OK;
}

START_TEST(test_amat_visit_par)
{
    rng_t r;
    rng_init(&r, test_seed() + 11);
    size_t m = 1000, n = 70;
    smx_t A;
    smxd_t S;
    double *q, *k;
    make_image(&r, m, n, 3, -0.5, 6.0, &A, &S, &q, &k);
    /* 28 blocks of 37 rows (the last of 1 row), 3 of 400, one of 1000: with fewer blocks than
     * threads each slot gets its share of the threads, T / slots */
    static const size_t blks[] = { 37, 400, 1000 };
    for (size_t c = 0; c < TEST_NTHREAD_COUNTS; c++)
        for (size_t h = 0; h < sizeof blks / sizeof blks[0]; h++)
            for (int v = 0; v < 2; v++) {
                ar_config_t cfg;
                const ar_config_t *prev = test_threads_install(&cfg, TEST_THREAD_COUNTS[c]);
                amat_t M;
                if (v == 0)
                    amat_memory(&M, &A);
                else
                    amat_stream(&M, &S);
                M.blk = blks[h];
                size_t nb = (m + blks[h] - 1) / blks[h];
                vpar_check *chk = calloc(1, sizeof *chk);
                chk->m = m;
                chk->n = n;
                chk->A = &A;
                chk->blk = blks[h];
                chk->slots = amat_visit_slots(&M, 1024);
                size_t want = (size_t)TEST_THREAD_COUNTS[c] < nb ? (size_t)TEST_THREAD_COUNTS[c] : nb;
                ck_assert_uint_eq(chk->slots, want);
                chk->share = TEST_THREAD_COUNTS[c] / (int)want;
                ck_assert_int_eq(amat_visit_par(&M, 1024, vpar_check_block, chk), AR_OK);
                ar_config_install(prev);
                ck_assert_uint_eq(M.passes, 1);
                ck_assert_msg(!atomic_load(&chk->bad), "%d threads, %zu blocks, variant %d: a block saw wrong rows, "
                              "a shared slot or a wrong share of the threads", TEST_THREAD_COUNTS[c], nb, v);
                for (size_t b = 0; b < nb; b++)
                    ck_assert_int_eq(atomic_load(&chk->seen[b]), 1);
                free(chk);
            }
    smxd_clear(&S);
    smx_clear(&A);
    free(q); free(k);
}
END_TEST

/* amat_gather: the rows of the held image in both layouts, the same as one loop for every
 * thread count (large enough to be split, and small). */
START_TEST(test_amat_gather)
{
    rng_t r;
    rng_init(&r, test_seed() + 12);
    static const size_t shapes[][3] = { { 300, 1700, 90 }, { 20, 30, 7 } };
    for (size_t sh = 0; sh < 2; sh++) {
        size_t m = shapes[sh][0], n = shapes[sh][1], cnt = shapes[sh][2];
        smx_t A;
        smxd_t S;
        double *q, *k;
        make_image(&r, m, n, 3, -0.5, 6.0, &A, &S, &q, &k);
        size_t *rows = malloc(cnt * sizeof *rows);
        for (size_t t = 0; t < cnt; t++)
            rows[t] = (t * 13 + 5) % m;
        double *Xr = malloc(cnt * (n + 2) * sizeof *Xr), *Xc = malloc((cnt + 3) * n * sizeof *Xc);
        for (size_t c = 0; c < TEST_NTHREAD_COUNTS; c++) {
            ar_config_t cfg;
            const ar_config_t *prev = test_threads_install(&cfg, TEST_THREAD_COUNTS[c]);
            amat_gather(&A, rows, cnt, Xr, n + 2, 1);
            amat_gather(&A, rows, cnt, Xc, cnt + 3, 0);
            ar_config_install(prev);
            for (size_t t = 0; t < cnt; t++)
                for (size_t j = 0; j < n; j++) {
                    double v = A.a[rows[t] + j * m];
                    ck_assert(Xr[t * (n + 2) + j] == v && Xc[t + j * (cnt + 3)] == v);
                }
        }
        free(rows); free(Xr); free(Xc);
        smxd_clear(&S);
        smx_clear(&A);
        free(q); free(k);
    }
}
END_TEST

Suite *suite_amat(void)
{
    Suite *s = suite_create("amat");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_amat_products);
    tcase_add_test(tc, test_amat_rows);
    tcase_add_test(tc, test_amat_thread_counts);
    tcase_add_test(tc, test_amat_visit_par);
    tcase_add_test(tc, test_amat_gather);
    suite_add_tcase(s, tc);
    return s;
}
