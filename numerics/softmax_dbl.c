/* SPDX-License-Identifier: GPL-3.0-or-later */
/* softmax_dbl.c -- the double-arithmetic enclosure of a softmax matrix
 * (see softmax_dbl.h; the error analysis is proofs-notes/fast-enclosure.md).
 *
 * Row i, one contiguous row at a time (rows in chunks of SMXD_BLK, contiguous parts of chunks
 * over the threads):
 *   Lt_ij = fl(sum_c q_ic bk_jc) (+ lw_j)     bk_jc = fl(beta k_jc), c in order 0..d-1
 *   s_i   = max_j Lt_ij
 *   l_ij  = fl(Lt_ij - s_i) <= 0
 *   e_ij  = expd(l_ij) if l_ij >= EXPD_MIN, else 0 (a "tail" entry)
 *   z_i   = fl(sum_j e_ij)  (j ascending),  y_i = fl(1 / z_i),  a_ij = fl(e_ij y_i)
 * rowerr_i (rounded up) = tau_i + n 2^-1016 with
 *   P_i     = sum_c |q_ic| bK_c                      (>= beta sum_c |q_ic| |k_jc| for all j)
 *   delta_i = g_{d+1} P_i + U_i + dw + 3u(1+u)((1+g_{d+1}) P_i + W + U_i)   (>= |l_ij - (Lambda_ij - s_i)|)
 *             with a logit bias b: Lt_ij = fl(Lt_ij + b_ij) (b_ij = -inf: the entry is 0 and in no sum or
 *             maximum), and 3u(1+u)(...) becomes 4u(1+u)^2(... + B_i), B_i >= max_j |b_ij| over finite b_ij
 *   U_i     = (1+g_{d+1}) ((1+u) Q_i + d) 2^-1074,  Q_i = sum_c |q_ic|   (subnormal products and scaled keys)
 *   eta_i   = (1 + delta_i + delta_i^2)(1 + EXPD_RELERR) - 1
 *   etab_i  = eta_i + n 2^-1017
 *   tau_i   = (1 + eta_i)(1 + u)^2 / ((1 - etab_i)(1 - g_{n-1})) - 1
 * u = 2^-52, g_k = gamma_k (numerics/resid.h). */
#include "numerics/softmax_dbl.h"

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <arb.h>
#include "numerics/expd.h"
#include "numerics/fround.h"
#include "base/parallel.h"
#include "numerics/resid.h"

#define SMXD_BLK 64
#define SMXD_PART_BLKS 1        /* chunks per part of the fixed partition, at least (64 rows) */
#define SMXD_MAX_THREADS 64

#define U52 0x1p-52

void smxd_clear(smxd_t *S)
{
    if (!S)
        return;
    free(S->bk);
    free(S->lw);
    free(S->bK);
    free(S->B);
    memset(S, 0, sizeof *S);
}

typedef struct {
    const smxd_t *S;
    const size_t *rows;     /* NULL: rows i0 + t */
    size_t i0, cnt;
    double *delta;          /* out (row_delta_body) / in (row_err_body) */
    double *rowerr;         /* out (row_err_body) */
} bound_ctx;

/* Body, in FE_UPWARD: delta_i for each row (see the header comment). */
static FROUND_BODY void row_delta_body(void *arg)
{
    bound_ctx *c = arg;
    const smxd_t *S = c->S;
    double g = resid_gamma(S->d + 1);
    double c3 = (3.0 * U52) * (1.0 + U52);                /* 3u(1+u), rounded up */
    double c4 = ((4.0 * U52) * (1.0 + U52)) * (1.0 + U52);   /* 4u(1+u)^2 with a bias (Lemma 2b) */
    for (size_t t = 0; t < c->cnt; t++) {
        size_t i = c->rows ? c->rows[t] : c->i0 + t;
        const double *x = S->q + i * S->d;
        double P = 0.0, Q = 0.0;
        for (size_t k = 0; k < S->d; k++) {
            P = P + fabs(x[k]) * S->bK[k];
            Q = Q + fabs(x[k]);
        }
        double under = (1.0 + g) * (((1.0 + U52) * Q + (double)S->d) * 0x1p-1074);   /* absolute underflow errors */
        double v = S->bias ? c4 * ((((1.0 + g) * P + S->W) + S->B[i]) + under)
                           : c3 * (((1.0 + g) * P + S->W) + under);
        c->delta[t] = ((g * P + S->dw) + v) + under;
    }
}

