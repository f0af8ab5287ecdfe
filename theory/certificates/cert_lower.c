/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_lower.c -- lower certificates for the eps-rank (THEORY 3.4): block
 * test matrices certified by Varah's bound or a verified inverse norm, and
 * exact diagonal dominance. */
#include "theory/certificates/cert_lower.h"
#include "theory/certificates/cert_lower_impl.h"
#include "numerics/clock.h"

#include <fenv.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cblas.h>
#include <lapacke.h>
#include "numerics/blas_select.h"
#include "numerics/cancel.h"
#include "numerics/fround.h"
#include "numerics/invnorm.h"
#include "numerics/resid.h"

/* rank 1 is always certified for eps < 1: the only rank-0 matrix is 0 and
 * ||A - 0||_r1 = 1 (rows are probability vectors).  As a test-matrix
 * certificate: W = all-ones column, M = 1, ||M^{-1}|| = 1. */
void lower_set_trivial(lower_cert_t *out)
{
    out->rank = 1;
    out->invnorm = 1.0;
    snprintf(out->method, sizeof out->method, "trivial");
}

/* eps * bound < 1, evaluated with the product rounded upward so that
 * rounding can never make a failing test pass. */
int lower_certifies(double eps, double bound)
{
    if (!(bound < INFINITY) || !(bound >= 0))
        return 0;
    return fround_mul_up(eps, bound) < 1.0;
}

int lower_over_budget(const lower_ctl_t *ctl, double flops)
{
    return ctl && ctl->budget > 0 && ctl->spent + flops > ctl->budget;
}

void lower_spend(lower_ctl_t *ctl, double flops)
{
    if (ctl)
        ctl->spent += flops;
}

void lower_tick(const lower_ctl_t *ctl, double *last, const char *fmt, ...)
{
    if (!ctl || !ctl->progress)
        return;
    double now = clock_now();
    if (now - *last < 1.0)
        return;
    *last = now;
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ctl->progress(ctl->progress_ctx, msg);
}

int lower_check_common(const smx_t *A, double eps, const char *who)
{
    if (!A || !A->a || !A->rowerr || A->m == 0 || A->n == 0) {
        ar_error_set("%s: empty or missing matrix", who);
        return 0;
    }
    if (!(eps > 0.0 && eps < 1.0)) {
        ar_error_set("%s: eps must satisfy 0 < eps < 1 (got %g)", who, eps);
        return 0;
    }
    return 1;
}

/* indices idx[0..m) distinct and < bound.  mark: bound bytes of scratch (zeroed, restored). */
static int distinct_below(const size_t *idx, size_t m, size_t bound, unsigned char *mark)
{
    int ok = 1;
    size_t t;
    for (t = 0; t < m; t++) {
        if (idx[t] >= bound || mark[idx[t]]) {
            ok = 0;
            break;
        }
        mark[idx[t]] = 1;
    }
    for (size_t u = 0; u < t; u++)
        mark[idx[u]] = 0;
    return ok;
}


/* idx[0..m) distinct row indices < bound: AR_OK, AR_ENOMEM, or AR_EINVAL with the message
 * "<fn>: <what> must be distinct row indices < bound". */
ar_status lower_rows_distinct(const size_t *idx, size_t m, size_t bound, const char *fn, const char *what)
{
    unsigned char *mark = ar_calloc(bound, 1, "row marks");
    if (!mark)
        return AR_ENOMEM;
    int ok = distinct_below(idx, m, bound, mark);
    free(mark);
    if (!ok) {
        ar_error_set("%s: %s must be distinct row indices < %zu", fn, what, bound);
        return AR_EINVAL;
    }
    return AR_OK;
}

typedef struct {
    const smx_t *A;
    const size_t *rows, *blk;
    size_t m;
    double *Mmid;
    double g;       /* >= gamma_n */
    double enorm;   /* out: >= ||M - Mmid||_inf */
} probe_ctx;

/* Body (caller sets the mode): Mmid = block sums of the chosen rows. */
static FROUND_BODY void probe_blocksums(void *arg)
{
    probe_ctx *c = arg;
    size_t Am = c->A->m, n = c->A->n, m = c->m;
    const double *a = c->A->a;
    memset(c->Mmid, 0, m * m * sizeof *c->Mmid);
    for (size_t j = 0; j < n; j++) {
        if (c->blk[j] == LOWER_BLOCK_NONE)
            continue;                   /* a column in no block: a zero row of W */
        const double *col = a + j * Am;
        double *mc = c->Mmid + c->blk[j] * m;
        for (size_t t = 0; t < m; t++)
            mc[t] += col[c->rows[t]];
    }
}

