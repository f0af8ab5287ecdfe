/* visible.c -- visible interaction dimension and r(tau) (THEORY 3.1, 3.3;
 * proofs-notes/claim-T.md). */
#include "theory/visible.h"

#include <fenv.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <flint/fmpz_mat.h>
#include "numerics/clock.h"
#include "numerics/fround.h"
#include "numerics/linalg.h"
#include "theory/perturb.h"

#define UNIT_ROUNDOFF 0x1p-53

void visible_opts_default(visible_opts_t *o)
{
    o->tol_safety = 8.0;
    o->exact_max = (size_t)1 << 24;
}

/* ---------------------------------------------------------------------
 * Directed-rounding kernels.  Each is a body for fround_run
 * (numerics/fround.h): it runs entirely in the rounding mode fround_run
 * sets and exchanges data only through its context, so no arithmetic can
 * move out of the directed-rounding region.
 * --------------------------------------------------------------------- */

typedef struct {
    size_t m, n, d;
    const double *A, *B;
    double beta;
    double *out;
} gram_ctx_t;

/* out[i + j*m] = beta * sum_c A[i*d + c] B[j*d + c], every operation rounded
 * in the current mode.  Upward (downward) the result is an upper (lower)
 * bound of the exact value: each partial sum and product is a bound in that
 * direction, and beta >= 0 preserves the direction. */
static FROUND_BODY void dir_gram(void *ctx)
{
    gram_ctx_t *g = ctx;
    for (size_t i = 0; i < g->m; i++) {
        const double *a = g->A + i * g->d;
        for (size_t j = 0; j < g->n; j++) {
            const double *b = g->B + j * g->d;
            double s = 0.0;
            for (size_t c = 0; c < g->d; c++)
                s += a[c] * b[c];
            g->out[i + j * g->m] = g->beta * s;
        }
    }
}

typedef struct {
    size_t m, n;
    double *P;
    const double *a, *b;
} rank1_ctx_t;

/* P[i + j*m] += a[i] * b[j] in the current mode (a bound in that direction
 * of P + a b^T if P already was one). */
static FROUND_BODY void dir_rank1(void *ctx)
{
    rank1_ctx_t *r = ctx;
    for (size_t j = 0; j < r->n; j++) {
        double bj = r->b[j];
        double *p = r->P + j * r->m;
        for (size_t i = 0; i < r->m; i++)
            p[i] += r->a[i] * bj;
    }
}

typedef struct {
    size_t m, n;
    const double *X, *Y;
    int sign;
    double *out;
} extreme_ctx_t;

/* out[i] = max_j (X - Y)[i + j*m] (sign = +1) or min_j (sign = -1), the
 * subtractions rounded in the current mode; NaN counts as +inf (max) or
 * -inf (min), the conservative side. */
static FROUND_BODY void dir_row_extreme(void *ctx)
{
    extreme_ctx_t *e = ctx;
    for (size_t i = 0; i < e->m; i++)
        e->out[i] = e->sign > 0 ? -INFINITY : INFINITY;
    for (size_t j = 0; j < e->n; j++) {
        const double *x = e->X + j * e->m, *y = e->Y + j * e->m;
        for (size_t i = 0; i < e->m; i++) {
            double t = x[i] - y[i];
            if (isnan(t))
                t = e->sign > 0 ? INFINITY : -INFINITY;
            if (e->sign > 0 ? t > e->out[i] : t < e->out[i])
                e->out[i] = t;
        }
    }
}

typedef struct {
    size_t m;
    double *hi;
    const double *lo;
} diff_ctx_t;

/* hi[i] -= lo[i] in the current mode (upward: an upper bound). */
static FROUND_BODY void dir_diff(void *ctx)
{
    diff_ctx_t *d = ctx;
    for (size_t i = 0; i < d->m; i++)
        d->hi[i] = d->hi[i] - d->lo[i];
}

typedef struct {
    size_t N;
    const double *lo, *hi;
    double *rowsum;
    double fro, rowmax, colmax, mixed;
} norms_ctx_t;

/* Upward (caller's mode): upper bounds of the Frobenius norm, the max row
 * sum, the max column sum and sqrt(rowmax * colmax) of a matrix E known
 * only as lo <= E <= hi entrywise (N x N, column-major). */
