/* SPDX-License-Identifier: GPL-3.0-or-later */
/* resid.c -- certified ||A - U V^T||_r1 at BLAS speed.
 *
 * Error analysis (u = 2^-52, valid in every IEEE rounding mode; gamma_j =
 * j u / (1 - j u)).  The dgemm call computes C_ij = fl(a_ij - sum_c U_ic V_jc),
 * a floating-point sum of the k+1 terms a_ij, -U_i1 V_j1, ..., -U_ik V_jk, in
 * an order we do not know (blocking, threads, SIMD lanes), with or without
 * FMA.  Whatever the summation tree, each term passes through at most k+1
 * roundings (one product, at most k additions; an FMA fuses a product and an
 * addition into one rounding), and alpha = -1, beta = 1 are exact scalings.
 * Every rounding satisfies fl(z) = z (1 + delta) + eta with |delta| < 2^-52
 * in any rounding mode (2^-53 in round-to-nearest), so the bound below does
 * not depend on the mode of the OpenBLAS worker threads, which do not follow
 * the caller's fesetround.  Without underflow the standard argument (Higham,
 * ASNA 2nd ed., sec. 3.1 and 3.5) gives
 *     |C_ij - (a_ij - (U V^T)_ij)| <= gamma_{k+1} (|a_ij| + (|U||V|^T)_ij).
 * Underflow: additions of floating-point numbers are exact when the result
 * is subnormal, so underflow errors arise only in the (at most k) products /
 * FMAs, each below 2^-1074 in absolute value in any mode and later multiplied
 * by at most (1 + 2^-52)^k < 2; we add the generous (k+1) 2^-1073 per entry,
 * that is n (k+1) 2^-1073 per row.  Overflow turns C non-finite and is
 * detected.  Hence, with A the exact matrix and sum_j |A_ij - a_ij| <= rowerr_i,
 *     sum_j |A_ij - (U V^T)_ij|
 *       <= sum_j |C_ij| + gamma_{k+1} (sum_j |a_ij| + sum_c |U_ic| colsum_c(|V|))
 *          + n (k+1) 2^-1073 + rowerr_i,
 * because sum_j (|U||V|^T)_ij = sum_c |U_ic| sum_j |V_jc| exactly.  Every
 * term is nonnegative and is accumulated in FE_UPWARD in a fround body
 * (numerics/fround.h), so the computed value is an upper bound.  The dgemm
 * is still called in round-to-nearest (its result does not depend on the
 * caller's mode), but the bound does not rely on it. */
#include "numerics/resid.h"
#include "numerics/fround.h"
#include "base/blas.h"
#include "base/parallel.h"
#include "base/status.h"

#include <cblas.h>
#include <fenv.h>
#include <limits.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double resid_gamma(size_t k)
{
    if (k == 0)
        return 0.0;
    if (k > ((size_t)1 << 52))      /* k u >= 1 */
        return INFINITY;
    double ku = (double)k * 0x1p-52; /* exact: k <= 2^52 */
    if (!(ku < 1.0))
        return INFINITY;
    double den = fround_sub_down(1.0, ku); /* <= 1 - k u */
    return den > 0 ? fround_div_up(ku, den) : INFINITY;
}

static int all_finite(const double *x, size_t rows, size_t cols, size_t ld)
{
    for (size_t j = 0; j < cols; j++)
        for (size_t i = 0; i < rows; i++)
            if (!isfinite(x[i + j * ld]))
                return 0;
    return 1;
}

/* Several ranks on one block: the chain C <- C - U_seg V_seg^T (one dgemm per
 * segment of columns [ks[t-1], ks[t])) evaluates, for every k = ks[t], the
 * entries of a - U_k V_k^T as ONE floating-point sum of the k + 1 terms a_ij,
 * -U_i1 V_j1, ..., -U_ik V_jk in some order (the value after segment t is the
 * start of segment t + 1's sums), so the bound above holds for each k with
 * gamma_{k+1}.  Row sums of |U_k||V_k|^T are prefix sums over c of
 * |U_ic| cv_c (cv_c >= sum_j |V_jc|, rounded up).
 *
 * The block's rows are split into par_parts(b, RESID_PART_ROWS) fixed contiguous parts (one when
 * the block is small; a function of the shape alone), and each part runs the whole chain on its
 * rows in one of attnrank's threads, whichever takes it (base/parallel.h): its
 * products by single-threaded BLAS calls (OpenBLAS set to one thread meanwhile), its sums in
 * FE_UPWARD.  A row's bound then depends only on its part's shape, never on OPENBLAS_NUM_THREADS
 * (OpenBLAS 0.3.21 sums some shapes differently with 1 and 2 threads) nor on attnrank's thread
 * count, and no OpenBLAS worker spins beside the row sums.  The maximum over the parts is exact. */