/* Body, in FE_UPWARD: enorm = max_t rowerr[s_t] + g sum_j |a_{s_t j}|. */
static FROUND_BODY void probe_enorm(void *arg)
{
    probe_ctx *c = arg;
    size_t Am = c->A->m, n = c->A->n;
    const double *a = c->A->a;
    double enorm = 0.0;
    for (size_t t = 0; t < c->m; t++) {
        size_t s = c->rows[t];
        double rho = 0.0;
        for (size_t j = 0; j < n; j++)
            rho += fabs(a[s + j * Am]);
        double e = c->A->rowerr[s] + c->g * rho;
        if (!(e <= enorm))
            enorm = e;              /* also propagates NaN -> NaN */
    }
    c->enorm = enorm;
}

void lower_blocks_certify(const smx_t *A, const size_t *rows, size_t m, double eps, const size_t *blk,
                          double *Mmid, const double *R0, lower_cert_t *out)
{
    lower_set_trivial(out);
    /* Mmid (column-major, m x m): block sums in round-to-nearest (enforced so
     * that Mmid does not depend on the caller's mode; the gamma_n bound below
     * holds in any mode) */
    probe_ctx pc = {.A = A, .rows = rows, .blk = blk, .m = m, .Mmid = Mmid, .g = resid_gamma(A->n)};
    fround_run(FE_TONEAREST, probe_blocksums, &pc);
    /* enorm >= ||M - Mmid||_inf: per row s, rowerr[s] (|A - a| summed over
     * the columns, W has at most one 1 per column) plus the summation error of the
     * block sums, <= gamma_{n} * sum_j |a_sj| (recursive summation of at
     * most n terms; additions are exact on underflow).  All upward. */
    fround_run(FE_UPWARD, probe_enorm, &pc);
    double enorm = pc.enorm;
    if (!(enorm < INFINITY))
        return;
    double vb = invnorm_varah_bound(m, Mmid, enorm);
    if (lower_certifies(eps, vb)) {
        out->rank = m;
        out->invnorm = vb;
        snprintf(out->method, sizeof out->method, "diagdom");
        return;
    }
    if (m == 1)
        return;
    double ib = invnorm_inf_bound_guess(m, Mmid, enorm, R0);
    if (lower_certifies(eps, ib)) {
        out->rank = m;
        out->invnorm = ib;
        snprintf(out->method, sizeof out->method, "invnorm");
    }
}

void lower_blocks_assign(const smx_t *A, const size_t *rows, size_t m, size_t *blk)
{
    size_t Am = A->m, n = A->n;
    const double *a = A->a;
    /* block of column j: argmax over the chosen rows (ties: first) */
    for (size_t j = 0; j < n; j++) {
        const double *col = a + j * Am;
        size_t best = 0;
        double bv = col[rows[0]];
        for (size_t t = 1; t < m; t++)
            if (col[rows[t]] > bv) {
                bv = col[rows[t]];
                best = t;
            }
        blk[j] = best;
    }
}

/* Core of lower_blocks_rows without validation; scratch provided:
 * blk (n size_t), Mmid (m*m doubles). */
static void blocks_probe(const smx_t *A, const size_t *rows, size_t m, double eps,
                         size_t *blk, double *Mmid, lower_cert_t *out)
{
    lower_set_trivial(out);
    if (m > A->n)                   /* some block would be empty: M singular */
        return;
    lower_blocks_assign(A, rows, m, blk);
    lower_blocks_certify(A, rows, m, eps, blk, Mmid, NULL, out);
}

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
        blocks_probe(A, rows, m, eps, blk, M, out);
        free(blk); free(M);
    }
    out->seconds = clock_now() - t0;
    return AR_OK;
}

ar_status lower_blocks(const smx_t *A, const size_t *order, size_t norder, double eps,
                       lower_cert_t *out)
{
    return lower_blocks_cap(A, order, norder, eps, (size_t)-1, out);
}

ar_status lower_blocks_cap(const smx_t *A, const size_t *order, size_t norder, double eps, size_t cap,
                           lower_cert_t *out)
{
    return lower_blocks_gallop(A, order, norder, eps, cap, (size_t)-1, out, NULL);
}

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
            blocks_probe(A, order, len, eps, blk, M, &probe);
        if (probe.rank == len && strcmp(probe.method, "trivial") != 0) {
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
                blocks_probe(A, order, mid, eps, blk, M, &probe);
            if (probe.rank == mid && strcmp(probe.method, "trivial") != 0) {
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
    int ok = distinct_below(rows, m, A->m, mark) && distinct_below(cols, m, A->n, mark);
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
        snprintf(out->method, sizeof out->method, "diagdom");
    }
    out->seconds = clock_now() - t0;
    return AR_OK;
}

/* Greedy delta-net in index order: keep point i when its squared distance to
 * every kept point is >= delta2.  Returns the count written to rows. */