static FROUND_BODY void dir_norms(void *ctx)
{
    norms_ctx_t *c = ctx;
    size_t N = c->N;
    double f = 0.0, cm = 0.0;
    for (size_t i = 0; i < N; i++)
        c->rowsum[i] = 0.0;
    for (size_t j = 0; j < N; j++) {
        double cs = 0.0;
        for (size_t i = 0; i < N; i++) {
            double a = fabs(c->lo[i + j * N]), b = fabs(c->hi[i + j * N]);
            double e = a > b ? a : b;
            if (isnan(e))
                e = INFINITY;
            f += e * e;
            cs += e;
            c->rowsum[i] += e;
        }
        if (cs > cm)
            cm = cs;
    }
    double rm = 0.0;
    for (size_t i = 0; i < N; i++)
        if (c->rowsum[i] > rm)
            rm = c->rowsum[i];
    c->fro = sqrt(f);
    c->rowmax = rm;
    c->colmax = cm;
    c->mixed = sqrt(rm * cm);
}

/* ---------------------------------------------------------------------
 * Exact rank of A B^T (A ma x d, B nb x d, row-major doubles).
 * --------------------------------------------------------------------- */

/* Write the doubles x[0..cnt) as integers X = x * 2^-E with one common E
 * (the least exponent of a nonzero entry), so that X is exact. */
static void doubles_to_fmpz(const double *x, size_t rows, size_t cols, fmpz_mat_t Z)
{
    long E = LONG_MAX;
    for (size_t t = 0; t < rows * cols; t++) {
        if (x[t] == 0.0)
            continue;
        int e;
        frexp(x[t], &e);        /* |x| = f 2^e, f in [0.5, 1): x = (f 2^53) 2^(e-53) */
        if ((long)e - 53 < E)
            E = (long)e - 53;
    }
    fmpz_t v;
    fmpz_init(v);
    for (size_t i = 0; i < rows; i++)
        for (size_t c = 0; c < cols; c++) {
            double y = x[i * cols + c];
            if (y == 0.0) {
                fmpz_zero(fmpz_mat_entry(Z, i, c));
                continue;
            }
            int e;
            double f = frexp(y, &e);
            fmpz_set_d(v, ldexp(f, 53));                    /* exact integer */
            fmpz_mul_2exp(fmpz_mat_entry(Z, i, c), v, (ulong)((long)e - 53 - E));
        }
    fmpz_clear(v);
}

/* rank(A Bd^T) where Bd are the rows B_j - B_0 (j >= 1): the row space of Bd
 * is reduced first (rref), then rank(A S^T) for a basis S of it. */
static long exact_rank_product(const double *A, size_t ma, const double *B, size_t nb, size_t d,
                               int diffs)
{
    fmpz_mat_t Az, Bz, Dz, R, S, M;
    fmpz_t den;
    fmpz_init(den);
    fmpz_mat_init(Az, (slong)ma, (slong)d);
    fmpz_mat_init(Bz, (slong)nb, (slong)d);
    doubles_to_fmpz(A, ma, d, Az);
    doubles_to_fmpz(B, nb, d, Bz);
    size_t nd = diffs ? nb - 1 : nb;
    long rank = 0;
    if (nd > 0) {
        fmpz_mat_init(Dz, (slong)nd, (slong)d);
        for (size_t j = 0; j < nd; j++)
            for (size_t c = 0; c < d; c++) {
                if (diffs)
                    fmpz_sub(fmpz_mat_entry(Dz, j, c), fmpz_mat_entry(Bz, j + 1, c), fmpz_mat_entry(Bz, 0, c));
                else
                    fmpz_set(fmpz_mat_entry(Dz, j, c), fmpz_mat_entry(Bz, j, c));
            }
        fmpz_mat_init(R, (slong)nd, (slong)d);
        slong k = fmpz_mat_rref(R, den, Dz);
        if (k > 0) {
            fmpz_mat_init(S, (slong)d, k);              /* S = (first k rows of R)^T */
            for (slong t = 0; t < k; t++)
                for (size_t c = 0; c < d; c++)
                    fmpz_set(fmpz_mat_entry(S, c, t), fmpz_mat_entry(R, t, c));
            fmpz_mat_init(M, (slong)ma, k);
            fmpz_mat_mul(M, Az, S);
            rank = (long)fmpz_mat_rank(M);
            fmpz_mat_clear(M);
            fmpz_mat_clear(S);
        }
        fmpz_mat_clear(R);
        fmpz_mat_clear(Dz);
    }
    fmpz_mat_clear(Az);
    fmpz_mat_clear(Bz);
    fmpz_clear(den);
    return rank;
}

