/* SPDX-License-Identifier: GPL-3.0-or-later */
/* invnorm.c -- verified upper bounds on ||M^{-1}||_inf.
 *
 * invnorm_inf_bound: let R ~ Mmid^{-1} (LAPACK dgetrf + dgetri, or for m >= INV_BLOCKED_MIN dgetrf and
 * triangular solves on fixed blocks, below) and Gc = fl(I - R Mmid) computed by dgemm (one call, or
 * one per fixed column block: each entry is still one dot product; called in round-to-nearest; the
 * bound holds in any mode of the BLAS threads since gamma uses u = 2^-52, see
 * resid.c).  As in resid.c, each entry is a floating-point sum of m+1 terms
 * (delta_ij and the m products -R_il M_lj), so
 *     |Gc_ij - (I - R Mmid)_ij| <= gamma_{m+1} (delta_ij + (|R||Mmid|)_ij) + (m+1) 2^-1073.
 * The row sums of |R||Mmid| are computed exactly as sum_l |R_il| rowsum_l(|Mmid|)
 * with upward rounding (cheaper and tighter than inflating a second dgemm).
 * With M = Mmid + E, ||E||_inf <= enorm:
 *     ||I - R M||_inf <= max_i [ sum_j |Gc_ij| + gamma_{m+1} (1 + sum_j (|R||Mmid|)_ij)
 *                                + m (m+1) 2^-1073 ] + ||R||_inf enorm  =: alpha,
 * all accumulated upward (fround bodies, numerics/fround.h).  If alpha < 1 then R M is invertible (Neumann
 * series), hence the square M is, M^{-1} = (R M)^{-1} R and
 *     ||M^{-1}||_inf <= ||R||_inf / (1 - alpha)
 * (denominator rounded down, quotient rounded up). */
#include "numerics/invnorm.h"
#include "base/blas.h"
#include "numerics/fround.h"
#include "numerics/resid.h"
#include "base/parallel.h"
#include "base/status.h"

#include <cblas.h>
#include <fenv.h>
#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int finite_vec(const double *x, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

typedef struct {
    size_t m;
    const double *Mmid;
    const double *R0;   /* a caller's approximate inverse (NULL: LAPACK's) */
    double *R, *G, *sums;
    lapack_int *ipiv;
    int ok;             /* out of inf_factor: R is a finite approximate inverse */
    double g;           /* >= gamma_{m+1} */
    double enorm;
    double alpha, rnorm; /* out of inf_sums */
} inf_ctx;

/* ---- the blocked path (m >= INV_BLOCKED_MIN, issue 35) ----
 *
 * R and G are computed on fixed blocks of columns (or rows) chosen from m alone, each block with
 * single-threaded BLAS, handed to any number of threads (base/parallel.h): their bits are the same for
 * every thread count.  Below INV_BLOCKED_MIN the one-call path (dgetri, one dgemm) is kept, so the
 * bound of every matrix smaller than that keeps the bits of earlier versions.
 *   LU = P L U (dgetrf, one thread);
 *   V = U^{-1} by column blocks [c0, c1): U[0:c1, 0:c1] V[0:c1, c0:c1] = I[0:c1, c0:c1] (dtrsm);
 *   V <- V L^{-1} by row blocks (dtrsm from the right, in place: a row block reads only its rows);
 *   R = V P^T (dgetri's column interchanges, in reverse);
 *   G = I - R Mmid by column blocks (dgemm).
 * How R was found plays no part in the bound (the header). */
#define INV_BLOCKED_MIN 1024
#define INV_PART_COLS 256       /* V's column blocks and G's: 26 at m = 6762 */
#define INV_PART_ROWS 1024      /* V L^{-1}'s row blocks: dtrsm from the right runs at full speed only on
                                 * tall blocks (m = 6762: 6.4 s in 2 blocks, 6.6 s in 6, 10 s in 64) */

typedef struct {
    size_t m, parts, rparts;    /* column blocks, row blocks */
    const double *LU, *Mmid, *R;
    double *V, *G;
} inv_blocks_t;

/* Block i of V = U^{-1}, the costliest (rightmost) first. */
static void inv_upper_block(void *arg, size_t i)
{
    inv_blocks_t *b = arg;
    size_t m = b->m, j = b->parts - 1 - i;
    size_t c0 = par_part_start(m, b->parts, j), c1 = par_part_start(m, b->parts, j + 1);
    double *V = b->V + c0 * m;
    for (size_t c = c0; c < c1; c++)
        V[c + (c - c0) * m] = 1.0;
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, (int)c1, (int)(c1 - c0), 1.0,
                b->LU, (int)m, V, (int)m);
}

