/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_lower_peel.c -- the peeled block test matrix (see cert_lower.h lower_peel_cap;
 * proofs-notes/lower-certificates.md 3.6). */
#include "theory/certificates/cert_lower.h"
#include "theory/certificates/cert_lower_impl.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "numerics/blas_select.h"
#include "numerics/cancel.h"
#include "numerics/clock.h"

/* Rows of R whose l1 norm exceeds PEEL_THR / eps are removed; the certificate needs < 1 / eps. */
#define PEEL_THR 0.99
/* Steps at most (each removes at least one row). */
#define PEEL_STEPS 200

double lower_peel_cost(size_t s0, size_t n)
{
    double s = (double)s0;
    return 2.0 * s * (double)n + 5.0 * s * s * s;
}

typedef struct {
    double norm;
    size_t pos;
} peel_key;

static int peel_cmp(const void *pa, const void *pb)
{
    const peel_key *a = pa, *b = pb;
    if (a->norm != b->norm)
        return a->norm > b->norm ? -1 : 1;
    return (a->pos > b->pos) - (a->pos < b->pos);
}

/* R (s x s, column-major) <- the inverse of M with the rows and columns `gone` (k of them, flags
 * in del) removed, by the Schur complement R_JJ - R_JK R_KK^{-1} R_KJ; compacted to (s - k) x
 * (s - k).  Returns 0 when R_KK is singular.  Scratch: X (k s), P (k), ipiv (k). */
static int peel_downdate(double *R, size_t s, const unsigned char *del, size_t k, double *X, double *RKK,
                         lapack_int *ipiv, size_t *J, size_t *K, double *RJK)
{
    size_t nj = 0, nk = 0;
    for (size_t t = 0; t < s; t++) {
        if (del[t])
            K[nk++] = t;
        else
            J[nj++] = t;
    }
    /* RKK (k x k), X = R_KJ (k x nj), RJK = R_JK (nj x k) */
    for (size_t b = 0; b < k; b++)
        for (size_t a = 0; a < k; a++)
            RKK[a + b * k] = R[K[a] + K[b] * s];
    for (size_t b = 0; b < nj; b++)
        for (size_t a = 0; a < k; a++)
            X[a + b * k] = R[K[a] + J[b] * s];
    for (size_t b = 0; b < k; b++)
        for (size_t a = 0; a < nj; a++)
            RJK[a + b * nj] = R[J[a] + K[b] * s];
    if (LAPACKE_dgesv(LAPACK_COL_MAJOR, (lapack_int)k, (lapack_int)nj, RKK, (lapack_int)k, ipiv, X,
                      (lapack_int)k) != 0)
        return 0;
    /* compact R_JJ in place (column by column, rows in J order; entries only move down/left) */
    for (size_t b = 0; b < nj; b++)
        for (size_t a = 0; a < nj; a++)
            R[a + b * nj] = R[J[a] + J[b] * s];
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)nj, (int)nj, (int)k, -1.0, RJK, (int)nj, X,
                (int)k, 1.0, R, (int)nj);
    for (size_t t = 0; t < nj * nj; t++)
        if (!isfinite(R[t]))
            return 0;
    return 1;
}