static ar_status check_finite(const double *x, size_t cnt, const char *what)
{
    for (size_t t = 0; t < cnt; t++)
        if (!isfinite(x[t])) {
            ar_error_set("%s: entry %zu is not finite", what, t);
            return AR_EINVAL;
        }
    return AR_OK;
}

ar_status visible_rank_exact(const double *Q, size_t m, const double *K, size_t n, size_t dh, long *rank)
{
    if (!Q || !K || m == 0 || n == 0 || dh == 0) {
        ar_error_set("visible_rank_exact: empty input");
        return AR_EINVAL;
    }
    ar_status st;
    if ((st = check_finite(Q, m * dh, "queries")) || (st = check_finite(K, n * dh, "keys")))
        return st;
    *rank = exact_rank_product(Q, m, K, n, dh, 1);
    return AR_OK;
}

/* ---------------------------------------------------------------------
 * Instance mode.
 * --------------------------------------------------------------------- */

void visible_clear(visible_t *v)
{
    if (!v)
        return;
    free(v->sigma); free(v->eta);
    free(v->q_); free(v->k_); free(v->qk_); free(v->kk_);
    free(v->llo_); free(v->lhi_); free(v->plo_); free(v->phi_);
    memset(v, 0, sizeof *v);
}

ar_status visible_compute(const double *Q, size_t m, const double *K, size_t n, size_t dh,
                          double beta, const visible_opts_t *o, visible_t *v)
{
    memset(v, 0, sizeof *v);
    double t0 = clock_now();
    visible_opts_t od;
    visible_opts_default(&od);
    if (o) {
        if (o->tol_safety > 0)
            od.tol_safety = o->tol_safety;
        if (o->exact_max > 0)
            od.exact_max = o->exact_max;
    }
    if (!Q || !K || m == 0 || n == 0 || dh == 0) {
        ar_error_set("visible: need at least one query, one key and head dimension >= 1");
        return AR_EINVAL;
    }
    if (!isfinite(beta) || beta < 0) {
        ar_error_set("visible: beta must be finite and >= 0 (got %g)", beta);
        return AR_EINVAL;
    }
    if (!isfinite(od.tol_safety)) {
        ar_error_set("visible: tolerance safety factor must be finite");
        return AR_EINVAL;
    }
    ar_status st;
    if ((st = check_finite(Q, m * dh, "queries")) || (st = check_finite(K, n * dh, "keys")))
        return st;
    if (m > SIZE_MAX / n || m * n > SIZE_MAX / 8) {
        ar_error_set("visible: %zu x %zu logits exceed the address space", m, n);
        return AR_ENOMEM;
    }
    v->m = m; v->n = n; v->dh = dh; v->beta = beta; v->tol_safety = od.tol_safety;
    v->nsigma = m < n ? m : n;
    v->r_exact = -1;
    size_t ns = v->nsigma;
    double *Qc = NULL, *Dc = NULL, *C = NULL, *U = NULL, *s = NULL, *VT = NULL;
    st = AR_ENOMEM;
    v->q_ = ar_calloc(m * dh, sizeof(double), "queries copy");
    v->k_ = ar_calloc(n * dh, sizeof(double), "keys copy");
    v->sigma = ar_calloc(ns, sizeof(double), "singular values");
    v->eta = ar_calloc(ns + 1, sizeof(double), "eta table");
    Qc = ar_calloc(m * dh, sizeof *Qc, "queries (column-major)");
    Dc = ar_calloc(n * dh, sizeof *Dc, "centred keys");
    C = ar_calloc(m * n, sizeof *C, "centred logits");
    if (!v->q_ || !v->k_ || !v->sigma || !v->eta || !Qc || !Dc || !C)
        goto fail;
    memcpy(v->q_, Q, m * dh * sizeof *Q);
    memcpy(v->k_, K, n * dh * sizeof *K);
    /* centred keys D = K - 1 kbar^T (kbar: computed mean; any common vector
     * only adds row constants to the logits, removed by the row centring) */
    double qf = 0.0, df = 0.0;
    for (size_t c = 0; c < dh; c++) {
        double kb = 0.0;
        for (size_t j = 0; j < n; j++)
            kb += K[j * dh + c];
        kb /= (double)n;
        for (size_t j = 0; j < n; j++) {
            double t = K[j * dh + c] - kb;
            Dc[j + c * n] = t;
            df += t * t;
        }
        for (size_t i = 0; i < m; i++) {
            Qc[i + c * m] = Q[i * dh + c];
            qf += Q[i * dh + c] * Q[i * dh + c];
        }
    }
    la_gemm_nt(m, n, dh, beta, Qc, m, Dc, n, 0.0, C, m);
    for (size_t i = 0; i < m; i++) {
        double mu = 0.0;
        for (size_t j = 0; j < n; j++)
            mu += C[i + j * m];
        mu /= (double)n;
        for (size_t j = 0; j < n; j++)
            C[i + j * m] -= mu;
    }
    for (size_t t = 0; t < m * n; t++)
        if (!isfinite(C[t])) {
            ar_error_set("visible: logits overflow the double range");
            st = AR_EINVAL;
            goto fail;
        }
    if ((st = la_svd(m, n, C, &U, &s, &VT)))
        goto fail;
    memcpy(v->sigma, s, ns * sizeof *s);
    double s1 = ns ? s[0] : 0.0;
    v->tol = od.tol_safety * UNIT_ROUNDOFF *
             ((double)(m > n ? m : n) * s1 + (double)(dh + 2) * beta * sqrt(qf) * sqrt(df));
    v->r = 0;
    if (beta > 0)
        for (size_t k = 0; k < ns; k++)
            if (s[k] > v->tol)
                v->r = k + 1;
    /* factors of the truncations: qk = U S, kk = V (column-major) */
    st = AR_ENOMEM;
    v->qk_ = ar_calloc(m * ns, sizeof(double), "factor U S");
    v->kk_ = ar_calloc(n * ns, sizeof(double), "factor V");
    if (!v->qk_ || !v->kk_)
        goto fail;
    for (size_t k = 0; k < ns; k++) {
        for (size_t i = 0; i < m; i++)
            v->qk_[i + k * m] = U[i + k * m] * s[k];
        for (size_t j = 0; j < n; j++)
            v->kk_[j + k * n] = VT[k + j * ns];
    }
    v->nfac_ = ns;
    if (beta == 0)
        v->r_exact = 0;
    else if (od.exact_max == SIZE_MAX || (m * n <= od.exact_max / dh && od.exact_max > 1))
        v->r_exact = exact_rank_product(Q, m, K, n, dh, 1);
    free(Qc); free(Dc); free(C); free(U); free(s); free(VT);
    v->seconds = clock_now() - t0;
    return AR_OK;
fail:
    free(Qc); free(Dc); free(C); free(U); free(s); free(VT);
    visible_clear(v);
    return st;
}