/* Row block i of V <- V L^{-1} (L unit lower in LU). */
static void inv_lower_block(void *arg, size_t i)
{
    inv_blocks_t *b = arg;
    size_t m = b->m, r0 = par_part_start(m, b->rparts, i), r1 = par_part_start(m, b->rparts, i + 1);
    cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasNoTrans, CblasUnit, (int)(r1 - r0), (int)m, 1.0,
                b->LU, (int)m, b->V + r0, (int)m);
}

/* Column block i of G = I - R Mmid (G holds I's columns on entry). */
static void inv_product_block(void *arg, size_t i)
{
    inv_blocks_t *b = arg;
    size_t m = b->m, c0 = par_part_start(m, b->parts, i), c1 = par_part_start(m, b->parts, i + 1);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)(c1 - c0), (int)m, -1.0, b->R, (int)m,
                b->Mmid + c0 * m, (int)m, 1.0, b->G + c0 * m, (int)m);
}

/* Body (round-to-nearest): R ~ Mmid^{-1}, G = I - R Mmid. */
static FROUND_BODY void inf_factor(void *arg)
{
    inf_ctx *c = arg;
    size_t m = c->m;
    double *R = c->R, *G = c->G;
    c->ok = 0;
    int blocked = m >= INV_BLOCKED_MIN;
    inv_blocks_t b = {.m = m, .parts = par_parts(m, INV_PART_COLS), .rparts = par_parts(m, INV_PART_ROWS),
                      .Mmid = c->Mmid, .R = R, .G = G};
    if (c->R0) {
        memcpy(R, c->R0, m * m * sizeof(double));
    } else if (!blocked) {
        memcpy(R, c->Mmid, m * m * sizeof(double));
        if (LAPACKE_dgetrf(LAPACK_COL_MAJOR, (lapack_int)m, (lapack_int)m, R, (lapack_int)m, c->ipiv) != 0)
            return;
        if (LAPACKE_dgetri(LAPACK_COL_MAJOR, (lapack_int)m, R, (lapack_int)m, c->ipiv) != 0)
            return;
    } else {
        /* G holds the LU factors until R is formed */
        memcpy(G, c->Mmid, m * m * sizeof(double));
        if (LAPACKE_dgetrf(LAPACK_COL_MAJOR, (lapack_int)m, (lapack_int)m, G, (lapack_int)m, c->ipiv) != 0)
            return;
        b.LU = G;
        b.V = R;
        memset(R, 0, m * m * sizeof(double));
        par_for(b.parts, inv_upper_block, &b, NULL);
        par_for(b.rparts, inv_lower_block, &b, NULL);
        for (size_t j = m - 1; j-- > 0;) {
            size_t jp = (size_t)c->ipiv[j] - 1;
            if (jp != j)
                cblas_dswap((int)m, R + j * m, 1, R + jp * m, 1);
        }
        memset(G, 0, m * m * sizeof(double));
    }
    if (!finite_vec(R, m * m))
        return;
    for (size_t i = 0; i < m; i++)
        G[i + i * m] = 1.0;
    if (blocked)
        par_for(b.parts, inv_product_block, &b, NULL);
    else
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)m, (int)m, -1.0, R, (int)m, c->Mmid,
                    (int)m, 1.0, G, (int)m);
    c->ok = 1;
}

/* Body, in FE_UPWARD: alpha >= ||I - R M||_inf and rnorm >= ||R||_inf. */
static FROUND_BODY void inf_sums(void *arg)
{
    inf_ctx *c = arg;
    size_t m = c->m;
    const double *Mmid = c->Mmid, *R = c->R, *G = c->G;
    double g = c->g;
    double *rM = c->sums, *rRM = c->sums + m, *rG = c->sums + 2 * m, *rR = c->sums + 3 * m;
    for (size_t j = 0; j < m; j++)
        for (size_t i = 0; i < m; i++) {
            rM[i] += fabs(Mmid[i + j * m]);
            rG[i] += fabs(G[i + j * m]);
            rR[i] += fabs(R[i + j * m]);
        }
    for (size_t l = 0; l < m; l++)
        for (size_t i = 0; i < m; i++)
            rRM[i] += fabs(R[i + l * m]) * rM[l];
    double under = ((double)m * (double)(m + 1)) * 0x1p-1073;
    double alpha0 = 0, rnorm = 0;
    for (size_t i = 0; i < m; i++) {
        double t = rG[i] + g * (1.0 + rRM[i]) + under;
        if (!(t <= alpha0))
            alpha0 = isnan(t) ? INFINITY : t;
        if (!(rR[i] <= rnorm))
            rnorm = isnan(rR[i]) ? INFINITY : rR[i];
    }
    c->alpha = alpha0 + rnorm * c->enorm;
    c->rnorm = rnorm;
}

