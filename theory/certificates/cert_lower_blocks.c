/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_lower_blocks.c -- the block (Voronoi) test-matrix certificate (THEORY 3.4b; see
 * cert_lower.h lower_blocks): rows S, W the indicator of the columns' argmax blocks over S
 * (||W||_r1 <= 1), M = A_S W; rank_eps(A) >= |S| when eps ||M^{-1}||_inf < 1, the inverse norm
 * bounded by Varah's bound or the verified inverse norm.  proofs-notes/lower-certificates.md
 * 2b (the block matrix), 3.1 (the enclosure of M, lower_blocks_certify), 3.2 (the verified
 * inverse norm) and 3.3 (the galloping search over a point order). */
#include "theory/certificates/cert_lower.h"
#include "theory/certificates/cert_lower_impl.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/cancel.h"
#include "base/parallel.h"
#include "base/clock.h"
#include "numerics/fround.h"
#include "numerics/invnorm.h"
#include "numerics/resid.h"

typedef struct {
    const smx_t *A;
    const size_t *rows, *blk;
    size_t m;
    double *Mmid;
    double g;       /* >= gamma_n */
    double enorm;   /* out: >= ||M - Mmid||_inf */
} probe_ctx;

/* The loops below over the m chosen rows x the n columns run on a fixed partition (base/
 * parallel.h): the rows of M (blocksums, enorm) or the columns of A (assign) split into
 * LOWER_PARTS(len, m n) contiguous parts, a function of the shape alone, spread over attnrank's
 * threads.  Every entry and every row sum is formed by one part, in the same order as one
 * loop would (j = 0..n-1), and the maximum of enorm is taken over the parts in part order, so
 * no bit depends on the thread count (issue 35). */
#define LOWER_PART_WORK 65536.0     /* m n below this: one part (threads cost more than they save) */
#define LOWER_PART_ROWS 8           /* rows of M per part, at least */
#define LOWER_PART_COLS 512         /* columns of A per part, at least */

static size_t lower_parts(size_t len, size_t min_len, size_t m, size_t n)
{
    return (double)m * (double)n >= LOWER_PART_WORK ? par_parts(len, min_len) : 1;
}

typedef struct {
    probe_ctx *c;
    size_t parts;
    double best[PAR_MAX_PARTS];     /* enorm: each part's maximum */
    int bad[PAR_MAX_PARTS];         /* enorm: 1 when a part met a NaN */
} probe_par;

typedef struct {
    probe_par *P;
    size_t t0, t1;
    double best;
    int bad;
} probe_part;

/* Body (caller sets the mode): rows t0..t1 of Mmid = block sums of the chosen rows. */
static FROUND_BODY void probe_blocksums(void *arg)
{
    probe_part *q = arg;
    probe_ctx *c = q->P->c;
    size_t Am = c->A->m, n = c->A->n, m = c->m, t0 = q->t0, t1 = q->t1;
    const double *a = c->A->a;
    for (size_t b = 0; b < m; b++)
        memset(c->Mmid + b * m + t0, 0, (t1 - t0) * sizeof *c->Mmid);
    for (size_t j = 0; j < n; j++) {
        if (c->blk[j] == LOWER_BLOCK_NONE)
            continue;                   /* a column in no block: a zero row of W */
        const double *col = a + j * Am;
        double *mc = c->Mmid + c->blk[j] * m;
        for (size_t t = t0; t < t1; t++)
            mc[t] += col[c->rows[t]];
    }
}

/* Body, in FE_UPWARD: the maximum over t0 <= t < t1 of rowerr[s_t] + g sum_j |a_{s_t j}|. */
static FROUND_BODY void probe_enorm(void *arg)
{
    probe_part *q = arg;
    probe_ctx *c = q->P->c;
    size_t Am = c->A->m, n = c->A->n;
    const double *a = c->A->a;
    double enorm = 0.0;
    int bad = 0;
    for (size_t t = q->t0; t < q->t1; t++) {
        size_t s = c->rows[t];
        double rho = 0.0;
        for (size_t j = 0; j < n; j++)
            rho += fabs(a[s + j * Am]);
        double e = c->A->rowerr[s] + c->g * rho;
        if (isnan(e))
            bad = 1;
        if (!(e <= enorm))
            enorm = e;
    }
    q->best = enorm;
    q->bad = bad;
}

static void blocksums_part(void *arg, size_t j)
{
    probe_par *P = arg;
    probe_part q = {.P = P, .t0 = par_part_start(P->c->m, P->parts, j), .t1 = par_part_start(P->c->m, P->parts, j + 1)};
    fround_run(FE_TONEAREST, probe_blocksums, &q);
}