typedef struct {
    const resid_block_t *B;
    double *C;          /* b x n (rowmajor 0) or n x b (rowmajor 1), leading dimension b or n */
    double *sa, *pu;    /* b: sum_j |a_ij| (upward), prefix sum_c |U_ic| cv_c (upward) */
    double *rcs;        /* b: row sums of |C| (one rank) */
    double *rc;         /* RESID_FUSE_RUN x b: row sums of |C| (a fused run), or NULL */
} multi_ctx;

/* One thread's share: the rows [i0, i1) of the block, every rank. */
typedef struct {
    multi_ctx *x;
    size_t i0, i1;
    size_t t, t1;       /* current rank index (a fused run: [t, t1)) */
    double *best;       /* nk: max of the part's rows' bounds (+INFINITY for a non-finite one) */
} multi_part;

/* The bound of rank ks[t] on the rows [i0, i1) from their sums rc of |C| (FE_UPWARD): pu is
 * advanced over the rank's new columns. */
static double rows_bound(multi_ctx *x, size_t t, size_t i0, size_t i1, const double *rc)
{
    const resid_block_t *B = x->B;
    size_t n = B->n, k0 = t ? B->ks[t - 1] : 0, k = B->ks[t];
    for (size_t c = k0; c < k; c++)
        for (size_t i = i0; i < i1; i++)
            x->pu[i] += fabs(B->U[i + c * B->ldu]) * B->cv[c];
    double g = resid_gamma(k + 1);
    double under = ((double)n * (double)(k + 1)) * 0x1p-1073;
    double best = 0.0;
    for (size_t i = i0; i < i1; i++) {
        double e = rc[i] + (k ? g * (x->sa[i] + x->pu[i]) + under : 0.0) + (B->rowerr ? B->rowerr[i] : 0.0);
        if (!(e < INFINITY) || (B->rowerr && !(B->rowerr[i] >= 0)))
            e = INFINITY;         /* NaN, overflow or a non-finite input */
        if (e > best)
            best = e;
        if (B->rowbound)
            B->rowbound[t * B->ldr + i] = e;
    }
    return best;
}

/* acc[i] <- acc[i] + |y[i]| (len entries, not overlapping; vectorised, each entry its own sum). */
static inline void add_abs(size_t len, const double *restrict y, double *restrict acc)
{
    for (size_t i = 0; i < len; i++)
        acc[i] += fabs(y[i]);
}

/* acc[i] <- acc[i] + |a[i]| and c[i] <- a[i] (len entries, not overlapping). */
static inline void copy_add_abs(size_t len, const double *restrict a, double *restrict c, double *restrict acc)
{
    for (size_t i = 0; i < len; i++) {
        c[i] = a[i];
        acc[i] += fabs(a[i]);
    }
}

/* Body, in FE_UPWARD (t == 0): copy the part's rows of a into C and sum |a| over each row (sa),
 * in one pass over a.  Sums in memory order (upward rounding makes any order an upper bound);
 * each row's in the order j = 0..n-1. */
static FROUND_BODY void part_copy(void *arg)
{
    multi_part *p = arg;
    multi_ctx *x = p->x;
    const resid_block_t *B = x->B;
    size_t b = B->b, n = B->n, i0 = p->i0, i1 = p->i1;
    for (size_t i = i0; i < i1; i++)
        x->sa[i] = x->pu[i] = 0.0;
    if (!B->rowmajor) {
        for (size_t j = 0; j < n; j++)
            copy_add_abs(i1 - i0, B->a + j * B->lda + i0, x->C + j * b + i0, x->sa + i0);
    } else {
        for (size_t i = i0; i < i1; i++) {
            const double *ai = B->a + i * B->lda;
            double *ci = x->C + i * n, s = 0.0;
            for (size_t j = 0; j < n; j++) {
                ci[j] = ai[j];
                s += fabs(ai[j]);
            }
            x->sa[i] = s;
        }
    }
}

