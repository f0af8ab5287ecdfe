/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_ball_harmonic_bound.c -- the certified row errors of one candidate
 * B = sum_l N_l (X_l Y_l^T) P_l on the shells continuum (see
 * cert_ball_harmonic.h; proof in proofs-notes/claim-B.md section 8).
 *
 * For every pair p = (q, q') of spheres the angular profile of K - B is
 *     F_p(t) = sum_{l <= Lp} N_l D^l_p P_l(t) + (tail),  D^l = C^l - X_l Y_l^T,
 * written in the trigonometric basis of the dimension (f = coefficients):
 *   d = 2: F(cos th) = sum_m f_m cos(m th),        f_m = N_m D^m
 *   d = 3: F(cos th) = sum_m f_m cos(m th),        f = Gam (N D)
 *   d = 4: F(cos th) sin th = sum_k f_k sin((k+1) th), f_k = (k+1) D^k
 *   d = 5: F(cos th) = sum_m f_m cos(m th),        f = Gam (N D)   (Gegenbauer index 3/2)
 * Then int |F_p| dnu <= sum_i sqrt(nu_i f^T G_i f) + cdelta sum_m |delta f_m|
 * + tail_p, and E_q = sum_q' g_q' (that) / Z_q.  Every floating-point step is
 * bounded: dgemm by gamma_k |.||.| (valid in any rounding mode), sums and
 * square roots in upward rounding inside fround bodies. */
#include "theory/certificates/cert_ball_harmonic.h"
#include "theory/certificates/cert_ball_harmonic_impl.h"

#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cblas.h>
#include "numerics/fround.h"
#include "numerics/resid.h"
#include "base/parallel.h"

#define TINY 0x1p-1020        /* absorbs underflow in products of <= 2^12 terms */

/* ---- step 1: D^l and its error bound, per degree ---------------------- */

typedef struct {
    size_t n;
    const double *C, *Crad, *P, *A;   /* A = fl(|X||Y|^T) */
    double gam;                       /* gamma_R (1 + gamma_R) */
    double *D, *dD;
} diff_ctx;

/* Body, in FE_UPWARD: dD >= |(C - X Y^T) - fl(C - fl(X Y^T))| entrywise.
 * D itself is the difference rounded upward (any rounding is allowed: the
 * bound covers u |D|). */
static FROUND_BODY void diff_body(void *arg)
{
    diff_ctx *c = arg;
    for (size_t i = 0; i < c->n; i++) {
        double P = c->P ? c->P[i] : 0.0, A = c->A ? c->A[i] : 0.0;
        double d = c->C[i] - P;
        c->D[i] = d;
        c->dD[i] = c->Crad[i] + c->gam * A + 2 * BH_U * fabs(d) + TINY;
    }
}

/* ---- step 2: per-pair coefficient errors ------------------------------ */

typedef struct {
    size_t M, QQ;
    int d;
    const double *Nl, *D, *dD, *A3; /* A3: d = 3, 5 only, the stored coefficients fl(N_l D^l) (M x QQ) */
    double conv;                    /* d = 3, 5: bound of the conversion error per unit of sum |A3| */
    double cdelta;
    double *edelta;                 /* out: QQ */
} edelta_ctx;

/* Body, in FE_UPWARD: edelta_p >= cdelta * sum_m |f_true - f_stored|_m. */
static FROUND_BODY void edelta_body(void *arg)
{
    edelta_ctx *c = arg;
    for (size_t p = 0; p < c->QQ; p++) {
        double s = 0, sa = 0;
        for (size_t l = 0; l < c->M; l++) {
            double w = c->d == 4 ? (double)(l + 1) : c->Nl[l];
            double dd = c->dD[l * c->QQ + p];
            s += w * dd * (1.0 + 2 * BH_U);           /* the D errors, scaled as the coefficients */
            if (c->d == 4)                            /* rounding of fl((l+1) D) */
                s += 2 * BH_U * w * fabs(c->D[l * c->QQ + p]);
            if (c->A3)
                sa += fabs(c->A3[l + c->M * p]);
        }
        if (c->A3)
            s += c->conv * sa + TINY;
        c->edelta[p] = c->cdelta * s;
    }
}

/* ---- step 3: the pieces ------------------------------------------------ */

typedef struct {
    size_t M, QQ;
    const double *F, *Y;            /* M x QQ each */
    const double *absF;             /* QQ: sum_m |F_mp| */
    double extra;                   /* gamma_M (gmax + rad) (1 + gamma_M) + rad */
    double nu;                      /* upper bound of the piece mass */
    double *acc;                    /* QQ: accumulates sqrt(nu q_p) */
} piece_ctx;

/* Body, in FE_UPWARD: acc_p += sqrt(nu * max(0, f^T G f upper bound)). */
static FROUND_BODY void piece_body(void *arg)
{
    piece_ctx *c = arg;
    for (size_t p = 0; p < c->QQ; p++) {
        const double *f = c->F + c->M * p, *y = c->Y + c->M * p;
        double s = 0;
        for (size_t m = 0; m < c->M; m++)
            s += f[m] * y[m];
        s += c->extra * c->absF[p] * c->absF[p] + TINY;
        if (s < 0)
            s = 0;
        c->acc[p] += sqrt(c->nu * s);
    }
}

/* ---- step 4: rows ------------------------------------------------------- */

typedef struct {
    size_t Q;
    const double *g, *Zlo, *L2, *edelta, *tail;
    double *row, err, tail_max;
} row_ctx;

static FROUND_BODY void row_body(void *arg)
{
    row_ctx *c = arg;
    size_t Q = c->Q;
    c->err = 0;
    c->tail_max = 0;
    for (size_t q = 0; q < Q; q++) {
        double s = 0, st = 0;
        for (size_t qp = 0; qp < Q; qp++) {
            size_t p = q + Q * qp;
            s += c->g[qp] * (c->L2[p] + c->edelta[p] + c->tail[p]);
            st += c->g[qp] * c->tail[p];
        }
        double e = s / c->Zlo[q];
        c->row[q] = e;
        if (!(e <= c->err))
            c->err = isnan(e) ? INFINITY : e;
        double et = st / c->Zlo[q];
        c->tail_max = et > c->tail_max ? et : c->tail_max;
    }
}

/* ---- the parallel steps (issue 35) --------------------------------------
 *
 * Steps 1 and 3 run their degrees and pieces side by side in `groups` groups (group k takes
 * items k, k + groups, ...), each with its own scratch.  Every item is computed by the same calls
 * on the same data as the one-thread loop, and step 3's terms are added in piece order, so the
 * certificate is the same bits for any number of groups or threads. */

#define BH_SCRATCH_BYTES (1ull << 30)   /* the groups' scratch together, at most (one group at least) */

/* min(par_threads(), items), and at most as many groups as BH_SCRATCH_BYTES holds scratch of
 * `per` doubles. */
static size_t bh_groups(size_t items, size_t per)
{
    size_t g = (size_t)par_threads(), cap = (size_t)(BH_SCRATCH_BYTES / (8.0 * (double)(per ? per : 1)));
    if (g > items)
        g = items;
    if (g > cap)
        g = cap;
    return g ? g : 1;
}

typedef struct {
    const bh_setup_t *B;
    const size_t *R;
    double *const *X, *const *Y;
    double *D, *dD;
    size_t Rmax, groups;
    double *scratch;    /* groups x (2 QQ + 2 Q Rmax) */
} deg_ctx;

/* Group k of step 1: D^l and dD^l for l = k, k + groups, ... */
static void deg_group(void *arg, size_t k)
{
    deg_ctx *c = arg;
    const bh_setup_t *B = c->B;
    size_t Q = B->Q, QQ = B->QQ, RQ = Q * (c->Rmax ? c->Rmax : 1);
    double *P = c->scratch + k * (2 * QQ + 2 * RQ), *A = P + QQ, *aX = A + QQ, *aY = aX + RQ;
    for (size_t l = k; l < B->M; l += c->groups) {
        size_t r = c->R[l];
        if (r) {
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, (int)Q, (int)Q, (int)r, 1.0, c->X[l], (int)Q,
                        c->Y[l], (int)Q, 0.0, P, (int)Q);
            for (size_t i = 0; i < Q * r; i++) {
                aX[i] = fabs(c->X[l][i]);
                aY[i] = fabs(c->Y[l][i]);
            }
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, (int)Q, (int)Q, (int)r, 1.0, aX, (int)Q, aY,
                        (int)Q, 0.0, A, (int)Q);
        }
        double gk = bh_gamma(r + 1);
        diff_ctx dc = {.n = QQ, .C = B->C + l * QQ, .Crad = B->Crad + l * QQ, .P = r ? P : NULL,
                       .A = r ? A : NULL, .gam = gk * (1.0 + gk) * (1.0 + 1e-15), .D = c->D + l * QQ,
                       .dD = c->dD + l * QQ};
        fround_run(FE_UPWARD, diff_body, &dc);
    }
}