static size_t greedy_net(const double *x, size_t n, size_t d, double delta2, size_t *rows)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const double *xi = x + i * d;
        int keep = 1;
        for (size_t t = 0; t < m && keep; t++) {
            const double *xs = x + rows[t] * d;
            double s = 0.0;
            for (size_t c = 0; c < d; c++) {
                double u = xi[c] - xs[c];
                s += u * u;
            }
            if (s < delta2)
                keep = 0;
        }
        if (keep)
            rows[m++] = i;
    }
    return m;
}

ar_status lower_nets(const smx_t *A, const double *x, size_t d, double eps, lower_cert_t *out)
{
    return lower_nets_cap(A, x, d, eps, (size_t)-1, out);
}

ar_status lower_nets_cap(const smx_t *A, const double *x, size_t d, double eps, size_t cap, lower_cert_t *out)
{
    return lower_nets_ctl(A, x, d, eps, cap, NULL, out);
}

ar_status lower_nets_ctl(const smx_t *A, const double *x, size_t d, double eps, size_t cap, lower_ctl_t *ctl,
                         lower_cert_t *out)
{
    double t0 = clock_now(), tick = t0;
    memset(out, 0, sizeof *out);
    if (!lower_check_common(A, eps, "lower_nets"))
        return AR_EINVAL;
    if (!x || d == 0) {
        ar_error_set("lower_nets: no coordinates");
        return AR_EINVAL;
    }
    size_t m = A->m, n = A->n;
    size_t *rows = ar_calloc(m, sizeof *rows, "net rows");
    size_t *blk = ar_calloc(n, sizeof *blk, "column blocks");
    double *M = ar_calloc(m < n ? m * m : n * n, sizeof *M, "test matrix");
    if (!rows || !blk || !M) {
        free(rows); free(blk); free(M);
        return AR_ENOMEM;
    }
    /* scale of the cloud: squared diameter bound from the bounding box */
    double diam2 = 0.0;
    for (size_t c = 0; c < d; c++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < m; i++) {
            lo = fmin(lo, x[i * d + c]);
            hi = fmax(hi, x[i * d + c]);
        }
        diam2 += (hi - lo) * (hi - lo);
    }
    lower_cert_t best, probe;
    lower_set_trivial(&best);
    if (diam2 > 0) {
        /* bisection on log(delta): lo_d fails (or is the finest scale), hi_d certifies */
        double hi_d = sqrt(diam2) * 1.0000001, lo_d = 0.0;
        for (int it = 0; it < 30; it++) {
            double mid = lo_d > 0 ? sqrt(lo_d * hi_d) : hi_d / 64.0;
            size_t k = greedy_net(x, m, d, mid * mid, rows);
            /* a probe of k rows: the net (m k d), the blocks (2 k n) and the inverse norm (4 k^3) */
            double kk = (double)k, cost = kk * ((double)m * (double)d + 2.0 * (double)n + 4.0 * kk * kk);
            int run = k <= n && k >= 2 && k <= cap;
            if (run && ctl && k <= ctl->floor) {
                hi_d = mid;                 /* no larger than the caller's: look at finer nets */
                if (lo_d > 0 && hi_d / lo_d < 1.003)
                    break;
                continue;
            }
            if (run && lower_over_budget(ctl, cost)) {
                ctl->cut = 1;
                break;
            }
            if (run) {
                lower_spend(ctl, cost);
                lower_tick(ctl, &tick, "lower: nets, %zu points", k);
                blocks_probe(A, rows, k, eps, blk, M, &probe);
            } else {
                lower_set_trivial(&probe);
            }
            if (k >= 2 && probe.rank == k && strcmp(probe.method, "trivial") != 0) {
                if (k > best.rank)
                    best = probe;
                hi_d = mid;
                if (k == m || k == n)
                    break;
            } else {
                lo_d = mid;
            }
            if (lo_d > 0 && hi_d / lo_d < 1.003)
                break;
        }
    }
    free(rows); free(blk); free(M);
    *out = best;
    out->seconds = clock_now() - t0;
    return AR_OK;
}

/* Estimate of ||M^{-1}||_inf for an s x s block test matrix T (leading dimension ld), packed
 * into R and LU-factored by LAPACK: LAPACK's condition estimate (dgecon, a lower estimate of
 * ||M^{-1}||_inf) first, and when that is below the threshold `thr` the inverse (dgetri) and its
 * largest row l1 norm.  So a set is refused on the cheap estimate only when the inverse's norm
 * would refuse it too (up to rounding), and accepted only on the inverse's norm.  Not a
 * certificate (the chosen set is certified by blocks_probe afterwards); +INFINITY if singular. */