/* max_i bound(osc(L_i - P_i)) from the enclosures, rigorous. */
static double eta_from_enclosures(size_t m, size_t n, const double *llo, const double *lhi,
                                  const double *plo, const double *phi, double *hi, double *lo)
{
    extreme_ctx_t eh = { m, n, lhi, plo, +1, hi };   /* >= max_j (L - P)_ij */
    extreme_ctx_t el = { m, n, llo, phi, -1, lo };   /* <= min_j (L - P)_ij */
    diff_ctx_t dc = { m, hi, lo };                   /* >= osc */
    fround_run(FE_UPWARD, dir_row_extreme, &eh);
    fround_run(FE_DOWNWARD, dir_row_extreme, &el);
    fround_run(FE_UPWARD, dir_diff, &dc);
    double eta = 0.0;
    for (size_t i = 0; i < m; i++) {
        double o = hi[i];
        if (isnan(o))
            o = INFINITY;
        double b = perturb_softmax_l1_bound(o > 0 ? o : 0.0);
        if (b > eta)
            eta = b;
    }
    return eta;
}

ar_status visible_eta(visible_t *v, size_t k, double *eta)
{
    if (!v || !v->q_ || k > v->nsigma) {
        ar_error_set("visible_eta: rank %zu out of range [0, %zu]", k, v ? v->nsigma : 0);
        return AR_EINVAL;
    }
    size_t m = v->m, n = v->n;
    if (k < v->neta) {
        *eta = v->eta[k];
        return AR_OK;
    }
    double *hi = ar_calloc(m, sizeof *hi, "row maxima"), *lo = ar_calloc(m, sizeof *lo, "row minima");
    if (!hi || !lo) {
        free(hi); free(lo);
        return AR_ENOMEM;
    }
    if (!v->llo_) {
        v->llo_ = ar_calloc(m * n, sizeof(double), "logit lower bounds");
        v->lhi_ = ar_calloc(m * n, sizeof(double), "logit upper bounds");
        v->plo_ = ar_calloc(m * n, sizeof(double), "truncation lower bounds");
        v->phi_ = ar_calloc(m * n, sizeof(double), "truncation upper bounds");
        if (!v->llo_ || !v->lhi_ || !v->plo_ || !v->phi_) {
            free(hi); free(lo);
            return AR_ENOMEM;
        }
        gram_ctx_t glo = { m, n, v->dh, v->q_, v->k_, v->beta, v->llo_ };
        gram_ctx_t ghi = { m, n, v->dh, v->q_, v->k_, v->beta, v->lhi_ };
        fround_run(FE_DOWNWARD, dir_gram, &glo);
        fround_run(FE_UPWARD, dir_gram, &ghi);
        /* P_0 = 0 (calloc) */
        v->eta[0] = eta_from_enclosures(m, n, v->llo_, v->lhi_, v->plo_, v->phi_, hi, lo);
        v->neta = 1;
    }
    while (v->neta <= k) {
        size_t c = v->neta - 1;                       /* add column c: P_{c+1} */
        rank1_ctx_t rlo = { m, n, v->plo_, v->qk_ + c * m, v->kk_ + c * n };
        rank1_ctx_t rhi = { m, n, v->phi_, v->qk_ + c * m, v->kk_ + c * n };
        fround_run(FE_DOWNWARD, dir_rank1, &rlo);
        fround_run(FE_UPWARD, dir_rank1, &rhi);
        v->eta[v->neta] = eta_from_enclosures(m, n, v->llo_, v->lhi_, v->plo_, v->phi_, hi, lo);
        v->neta++;
    }
    free(hi); free(lo);
    *eta = v->eta[k];
    return AR_OK;
}