double invnorm_inf_bound(size_t m, const double *Mmid, double enorm)
{
    return invnorm_inf_bound_guess(m, Mmid, enorm, NULL);
}

double invnorm_inf_bound_guess(size_t m, const double *Mmid, double enorm, const double *R0)
{
    if (m == 0 || !Mmid || m > INT_MAX || !isfinite(enorm) || enorm < 0)
        return INFINITY;
    if (m > ((size_t)-1) / m || !finite_vec(Mmid, m * m))
        return INFINITY;

    double *R = ar_calloc(m * m, sizeof(double), "inverse-norm R");
    double *G = R ? ar_calloc(m * m, sizeof(double), "inverse-norm G") : NULL;
    double *sums = G ? ar_calloc(4 * m, sizeof(double), "inverse-norm sums") : NULL;
    lapack_int *ipiv = sums ? ar_calloc(m, sizeof(lapack_int), "inverse-norm pivots") : NULL;
    double result = INFINITY;
    if (!ipiv)
        goto done;
    inf_ctx c = {.m = m, .Mmid = Mmid, .R0 = R0, .R = R, .G = G, .sums = sums, .ipiv = ipiv,
                 .enorm = enorm};
    /* LAPACK's inverse on one BLAS thread: its rounding moved with OPENBLAS_NUM_THREADS */
    blas_single_begin();
    fround_run(FE_TONEAREST, inf_factor, &c);
    blas_single_end();
    if (!c.ok)
        goto done;
    c.g = resid_gamma(m + 1);
    fround_run(FE_UPWARD, inf_sums, &c);
    if (!(c.alpha < 1.0) || !isfinite(c.rnorm))
        goto done;
    double den = fround_sub_down(1.0, c.alpha);
    if (den > 0)
        result = fround_div_up(c.rnorm, den);

done:
    free(ipiv);
    free(sums);
    free(G);
    free(R);
    return result;
}

/* Varah: for a strictly row-diagonally-dominant M, ||M^{-1}||_inf <= 1 / min_i
 * (|M_ii| - sum_{j != i} |M_ij|).  With M = Mmid + E, each row's margin is at
 * least |Mmid_ii| - sum_{j != i} |Mmid_ij| - enorm; the off-diagonal sums are
 * accumulated upward, the margins downward, the reciprocal upward. */
typedef struct {
    size_t m;
    const double *Mmid;
    double *off;
    double enorm, delta;
} varah_ctx;

/* Body, in FE_DOWNWARD: off[i] = -(downward sum of the negated |off-diagonal|
 * entries) >= their sum; delta <= min_i |Mmid_ii| - off_i - enorm. */
static FROUND_BODY void varah_margin(void *arg)
{
    varah_ctx *c = arg;
    size_t m = c->m;
    const double *Mmid = c->Mmid;
    double *off = c->off;       /* holds the negated sums */
    for (size_t j = 0; j < m; j++)
        for (size_t i = 0; i < m; i++)
            if (i != j)
                off[i] = off[i] - fabs(Mmid[i + j * m]);
    double delta = INFINITY;
    for (size_t i = 0; i < m; i++) {
        double t = fabs(Mmid[i + i * m]) + off[i] - c->enorm;
        if (!(t >= delta))
            delta = t;
    }
    c->delta = delta;
}

double invnorm_varah_bound(size_t m, const double *Mmid, double enorm)
{
    if (m == 0 || !Mmid || !isfinite(enorm) || enorm < 0)
        return INFINITY;
    if (m > ((size_t)-1) / m || !finite_vec(Mmid, m * m))
        return INFINITY;
    double *off = ar_calloc(m, sizeof(double), "Varah sums");
    if (!off)
        return INFINITY;
    varah_ctx c = {.m = m, .Mmid = Mmid, .off = off, .enorm = enorm};
    fround_run(FE_DOWNWARD, varah_margin, &c);
    double result = INFINITY;
    if (c.delta > 0 && isfinite(c.delta))
        result = fround_div_up(1.0, c.delta);
    free(off);
    return result;
}