static double grow_estimate(const double *T, size_t ld, size_t s, double *R, lapack_int *ipiv, double thr)
{
    double anorm = 0.0;
    for (size_t c = 0; c < s; c++)
        memcpy(R + c * s, T + c * ld, s * sizeof *R);
    for (size_t a = 0; a < s; a++) {
        double r = 0.0;
        for (size_t b = 0; b < s; b++)
            r += fabs(R[a + b * s]);
        anorm = r > anorm ? r : anorm;
    }
    if (LAPACKE_dgetrf(LAPACK_COL_MAJOR, (lapack_int)s, (lapack_int)s, R, (lapack_int)s, ipiv) != 0)
        return INFINITY;
    double rcond = 0.0;
    if (s >= 8 && LAPACKE_dgecon(LAPACK_COL_MAJOR, 'I', (lapack_int)s, R, (lapack_int)s, anorm, &rcond) == 0) {
        if (!(rcond > 0))
            return INFINITY;
        double lower = 1.0 / (rcond * anorm);
        if (!(lower < thr))
            return lower;                    /* refused: the inverse's norm is at least this */
    }
    if (LAPACKE_dgetri(LAPACK_COL_MAJOR, (lapack_int)s, R, (lapack_int)s, ipiv) != 0)
        return INFINITY;
    double worst = 0.0;
    for (size_t a = 0; a < s; a++) {
        double r = 0.0;
        for (size_t b = 0; b < s; b++)
            r += fabs(R[a + b * s]);
        if (!(r <= worst))
            worst = isnan(r) ? INFINITY : r;
    }
    return worst;
}

ar_status lower_grow_cap(const smx_t *A, const size_t *cand, size_t ncand, double eps, size_t cap,
                         lower_cert_t *out, size_t *rows_out)
{
    return lower_grow_ctl(A, cand, ncand, eps, cap, NULL, out, rows_out);
}

ar_status lower_grow_ctl(const smx_t *A, const size_t *cand, size_t ncand, double eps, size_t cap,
                         lower_ctl_t *ctl, lower_cert_t *out, size_t *rows_out)
{
    double t0 = clock_now(), tick = t0;
    memset(out, 0, sizeof *out);
    if (!lower_check_common(A, eps, "lower_grow"))
        return AR_EINVAL;
    if (ncand == 0 || !cand) {
        ar_error_set("lower_grow: no candidate rows");
        return AR_EINVAL;
    }
    ar_status rst = lower_rows_distinct(cand, ncand, A->m, "lower_grow", "candidates");
    if (rst)
        return rst;
    lower_set_trivial(out);
    size_t Am = A->m, n = A->n, top = ncand < n ? ncand : n;
    if (cap < top)
        top = cap;                               /* sets above a certified upper end cannot certify */
    double *X = ar_calloc(ncand * n, sizeof *X, "candidate rows");
    size_t *S = X ? ar_calloc(ncand, sizeof *S, "grown rows") : NULL;
    size_t *rows = S ? ar_calloc(ncand, sizeof *rows, "grown row indices") : NULL;
    size_t *blk = rows ? ar_calloc(n, sizeof *blk, "column blocks") : NULL;
    size_t *tblk = blk ? ar_calloc(n, sizeof *tblk, "trial column blocks") : NULL;
    double *bv = tblk ? ar_calloc(n, sizeof *bv, "column maxima") : NULL;
    double *M = bv ? ar_calloc(top * top + 1, sizeof *M, "test matrix") : NULL;
    double *R = M ? ar_calloc(top * top + 1, sizeof *R, "test matrix inverse") : NULL;
    double *T = R ? ar_calloc(top * top + 1, sizeof *T, "trial test matrix") : NULL;
    lapack_int *ipiv = T ? ar_calloc(top + 1, sizeof *ipiv, "pivots") : NULL;
    if (!ipiv) {
        free(X); free(S); free(rows); free(blk); free(tblk); free(bv); free(M); free(R); free(T);
        return AR_ENOMEM;
    }
    for (size_t t = 0; t < ncand; t++)
        for (size_t j = 0; j < n; j++)
            X[t * n + j] = A->a[cand[t] + j * Am];
    blas_single_begin();             /* LAPACK's estimates on one BLAS thread (deterministic) */
    /* greedy: a candidate joins when the block test matrix of the grown set keeps
     * eps * ||M^{-1}|| below 1 - 1e-6 (estimated; the margin keeps the rigorous bound below 1).
     * M (leading dimension top) is the accepted set's block matrix, updated rather than summed
     * anew: a trial row's block sums, and the columns it takes over moved from their old blocks
     * to its block in every old row (O(n + moved s) per candidate instead of O(s n)); the
     * rounding differences from fresh sums are far below the margin */
    size_t s = 0, L = top;
    double thr = (1.0 - 1e-6) / eps;
    for (size_t t = 0; t < ncand && s < top; t++) {
        /* the estimate of a set of s + 1 rows: an LU (2/3 (s+1)^3), and the inverse when the
         * condition estimate passes (4/3 (s+1)^3 more); the budget is checked for both */
        double s1 = (double)(s + 1), cost = 2.0 * s1 * s1 * s1 + 2.0 * (double)n;
        if (s > 0 && lower_over_budget(ctl, cost)) {
            ctl->cut = 1;
            break;
        }
        lower_spend(ctl, cost);
        lower_tick(ctl, &tick, "lower: growth, candidate %zu of %zu, %zu rows kept", t, ncand, s);
        if (cancel_check()) {
            blas_single_end();
            free(X); free(S); free(rows); free(blk); free(tblk); free(bv); free(M); free(R); free(T); free(ipiv);
            return AR_ECANCELED;
        }
        const double *x = X + t * n;
        for (size_t c = 0; c < s; c++) {
            memcpy(T + c * L, M + c * L, s * sizeof *T);
            T[s + c * L] = 0.0;
        }
        for (size_t a = 0; a <= s; a++)
            T[a + s * L] = 0.0;
        for (size_t j = 0; j < n; j++) {
            size_t bj = (s == 0 || x[j] > bv[j]) ? s : blk[j];
            tblk[j] = bj;
            T[s + bj * L] += x[j];
            if (bj == s && s > 0) {
                size_t b0 = blk[j];
                for (size_t a = 0; a < s; a++) {
                    double v = X[S[a] * n + j];
                    T[a + b0 * L] -= v;
                    T[a + s * L] += v;
                }
            }
        }
        S[s] = t;
        double est = s == 0 ? 1.0 : grow_estimate(T, L, s + 1, R, ipiv, thr);
        if (s == 0 || (est < INFINITY && eps * est < 1.0 - 1e-6)) {
            for (size_t j = 0; j < n; j++)
                if (tblk[j] == s) {
                    blk[j] = s;
                    bv[j] = x[j];
                }
            s++;
            for (size_t c = 0; c < s; c++)
                memcpy(M + c * L, T + c * L, s * sizeof *M);
        }
    }
    blas_single_end();
    /* the certificate: the grown set through blocks_probe (rigorous), dropping the last rows
     * if rounding ever put it above the threshold */
    for (size_t tries = 0; s >= 2 && tries < 8; tries++, s--) {
        for (size_t a = 0; a < s; a++)
            rows[a] = cand[S[a]];
        lower_cert_t probe;
        blocks_probe(A, rows, s, eps, blk, M, &probe);
        if (probe.rank == s && strcmp(probe.method, "trivial") != 0) {
            *out = probe;
            if (rows_out)
                memcpy(rows_out, rows, s * sizeof *rows);
            break;
        }
    }
    free(X); free(S); free(rows); free(blk); free(tblk); free(bv); free(M); free(R); free(T); free(ipiv);
    out->seconds = clock_now() - t0;
    return AR_OK;
}