static ar_status check_taus(const double *taus, size_t ntau)
{
    for (size_t t = 0; t < ntau; t++)
        if (!(taus[t] > 0 && taus[t] < 2)) {
            ar_error_set("tau must satisfy 0 < tau < 2 (got %g)", taus[t]);
            return AR_EINVAL;
        }
    return AR_OK;
}

ar_status visible_rtau(visible_t *v, const double *taus, size_t ntau, size_t *r_tau, double *eta_tau)
{
    ar_status st;
    if (!v || !v->q_) {
        ar_error_set("visible_rtau: not computed");
        return AR_EINVAL;
    }
    if ((st = check_taus(taus, ntau)))
        return st;
    for (size_t t = 0; t < ntau; t++) {
        size_t found = VISIBLE_NONE;
        double e = NAN;
        for (size_t k = 0; k <= v->nsigma; k++) {
            double ek;
            if ((st = visible_eta(v, k, &ek)))
                return st;
            if (ek <= taus[t]) {
                found = k;
                e = ek;
                break;
            }
        }
        if (r_tau)
            r_tau[t] = found;
        if (eta_tau)
            eta_tau[t] = e;
    }
    return AR_OK;
}

ar_status visible_factors(const visible_t *v, size_t k, const fmpz *w, pointset_t *Qk, pointset_t *Kk)
{
    memset(Qk, 0, sizeof *Qk);
    memset(Kk, 0, sizeof *Kk);
    if (!v || !v->qk_ || k == 0 || k > v->nfac_) {
        ar_error_set("visible_factors: rank %zu out of range [1, %zu]", k, v ? v->nfac_ : 0);
        return AR_EINVAL;
    }
    ar_status st;
    if ((st = pointset_init(Qk, v->m, k)) || (st = pointset_init(Kk, v->n, k)))
        goto fail;
    for (size_t i = 0; i < v->m; i++)
        for (size_t c = 0; c < k; c++)
            Qk->x[i * k + c] = v->qk_[i + c * v->m];
    for (size_t j = 0; j < v->n; j++)
        for (size_t c = 0; c < k; c++)
            Kk->x[j * k + c] = v->kk_[j + c * v->n];
    if (w) {
        if ((st = pointset_alloc_weights(Kk)))
            goto fail;
        for (size_t j = 0; j < v->n; j++)
            fmpz_set(Kk->w + j, w + j);
    }
    pointset_set_provenance(Qk, "rank-%zu logit factor U S", k);
    pointset_set_provenance(Kk, "rank-%zu logit factor V", k);
    return AR_OK;
fail:
    pointset_clear(Qk);
    pointset_clear(Kk);
    return st;
}