static void enorm_part(void *arg, size_t j)
{
    probe_par *P = arg;
    probe_part q = {.P = P, .t0 = par_part_start(P->c->m, P->parts, j), .t1 = par_part_start(P->c->m, P->parts, j + 1)};
    fround_run(FE_UPWARD, probe_enorm, &q);
    P->best[j] = q.best;
    P->bad[j] = q.bad;
}

/* Mmid (column-major, m x m): block sums in round-to-nearest (enforced so that Mmid does not
 * depend on the caller's mode; the gamma_n bound holds in any mode); then c->enorm, the largest
 * row's bound (NaN when some row's is NaN: no certificate). */
static void probe_sums(probe_ctx *c)
{
    probe_par P = {.c = c, .parts = lower_parts(c->m, LOWER_PART_ROWS, c->m, c->A->n)};
    par_for(P.parts, blocksums_part, &P, NULL);
    par_for(P.parts, enorm_part, &P, NULL);
    double enorm = 0.0;
    for (size_t j = 0; j < P.parts; j++) {
        if (P.bad[j])
            enorm = NAN;
        else if (!(P.best[j] <= enorm) && !isnan(enorm))
            enorm = P.best[j];
    }
    c->enorm = enorm;
}

/* Contract: cert_lower_impl.h.  The rigorous probe of rows[0..m) with the assignment blk:
 * Varah, then the verified inverse norm (from R0 or LAPACK's inverse); else trivial. */
void lower_blocks_certify(const smx_t *A, const size_t *rows, size_t m, double eps, const size_t *blk,
                          double *Mmid, const double *R0, lower_cert_t *out)
{
    lower_set_trivial(out);
    /* Mmid (column-major, m x m): block sums in round-to-nearest (enforced so
     * that Mmid does not depend on the caller's mode; the gamma_n bound below
     * holds in any mode) */
    probe_ctx pc = {.A = A, .rows = rows, .blk = blk, .m = m, .Mmid = Mmid, .g = resid_gamma(A->n)};
    /* enorm >= ||M - Mmid||_inf: per row s, rowerr[s] (|A - a| summed over
     * the columns, W has at most one 1 per column) plus the summation error of the
     * block sums, <= gamma_{n} * sum_j |a_sj| (recursive summation of at
     * most n terms; additions are exact on underflow).  All upward. */
    probe_sums(&pc);
    double enorm = pc.enorm;
    if (!(enorm < INFINITY))
        return;
    double vb = invnorm_varah_bound(m, Mmid, enorm);
    if (lower_certifies(eps, vb)) {
        out->rank = m;
        out->invnorm = vb;
        out->method = AR_METHOD_DIAGDOM;
        return;
    }
    if (m == 1)
        return;
    double ib = invnorm_inf_bound_guess(m, Mmid, enorm, R0);
    if (lower_certifies(eps, ib)) {
        out->rank = m;
        out->invnorm = ib;
        out->method = AR_METHOD_INVNORM;
    }
}

typedef struct {
    const smx_t *A;
    const size_t *rows;
    size_t m, parts;
    size_t *blk;
} assign_ctx;

/* Part p of the columns: block of column j = argmax over the chosen rows (ties: first). */
static void assign_part(void *arg, size_t p)
{
    const assign_ctx *c = arg;
    size_t Am = c->A->m, n = c->A->n, m = c->m;
    const double *a = c->A->a;
    for (size_t j = par_part_start(n, c->parts, p); j < par_part_start(n, c->parts, p + 1); j++) {
        const double *col = a + j * Am;
        size_t best = 0;
        double bv = col[c->rows[0]];
        for (size_t t = 1; t < m; t++)
            if (col[c->rows[t]] > bv) {
                bv = col[c->rows[t]];
                best = t;
            }
        c->blk[j] = best;
    }
}

/* Contract: cert_lower_impl.h.  blk[j] = argmax_t a_{rows[t], j} (ties: the first). */
void lower_blocks_assign(const smx_t *A, const size_t *rows, size_t m, size_t *blk)
{
    assign_ctx c = {.A = A, .rows = rows, .m = m, .blk = blk, .parts = lower_parts(A->n, LOWER_PART_COLS, m, A->n)};
    par_for(c.parts, assign_part, &c, NULL);
}

/* Contract: cert_lower_impl.h.  Core of lower_blocks_rows without validation; scratch provided:
 * blk (n size_t), Mmid (m*m doubles). */
void lower_blocks_probe(const smx_t *A, const size_t *rows, size_t m, double eps,
                         size_t *blk, double *Mmid, lower_cert_t *out)
{
    lower_set_trivial(out);
    if (m > A->n)                   /* some block would be empty: M singular */
        return;
    lower_blocks_assign(A, rows, m, blk);
    lower_blocks_certify(A, rows, m, eps, blk, Mmid, NULL, out);
}