/* ---- weighted test matrices (issue 24): W = Z / c, Z an approximate right inverse of A_S ----
 *
 * For any Z (n x s) and c >= ||Z||_r1, W = Z / c has ||W||_r1 <= 1 (Theorem 3 allows any such W).
 * Z is found by an iteratively reweighted least-norm right inverse (a guide only): with weights
 * d_j > 0, Z = D X^T (X D X^T)^{-1} (X = A_S, s x n) is the right inverse of least
 * sum_j |Z_j|^2 / d_j; the weights of the keys whose rows of Z are long are lowered,
 * d_j <- d_j mean(r) / r_j (r_j = ||Z_j||_1), which levels the row norms towards the least
 * max_j ||Z_j||_1 = min ||Z||_r1.  Then M = A_S W ~ I / c, ||M^{-1}|| ~ c. */

#define WGT_ITERS 16            /* reweighting steps per evaluated set, at most */
#define WGT_GIVEUP 1.3          /* a set whose estimate is still above 1.3 / eps after 4 steps fails */
#define WGT_GIVEUP2 1.04        /* ... or above 1.04 / eps after 8 steps */
#define WGT_PROGRESS 0.003      /* ... and one whose estimate gains less than 0.3 % in 3 steps stops */
#define WGT_ENOUGH 0.93         /* an estimate below 0.93 / eps is enough (the probe certifies it) */

typedef struct {
    size_t s, n;
    double *X;      /* s x n, the chosen rows of the image (column-major, ld s) */
    double *T;      /* s x n scratch: X D^(1/2), then G^{-1} X D */
    double *Z;      /* s x n: Z^T of the best step */
    double *Z2;     /* s x n scratch: the product */
    double *G;      /* s x s */
    double *d, *dbest, *r;   /* n: weights, the best step's weights, row norms */
} wgt_work_t;

/* The IRLS steps on the rows X (s x n) from the weights w->d: *best = the least max_j ||Z_j||_1
 * seen (+INFINITY if none), w->Z its Z^T, w->dbest its weights.  LAPACK/BLAS on one thread. */