ar_status visible_upper_via(visible_t *v, size_t k, const fmpz *w, double eps,
                            const bracket_opts_t *bo, size_t *upper, double *eta_used, bracket_t *b)
{
    ar_status st;
    double e;
    if (!(eps > 0 && eps < 1)) {
        ar_error_set("visible_upper_via: eps must satisfy 0 < eps < 1 (got %g)", eps);
        return AR_EINVAL;
    }
    if ((st = visible_eta(v, k, &e)))
        return st;
    if (eta_used)
        *eta_used = e;
    if (!(e < eps)) {
        ar_error_set("visible_upper_via: eta(%zu) = %.6g leaves no slack below eps = %g", k, e, eps);
        return AR_EINVAL;
    }
    double eps2 = fround_sub_down(eps, e);              /* eps2 + eta <= eps */
    if (!(eps2 > 0)) {
        ar_error_set("visible_upper_via: no slack below eps");
        return AR_EINVAL;
    }
    if (k == 0) {
        /* A_0 = 1 w^T / sum w has rank 1 */
        *upper = 1;
        if (b)
            memset(b, 0, sizeof *b);
        return AR_OK;
    }
    pointset_t Qk, Kk;
    if ((st = visible_factors(v, k, w, &Qk, &Kk)))
        return st;
    bracket_t bb;
    st = bracket_compute(&Qk, &Kk, 1.0, eps2, bo, &bb);
    pointset_clear(&Qk);
    pointset_clear(&Kk);
    if (st)
        return st;
    *upper = bb.upper;
    if (b)
        *b = bb;
    return AR_OK;
}

ar_status visible_bracket_via(visible_t *v, size_t k, const fmpz *w, double eps, const bracket_opts_t *bo,
                              size_t *lower, size_t *upper, double *eta_used, const char **status)
{
    ar_status st;
    double e;
    if (!(eps > 0 && eps < 1)) {
        ar_error_set("visible_bracket_via: eps must satisfy 0 < eps < 1 (got %g)", eps);
        return AR_EINVAL;
    }
    if (k == 0) {
        ar_error_set("visible_bracket_via: rank k must be >= 1");
        return AR_EINVAL;
    }
    if ((st = visible_eta(v, k, &e)))
        return st;
    if (eta_used)
        *eta_used = e;
    double eps_up = fround_sub_down(eps, e);   /* eps_up + eta <= eps */
    double eps_lo = fround_add_up(eps, e);     /* eps_lo - eta >= eps */
    if (!(eps_up > 0) || !(eps_lo < 1)) {
        ar_error_set("visible_bracket_via: eta(%zu) = %.6g leaves no slack around eps = %g", k, e, eps);
        return AR_EINVAL;
    }
    bracket_opts_t o1, o2;
    if (bo)
        o1 = *bo;
    else
        bracket_opts_default(&o1);
    o2 = o1;
    o1.use_lower = 0;                          /* upper run */
    o2.use_svd = o2.use_symeig = o2.use_pchol = 0;   /* lower run */
    o2.use_lower = 1;
    pointset_t Qk, Kk;
    if ((st = visible_factors(v, k, w, &Qk, &Kk)))
        return st;
    bracket_t b1, b2;
    st = bracket_compute(&Qk, &Kk, 1.0, eps_up, &o1, &b1);
    if (!st)
        st = bracket_compute(&Qk, &Kk, 1.0, eps_lo, &o2, &b2);
    pointset_clear(&Qk);
    pointset_clear(&Kk);
    if (st)
        return st;
    *upper = b1.upper;
    *lower = b2.lower;
    if (status)
        *status = (!strcmp(b1.status, "certified") && !strcmp(b2.status, "certified")) ? "certified"
                                                                                         : "inconclusive";
    return AR_OK;
}

