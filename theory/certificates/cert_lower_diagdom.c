/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_lower_diagdom.c -- exact diagonal dominance (THEORY 3.4a; see cert_lower.h
 * lower_diagdom): for rows r_t and columns c_t, margin_t = A_{r_t c_t} - sum_{u != t} A_{r_t c_u};
 * when every margin exceeds eps, rank_eps(A) >= m and ||M^{-1}||_inf <= 1 / min margin (Varah).
 * proofs-notes/lower-certificates.md 2a (diagonal dominance as a special case) and 3.2 (the
 * upward 1 / min margin). */
#include "theory/certificates/cert_lower.h"
#include "theory/certificates/cert_lower_impl.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "numerics/clock.h"
#include "numerics/fround.h"

typedef struct {
    const smx_t *A;
    const size_t *rows, *cols;
    size_t m;
    double eps;
    double minmargin;   /* out: <= every margin (stops early once <= eps) */
} diagdom_ctx;

/* Body, in FE_DOWNWARD.  margin_t = A_{r,c_t} - sum_{u != t} A_{r,c_u} >=
 * a_{r,c_t} - sum a_{r,c_u} - rowerr[r] (the enclosure error on these m
 * entries is at most rowerr[r] in l1).  Lower bound: the off-diagonal sum is
 * accumulated as the negation of a downward sum of negated terms (= the
 * upward sum), the subtractions round down. */
static FROUND_BODY void diagdom_margins(void *arg)
{
    diagdom_ctx *c = arg;
    const smx_t *A = c->A;
    size_t Am = A->m, m = c->m;
    double minmargin = INFINITY;
    for (size_t t = 0; t < m && minmargin > c->eps; t++) {
        size_t r = c->rows[t];
        double negoff = 0.0;            /* <= -(sum of the off-diagonal entries) */
        for (size_t u = 0; u < m; u++)
            if (u != t)
                negoff = negoff - A->a[r + c->cols[u] * Am];
        double mg = A->a[r + c->cols[t] * Am] + negoff;
        mg = mg - A->rowerr[r];
        if (!(mg >= minmargin))
            minmargin = mg;           /* NaN propagates and fails */
    }
    c->minmargin = minmargin;
}

/* Contract: cert_lower.h.  rank m when B restricted to rows x cols is strictly diagonally
 * dominant with every margin > eps (margins bounded below in FE_DOWNWARD). */
ar_status lower_diagdom(const smx_t *A, const size_t *rows, const size_t *cols, size_t m,
                        double eps, lower_cert_t *out)
{
    double t0 = clock_now();
    memset(out, 0, sizeof *out);
    if (!lower_check_common(A, eps, "lower_diagdom"))
        return AR_EINVAL;
    if (m == 0 || !rows || !cols) {
        ar_error_set("lower_diagdom: empty row/column set");
        return AR_EINVAL;
    }
    size_t big = A->m > A->n ? A->m : A->n;
    unsigned char *mark = ar_calloc(big, 1, "index marks");
    if (!mark)
        return AR_ENOMEM;
    int ok = lower_distinct_below(rows, m, A->m, mark) && lower_distinct_below(cols, m, A->n, mark);
    free(mark);
    if (!ok) {
        ar_error_set("lower_diagdom: rows (< %zu) and columns (< %zu) must be distinct", A->m, A->n);
        return AR_EINVAL;
    }
    lower_set_trivial(out);
    diagdom_ctx dc = {.A = A, .rows = rows, .cols = cols, .m = m, .eps = eps};
    fround_run(FE_DOWNWARD, diagdom_margins, &dc);
    double minmargin = dc.minmargin;
    double inv = fround_div_up(1.0, minmargin);
    if (minmargin > eps) {
        /* B restricted to rows x cols is strictly diagonally dominant; also
         * ||M^{-1}||_inf <= 1/minmargin for M = A_{rows, cols} (Varah). */
        out->rank = m;
        out->invnorm = inv;
        out->method = AR_METHOD_DIAGDOM;
    }
    out->seconds = clock_now() - t0;
    return AR_OK;
}