/* Body (round-to-nearest): apply segment t to the part's rows of C. */
static FROUND_BODY void part_dgemm(void *arg)
{
    multi_part *p = arg;
    multi_ctx *x = p->x;
    const resid_block_t *B = x->B;
    size_t b = B->b, n = B->n, i0 = p->i0, cnt = p->i1 - p->i0, t = p->t;
    size_t k0 = t ? B->ks[t - 1] : 0, k1 = B->ks[t];
    if (k1 > k0 && n > 0 && cnt > 0) {
        if (!B->rowmajor)
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, (int)cnt, (int)n, (int)(k1 - k0), -1.0,
                        B->U + k0 * B->ldu + i0, (int)B->ldu, B->V + k0 * B->ldv, (int)B->ldv, 1.0, x->C + i0,
                        (int)b);
        else
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, (int)n, (int)cnt, (int)(k1 - k0), -1.0,
                        B->V + k0 * B->ldv, (int)B->ldv, B->U + k0 * B->ldu + i0, (int)B->ldu, 1.0,
                        x->C + i0 * n, (int)n);
    }
}

/* Body, in FE_UPWARD: the bound of rank ks[t] on the part's rows.  Each row's sums are taken in
 * the same order (j = 0..n-1, c = k0..k-1) whichever rows a thread is given. */
static FROUND_BODY void part_sums(void *arg)
{
    multi_part *p = arg;
    multi_ctx *x = p->x;
    const resid_block_t *B = x->B;
    size_t b = B->b, n = B->n, t = p->t, i0 = p->i0, i1 = p->i1;
    double *rc = x->rcs;
    for (size_t i = i0; i < i1; i++)
        rc[i] = 0.0;
    if (!B->rowmajor) {
        for (size_t j = 0; j < n; j++)
            add_abs(i1 - i0, x->C + j * b + i0, rc + i0);
    } else {
        for (size_t i = i0; i < i1; i++) {
            const double *ci = x->C + i * n;
            double s = 0.0;
            for (size_t j = 0; j < n; j++)
                s += fabs(ci[j]);
            rc[i] = s;
        }
    }
    p->best[t] = rows_bound(x, t, i0, i1, rc);
}

/* Narrow segments (issue 24: every rank up to the guess + 5 is probed, each one a pass over the
 * block) are applied by attnrank's own loop, fused with the row sums: in the column-major case
 * a block of RESID_FUSE_ROWS rows of one column of C is held in registers while every segment of
 * the run is subtracted and each rank's |C| added to its row sums, so C is read and written once
 * per run (products and subtractions in FE_UPWARD: any mode is allowed by the analysis above,
 * each term still passes through at most k + 1 roundings of relative size < 2^-52, and an
 * entry's sum is still one floating-point sum of its k + 1 terms).  Each row's sums run over
 * j = 0..n-1 in order and its products over c in order, whatever the split and the blocks. */
/* Segments of at most RESID_FUSE_W columns are fused: a segment applied by dgemm costs a read
 * and write of C plus a read for its sums whatever its width, the fused loop about 2 flops per
 * entry and column (measured about 27 GFlop/s on two threads, dgemm about 80), so fusing pays
 * up to about 20 columns (issue 24, AMD EPYC: 16 instead of 8 took a 14-rank pass on a
 * 1048 x 4000 block from 60 to 48 ms). */
#define RESID_FUSE_W 16
#define RESID_FUSE_RUN 48       /* ranks per fused run */

/* y <- y - v x (len entries, not overlapping; len < 2^31): OpenBLAS's daxpy on the calling thread
 * (one product and one subtraction per entry, in the caller's mode). */
static inline void axpy_neg(size_t len, double v, const double *restrict x, double *restrict y)
{
    cblas_daxpy((int)len, -v, x, 1, y, 1);
}

