/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tsqr.c -- orthonormalisation and thin SVD of tall matrices on a fixed binary tree (see tsqr.h). */
#include "numerics/tsqr.h"

#include <cblas.h>
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>
#include "base/blas.h"
#include "numerics/linalg.h"
#include "base/parallel.h"

size_t tsqr_parts(size_t m, size_t l)
{
    if (!(l > 0 && m / 2 >= 2 * l && (double)m * (double)l >= 65536.0 && m <= (size_t)1 << 30))
        return 1;
    size_t p = 2;
    while (2 * p <= TSQR_MAX_PARTS && m / (2 * p) >= TSQR_LEAF_RATIO * l)
        p *= 2;
    return p;
}

int tsqr_splits(size_t m, size_t l)
{
    return tsqr_parts(m, l) > 1;
}

/* The tree: P = 2^L leaves (rows [r(j), r(j + 1)) of Y, r(j) = floor(m j / P)); level h (1..L)
 * has P >> h nodes, node k of level h stacking the R factors of nodes 2k, 2k + 1 of level h - 1
 * (leaves at level 0) into its 2l x l matrix S, factored by dgeqrf and turned into its Q by
 * dorgqr.  Going down, E (2l x l) = Q_node C_node, C_root = I (E = Q); the child 2k + c takes
 * C = rows [c l, (c + 1) l) of its parent's E; a leaf's rows of Y become Q_leaf C_leaf. */
typedef struct {
    size_t m, l, P, L;
    double *Y;
    double *leaf_tau;       /* P x l */
    double **S, **tau, **E; /* per level h = 1..L: (P >> h) nodes of 2l x l, l, 2l x l */
    lapack_int *info;       /* per block of the phase running */
    int level, phase;
} tsqr_tree;

static size_t leaf_r0(const tsqr_tree *T, size_t j)
{
    return par_part_start(T->m, T->P, j);
}

/* The upper triangle of child c (level h - 1, index k) into rows [off, off + l) of S (leading dimension 2l). */
static void copy_r(const tsqr_tree *T, size_t h, size_t k, double *S, size_t off)
{
    size_t l = T->l, l2 = 2 * l;
    const double *src = h == 1 ? T->Y + leaf_r0(T, k) : T->S[h - 1] + k * l2 * l;
    size_t lds = h == 1 ? T->m : l2;
    for (size_t c = 0; c < l; c++)
        for (size_t i = 0; i <= c; i++)
            S[off + i + c * l2] = src[i + c * lds];
}

/* Phase 0: dgeqrf of leaf j. */
static void leaf_qr(tsqr_tree *T, size_t j)
{
    size_t r0 = leaf_r0(T, j), mp = leaf_r0(T, j + 1) - r0;
    T->info[j] = LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (lapack_int)mp, (lapack_int)T->l, T->Y + r0, (lapack_int)T->m,
                                T->leaf_tau + j * T->l);
}

/* Phase 1: node k of level h: stack its children's R, dgeqrf. */
static void node_qr(tsqr_tree *T, size_t k)
{
    size_t h = (size_t)T->level, l = T->l, l2 = 2 * l;
    double *S = T->S[h] + k * l2 * l;
    copy_r(T, h, 2 * k, S, 0);
    copy_r(T, h, 2 * k + 1, S, l);
    T->info[k] = LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (lapack_int)l2, (lapack_int)l, S, (lapack_int)l2,
                                T->tau[h] + k * l);
}

/* Phase 2: node k of level h: its Q (dorgqr), then E = Q C (the root: E = Q). */
static void node_down(tsqr_tree *T, size_t k)
{
    size_t h = (size_t)T->level, l = T->l, l2 = 2 * l;
    double *S = T->S[h] + k * l2 * l, *E = T->E[h] + k * l2 * l;
    T->info[k] = LAPACKE_dorgqr(LAPACK_COL_MAJOR, (lapack_int)l2, (lapack_int)l, (lapack_int)l, S, (lapack_int)l2,
                                T->tau[h] + k * l);
    if (T->info[k] != 0)
        return;
    if (h == T->L) {
        memcpy(E, S, l2 * l * sizeof *E);
        return;
    }
    const double *C = T->E[h + 1] + (k / 2) * l2 * l + (k % 2) * l;       /* leading dimension 2l */
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)l2, (int)l, (int)l, 1.0, S, (int)l2, C, (int)l2, 0.0,
                E, (int)l2);
}

/* Phase 3: leaf j: its Q (dorgqr), times its C, into Y. */
static void leaf_down(tsqr_tree *T, size_t j)
{
    size_t r0 = leaf_r0(T, j), mp = leaf_r0(T, j + 1) - r0, l = T->l;
    double *Yp = T->Y + r0;
    T->info[j] = LAPACKE_dorgqr(LAPACK_COL_MAJOR, (lapack_int)mp, (lapack_int)l, (lapack_int)l, Yp, (lapack_int)T->m,
                                T->leaf_tau + j * l);
    double *W = T->info[j] == 0 ? malloc(mp * l * sizeof *W) : NULL;
    if (!W) {
        if (T->info[j] == 0)
            T->info[j] = -1000;                         /* out of memory */
        return;
    }
    const double *C = T->E[1] + (j / 2) * 2 * l * l + (j % 2) * l;
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)mp, (int)l, (int)l, 1.0, Yp, (int)T->m, C,
                (int)(2 * l), 0.0, W, (int)mp);
    for (size_t c = 0; c < l; c++)
        memcpy(Yp + c * T->m, W + c * mp, mp * sizeof *W);
    free(W);
}