ar_status lower_peel_cap(const smx_t *A, const size_t *cand, size_t ncand, double eps, size_t cap,
                         lower_ctl_t *ctl, lower_cert_t *out, size_t *rows_out)
{
    double t0 = clock_now(), tick = t0;
    memset(out, 0, sizeof *out);
    if (!lower_check_common(A, eps, "lower_peel"))
        return AR_EINVAL;
    if (ncand == 0 || !cand) {
        ar_error_set("lower_peel: no candidate rows");
        return AR_EINVAL;
    }
    ar_status st = lower_rows_distinct(cand, ncand, A->m, "lower_peel", "candidates");
    if (st)
        return st;
    lower_set_trivial(out);
    size_t Am = A->m, n = A->n, s0 = ncand < n ? ncand : n;
    if (cap < s0)
        s0 = cap;                              /* sets above a certified upper end cannot certify */
    if (s0 < 2) {
        out->seconds = clock_now() - t0;
        return AR_OK;
    }
    /* the set's signature: a sum of mixed indices (the order plays no part) */
    uint64_t sig = 0x9e3779b97f4a7c15u;
    for (size_t t = 0; t < s0; t++) {
        uint64_t z = (uint64_t)cand[t] + 0x9e3779b97f4a7c15u;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        sig += z ^ (z >> 31);
    }
    sig += (uint64_t)s0;
    if (ctl)
        ctl->repeat = ctl->peeled == sig;
    if (ctl && ctl->repeat) {
        out->seconds = clock_now() - t0;
        return AR_OK;
    }
    if (ctl)
        ctl->peeled = sig;
    if (lower_over_budget(ctl, lower_peel_cost(s0, n))) {
        ctl->cut = 1;
        out->seconds = clock_now() - t0;
        return AR_OK;
    }
    lower_spend(ctl, lower_peel_cost(s0, n));
    size_t *blk = ar_calloc(n, sizeof *blk, "peel blocks");
    size_t *pos = blk ? ar_calloc(s0, sizeof *pos, "peel positions") : NULL;
    size_t *newpos = pos ? ar_calloc(s0, sizeof *newpos, "peel new positions") : NULL;
    size_t *rows = newpos ? ar_calloc(s0, sizeof *rows, "peel rows") : NULL;
    size_t *J = rows ? ar_calloc(s0, sizeof *J, "peel kept") : NULL;
    size_t *K = J ? ar_calloc(s0, sizeof *K, "peel removed") : NULL;
    size_t *fblk = K ? ar_calloc(n, sizeof *fblk, "peel final blocks") : NULL;
    unsigned char *del = fblk ? ar_calloc(s0, 1, "peel flags") : NULL;
    peel_key *key = del ? ar_calloc(s0, sizeof *key, "peel norms") : NULL;
    double *R = key ? ar_calloc(s0 * s0, sizeof *R, "peel inverse") : NULL;
    double *X = R ? ar_calloc(s0 * s0, sizeof *X, "peel scratch") : NULL;
    double *RJK = X ? ar_calloc(s0 * s0, sizeof *RJK, "peel scratch") : NULL;
    double *Mmid = RJK ? ar_calloc(s0 * s0, sizeof *Mmid, "peel test matrix") : NULL;
    lapack_int *ipiv = Mmid ? ar_calloc(s0, sizeof *ipiv, "peel pivots") : NULL;
    if (!ipiv) {
        st = AR_ENOMEM;
        goto done;
    }
    /* the blocks of the first s0 candidates, the guide's M in double, its inverse */
    lower_blocks_assign(A, cand, s0, blk);
    for (size_t j = 0; j < n; j++) {
        const double *col = A->a + j * Am;
        double *mc = R + blk[j] * s0;
        for (size_t t = 0; t < s0; t++)
            mc[t] += col[cand[t]];
    }
    blas_single_begin();                        /* the guide on one BLAS thread (deterministic) */
    int ok = LAPACKE_dgetrf(LAPACK_COL_MAJOR, (lapack_int)s0, (lapack_int)s0, R, (lapack_int)s0, ipiv) == 0 &&
             LAPACKE_dgetri(LAPACK_COL_MAJOR, (lapack_int)s0, R, (lapack_int)s0, ipiv) == 0;
    for (size_t t = 0; ok && t < s0 * s0; t++)
        ok = isfinite(R[t]);
    size_t s = s0;
    for (size_t t = 0; t < s0; t++)
        pos[t] = t;                             /* pos[t]: the candidate position of R's row t */
    double thr = PEEL_THR / eps;
    for (int step = 0; ok; step++) {
        if (cancel_check()) {
            blas_single_end();
            st = AR_ECANCELED;
            goto done;
        }
        size_t nviol = 0;
        for (size_t t = 0; t < s; t++) {
            double r = 0.0;
            for (size_t b = 0; b < s; b++)
                r += fabs(R[t + b * s]);
            key[t] = (peel_key){ .norm = isnan(r) ? INFINITY : r, .pos = t };
            nviol += !(r <= thr);
        }
        if (nviol == 0)
            break;
        size_t k = nviol / 2 > 0 ? nviol / 2 : 1;
        if (step >= PEEL_STEPS || s - k < 2) {
            ok = 0;
            break;
        }
        lower_tick(ctl, &tick, "lower: peeling, %zu rows, %zu above 1/eps", s, nviol);
        qsort(key, s, sizeof *key, peel_cmp);
        memset(del, 0, s);
        for (size_t t = 0; t < k; t++)
            del[key[t].pos] = 1;
        ok = peel_downdate(R, s, del, k, X, Mmid, ipiv, J, K, RJK);
        size_t q = 0;
        for (size_t t = 0; t < s; t++)
            if (!del[t])
                pos[q++] = pos[t];
        s = q;
    }
    blas_single_end();
    if (ok && s >= 2) {
        /* the kept candidates in their order, each block kept with its row, removed rows' columns
         * in no block */
        for (size_t t = 0; t < s0; t++)
            newpos[t] = LOWER_BLOCK_NONE;
        for (size_t t = 0; t < s; t++) {
            newpos[pos[t]] = t;
            rows[t] = cand[pos[t]];
        }
        for (size_t j = 0; j < n; j++)
            fblk[j] = newpos[blk[j]];
        lower_cert_t c;
        lower_blocks_certify(A, rows, s, eps, fblk, Mmid, R, &c);
        double fresh = 4.0 * (double)s * (double)s * (double)s;
        if (!(c.rank == s && c.method != AR_METHOD_TRIVIAL) && !lower_over_budget(ctl, fresh)) {
            lower_spend(ctl, fresh);
            lower_blocks_certify(A, rows, s, eps, fblk, Mmid, NULL, &c);   /* a fresh LU */
        }
        if (c.rank == s && c.method != AR_METHOD_TRIVIAL) {
            *out = c;
            if (rows_out)
                memcpy(rows_out, rows, s * sizeof *rows);
        }
    }
done:
    free(blk); free(pos); free(newpos); free(rows); free(J); free(K); free(fblk); free(del); free(key);
    free(R); free(X); free(RJK); free(Mmid); free(ipiv);
    out->seconds = clock_now() - t0;
    return st;
}