static double wgt_irls(wgt_work_t *w, int iters, double target)
{
    size_t s = w->s, n = w->n;
    double best = INFINITY, best3 = INFINITY;
    for (int it = 0; it < iters; it++) {
        /* early stops: far above the target after a few steps, no progress in three, or enough */
        if ((it >= 4 && best > WGT_GIVEUP * target) || (it >= 8 && best > WGT_GIVEUP2 * target) ||
            best < WGT_ENOUGH * target)
            break;
        if (it % 3 == 0) {
            if (it > 0 && best > best3 * (1.0 - WGT_PROGRESS))
                break;
            best3 = best;
        }
        for (size_t j = 0; j < n; j++) {
            double q = sqrt(w->d[j]);
            for (size_t b = 0; b < s; b++)
                w->T[b + j * s] = w->X[b + j * s] * q;
        }
        cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (int)s, (int)n, 1.0, w->T, (int)s, 0.0, w->G, (int)s);
        /* G^{-1} explicitly (s^3) and one product (2 s^2 n): faster than n triangular solves */
        if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (lapack_int)s, w->G, (lapack_int)s) != 0 ||
            LAPACKE_dpotri(LAPACK_COL_MAJOR, 'L', (lapack_int)s, w->G, (lapack_int)s) != 0)
            break;
        for (size_t j = 0; j < n; j++)
            for (size_t b = 0; b < s; b++)
                w->T[b + j * s] = w->X[b + j * s] * w->d[j];
        cblas_dsymm(CblasColMajor, CblasLeft, CblasLower, (int)s, (int)n, 1.0, w->G, (int)s, w->T, (int)s, 0.0,
                    w->Z2, (int)s);
        memcpy(w->T, w->Z2, s * n * sizeof *w->T);
        double mx = 0.0, mean = 0.0;
        for (size_t j = 0; j < n; j++) {
            double rj = 0.0;
            for (size_t b = 0; b < s; b++)
                rj += fabs(w->T[b + j * s]);
            w->r[j] = rj;
            mean += rj;
            if (!(rj <= mx))
                mx = rj;
        }
        if (!(mx < INFINITY))
            break;
        if (mx < best) {
            best = mx;
            memcpy(w->Z, w->T, s * n * sizeof *w->Z);
            memcpy(w->dbest, w->d, n * sizeof *w->d);
        }
        mean /= (double)n;
        double dm = 0.0;
        for (size_t j = 0; j < n; j++) {
            if (w->r[j] > 0)
                w->d[j] *= mean / w->r[j];
            dm += w->d[j];
        }
        dm /= (double)n;
        if (!(dm > 0 && dm < INFINITY))
            break;
        for (size_t j = 0; j < n; j++)
            w->d[j] /= dm;
    }
    return best;
}

typedef struct {
    size_t s, n;
    const double *Z;   /* s x n: Z^T */
    double *W;         /* s x n: W^T = Z^T / c */
    double c;          /* in: >= max_j ||Z_j||_1 is computed here */
    int ok;
} wgt_scale_ctx;

/* Body, FE_UPWARD: c >= max_j sum_b |Z_bj| (upward), then (FE_TOWARDZERO) W = Z / c2 with
 * c2 >= c (so |W_bj| <= |Z_bj| / c2 and sum_b |W_bj| <= 1), then (FE_UPWARD) the row sums of
 * |W| recomputed: ok when every one is <= 1. */
static FROUND_BODY void wgt_norm_up(void *arg)
{
    wgt_scale_ctx *x = arg;
    double c = 0.0;
    for (size_t j = 0; j < x->n; j++) {
        double r = 0.0;
        for (size_t b = 0; b < x->s; b++)
            r += fabs(x->Z[b + j * x->s]);
        if (!(r <= c))
            c = r;
    }
    x->c = c * (1.0 + 0x1p-40);      /* upward: >= c */
}

static FROUND_BODY void wgt_divide(void *arg)
{
    wgt_scale_ctx *x = arg;
    for (size_t t = 0; t < x->s * x->n; t++)
        x->W[t] = x->Z[t] / x->c;
}

static FROUND_BODY void wgt_check_up(void *arg)
{
    wgt_scale_ctx *x = arg;
    x->ok = 1;
    for (size_t j = 0; j < x->n; j++) {
        double r = 0.0;
        for (size_t b = 0; b < x->s; b++)
            r += fabs(x->W[b + j * x->s]);
        if (!(r <= 1.0))
            x->ok = 0;
    }
}

typedef struct {
    const smx_t *A;
    const size_t *rows;
    size_t s;
    const double *X, *W;   /* s x n each: the rows of a, W^T */
    double *Mmid;          /* s x s */
    double enorm;
} wgt_probe_ctx;