static void tree_job(void *arg, size_t i)
{
    tsqr_tree *T = arg;
    if (T->phase == 0)
        leaf_qr(T, i);
    else if (T->phase == 1)
        node_qr(T, i);
    else if (T->phase == 2)
        node_down(T, i);
    else
        leaf_down(T, i);
}

/* One phase over cnt blocks (par_for), then their status. */
static ar_status run_phase(tsqr_tree *T, int phase, int level, size_t cnt, const char *what)
{
    T->phase = phase;
    T->level = level;
    par_for(cnt, tree_job, T, NULL);
    for (size_t j = 0; j < cnt; j++) {
        if (T->info[j] == -1000) {
            ar_error_set("tsqr: out of memory (%s)", what);
            return AR_ENOMEM;
        }
        if (T->info[j] != 0) {
            ar_error_set("tsqr: LAPACKE %s failed (info = %d)", what, (int)T->info[j]);
            return AR_ENUMERIC;
        }
    }
    return AR_OK;
}

/* Y <- Q of the tree QR (tsqr_parts(m, l) > 1); R (l x l, upper, or NULL) <- the R factor. */
static ar_status split_qr(size_t m, size_t l, double *Y, double *R)
{
    size_t P = tsqr_parts(m, l), L = 0, l2 = 2 * l;
    while (((size_t)1 << L) < P)
        L++;
    tsqr_tree T = {.m = m, .l = l, .P = P, .L = L, .Y = Y};
    double *S[7] = {0}, *tau[7] = {0}, *E[7] = {0};
    T.S = S;
    T.tau = tau;
    T.E = E;
    T.leaf_tau = ar_calloc(P * l, sizeof *T.leaf_tau, "tsqr tau");
    T.info = T.leaf_tau ? ar_calloc(P, sizeof *T.info, "tsqr status") : NULL;
    int ok = T.info != NULL;
    for (size_t h = 1; h <= L && ok; h++) {
        size_t nn = P >> h;
        S[h] = ar_calloc(nn * l2 * l, sizeof *S[h], "tsqr stacked R");
        tau[h] = S[h] ? ar_calloc(nn * l, sizeof *tau[h], "tsqr tau") : NULL;
        E[h] = tau[h] ? ar_calloc(nn * l2 * l, sizeof *E[h], "tsqr Q factors") : NULL;
        ok = E[h] != NULL;
    }
    ar_status st = ok ? AR_OK : AR_ENOMEM;
    blas_single_begin();
    if (st == AR_OK)
        st = run_phase(&T, 0, 0, P, "dgeqrf");
    for (size_t h = 1; h <= L && st == AR_OK; h++)
        st = run_phase(&T, 1, (int)h, P >> h, "dgeqrf of the stacked factors");
    if (st == AR_OK && R) {
        memset(R, 0, l * l * sizeof *R);
        for (size_t c = 0; c < l; c++)
            for (size_t i = 0; i <= c; i++)
                R[i + c * l] = S[L][i + c * l2];
    }
    for (size_t h = L; h >= 1 && st == AR_OK; h--)
        st = run_phase(&T, 2, (int)h, P >> h, "dorgqr of the stacked factors");
    if (st == AR_OK)
        st = run_phase(&T, 3, 0, P, "dorgqr");
    blas_single_end();
    free(T.leaf_tau);
    free(T.info);
    for (size_t h = 1; h <= L; h++) {
        free(S[h]);
        free(tau[h]);
        free(E[h]);
    }
    return st;
}

ar_status tsqr_orth(size_t m, size_t l, double *Y)
{
    if (!tsqr_splits(m, l))
        return la_orth(m, l, Y);
    return split_qr(m, l, Y, NULL);
}

/* U (m x l) = Q Ur over the leaves' rows: each leaf's rows of Q times Ur. */
typedef struct {
    size_t m, l, P;
    const double *Q, *Ur;
    double *U;
} mult_ctx;

static void mult_job(void *arg, size_t j)
{
    const mult_ctx *c = arg;
    size_t r0 = par_part_start(c->m, c->P, j), mp = par_part_start(c->m, c->P, j + 1) - r0;
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)mp, (int)c->l, (int)c->l, 1.0, c->Q + r0,
                (int)c->m, c->Ur, (int)c->l, 0.0, c->U + r0, (int)c->m);
}

ar_status tsqr_svd(size_t m, size_t l, const double *a, double **U, double **s, double **VT)
{
    *U = *s = *VT = NULL;
    if (!tsqr_splits(m, l))
        return la_svd(m, l, a, U, s, VT);
    double *Q = ar_calloc(m * l, sizeof *Q, "tsqr_svd Q");
    double *R = Q ? ar_calloc(l * l, sizeof *R, "tsqr_svd R") : NULL;
    double *Uo = R ? ar_calloc(m * l, sizeof *Uo, "tsqr_svd U") : NULL;
    if (!Uo) {
        free(Q);
        free(R);
        return AR_ENOMEM;
    }
    memcpy(Q, a, m * l * sizeof *Q);
    double *Ur = NULL;
    ar_status st = split_qr(m, l, Q, R);
    if (st == AR_OK) {
        blas_single_begin();
        st = la_svd(l, l, R, &Ur, s, VT);
        if (st == AR_OK) {
            mult_ctx c = {.m = m, .l = l, .P = tsqr_parts(m, l), .Q = Q, .Ur = Ur, .U = Uo};
            par_for(c.P, mult_job, &c, NULL);
        }
        blas_single_end();
    }
    free(Q);
    free(R);
    free(Ur);
    if (st != AR_OK) {
        free(Uo);
        free(*s);
        free(*VT);
        *s = *VT = NULL;
        return st;
    }
    *U = Uo;
    return AR_OK;
}