typedef struct {
    const bh_setup_t *B;
    const double *F, *absF;
    double gM;
    size_t groups;
    double *Yp;         /* groups x M x QQ */
    double *terms;      /* npieces x QQ: piece i's sqrt(nu q_p) */
} piece_job_ctx;

/* Group k of step 3: the terms of pieces k, k + groups, ... */
static void piece_group(void *arg, size_t k)
{
    piece_job_ctx *c = arg;
    const bh_setup_t *B = c->B;
    size_t M = B->M, QQ = B->QQ;
    double *Yp = c->Yp + k * M * QQ, gM = c->gM;
    for (size_t i = k; i < B->npieces; i += c->groups) {
        const trig_gram_t *G = &B->pieces[i];
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)M, (int)QQ, (int)M, 1.0, G->G, (int)M, c->F,
                    (int)M, 0.0, Yp, (int)M);
        double extra = (gM * (G->gmax + G->rad) * (1.0 + gM) + G->rad) * (1.0 + 1e-15);
        piece_ctx pc = {.M = M, .QQ = QQ, .F = c->F, .Y = Yp, .absF = c->absF, .extra = extra, .nu = G->nu_up,
                        .acc = c->terms + i * QQ};   /* zero: the term itself (0 + x = x) */
        fround_run(FE_UPWARD, piece_body, &pc);
    }
}