/* Body, in FE_UPWARD: rowerr_i from delta_i.  A lower bound of 1 - x is taken
 * as -(x - 1) rounded up, a product of two lower bounds a b as -((-a) b) rounded up. */
static FROUND_BODY void row_err_body(void *arg)
{
    bound_ctx *c = arg;
    const smxd_t *S = c->S;
    double tiny = ldexp((double)S->n, -1017), tiny2 = ldexp((double)S->n, -1016);   /* exact */
    double gn = resid_gamma(S->n > 1 ? S->n - 1 : 0);
    double one_gn = -(gn - 1.0);                                         /* <= 1 - gn */
    for (size_t t = 0; t < c->cnt; t++) {
        double dl = c->delta[t];
        double eta = ((1.0 + dl + dl * dl) * (1.0 + EXPD_RELERR)) - 1.0;
        double etab = eta + tiny;
        double num = ((1.0 + eta) * (1.0 + U52)) * (1.0 + U52);
        double one_etab = -(etab - 1.0);                                 /* <= 1 - etab */
        double den = -((-one_etab) * one_gn);                            /* <= (1 - etab)(1 - gn) */
        double r = den > 0 && isfinite(dl) ? (num / den - 1.0) + tiny2 : INFINITY;
        c->rowerr[t] = r;
    }
}

ar_status smxd_prepare(smxd_t *S, const double *q, size_t m, const double *k, size_t n, size_t d,
                       const fmpz *w, double beta, int nthreads)
{
    return smxd_prepare_bias(S, q, m, k, n, d, w, NULL, beta, nthreads);
}

ar_status smxd_prepare_bias(smxd_t *S, const double *q, size_t m, const double *k, size_t n, size_t d,
                            const fmpz *w, const double *bias, double beta, int nthreads)
{
    memset(S, 0, sizeof *S);
    ar_status st = smx_validate(q, m, k, n, d, w, beta, 0, nthreads);
    if (st == AR_OK)
        st = smx_bias_check(bias, m, n);
    if (st != AR_OK)
        return st;
    int allone = 1;
    if (w)
        for (size_t j = 0; j < n && allone; j++)
            allone = fmpz_is_one(w + j);
    expd_init();
    S->m = m;
    S->n = n;
    S->d = d;
    S->q = q;
    S->beta = beta;
    S->nthreads = nthreads == 0 ? par_threads() : nthreads > SMXD_MAX_THREADS ? SMXD_MAX_THREADS : nthreads;
    S->bk = ar_calloc(n * d, sizeof *S->bk, "softmax scaled keys");
    S->bK = S->bk ? ar_calloc(d, sizeof *S->bK, "softmax key magnitudes") : NULL;
    if (!S->bK) {
        smxd_clear(S);
        return AR_ENOMEM;
    }
    for (size_t t = 0; t < n * d; t++) {
        S->bk[t] = beta * k[t];
        if (S->bk[t] != 0.0 && fabs(S->bk[t]) < DBL_MIN)
            S->subnormal = 1;
    }
    for (size_t c = 0; c < d; c++) {
        double mx = 0.0;
        for (size_t j = 0; j < n; j++)
            mx = fmax(mx, fabs(k[j * d + c]));
        S->bK[c] = fround_mul_up(beta, mx);
    }
    if (!allone) {
        S->lw = ar_calloc(n, sizeof *S->lw, "softmax log multiplicities");
        if (!S->lw) {
            smxd_clear(S);
            return AR_ENOMEM;
        }
        arb_t lg, t;
        mag_t e;
        arb_init(lg);
        arb_init(t);
        mag_init(e);
        double W = 0.0, dw = 0.0;
        for (size_t j = 0; j < n; j++) {
            arb_log_fmpz(lg, w + j, 80);
            S->lw[j] = arf_get_d(arb_midref(lg), ARF_RND_NEAR);
            arb_set_d(t, S->lw[j]);
            arb_sub(t, lg, t, 80);
            arb_get_mag(e, t);                   /* >= |lw_j - log w_j| */
            dw = fmax(dw, mag_get_d(e));         /* mag_get_d rounds up */
            W = fmax(W, fabs(S->lw[j]));
        }
        S->W = W;
        S->dw = dw;
        arb_clear(lg);
        arb_clear(t);
        mag_clear(e);
    }
    if (bias) {
        S->bias = bias;
        if (!(S->B = ar_calloc(m, sizeof *S->B, "softmax bias magnitudes"))) {
            smxd_clear(S);
            return AR_ENOMEM;
        }
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++)
                if (isfinite(bias[i * n + j]))
                    S->B[i] = fmax(S->B[i], fabs(bias[i * n + j]));   /* exact */
    }
    double *delta = ar_calloc(m, sizeof *delta, "softmax logit error bounds");
    if (!delta) {
        smxd_clear(S);
        return AR_ENOMEM;
    }
    bound_ctx bc = {.S = S, .i0 = 0, .cnt = m, .delta = delta};
    fround_run(FE_UPWARD, row_delta_body, &bc);
    S->ok = !S->subnormal;
    for (size_t i = 0; i < m && S->ok; i++)
        if (!(delta[i] <= SMXD_MAX_DELTA))
            S->ok = 0;
    free(delta);
    return AR_OK;
}

