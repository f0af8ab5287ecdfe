/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lowerutil.h -- what the lower certificates' tests (tests/theory/certificates/test_cert_lower*.c)
 * share: exact rationals of doubles, crafted enclosures, the exact ||M^{-1}||_inf of block and
 * peeled test matrices (fmpq), and a high-rank self-attention image.  Header-only (static
 * inline), like testutil.h, because the Makefile builds only tests/<dir>/test_*.c and tests/<dir>/<dir>/test_*.c. */
#ifndef ATTNRANK_TESTS_LOWERUTIL_H
#define ATTNRANK_TESTS_LOWERUTIL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <flint/fmpz.h>
#include <flint/fmpq.h>
#include <flint/fmpq_mat.h>
#include "numerics/rng.h"
#include "numerics/softmax.h"

/* exact rational value of a finite double */
static inline void fmpq_set_double(fmpq_t q, double x)
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
static inline smx_t make_smx(size_t m, size_t n, double *a, double *rowerr)
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
static inline int exact_assign_invnorm(fmpq_t res, const double *a, size_t Am, size_t n, const size_t *rows, size_t m,
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
static inline size_t argmax_row(const double *a, size_t Am, size_t j, const size_t *rows, size_t m)
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
static inline int exact_block_invnorm(fmpq_t res, const double *a, size_t Am, size_t n,
                               const size_t *rows, size_t m)
{
    size_t *blk = malloc(n * sizeof *blk);
    for (size_t j = 0; j < n; j++)
        blk[j] = argmax_row(a, Am, j, rows, m);
    int ok = exact_assign_invnorm(res, a, Am, n, rows, m, blk);
    free(blk);
    return ok;
}

/* A row-stochastic m x n image (column-major) with a strong diagonal: the self-attention of
 * N(0,1) rows in dimension dim at beta 1/sqrt(dim), its double image (a high-rank instance). */
static inline double *diag_image(rng_t *r, size_t m, size_t dim)
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
static inline int exact_peel_invnorm(fmpq_t res, const double *a, size_t Am, size_t n, const size_t *cand, size_t s0,
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

/* A random Am x n row-stochastic image (column-major a, Am <= 12, n <= 15) whose
 * diagonal entries carry n (lo + span U) before normalisation, row errors 0
 * (exact) or 2^-12..2^-42 U, and cand a random order of the Am rows: the
 * instances of the peel and dominant-rows soundness tests (same draws, in the
 * same order, as each test made before). */
static inline void random_heavy_image(rng_t *r, size_t Am, size_t n, double lo, double span, int exact, double *a,
                                      double *rowerr, size_t *cand)
{
    for (size_t i = 0; i < Am; i++) {
        double s = 0;
        for (size_t j = 0; j < n; j++) {
            a[i + j * Am] = rng_uniform(r);
            if (j == i)
                a[i + j * Am] += (double)n * (lo + span * rng_uniform(r));
            s += a[i + j * Am];
        }
        for (size_t j = 0; j < n; j++)
            a[i + j * Am] /= s;
        rowerr[i] = exact ? 0.0 : ldexp(rng_uniform(r), -12 - (int)(rng_u64(r) % 30));
    }
    for (size_t t = 0; t < Am; t++)
        cand[t] = t;
    for (size_t t = Am - 1; t > 0; t--) {
        size_t u = rng_u64(r) % (t + 1), tmp = cand[t];
        cand[t] = cand[u];
        cand[u] = tmp;
    }
}

#endif