typedef struct {
    size_t n, npieces;
    const double *terms;
    double *acc;
} acc_ctx;

/* Body, in FE_UPWARD: acc_p += the pieces' terms, piece by piece (the one-thread loop's order). */
static FROUND_BODY void acc_body(void *arg)
{
    acc_ctx *c = arg;
    for (size_t i = 0; i < c->npieces; i++)
        for (size_t p = 0; p < c->n; p++)
            c->acc[p] += c->terms[i * c->n + p];
}

ar_status bh_certify(const bh_setup_t *B, const size_t *R, double *const *X, double *const *Y, double *row_err,
                     double *err, double *tail_max)
{
    size_t Q = B->Q, QQ = B->QQ, M = B->M;
    double *D = ar_calloc(M * QQ, sizeof(double), "ball harmonic residual");
    double *dD = ar_calloc(M * QQ, sizeof(double), "ball harmonic residual bounds");
    double *F = ar_calloc(M * QQ, sizeof(double), "ball harmonic coefficients");
    double *absF = ar_calloc(QQ, sizeof(double), "ball harmonic coefficient sums");
    double *L2 = ar_calloc(QQ, sizeof(double), "ball harmonic pair bounds");
    double *ed = ar_calloc(QQ, sizeof(double), "ball harmonic pair errors");
    int cos_table = B->d == 3 || B->d == 5;   /* the profile through the Gegenbauer-to-cosine table */
    double *A3 = cos_table ? ar_calloc(M * QQ, sizeof(double), "ball harmonic Gegenbauer coefficients") : NULL;
    size_t Rmax = 0;
    for (size_t l = 0; l < M; l++)
        Rmax = R[l] > Rmax ? R[l] : Rmax;
    ar_status st = AR_OK;
    if (!D || !dD || !F || !absF || !L2 || !ed || (cos_table && !A3)) {
        st = AR_ENOMEM;
        goto done;
    }
    /* step 1: D^l = C^l - X_l Y_l^T with bounds, the degrees side by side */
    for (size_t l = 0; l < M; l++)
        if (R[l] > Q) {
            ar_error_set("ball harmonic certificate: rank %zu > %zu spheres at degree %zu", R[l], Q, l);
            st = AR_EINVAL;
            goto done;
        }
    {
        deg_ctx dc = {.B = B, .R = R, .X = X, .Y = Y, .D = D, .dD = dD, .Rmax = Rmax,
                      .groups = bh_groups(M, 2 * QQ + 2 * Q * (Rmax ? Rmax : 1))};
        dc.scratch = ar_calloc(dc.groups * (2 * QQ + 2 * Q * (Rmax ? Rmax : 1)), sizeof(double),
                               "ball harmonic degree scratch");
        if (!dc.scratch) {
            st = AR_ENOMEM;
            goto done;
        }
        par_for(dc.groups, deg_group, &dc, NULL);
        free(dc.scratch);
    }
    /* step 2: coefficients in the trigonometric basis (M x QQ, column p) */
    for (size_t p = 0; p < QQ; p++)
        for (size_t l = 0; l < M; l++) {
            double v = D[l * QQ + p];
            if (B->d == 2)
                F[l + M * p] = B->Nl[l] * v;
            else if (cos_table)
                A3[l + M * p] = B->Nl[l] * v;
            else
                F[l + M * p] = (double)(l + 1) * v;
        }
    if (cos_table)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)M, (int)QQ, (int)M, 1.0, B->Gam, (int)M, A3,
                    (int)M, 0.0, F, (int)M);
    double gM = bh_gamma(M + 1);
    /* d = 3, 5: sum_m |f_true - fl(Gam~ A3)| <= sum_l N_l dD_l + sum_l |A3_l| (2u + colrad + gamma_M (1 + colrad)) */
    edelta_ctx ec = {.M = M, .QQ = QQ, .d = B->d, .Nl = B->Nl, .D = D, .dD = dD, .A3 = A3,
                     .conv = ((gM + 2 * BH_U) * (1.0 + B->gam_colrad) + B->gam_colrad) * (1.0 + 1e-15),
                     .cdelta = B->cdelta, .edelta = ed};
    fround_run(FE_UPWARD, edelta_body, &ec);
    resid_colsums_up(M, QQ, F, M, absF);   /* absF[p] >= sum_m |F_mp| */
    /* step 3: piecewise L2, the pieces side by side; their terms added in piece order */
    if (B->npieces) {
        piece_job_ctx pj = {.B = B, .F = F, .absF = absF, .gM = gM,
                            .groups = bh_groups(B->npieces, M * QQ)};
        pj.Yp = ar_calloc(pj.groups * M * QQ, sizeof(double), "ball harmonic Gram products");
        pj.terms = ar_calloc(B->npieces * QQ, sizeof(double), "ball harmonic piece terms");
        if (!pj.Yp || !pj.terms) {
            free(pj.Yp);
            free(pj.terms);
            st = AR_ENOMEM;
            goto done;
        }
        par_for(pj.groups, piece_group, &pj, NULL);
        acc_ctx ac = {.n = QQ, .npieces = B->npieces, .terms = pj.terms, .acc = L2};
        fround_run(FE_UPWARD, acc_body, &ac);
        free(pj.Yp);
        free(pj.terms);
    }
    /* step 4: rows */
    row_ctx rc = {.Q = Q, .g = B->g, .Zlo = B->Zlo, .L2 = L2, .edelta = ed, .tail = B->tail, .row = row_err};
    fround_run(FE_UPWARD, row_body, &rc);
    *err = rc.err;
    if (tail_max)
        *tail_max = rc.tail_max;
done:
    free(D);
    free(dD);
    free(F);
    free(absF);
    free(L2);
    free(ed);
    free(A3);
    return st;
}