typedef struct {
    const smxd_t *S;
    const size_t *rows;     /* NULL: rows i0 + t */
    size_t i0, cnt, lda;
    int colmajor;           /* 1: a[t + j lda] (through a row buffer), 0: a[t lda + j] */
    double *a, *lognorm;
    double *buf;            /* colmajor: SMXD_BLK x n rows of scratch, allocated by rows_run */
    size_t nblk, nparts;    /* chunks of SMXD_BLK rows, parts of the fixed partition of the chunks */
    atomic_size_t *next;    /* the next part to take (shared by the jobs) */
    size_t c0, c1;          /* the chunks of the part in hand */
} rows_job;

/* Row i of the image into out[0..n) (contiguous, so that the three passes stay in cache). */
static void one_row(const smxd_t *S, size_t i, double *out, double *lognorm)
{
    size_t n = S->n, d = S->d;
    const double *x = S->q + i * d;
    const double *b = S->bias ? S->bias + i * n : NULL;
    double smax = -INFINITY;
    for (size_t j = 0; j < n; j++) {
        if (b && b[j] == -INFINITY) {
            out[j] = -INFINITY;                 /* masked: expd_vec0 gives exactly 0 */
            continue;
        }
        const double *bkj = S->bk + j * d;
        double s = x[0] * bkj[0];
        for (size_t c = 1; c < d; c++)
            s += x[c] * bkj[c];
        if (S->lw)
            s += S->lw[j];
        if (b)
            s += b[j];
        out[j] = s;
        smax = s > smax ? s : smax;
    }
    for (size_t j = 0; j < n; j++)
        out[j] = out[j] - smax;
    expd_vec0(out, out, n);
    double z = 0.0;
    for (size_t j = 0; j < n; j++)
        z += out[j];
    double y = 1.0 / z;
    for (size_t j = 0; j < n; j++)
        out[j] *= y;
    if (lognorm)
        *lognorm = log(z) + smax;
}

/* Body (round-to-nearest, so that the image does not depend on the caller's mode;
 * the bound holds in any mode): the rows of chunks [c0, c1) of SMXD_BLK rows each.
 * Column-major output: a chunk's rows are computed into a row-major buffer and written out
 * column by column, SMXD_BLK contiguous entries at a time (issue 24: writing each row across
 * all n columns touched n pages per row; the values are the same). */