/* Body (FE_TONEAREST): Mmid = fl(X W) by dgemm (any order, blocking, threads: Lemma A). */
static FROUND_BODY void wgt_product(void *arg)
{
    wgt_probe_ctx *c = arg;
    size_t s = c->s, n = c->A->n;
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, (int)s, (int)s, (int)n, 1.0, c->X, (int)s, c->W, (int)s,
                0.0, c->Mmid, (int)s);
}

/* Body (FE_UPWARD): enorm >= ||M - Mmid||_inf, M = A_S W.  Row a: the enclosure, sum_b |((A - a)_S
 * W)_ab| <= sum_j |A_aj - a_aj| sum_b |W_jb| <= rowerr (||W||_r1 <= 1); the dot products of n
 * terms, sum_b |fl - exact| <= gamma_{n+1} sum_j |a_aj| sum_b |W_jb| + s n 2^-1073 (Lemma A with
 * its underflow term, per entry n 2^-1073). */
static FROUND_BODY void wgt_enorm(void *arg)
{
    wgt_probe_ctx *c = arg;
    size_t Am = c->A->m, n = c->A->n;
    const double *a = c->A->a;
    double g = resid_gamma(n + 1), under = (double)c->s * (double)n * 0x1p-1073, enorm = 0.0;
    for (size_t t = 0; t < c->s; t++) {
        size_t i = c->rows[t];
        double rho = 0.0;
        for (size_t j = 0; j < n; j++)
            rho += fabs(a[i + j * Am]);
        double e = c->A->rowerr[i] + g * rho + under;
        if (!(e <= enorm))
            enorm = e;
    }
    c->enorm = enorm;
}

/* The rigorous probe of the rows rows[0..s) with W^T = Z^T / c (Z^T: s x n): certified ||W||_r1
 * <= 1, Mmid, enorm, then Varah or the verified inverse norm (as blocks_probe).  Wt, Mmid:
 * scratch (s n and s s doubles). */
static void wgt_probe(const smx_t *A, const size_t *rows, size_t s, const double *X, const double *Z, double *Wt,
                      double *Mmid, double eps, lower_cert_t *out)
{
    lower_set_trivial(out);
    wgt_scale_ctx sc = {.s = s, .n = A->n, .Z = Z, .W = Wt};
    fround_run(FE_UPWARD, wgt_norm_up, &sc);
    if (!(sc.c > 0 && sc.c < INFINITY))
        return;
    fround_run(FE_TOWARDZERO, wgt_divide, &sc);
    fround_run(FE_UPWARD, wgt_check_up, &sc);
    if (!sc.ok)
        return;
    wgt_probe_ctx pc = {.A = A, .rows = rows, .s = s, .X = X, .W = Wt, .Mmid = Mmid};
    fround_run(FE_TONEAREST, wgt_product, &pc);
    fround_run(FE_UPWARD, wgt_enorm, &pc);
    if (!(pc.enorm < INFINITY))
        return;
    for (size_t t = 0; t < s * s; t++)
        if (!isfinite(Mmid[t]))
            return;
    double vb = invnorm_varah_bound(s, Mmid, pc.enorm);
    if (lower_certifies(eps, vb)) {
        out->rank = s;
        out->invnorm = vb;
        snprintf(out->method, sizeof out->method, "diagdom");
        return;
    }
    double ib = s >= 2 ? invnorm_inf_bound(s, Mmid, pc.enorm) : INFINITY;
    if (lower_certifies(eps, ib)) {
        out->rank = s;
        out->invnorm = ib;
        snprintf(out->method, sizeof out->method, "invnorm");
    }
}

ar_status lower_weighted_cap(const smx_t *A, const size_t *cand, size_t ncand, size_t first, double eps,
                             size_t cap, lower_cert_t *out, size_t *rows_out, double *w_out)
{
    return lower_weighted_ctl(A, cand, ncand, first, eps, cap, NULL, out, rows_out, w_out);
}

