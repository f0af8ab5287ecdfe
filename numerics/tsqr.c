/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tsqr.c -- two-thread orthonormalisation and thin SVD of tall matrices (see tsqr.h). */
#include "numerics/tsqr.h"

#include <cblas.h>
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>
#include "base/blas.h"
#include "numerics/linalg.h"
#include "base/parallel.h"

int tsqr_splits(size_t m, size_t l)
{
    return l > 0 && m / TSQR_PARTS >= 2 * l && (double)m * (double)l >= 65536.0 && m <= (size_t)1 << 30;
}

/* One half: rows [r0, r1) of Y (leading dimension m). */
typedef struct {
    size_t m, l, r0, r1, j;   /* j: which half */
    double *Y, *tau;
    const double *Qs;   /* phase 2: the 2l x l Q factor of the stacked R's */
    int phase;          /* 1: QR of the half; 2: its Q times its block of Qs, into Y */
    lapack_int info;
} tsqr_part;

static void part_job(void *arg)
{
    tsqr_part *p = arg;
    size_t mp = p->r1 - p->r0, l = p->l;
    double *Yp = p->Y + p->r0;
    if (p->phase == 1) {
        p->info = LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (lapack_int)mp, (lapack_int)l, Yp, (lapack_int)p->m, p->tau);
        return;
    }
    p->info = LAPACKE_dorgqr(LAPACK_COL_MAJOR, (lapack_int)mp, (lapack_int)l, (lapack_int)l, Yp, (lapack_int)p->m,
                             p->tau);
    double *W = p->info == 0 ? malloc(mp * l * sizeof *W) : NULL;
    if (!W) {
        if (p->info == 0)
            p->info = -1000;                            /* out of memory */
        return;
    }
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)mp, (int)l, (int)l, 1.0, Yp, (int)p->m,
                p->Qs + p->j * l, (int)(TSQR_PARTS * l), 0.0, W, (int)mp);
    for (size_t c = 0; c < l; c++)
        memcpy(Yp + c * p->m, W + c * mp, mp * sizeof *W);
    free(W);
}

static ar_status run_phase(tsqr_part *parts, int phase, const char *what)
{
    for (int j = 0; j < TSQR_PARTS; j++)
        parts[j].phase = phase;
    par_run(TSQR_PARTS, part_job, NULL, parts, sizeof parts[0]);
    for (int j = 0; j < TSQR_PARTS; j++) {
        if (parts[j].info == -1000) {
            ar_error_set("tsqr: out of memory (%s)", what);
            return AR_ENOMEM;
        }
        if (parts[j].info != 0) {
            ar_error_set("tsqr: LAPACKE %s failed (info = %d)", what, (int)parts[j].info);
            return AR_ENUMERIC;
        }
    }
    return AR_OK;
}

/* Y <- Q of the split QR (tsqr_splits(m, l) holds); R (l x l, upper, or NULL) <- the R factor. */
static ar_status split_qr(size_t m, size_t l, double *Y, double *R)
{
    size_t l2 = TSQR_PARTS * l;
    double *tau = ar_calloc(TSQR_PARTS * l + l, sizeof *tau, "tsqr tau");
    double *S = tau ? ar_calloc(l2 * l, sizeof *S, "tsqr stacked R") : NULL;
    if (!S) {
        free(tau);
        return AR_ENOMEM;
    }
    tsqr_part parts[TSQR_PARTS];
    for (int j = 0; j < TSQR_PARTS; j++)
        parts[j] = (tsqr_part){ .m = m, .l = l, .r0 = m * (size_t)j / TSQR_PARTS,
                                .r1 = m * (size_t)(j + 1) / TSQR_PARTS, .j = (size_t)j, .Y = Y,
                                .tau = tau + (size_t)j * l };
    blas_single_begin();
    ar_status st = run_phase(parts, 1, "dgeqrf");
    if (st == AR_OK) {
        /* S = [R_0; R_1]: the upper triangles of the two halves */
        for (int j = 0; j < TSQR_PARTS; j++)
            for (size_t c = 0; c < l; c++)
                for (size_t i = 0; i <= c; i++)
                    S[(size_t)j * l + i + c * l2] = Y[parts[j].r0 + i + c * m];
        double *ts = tau + TSQR_PARTS * l;
        lapack_int info = LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (lapack_int)l2, (lapack_int)l, S, (lapack_int)l2, ts);
        if (info == 0 && R) {
            memset(R, 0, l * l * sizeof *R);
            for (size_t c = 0; c < l; c++)
                for (size_t i = 0; i <= c; i++)
                    R[i + c * l] = S[i + c * l2];
        }
        if (info == 0)
            info = LAPACKE_dorgqr(LAPACK_COL_MAJOR, (lapack_int)l2, (lapack_int)l, (lapack_int)l, S, (lapack_int)l2, ts);
        if (info != 0) {
            ar_error_set("tsqr: LAPACKE QR of the stacked factors failed (info = %d)", (int)info);
            st = AR_ENUMERIC;
        }
    }
    if (st == AR_OK) {
        for (int j = 0; j < TSQR_PARTS; j++)
            parts[j].Qs = S;
        st = run_phase(parts, 2, "dorgqr");
    }
    blas_single_end();
    free(tau);
    free(S);
    return st;
}

ar_status tsqr_orth(size_t m, size_t l, double *Y)
{
    if (!tsqr_splits(m, l))
        return la_orth(m, l, Y);
    return split_qr(m, l, Y, NULL);
}

/* U (m x l) = Q Ur on two threads: each half of Q's rows times Ur. */
typedef struct {
    size_t m, l, r0, r1;
    const double *Q, *Ur;
    double *U;
} mult_part;

static void mult_job(void *arg)
{
    mult_part *p = arg;
    size_t mp = p->r1 - p->r0;
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)mp, (int)p->l, (int)p->l, 1.0, p->Q + p->r0,
                (int)p->m, p->Ur, (int)p->l, 0.0, p->U + p->r0, (int)p->m);
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
            mult_part parts[TSQR_PARTS];
            for (int j = 0; j < TSQR_PARTS; j++)
                parts[j] = (mult_part){ .m = m, .l = l, .r0 = m * (size_t)j / TSQR_PARTS,
                                        .r1 = m * (size_t)(j + 1) / TSQR_PARTS, .Q = Q, .Ur = Ur, .U = Uo };
            par_run(TSQR_PARTS, mult_job, NULL, parts, sizeof parts[0]);
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