/* ---------------------------------------------------------------------
 * Weights-only mode.
 * --------------------------------------------------------------------- */

void visible_bilinear_clear(visible_bilinear_t *v)
{
    if (!v)
        return;
    free(v->sigma); free(v->eta); free(v->normb);
    free(v->m_); free(v->u_); free(v->vt_); free(v->s_);
    memset(v, 0, sizeof *v);
}

ar_status visible_bilinear(const double *WQ, const double *WK, size_t dmodel, size_t dh,
                           double beta, double radius, const visible_opts_t *o, visible_bilinear_t *v)
{
    memset(v, 0, sizeof *v);
    visible_opts_t od;
    visible_opts_default(&od);
    if (o) {
        if (o->tol_safety > 0)
            od.tol_safety = o->tol_safety;
        if (o->exact_max > 0)
            od.exact_max = o->exact_max;
    }
    if (!WQ || !WK || dmodel == 0 || dh == 0) {
        ar_error_set("visible: weight matrices must be non-empty");
        return AR_EINVAL;
    }
    if (!isfinite(beta) || beta < 0) {
        ar_error_set("visible: beta must be finite and >= 0 (got %g)", beta);
        return AR_EINVAL;
    }
    if (!isfinite(radius) || !(radius > 0)) {
        ar_error_set("visible: --radius must be finite and > 0 (got %g)", radius);
        return AR_EINVAL;
    }
    ar_status st;
    if ((st = check_finite(WQ, dmodel * dh, "W_Q")) || (st = check_finite(WK, dmodel * dh, "W_K")))
        return st;
    if (dmodel > 8192) {
        ar_error_set("visible: model dimension %zu too large for the dense bilinear form (max 8192)", dmodel);
        return AR_EINVAL;
    }
    size_t N = dmodel;
    v->dmodel = dmodel; v->dh = dh; v->beta = beta; v->radius = radius;
    v->nsigma = dmodel < dh ? dmodel : dh;
    v->r_exact = -1;
    st = AR_ENOMEM;
    v->m_ = ar_calloc(N * N, sizeof(double), "bilinear form");
    v->sigma = ar_calloc(v->nsigma, sizeof(double), "singular values");
    v->eta = ar_calloc(v->nsigma + 1, sizeof(double), "eta table");
    v->normb = ar_calloc(v->nsigma + 1, sizeof(double), "norm bounds");
    if (!v->m_ || !v->sigma || !v->eta || !v->normb)
        goto fail;
    double qf = 0.0, kf = 0.0;
    for (size_t t = 0; t < N * dh; t++) {
        qf += WQ[t] * WQ[t];
        kf += WK[t] * WK[t];
    }
    gram_ctx_t gn = { N, N, dh, WQ, WK, 1.0, v->m_ };
    fround_run(FE_TONEAREST, dir_gram, &gn);         /* the candidate, to nearest */
    for (size_t t = 0; t < N * N; t++)
        if (!isfinite(v->m_[t])) {
            ar_error_set("visible: W_Q W_K^T overflows the double range");
            st = AR_EINVAL;
            goto fail;
        }
    if ((st = la_svd(N, N, v->m_, &v->u_, &v->s_, &v->vt_)))
        goto fail;
    memcpy(v->sigma, v->s_, v->nsigma * sizeof(double));
    v->tol = od.tol_safety * UNIT_ROUNDOFF * ((double)N * v->s_[0] + (double)(dh + 2) * sqrt(qf) * sqrt(kf));
    v->r = 0;
    if (beta > 0)
        for (size_t k = 0; k < v->nsigma; k++)
            if (v->s_[k] > v->tol)
                v->r = k + 1;
    if (beta == 0)
        v->r_exact = 0;
    else if (od.exact_max == SIZE_MAX || (N * N <= od.exact_max / dh && od.exact_max > 1))
        v->r_exact = exact_rank_product(WQ, N, WK, N, dh, 0);
    /* the certified part uses the exact product: keep W's */
    double *w2 = realloc(v->m_, 2 * N * N * sizeof(double) + 2 * N * dh * sizeof(double));
    if (!w2) {
        ar_error_set("visible: out of memory for the bilinear enclosure");
        goto fail;
    }
    v->m_ = w2;
    memcpy(v->m_ + 2 * N * N, WQ, N * dh * sizeof(double));
    memcpy(v->m_ + 2 * N * N + N * dh, WK, N * dh * sizeof(double));
    return AR_OK;
fail:
    visible_bilinear_clear(v);
    return st;
}