/* Rows per register block of the column-major fused kernel: 16 rows are four independent
 * subtraction chains, which hide more of each one's latency (issue 24, AMD EPYC, an 18-rank
 * fused pass on a 1048 x 4000 block: 8 rows 53 ms, 16 rows 46 ms, 32 rows 48 ms; with the
 * 14-rank pass of bench_dense 76 -> 60 ms).  The bits do not depend on it: each row's operations
 * are the same, in the same order. */
#define RESID_FUSE_ROWS 16

/* Unaligned 4-lane vectors of doubles and of their bit patterns (|x| = x & ~sign bit). */
typedef double v4d __attribute__((vector_size(32), aligned(8)));
typedef long long v4i __attribute__((vector_size(32), aligned(8)));


/* The column-major fused kernel on one column j of the part's rows: for each block of
 * RESID_FUSE_ROWS rows (nch of them, the last of rlast rows), the entries are held in registers
 * while the run's columns c = 0..w-1 are subtracted in order (c_r <- c_r - Up[c][r] vj[c], one
 * product and one subtraction each, in the caller's mode) and, at the end of each rank's segment
 * (send[q] columns done), |c_r| is added to rc[q ldr + r].  Up holds the run's columns of U,
 * block by block (w x RESID_FUSE_ROWS each), vj the run's entries of row j of V.  Called for
 * j = 0..n-1 in order, every rank's row sums run over j in order: the same operations in the
 * same order as the tile loop before, and C is read and written once per run instead of once
 * per rank, down each column (issue 24).  Compiled for AVX2 and the baseline; neither contracts
 * (no FMA), so both give the same bits. */
__attribute__((target_clones("avx2", "default")))
static void fused_column(size_t nch, size_t rlast, size_t w, size_t nr, const size_t *send,
                         const double *restrict Up, const double *restrict vj, double *restrict cj,
                         double *restrict rc, size_t ldr)
{
    enum { F = RESID_FUSE_ROWS };
    const v4i mask = { INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX };
    for (size_t h = 0; h < nch; h++) {
        const double *uh = Up + h * w * F;
        double *ch = cj + h * F, *rh = rc + h * F;
        if (h + 1 < nch || rlast == F) {
            /* F / 4 independent 4-lane vectors held in registers (GCC vector extension: AVX2 in
             * that clone, SSE2 pairs in the baseline; lane by lane the scalar loop's operations):
             * enough independent subtraction chains to hide their latency */
            v4d c[F / 4];
#pragma GCC unroll 8
            for (int g = 0; g < F / 4; g++)
                c[g] = *(const v4d *)(ch + 4 * g);
            size_t cc = 0;
            for (size_t q = 0; q < nr; q++) {
                for (; cc < send[q]; cc++) {
                    double v = vj[cc];
                    const double *u = uh + cc * F;
#pragma GCC unroll 8
                    for (int g = 0; g < F / 4; g++)
                        c[g] = c[g] - *(const v4d *)(u + 4 * g) * v;
                }
                double *rq = rh + q * ldr;
#pragma GCC unroll 8
                for (int g = 0; g < F / 4; g++)
                    *(v4d *)(rq + 4 * g) += (v4d)((v4i)c[g] & mask);
            }
#pragma GCC unroll 8
            for (int g = 0; g < F / 4; g++)
                *(v4d *)(ch + 4 * g) = c[g];
            continue;
        }
        for (size_t r = 0; r < rlast; r++) {
            double c = ch[r];
            size_t cc = 0;
            for (size_t q = 0; q < nr; q++) {
                for (; cc < send[q]; cc++)
                    c = c - uh[cc * F + r] * vj[cc];
                rh[q * ldr + r] += fabs(c);
            }
            ch[r] = c;
        }
    }
}