#define SMXD_TILE 64           /* columns per tile of the transposed write */

static FROUND_BODY void rows_body(void *arg)
{
    rows_job *J = arg;
    const smxd_t *S = J->S;
    size_t n = S->n;
    double *buf = J->buf;
    for (size_t bi = J->c0; bi < J->c1; bi++) {
        size_t t0 = bi * SMXD_BLK, t1 = t0 + SMXD_BLK < J->cnt ? t0 + SMXD_BLK : J->cnt;
        for (size_t t = t0; t < t1; t++) {
            size_t i = J->rows ? J->rows[t] : J->i0 + t;
            double *ln = J->lognorm ? J->lognorm + t : NULL;
            one_row(S, i, J->colmajor ? buf + (t - t0) * n : J->a + t * J->lda, ln);
        }
        if (!J->colmajor)
            continue;
        for (size_t j0 = 0; j0 < n; j0 += SMXD_TILE) {
            size_t j1 = j0 + SMXD_TILE < n ? j0 + SMXD_TILE : n;
            for (size_t j = j0; j < j1; j++) {
                double *aj = J->a + j * J->lda;
                for (size_t t = t0; t < t1; t++)
                    aj[t] = buf[(t - t0) * n + j];
            }
        }
    }
}

/* A thread's job: the parts of the fixed partition, taken in increasing order while any is
 * left (each part's rows are contiguous, so that two threads rarely write the same page). */
static void rows_thread(void *arg)
{
    rows_job *J = arg;
    for (;;) {
        size_t p = atomic_fetch_add(J->next, 1);
        if (p >= J->nparts)
            return;
        J->c0 = par_part_start(J->nblk, J->nparts, p);
        J->c1 = par_part_start(J->nblk, J->nparts, p + 1);
        fround_run(FE_TONEAREST, rows_body, J);
    }
}

/* AR_ENOMEM (nothing written) when the column-major path's row buffers cannot be allocated.
 * The chunks of SMXD_BLK rows are split into par_parts(chunks, SMXD_PART_BLKS) contiguous
 * parts, a function of cnt alone, spread over the threads; every row is computed by one
 * thread by one_row, so no bit depends on the split nor on the thread count. */
static ar_status rows_run(const smxd_t *S, const size_t *rows, size_t i0, size_t cnt, int colmajor, double *a,
                          size_t lda, double *rowerr, double *lognorm)
{
    size_t nblk = (cnt + SMXD_BLK - 1) / SMXD_BLK, nparts = par_parts(nblk, SMXD_PART_BLKS);
    int nt = S->nthreads;
    if ((size_t)nt > nparts)
        nt = nparts ? (int)nparts : 1;
    rows_job jobs[SMXD_MAX_THREADS];
    double *bufs = NULL;
    size_t per = (S->n ? S->n : 1) * SMXD_BLK;
    if (colmajor && !(bufs = ar_calloc((size_t)nt * per, sizeof *bufs, "softmax row buffers")))
        return AR_ENOMEM;
    atomic_size_t next;
    atomic_init(&next, 0);
    for (int t = 0; t < nt; t++)
        jobs[t] = (rows_job){.S = S, .rows = rows, .i0 = i0, .cnt = cnt, .lda = lda, .colmajor = colmajor,
                             .a = a, .lognorm = lognorm, .buf = bufs ? bufs + (size_t)t * per : NULL,
                             .nblk = nblk, .nparts = nparts, .next = &next};
    par_run(nt, rows_thread, NULL, jobs, sizeof jobs[0]);
    free(bufs);
    /* rowerr[t] doubles as the delta scratch: each entry is read before it is written */
    bound_ctx bc = {.S = S, .rows = rows, .i0 = i0, .cnt = cnt, .delta = rowerr, .rowerr = rowerr};
    fround_run(FE_UPWARD, row_delta_body, &bc);
    fround_run(FE_UPWARD, row_err_body, &bc);
    return AR_OK;
}