/* certified eta(k) for the bilinear form, k = 0..nsigma, all at once */
static ar_status bilinear_eta_all(visible_bilinear_t *v)
{
    if (v->neta)
        return AR_OK;
    size_t N = v->dmodel, dh = v->dh;
    const double *WQ = v->m_ + 2 * N * N, *WK = WQ + N * dh;
    double *mlo = v->m_, *mhi = v->m_ + N * N;     /* enclosure of E = M - M_k, updated in place */
    double *a = ar_calloc(N, sizeof *a, "column"), *rs = ar_calloc(N, sizeof *rs, "row sums");
    if (!a || !rs) {
        free(a); free(rs);
        return AR_ENOMEM;
    }
    gram_ctx_t glo = { N, N, dh, WQ, WK, 1.0, mlo }, ghi = { N, N, dh, WQ, WK, 1.0, mhi };
    fround_run(FE_DOWNWARD, dir_gram, &glo);
    fround_run(FE_UPWARD, dir_gram, &ghi);
    for (size_t k = 0; k <= v->nsigma; k++) {
        if (k > 0) {
            /* E -= u_c s_c v_c^T: lower bound subtracts an upper bound of the product */
            size_t c = k - 1;
            for (size_t i = 0; i < N; i++)
                a[i] = -v->u_[i + c * N] * v->s_[c];   /* exact negation of a double product: stored value */
            double *b = rs;
            for (size_t j = 0; j < N; j++)
                b[j] = v->vt_[c + j * N];
            rank1_ctx_t rlo = { N, N, mlo, a, b }, rhi = { N, N, mhi, a, b };
            fround_run(FE_DOWNWARD, dir_rank1, &rlo);
            fround_run(FE_UPWARD, dir_rank1, &rhi);
        }
        norms_ctx_t nc = { N, mlo, mhi, rs, 0, 0, 0, 0 };
        fround_run(FE_UPWARD, dir_norms, &nc);
        double B = nc.fro < nc.mixed ? nc.fro : nc.mixed;
        /* osc <= 2 beta R^2 B, every product rounded up (all factors >= 0) */
        double osc = fround_mul_up(fround_mul_up(fround_mul_up(2.0, v->beta), fround_mul_up(v->radius, v->radius)), B);
        v->normb[k] = B;
        v->eta[k] = perturb_softmax_l1_bound(isnan(osc) ? INFINITY : osc);
    }
    v->neta = v->nsigma + 1;
    free(a); free(rs);
    return AR_OK;
}

ar_status visible_bilinear_rtau(visible_bilinear_t *v, const double *taus, size_t ntau,
                                size_t *r_tau, double *eta_tau)
{
    ar_status st;
    if (!v || !v->m_) {
        ar_error_set("visible_bilinear_rtau: not computed");
        return AR_EINVAL;
    }
    if ((st = check_taus(taus, ntau)) || (st = bilinear_eta_all(v)))
        return st;
    for (size_t t = 0; t < ntau; t++) {
        size_t found = VISIBLE_NONE;
        double e = NAN;
        for (size_t k = 0; k <= v->nsigma; k++)
            if (v->eta[k] <= taus[t]) {
                found = k;
                e = v->eta[k];
                break;
            }
        if (r_tau)
            r_tau[t] = found;
        if (eta_tau)
            eta_tau[t] = e;
    }
    return AR_OK;
}