ar_status lower_weighted_ctl(const smx_t *A, const size_t *cand, size_t ncand, size_t first, double eps,
                             size_t cap, lower_ctl_t *ctl, lower_cert_t *out, size_t *rows_out, double *w_out)
{
    double t0 = clock_now(), tick = t0;
    memset(out, 0, sizeof *out);
    if (!lower_check_common(A, eps, "lower_weighted"))
        return AR_EINVAL;
    if (ncand == 0 || !cand || first > ncand) {
        ar_error_set("lower_weighted: no candidate rows (or first > ncand)");
        return AR_EINVAL;
    }
    ar_status rst = lower_rows_distinct(cand, ncand, A->m, "lower_weighted", "candidates");
    if (rst)
        return rst;
    lower_set_trivial(out);
    /* probes longer than cap fail without being computed (as lower_blocks_cap): the search takes
     * the uncapped path when cap is a certified upper end */
    size_t Am = A->m, n = A->n, top = ncand < n ? ncand : n;
    if (first < 2)
        first = 1;
    if (top <= first || cap <= first) {
        out->seconds = clock_now() - t0;
        return AR_OK;
    }
    wgt_work_t w = {.n = n};
    w.X = ar_calloc(top * n, sizeof *w.X, "weighted rows");
    w.T = w.X ? ar_calloc(top * n, sizeof *w.T, "weighted scratch") : NULL;
    w.Z = w.T ? ar_calloc(top * n, sizeof *w.Z, "weighted right inverse") : NULL;
    w.Z2 = w.Z ? ar_calloc(top * n, sizeof *w.Z2, "weighted product") : NULL;
    double *Wt = w.Z2 ? ar_calloc(top * n, sizeof *Wt, "weighted test matrix") : NULL;
    w.G = Wt ? ar_calloc(top * top, sizeof *w.G, "weighted Gram") : NULL;
    double *Mmid = w.G ? ar_calloc(top * top, sizeof *Mmid, "weighted M") : NULL;
    w.d = Mmid ? ar_calloc(n, sizeof *w.d, "weights") : NULL;
    w.dbest = w.d ? ar_calloc(n, sizeof *w.dbest, "best weights") : NULL;
    w.r = w.dbest ? ar_calloc(n, sizeof *w.r, "row norms") : NULL;
    double *dok = w.r ? ar_calloc(n, sizeof *dok, "certified weights") : NULL;
    if (!dok) {
        free(w.X); free(w.T); free(w.Z); free(w.Z2); free(Wt); free(w.G); free(Mmid); free(w.d); free(w.dbest); free(w.r);
        return AR_ENOMEM;
    }
    for (size_t j = 0; j < n; j++)
        dok[j] = 1.0;
    blas_single_begin();
    /* one prefix length: IRLS from the last certified weights, then the rigorous probe */
    size_t best = 0, lo = first, hi = 0;
    lower_cert_t bestc;
    lower_set_trivial(&bestc);
    for (int phase = 0, step = 4;;) {
        size_t len;
        if (phase == 0) {
            len = first + (size_t)step;
            if (len > top)
                len = top;
        } else {
            if (hi - lo <= 1)
                break;
            len = lo + (hi - lo) / 2;
        }
        /* worst case of one prefix: WGT_ITERS reweighting steps and the check */
        double sl = (double)len, cost = (double)WGT_ITERS * (3.0 * sl * sl * (double)n + sl * sl * sl) +
                                       2.0 * sl * sl * (double)n + 4.0 * sl * sl * sl;
        if (len <= cap && lower_over_budget(ctl, cost)) {
            ctl->cut = 1;
            break;
        }
        if (len <= cap)
            lower_spend(ctl, cost);
        lower_tick(ctl, &tick, "lower: weighted test matrix of %zu rows", len);
        if (cancel_check()) {
            blas_single_end();
            free(w.X); free(w.T); free(w.Z); free(w.Z2); free(Wt); free(w.G); free(Mmid); free(w.d); free(w.dbest);
            free(w.r); free(dok);
            return AR_ECANCELED;
        }
        lower_cert_t pr;
        lower_set_trivial(&pr);
        w.s = len;
        for (size_t j = 0; len <= cap && j < n; j++)
            for (size_t b = 0; b < len; b++)
                w.X[b + j * len] = A->a[cand[b] + j * Am];
        memcpy(w.d, dok, n * sizeof *w.d);
        double est = len <= cap ? wgt_irls(&w, WGT_ITERS, 1.0 / eps) : INFINITY;
        if (est < INFINITY && eps * est < 1.0 - 1e-6)
            wgt_probe(A, cand, len, w.X, w.Z, Wt, Mmid, eps, &pr);
        int cert = pr.rank == len && strcmp(pr.method, "trivial") != 0;
        if (cert) {
            best = len;
            bestc = pr;
            lo = len;
            memcpy(dok, w.dbest, n * sizeof *dok);
            if (rows_out)
                memcpy(rows_out, cand, len * sizeof *rows_out);
            if (w_out)
                memcpy(w_out, Wt, len * n * sizeof *w_out);
        } else {
            hi = len;
        }
        if (phase == 0) {
            if (!cert || len == top) {
                phase = 1;
                if (cert)
                    break;
            } else {
                step *= 2;
            }
        }
    }
    blas_single_end();
    if (best > 0)
        *out = bestc;
    free(w.X); free(w.T); free(w.Z); free(w.Z2); free(Wt); free(w.G); free(Mmid); free(w.d); free(w.dbest); free(w.r); free(dok);
    out->seconds = clock_now() - t0;
    return AR_OK;
}