ar_status smxd_rows(const smxd_t *S, size_t i0, size_t i1, double *a, size_t lda, double *rowerr,
                    double *lognorm)
{
    return rows_run(S, NULL, i0, i1 - i0, 1, a, lda, rowerr, lognorm);
}

ar_status smxd_rows_at(const smxd_t *S, const size_t *rows, size_t cnt, double *a, size_t lda, double *rowerr,
                       double *lognorm)
{
    return rows_run(S, rows, 0, cnt, 1, a, lda, rowerr, lognorm);
}

void smxd_rows_rm(const smxd_t *S, const size_t *rows, size_t i0, size_t cnt, double *a, size_t lda,
                  double *rowerr, double *lognorm)
{
    (void)rows_run(S, rows, i0, cnt, 0, a, lda, rowerr, lognorm);   /* no buffer: always AR_OK */
}

void smxd_rowerr(const smxd_t *S, double *rowerr)
{
    bound_ctx bc = {.S = S, .rows = NULL, .i0 = 0, .cnt = S->m, .delta = rowerr, .rowerr = rowerr};
    fround_run(FE_UPWARD, row_delta_body, &bc);
    fround_run(FE_UPWARD, row_err_body, &bc);
}

/* Ask the kernel for transparent huge pages under the 2 MiB-aligned interior of [p, p + bytes)
 * (a hint, ignored where it does not apply).  The held image is written column by column in
 * chunks of SMXD_BLK rows, a page per column per chunk with 4 KiB pages: at 16000 x 16000 half a
 * million page faults, a third of the enclosure's time, and as many TLB misses in every pass over
 * it later.  No value depends on it. */
static void advise_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1), hi = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

ar_status smx_compute_dbl(smx_t *A, const double *q, size_t m, const double *k, size_t n, size_t d,
                          const fmpz *w, double beta, int nthreads)
{
    return smx_compute_dbl_bias(A, q, m, k, n, d, w, NULL, beta, nthreads);
}

ar_status smx_compute_dbl_bias(smx_t *A, const double *q, size_t m, const double *k, size_t n, size_t d,
                               const fmpz *w, const double *bias, double beta, int nthreads)
{
    if (!A) {
        ar_error_set("softmax: NULL output");
        return AR_EINVAL;
    }
    memset(A, 0, sizeof *A);
    smxd_t S;
    ar_status st = smxd_prepare_bias(&S, q, m, k, n, d, w, bias, beta, nthreads);
    if (st != AR_OK)
        return st;
    if (!S.ok) {
        smxd_clear(&S);
        return smx_compute_bias(A, q, m, k, n, d, w, bias, beta, 0, nthreads);
    }
    if (n > ((size_t)-1) / m) {
        smxd_clear(&S);
        ar_error_set("softmax: size overflow (m=%zu, n=%zu)", m, n);
        return AR_ENOMEM;
    }
    A->a = ar_calloc(m * n, sizeof(double), "softmax matrix");
    if (A->a)
        advise_huge(A->a, m * n * sizeof(double));
    A->rowerr = A->a ? ar_calloc(m, sizeof(double), "softmax row errors") : NULL;
    A->lognorm = A->rowerr ? ar_calloc(m, sizeof(double), "softmax log-normalisers") : NULL;
    if (!A->lognorm) {
        smxd_clear(&S);
        smx_clear(A);
        return AR_ENOMEM;
    }
    A->m = m;
    A->n = n;
    A->prec = 53;
    A->method = "double";
    ar_status rst = smxd_rows(&S, 0, m, A->a, m, A->rowerr, A->lognorm);
    smxd_clear(&S);
    if (rst) {
        smx_clear(A);
        return rst;
    }
    A->maxerr = 0;
    for (size_t i = 0; i < m; i++)
        if (!(A->rowerr[i] <= A->maxerr))
            A->maxerr = A->rowerr[i];
    return AR_OK;
}
