/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_lower_dominant.c -- the diagonally dominant subset of a row set (see cert_lower.h
 * lower_dominant_rows; proofs-notes/lower-certificates.md 3.7). */
#include "theory/certificates/cert_lower.h"
#include "theory/certificates/cert_lower_impl.h"

#include <stdlib.h>
#include <string.h>
#include "numerics/clock.h"

/* A kept row's margin must exceed eps by this factor (rounding and the enclosure error; the
 * rigorous check is lower_blocks_certify's). */
#define DOMINANT_SLACK 1.0001

ar_status lower_dominant_rows(const smx_t *A, const size_t *cand, size_t ncand, double eps, size_t cap,
                              lower_cert_t *out, size_t *rows_out)
{
    double t0 = clock_now();
    memset(out, 0, sizeof *out);
    if (!lower_check_common(A, eps, "lower_dominant_rows"))
        return AR_EINVAL;
    if (ncand == 0 || !cand) {
        ar_error_set("lower_dominant_rows: no candidate rows");
        return AR_EINVAL;
    }
    ar_status st = lower_rows_distinct(cand, ncand, A->m, "lower_dominant_rows", "candidates");
    if (st)
        return st;
    lower_set_trivial(out);
    size_t Am = A->m, n = A->n, s = ncand < n ? ncand : n;
    const double *a = A->a;
    size_t *blk = ar_calloc(n, sizeof *blk, "dominant blocks");
    double *diag = blk ? ar_calloc(s, sizeof *diag, "dominant diagonal") : NULL;
    double *sum = diag ? ar_calloc(s, sizeof *sum, "dominant row sums") : NULL;
    size_t *keep = sum ? ar_calloc(s, sizeof *keep, "dominant rows") : NULL;
    if (!keep) {
        free(blk); free(diag); free(sum);
        return AR_ENOMEM;
    }
    /* one pass: blocks of the s rows, then each row's diagonal block and its row sum over the
     * assigned columns; margin_t = 2 M_tt - sum_u M_tu */
    lower_blocks_assign(A, cand, s, blk);
    for (size_t j = 0; j < n; j++) {
        const double *col = a + j * Am;
        for (size_t t = 0; t < s; t++) {
            double v = col[cand[t]];
            sum[t] += v;
            if (blk[j] == t)
                diag[t] += v;
        }
    }
    size_t k = 0;
    for (size_t t = 0; t < s; t++)
        if (2.0 * diag[t] - sum[t] > DOMINANT_SLACK * eps)
            keep[k++] = cand[t];
    if (k > cap)
        k = cap;
    if (k >= 2) {
        /* the kept rows' own blocks (columns of dropped rows reassigned) only raise each kept
         * row's diagonal; the rigorous certificate is lower_blocks_rows' */
        if ((st = lower_blocks_rows(A, keep, k, eps, out)) == AR_OK && out->method != AR_METHOD_TRIVIAL &&
            rows_out)
            memcpy(rows_out, keep, k * sizeof *rows_out);
    }
    free(blk); free(diag); free(sum); free(keep);
    out->seconds = clock_now() - t0;
    return st;
}
