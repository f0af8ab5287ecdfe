/* cert_lower.c -- lower certificates for the eps-rank (THEORY 3.4): block
 * test matrices certified by Varah's bound or a verified inverse norm, and
 * exact diagonal dominance. */
#include "theory/certificates/cert_lower.h"
#include "numerics/clock.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <lapacke.h>
#include "numerics/blas_select.h"
#include "numerics/fround.h"
#include "numerics/invnorm.h"
#include "numerics/resid.h"

/* rank 1 is always certified for eps < 1: the only rank-0 matrix is 0 and
 * ||A - 0||_r1 = 1 (rows are probability vectors).  As a test-matrix
 * certificate: W = all-ones column, M = 1, ||M^{-1}|| = 1. */
static void set_trivial(lower_cert_t *out)
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

static int check_common(const smx_t *A, double eps, const char *who)
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

/* Core of lower_blocks_rows without validation; scratch provided:
 * blk (n size_t), Mmid (m*m doubles). */
static void blocks_probe(const smx_t *A, const size_t *rows, size_t m, double eps,
                         size_t *blk, double *Mmid, lower_cert_t *out)
{
    size_t Am = A->m, n = A->n;
    const double *a = A->a;
    set_trivial(out);
    if (m > n)                      /* some block would be empty: M singular */
        return;
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
    /* Mmid (column-major, m x m): block sums in round-to-nearest (enforced so
     * that Mmid does not depend on the caller's mode; the gamma_n bound below
     * holds in any mode) */
    probe_ctx pc = {.A = A, .rows = rows, .blk = blk, .m = m, .Mmid = Mmid, .g = resid_gamma(n)};
    fround_run(FE_TONEAREST, probe_blocksums, &pc);
    /* enorm >= ||M - Mmid||_inf: per row s, rowerr[s] (|A - a| summed over
     * the columns, W has one 1 per column) plus the summation error of the
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
    double ib = invnorm_inf_bound(m, Mmid, enorm);
    if (lower_certifies(eps, ib)) {
        out->rank = m;
        out->invnorm = ib;
        snprintf(out->method, sizeof out->method, "invnorm");
    }
}

ar_status lower_blocks_rows(const smx_t *A, const size_t *rows, size_t m, double eps,
                            lower_cert_t *out)
{
    double t0 = clock_now();
    memset(out, 0, sizeof *out);
    if (!check_common(A, eps, "lower_blocks_rows"))
        return AR_EINVAL;
    if (m == 0 || !rows) {
        ar_error_set("lower_blocks_rows: empty row set");
        return AR_EINVAL;
    }
    unsigned char *mark = ar_calloc(A->m, 1, "row marks");
    if (!mark)
        return AR_ENOMEM;
    int ok = distinct_below(rows, m, A->m, mark);
    free(mark);
    if (!ok) {
        ar_error_set("lower_blocks_rows: rows must be distinct and < %zu", A->m);
        return AR_EINVAL;
    }
    set_trivial(out);
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
    double t0 = clock_now();
    memset(out, 0, sizeof *out);
    if (!check_common(A, eps, "lower_blocks"))
        return AR_EINVAL;
    if (norder == 0 || !order) {
        ar_error_set("lower_blocks: empty order");
        return AR_EINVAL;
    }
    unsigned char *mark = ar_calloc(A->m, 1, "row marks");
    if (!mark)
        return AR_ENOMEM;
    int ok = distinct_below(order, norder, A->m, mark);
    free(mark);
    if (!ok) {
        ar_error_set("lower_blocks: order must hold distinct row indices < %zu", A->m);
        return AR_EINVAL;
    }
    size_t top = norder < A->n ? norder : A->n;     /* longer prefixes cannot be certified */
    size_t *blk = ar_calloc(A->n, sizeof *blk, "column blocks");
    double *M = ar_calloc(top * top, sizeof *M, "test matrix");
    if (!blk || !M) {
        free(blk); free(M);
        return AR_ENOMEM;
    }
    lower_cert_t best, probe;
    set_trivial(&best);
    /* galloping over the prefix length: 1, 2, 4, ... until a failure */
    size_t lo = 0, hi = 0, len = 1;        /* lo: certified, hi: failed (0 = none yet) */
    for (;;) {
        if (len > cap)
            set_trivial(&probe);            /* cannot certify: cap bounds the rank from above */
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
    /* bisection between the last certified and the first failed length */
    if (hi > 0) {
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if (mid > cap)
                set_trivial(&probe);
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
    if (!check_common(A, eps, "lower_diagdom"))
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
    set_trivial(out);
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
    double t0 = clock_now();
    memset(out, 0, sizeof *out);
    if (!check_common(A, eps, "lower_nets"))
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
    set_trivial(&best);
    if (diam2 > 0) {
        /* bisection on log(delta): lo_d fails (or is the finest scale), hi_d certifies */
        double hi_d = sqrt(diam2) * 1.0000001, lo_d = 0.0;
        for (int it = 0; it < 30; it++) {
            double mid = lo_d > 0 ? sqrt(lo_d * hi_d) : hi_d / 64.0;
            size_t k = greedy_net(x, m, d, mid * mid, rows);
            if (k <= n && k >= 2 && k <= cap)
                blocks_probe(A, rows, k, eps, blk, M, &probe);
            else
                set_trivial(&probe);
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

/* Estimate of ||M^{-1}||_inf for the block test matrix of the rows X[S[0..s)] (row-major,
 * n columns each) with the column blocks blk (argmax over those rows, ties to the first): M
 * summed exactly as blocks_probe sums it, inverted by LAPACK, largest row l1 norm.  Not a
 * certificate (the chosen set is certified by blocks_probe afterwards); +INFINITY if singular. */
static double grow_estimate(const double *X, size_t n, const size_t *S, size_t s, const size_t *blk, double *M,
                            double *R, lapack_int *ipiv)
{
    memset(M, 0, s * s * sizeof *M);
    for (size_t a = 0; a < s; a++) {
        const double *x = X + S[a] * n;
        for (size_t j = 0; j < n; j++)
            M[a + blk[j] * s] += x[j];
    }
    memcpy(R, M, s * s * sizeof *R);
    if (LAPACKE_dgetrf(LAPACK_COL_MAJOR, (lapack_int)s, (lapack_int)s, R, (lapack_int)s, ipiv) != 0 ||
        LAPACKE_dgetri(LAPACK_COL_MAJOR, (lapack_int)s, R, (lapack_int)s, ipiv) != 0)
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
    double t0 = clock_now();
    memset(out, 0, sizeof *out);
    if (!check_common(A, eps, "lower_grow"))
        return AR_EINVAL;
    if (ncand == 0 || !cand) {
        ar_error_set("lower_grow: no candidate rows");
        return AR_EINVAL;
    }
    unsigned char *mark = ar_calloc(A->m, 1, "row marks");
    if (!mark)
        return AR_ENOMEM;
    int ok = distinct_below(cand, ncand, A->m, mark);
    free(mark);
    if (!ok) {
        ar_error_set("lower_grow: candidates must be distinct row indices < %zu", A->m);
        return AR_EINVAL;
    }
    set_trivial(out);
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
    lapack_int *ipiv = R ? ar_calloc(top + 1, sizeof *ipiv, "pivots") : NULL;
    if (!ipiv) {
        free(X); free(S); free(rows); free(blk); free(tblk); free(bv); free(M); free(R);
        return AR_ENOMEM;
    }
    for (size_t t = 0; t < ncand; t++)
        for (size_t j = 0; j < n; j++)
            X[t * n + j] = A->a[cand[t] + j * Am];
    int th = blas_get_threads();             /* LAPACK's estimates on one BLAS thread (deterministic) */
    blas_set_threads(1);
    /* greedy: a candidate joins when the block test matrix of the grown set keeps
     * eps * ||M^{-1}|| below 1 - 1e-6 (estimated; the margin keeps the rigorous bound below 1) */
    size_t s = 0;
    for (size_t t = 0; t < ncand && s < top; t++) {
        const double *x = X + t * n;
        for (size_t j = 0; j < n; j++)
            tblk[j] = (s == 0 || x[j] > bv[j]) ? s : blk[j];
        S[s] = t;
        double est = grow_estimate(X, n, S, s + 1, tblk, M, R, ipiv);
        if (s == 0 || (est < INFINITY && eps * est < 1.0 - 1e-6)) {
            for (size_t j = 0; j < n; j++)
                if (tblk[j] == s) {
                    blk[j] = s;
                    bv[j] = x[j];
                }
            s++;
        }
    }
    blas_set_threads(th);
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
    free(X); free(S); free(rows); free(blk); free(tblk); free(bv); free(M); free(R); free(ipiv);
    out->seconds = clock_now() - t0;
    return AR_OK;
}