/* Contract: cert_lower.h.  The block certificate of one given row set (rank m or trivial). */
ar_status lower_blocks_rows(const smx_t *A, const size_t *rows, size_t m, double eps,
                            lower_cert_t *out)
{
    double t0 = clock_now();
    memset(out, 0, sizeof *out);
    if (!lower_check_common(A, eps, "lower_blocks_rows"))
        return AR_EINVAL;
    if (m == 0 || !rows) {
        ar_error_set("lower_blocks_rows: empty row set");
        return AR_EINVAL;
    }
    ar_status rst = lower_rows_distinct(rows, m, A->m, "lower_blocks_rows", "rows");
    if (rst)
        return rst;
    lower_set_trivial(out);
    if (m <= A->n) {
        size_t *blk = ar_calloc(A->n, sizeof *blk, "column blocks");
        double *M = ar_calloc(m * m, sizeof *M, "test matrix");
        if (!blk || !M) {
            free(blk); free(M);
            return AR_ENOMEM;
        }
        lower_blocks_probe(A, rows, m, eps, blk, M, out);
        free(blk); free(M);
    }
    out->seconds = clock_now() - t0;
    return AR_OK;
}

/* Contract: cert_lower.h.  lower_blocks_cap without a cap. */
ar_status lower_blocks(const smx_t *A, const size_t *order, size_t norder, double eps,
                       lower_cert_t *out)
{
    return lower_blocks_cap(A, order, norder, eps, (size_t)-1, out);
}

/* Contract: cert_lower.h.  lower_blocks_gallop with every failure bisected. */
ar_status lower_blocks_cap(const smx_t *A, const size_t *order, size_t norder, double eps, size_t cap,
                           lower_cert_t *out)
{
    return lower_blocks_gallop(A, order, norder, eps, cap, (size_t)-1, out, NULL);
}

/* Contract: cert_lower.h.  The largest certified prefix of order: galloping over the length,
 * then bisection (up to bisect_max; beyond it *failed = the first failed length). */
ar_status lower_blocks_gallop(const smx_t *A, const size_t *order, size_t norder, double eps, size_t cap,
                              size_t bisect_max, lower_cert_t *out, size_t *failed)
{
    double t0 = clock_now();
    if (failed)
        *failed = 0;
    memset(out, 0, sizeof *out);
    if (!lower_check_common(A, eps, "lower_blocks"))
        return AR_EINVAL;
    if (norder == 0 || !order) {
        ar_error_set("lower_blocks: empty order");
        return AR_EINVAL;
    }
    ar_status rst = lower_rows_distinct(order, norder, A->m, "lower_blocks", "the order");
    if (rst)
        return rst;
    size_t top = norder < A->n ? norder : A->n;     /* longer prefixes cannot be certified */
    size_t *blk = ar_calloc(A->n, sizeof *blk, "column blocks");
    double *M = ar_calloc(top * top, sizeof *M, "test matrix");
    if (!blk || !M) {
        free(blk); free(M);
        return AR_ENOMEM;
    }
    lower_cert_t best, probe;
    lower_set_trivial(&best);
    /* galloping over the prefix length: 1, 2, 4, ... until a failure */
    size_t lo = 0, hi = 0, len = 1;        /* lo: certified, hi: failed (0 = none yet) */
    for (;;) {
        if (cancel_check()) {               /* one check per probe */
            free(blk); free(M);
            return AR_ECANCELED;
        }
        if (len > cap)
            lower_set_trivial(&probe);            /* cannot certify: cap bounds the rank from above */
        else
            lower_blocks_probe(A, order, len, eps, blk, M, &probe);
        if (probe.rank == len && probe.method != AR_METHOD_TRIVIAL) {
            lo = len;
            best = probe;
            if (len == top)
                break;
            len = 2 * len < top ? 2 * len : top;
        } else if (len == 1 && probe.rank == 1) {
            lo = 1;                          /* rank 1 holds anyway */
            if (len == top)
                break;
            len = 2;
        } else {
            hi = len;
            break;
        }
    }
    /* bisection between the last certified and the first failed length (up to bisect_max) */
    if (hi > bisect_max && failed)
        *failed = hi;
    else if (hi > 0) {
        while (hi - lo > 1) {
            if (cancel_check()) {
                free(blk); free(M);
                return AR_ECANCELED;
            }
            size_t mid = lo + (hi - lo) / 2;
            if (mid > cap)
                lower_set_trivial(&probe);
            else
                lower_blocks_probe(A, order, mid, eps, blk, M, &probe);
            if (probe.rank == mid && probe.method != AR_METHOD_TRIVIAL) {
                lo = mid;
                best = probe;
            } else {
                hi = mid;
            }
        }
    }
    free(blk); free(M);
    *out = best;
    out->seconds = clock_now() - t0;
    return AR_OK;
}