/* Body, in FE_UPWARD: the ranks ks[t..t1) (t >= 1) of a fused run on the part's rows. */
static FROUND_BODY void part_fused(void *arg)
{
    multi_part *p = arg;
    multi_ctx *x = p->x;
    const resid_block_t *B = x->B;
    size_t b = B->b, n = B->n, i0 = p->i0, i1 = p->i1, nr = p->t1 - p->t;
    for (size_t q = 0; q < nr; q++)
        for (size_t i = i0; i < i1; i++)
            x->rc[q * b + i] = 0.0;
    if (!B->rowmajor) {
        enum { F = RESID_FUSE_ROWS };
        size_t kb = B->ks[p->t - 1], w = B->ks[p->t1 - 1] - kb, send[RESID_FUSE_RUN];
        size_t nch = (i1 - i0 + F - 1) / F;
        double *Vt = malloc((n ? n : 1) * w * sizeof *Vt), *Up = malloc((nch ? nch : 1) * w * F * sizeof *Up);
        if (!Vt || !Up) {
            free(Vt); free(Up);
            for (size_t q = 0; q < nr; q++) {
                p->best[p->t + q] = INFINITY;       /* a failed allocation: no bound */
                for (size_t i = i0; B->rowbound && i < i1; i++)
                    B->rowbound[(p->t + q) * B->ldr + i] = INFINITY;
            }
            return;
        }
        for (size_t q = 0; q < nr; q++)
            send[q] = B->ks[p->t + q] - kb;
        for (size_t c = 0; c < w; c++)
            for (size_t j = 0; j < n; j++)
                Vt[j * w + c] = B->V[j + (kb + c) * B->ldv];
        for (size_t h = 0; h < nch; h++) {
            size_t i = i0 + h * F, R = i1 - i < F ? i1 - i : F;
            for (size_t c = 0; c < w; c++)
                for (size_t r = 0; r < R; r++)
                    Up[(h * w + c) * F + r] = B->U[i + r + (kb + c) * B->ldu];
        }
        size_t rlast = (i1 - i0) - (nch ? nch - 1 : 0) * F;
        for (size_t j = 0; nch && j < n; j++)
            fused_column(nch, rlast, w, nr, send, Up, Vt + j * w, x->C + i0 + j * b, x->rc + i0, b);
        free(Vt); free(Up);
    } else {
        for (size_t i = i0; i < i1; i++) {
            double *ci = x->C + i * n;
            for (size_t q = 0; q < nr; q++) {
                size_t t = p->t + q, k0 = B->ks[t - 1], k1 = B->ks[t];
                for (size_t c = k0; c < k1; c++)
                    axpy_neg(n, B->U[i + c * B->ldu], B->V + c * B->ldv, ci);
                double s = 0.0;
                for (size_t j = 0; j < n; j++)
                    s += fabs(ci[j]);
                x->rc[q * b + i] = s;
            }
        }
    }
    for (size_t q = 0; q < nr; q++)
        p->best[p->t + q] = rows_bound(x, p->t + q, i0, i1, x->rc + q * b);
}

/* A thread's job: the whole chain on its rows. */
static void part_job(void *arg)
{
    multi_part *p = arg;
    const resid_block_t *B = p->x->B;
    for (p->t = 0; p->t < B->nk;) {
        size_t t1 = p->t;
        while (p->x->rc && t1 > 0 && t1 < B->nk && t1 - p->t < RESID_FUSE_RUN &&
               B->ks[t1] - B->ks[t1 - 1] <= RESID_FUSE_W)
            t1++;
        if (t1 > p->t + 1) {
            p->t1 = t1;
            fround_run(FE_UPWARD, part_fused, p);
            p->t = t1;
            continue;
        }
        if (p->t == 0)
            fround_run(FE_UPWARD, part_copy, p);
        fround_run(FE_TONEAREST, part_dgemm, p);
        fround_run(FE_UPWARD, part_sums, p);
        p->t++;
    }
}

/* Part j of the fixed partition (par_for's block). */
static void part_one(void *parts, size_t j)
{
    part_job((multi_part *)parts + j);
}

void resid_block_multi(const resid_block_t *B, double *work, double *bound)
{
    size_t b = B->b;
    if (b == 0 || B->nk == 0)
        return;
    int ok = B->a && B->n <= INT_MAX && b <= INT_MAX && B->ks[B->nk - 1] <= INT_MAX;
    for (size_t t = 1; t < B->nk && ok; t++)
        ok = B->ks[t] > B->ks[t - 1];
    if (ok && B->ks[B->nk - 1] > 0)
        ok = B->U && B->V && B->cv && B->ldu <= INT_MAX && B->ldv <= INT_MAX && B->ldv >= B->n;
    size_t nj = (double)b * (double)B->n >= 65536.0 ? par_parts(b, RESID_PART_ROWS) : 1;
    double *own = NULL, *C = work, *sp = ok ? ar_calloc(3 * b, sizeof(double), "residual row sums") : NULL;
    double *best = sp ? ar_calloc(nj * B->nk, sizeof(double), "residual part bounds") : NULL;
    if (ok && !C && B->n > 0)
        C = own = ar_calloc(b * B->n, sizeof(double), "residual scratch");
    if (!best || (!C && B->n > 0)) {
        for (size_t t = 0; t < B->nk; t++) {
            bound[t] = INFINITY;
            for (size_t i = 0; B->rowbound && i < b; i++)
                B->rowbound[t * B->ldr + i] = INFINITY;
        }
        free(sp);
        free(best);
        free(own);
        return;
    }
    multi_ctx x = {.B = B, .C = C, .sa = sp, .pu = sp + b, .rcs = sp + 2 * b};
    int narrow = 0;
    for (size_t t = 1; t < B->nk && !narrow; t++)
        narrow = B->ks[t] - B->ks[t - 1] <= RESID_FUSE_W;
    if (narrow)
        x.rc = ar_calloc(RESID_FUSE_RUN * b, sizeof(double), "residual run sums");   /* NULL: no fusion */
    multi_part parts[PAR_MAX_PARTS];
    for (size_t j = 0; j < nj; j++)
        parts[j] = (multi_part){ .x = &x, .i0 = par_part_start(b, nj, j), .i1 = par_part_start(b, nj, j + 1),
                                 .best = best + j * B->nk };
    blas_single_begin();
    par_for(nj, part_one, parts, NULL);
    blas_single_end();
    for (size_t t = 0; t < B->nk; t++) {
        double v = bound[t];
        for (size_t j = 0; j < nj; j++) {
            double pb = parts[j].best[t];
            if (!(pb < INFINITY))
                v = INFINITY;
            else if (pb > v)
                v = pb;
        }
        bound[t] = v;
    }
    free(x.rc);
    free(best);
    free(sp);
    free(own);
}

typedef struct {
    size_t n, k, ldv;
    const double *V;
    double *cv;
} colsum_ctx;

static FROUND_BODY void colsum_body(void *arg)
{
    colsum_ctx *c = arg;
    for (size_t q = 0; q < c->k; q++) {
        double s = 0.0;
        for (size_t j = 0; j < c->n; j++)
            s += fabs(c->V[j + q * c->ldv]);
        c->cv[q] = s;
    }
}

void resid_colsums_up(size_t n, size_t k, const double *V, size_t ldv, double *cv)
{
    colsum_ctx c = {.n = n, .k = k, .ldv = ldv, .V = V, .cv = cv};
    fround_run(FE_UPWARD, colsum_body, &c);
}

double resid_r1_bound(size_t m, size_t n, size_t k, const double *a, const double *rowerr,
                      const double *U, size_t ldu, const double *V, size_t ldv, double *work)
{
    if (m == 0)
        return 0.0;
    if (!a || m > INT_MAX || n > INT_MAX || k > INT_MAX)
        return INFINITY;
    if (k > 0 && (!U || !V || ldu < m || ldv < (n ? n : 1) || ldu > INT_MAX || ldv > INT_MAX))
        return INFINITY;
    if (!all_finite(a, m, n, m))
        return INFINITY;
    if (rowerr)
        for (size_t i = 0; i < m; i++)
            if (!isfinite(rowerr[i]) || rowerr[i] < 0)
                return INFINITY;
    if (k > 0 && (!all_finite(U, m, k, ldu) || !all_finite(V, n, k, ldv)))
        return INFINITY;
    double *cv = ar_calloc(k ? k : 1, sizeof(double), "residual column sums");
    if (!cv)
        return INFINITY;
    if (k > 0)
        resid_colsums_up(n, k, V, ldv, cv);
    resid_block_t B = {.b = m, .n = n, .a = a, .lda = m, .rowmajor = 0, .rowerr = rowerr, .U = U, .ldu = ldu,
                       .V = V, .ldv = ldv, .cv = cv, .ks = &k, .nk = 1};
    double bound = 0.0;
    resid_block_multi(&B, work, &bound);
    free(cv);
    return bound;
}
