/* SPDX-License-Identifier: GPL-3.0-or-later */
/* softmax.c -- rigorous row-softmax with key multiplicities (Arb balls).
 *
 * General path, row i:
 *   L_ij = beta q_i.k_j + log w_j     (arb_dot on exact inputs; beta*k_j is
 *                                      formed exactly; log w_j once per column)
 *   s_i  = max_j mid(L_ij)           (any shift is mathematically neutral)
 *   E_ij = exp(L_ij - s_i),  Z_i = sum_j E_ij,  A_ij = E_ij / Z_i.
 * Symmetric path (q == k as pointers, m == n: self-attention):
 *   G_ij = exp(-beta |x_i - x_j|^2 / 2) = G_ji, computed once for i <= j as
 *          exp(beta x_i.x_j - h_i - h_j), h_i = beta |x_i|^2 / 2,
 *   c_j  = w_j exp(h_j) = exp(h_j + log w_j),
 *   A_ij = G_ij c_j / sum_l G_il c_l   (the factor exp(h_i) cancels).
 * Both give balls E_ij and Z_i = sum_j E_ij; the double image is the exact
 * product mid(E_ij) mid(1/Z_i) rounded to nearest, and rowerr_i bounds the
 * row-l1 distance to the exact A (derivation at row_finish), accumulated in
 * mag_t (rounded upward) and converted with mag_get_d (an upper bound).
 *
 * Precision: logits are formed at lp = prec + (bits of the largest possible
 * |logit|) + guard bits, so that L_ij - s_i has about prec correct bits and
 * every E_ij about prec relative bits; exp, sums and quotients run at prec.
 *
 * Threads: rows are split in blocks of SMX_ROWBLK over nthreads pthreads
 * (blocks avoid false sharing in the column-major output).  Each worker
 * calls flint_cleanup() before it exits (Arb caches are thread-local). */
#include "numerics/softmax.h"
#include "numerics/fround.h"
#include "base/parallel.h"

#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <arb.h>

#define SMX_DEFAULT_PREC 96
#define SMX_MAX_PREC (1L << 16)
#define SMX_MAX_THREADS 64
#define SMX_ROWBLK 16
/* the symmetric path stores the upper triangle of G as arb balls */
#define SMX_SYM_MAX_BYTES ((size_t)1 << 30)

typedef struct {
    size_t m, n, d;
    long prec, lp;
    int sym;
    arb_srcptr qa;    /* general: m*d exact query coordinates */
    arb_srcptr bk;    /* general: n*d exact beta*k; symmetric: n*d exact beta*x */
    arb_srcptr xa;    /* symmetric: n*d exact x */
    arb_srcptr logw;  /* general: n logs of w (NULL if all w = 1) */
    const double *bias;  /* general: m x n row-major logit bias (-inf: masked), or NULL */
    arb_srcptr h;     /* symmetric: n values beta|x_j|^2/2 */
    arb_srcptr c;     /* symmetric: n values w_j exp(h_j) */
    arb_ptr tri;      /* symmetric: packed upper triangle of G */
    const double *lc; /* symmetric: approximate log c_j (only steers the tail test) */
    const double *x;  /* symmetric: the points (doubles) */
    double beta;
    mag_srcptr cmag;  /* symmetric: upper bounds of c_j */
    double tail;      /* exponents below -tail are enclosed as [0 +- e^-x] (no exp) */
    smx_t *out;
} smx_ctx;

typedef struct {
    const smx_ctx *ctx;
    int tid, nthreads, phase;
} smx_job;

/* v: a ball known to lie in (-inf, 0).  Set e to [0 +- r] with r >= exp(v),
 * without computing the exponential (used for negligible entries). */
static void exp_tail(arb_t e, const arb_t v, mag_t tmp)
{
    arb_get_mag_lower(tmp, v); /* |v| >= tmp, so exp(v) <= exp(-tmp) */
    mag_expinv(arb_radref(e), tmp);
    arf_zero(arb_midref(e));
}

static size_t tri_index(size_t n, size_t i, size_t j)
{
    /* i <= j; row i of the packed upper triangle starts at i*n - i(i-1)/2 */
    return i * n - i * (i - 1) / 2 + (j - i);
}

/* Row accumulator: the ball Z = sum_j E_ij and upper bounds of sum_j rad(E_ij)
 * and sum_j |mid(E_ij)|. */
typedef struct {
    arb_t Z;
    mag_t srad, smid, t;
} row_acc;

static void acc_init(row_acc *r)
{
    arb_init(r->Z);
    mag_init(r->srad);
    mag_init(r->smid);
    mag_init(r->t);
}

static void acc_clear(row_acc *r)
{
    arb_clear(r->Z);
    mag_clear(r->srad);
    mag_clear(r->smid);
    mag_clear(r->t);
}

static void acc_add(row_acc *r, const arb_t e, long prec)
{
    arb_add(r->Z, r->Z, e, prec);
    mag_add(r->srad, r->srad, arb_radref(e));
    arf_get_mag(r->t, arb_midref(e));
    mag_add(r->smid, r->smid, r->t);
}

/* Row i of the image from the balls E_ij and their accumulated sum.
 * With Y = 1/Z in [y +- yr] and E_ij in [e_j +- er_j], P_ij = e_j y exactly:
 *   sum_j |A_ij - P_ij| <= (|y| + yr) sum_j er_j + yr sum_j |e_j| =: R.
 * a_ij = P_ij rounded to nearest (arf_get_d rounds correctly, also in the
 * subnormal range), so |P_ij - a_ij| <= 2^-53 |P_ij| + 2^-1075, and
 * sum_j |P_ij| <= sum_j A_ij + R = 1 + R.  Hence
 *   rowerr_i = R + 2^-53 (1 + R) + n 2^-1075,
 * evaluated in mag_t arithmetic (upward). */
static void row_finish(const smx_ctx *cx, size_t i, arb_srcptr E, row_acc *r, double logshift)
{
    size_t m = cx->m, n = cx->n;
    arb_t y;
    arf_t p;
    mag_t R, u;
    arb_init(y);
    arf_init(p);
    mag_init(R);
    mag_init(u);

    arb_inv(y, r->Z, cx->prec);
    int finite = 1;
    for (size_t j = 0; j < n; j++) {
        arf_mul(p, arb_midref(E + j), arb_midref(y), ARF_PREC_EXACT, ARF_RND_DOWN);
        double a = arf_get_d(p, ARF_RND_NEAR);
        if (!isfinite(a)) {
            finite = 0;
            a = NAN;
        }
        cx->out->a[i + j * m] = a;
    }
    arf_get_mag(R, arb_midref(y));
    mag_add(R, R, arb_radref(y));
    mag_mul(R, R, r->srad);
    mag_mul(u, arb_radref(y), r->smid);
    mag_add(R, R, u);
    mag_one(u);
    mag_add(u, u, R);
    mag_mul_2exp_si(u, u, -53);
    mag_add(R, R, u);
    mag_set_ui_2exp_si(u, (ulong)n, -1075);
    mag_add(R, R, u);
    cx->out->rowerr[i] = finite ? mag_get_d(R) : INFINITY;

    arb_log(y, r->Z, 53);
    cx->out->lognorm[i] = arf_get_d(arb_midref(y), ARF_RND_NEAR) + logshift;

    arb_clear(y);
    arf_clear(p);
    mag_clear(R);
    mag_clear(u);
}

static void row_general(const smx_ctx *cx, size_t i, arb_ptr E)
{
    size_t n = cx->n, d = cx->d;
    arf_t s;
    row_acc r;
    arf_init(s);
    acc_init(&r);
    const double *b = cx->bias ? cx->bias + i * n : NULL;
    int have = 0;
    for (size_t j = 0; j < n; j++) {
        if (b && b[j] == -INFINITY)
            continue;                          /* masked: the entry is exactly 0, in no sum */
        arb_dot(E + j, cx->logw ? cx->logw + j : NULL, 0, cx->qa + i * d, 1, cx->bk + j * d, 1,
                (slong)d, cx->lp);
        if (b && b[j] != 0.0) {
            arb_t t;
            arb_init(t);
            arb_set_d(t, b[j]);                /* exact */
            arb_add(E + j, E + j, t, cx->lp);
            arb_clear(t);
        }
        if (!have || arf_cmp(arb_midref(E + j), s) > 0)
            arf_set(s, arb_midref(E + j));
        have = 1;
    }
    for (size_t j = 0; j < n; j++) {
        if (b && b[j] == -INFINITY) {
            arb_zero(E + j);
            continue;
        }
        arb_sub_arf(E + j, E + j, s, cx->lp);
        if (arf_cmp_si(arb_midref(E + j), 0) < 0 && arb_is_negative(E + j) &&
            arf_get_d(arb_midref(E + j), ARF_RND_DOWN) < -cx->tail)
            exp_tail(E + j, E + j, r.t);
        else
            arb_exp(E + j, E + j, cx->prec);
        acc_add(&r, E + j, cx->prec);
    }
    row_finish(cx, i, E, &r, arf_get_d(s, ARF_RND_NEAR));
    arf_clear(s);
    acc_clear(&r);
}

/* Symmetric phase 0: G_ij for j >= i.  ul: n doubles of scratch. */
static void row_sym_kernel(const smx_ctx *cx, size_t i, arb_t t, double *ul)
{
    size_t n = cx->n, d = cx->d;
    mag_t tmp;
    mag_init(tmp);
    /* ul[j - i - 1] <= u = beta |x_i - x_j|^2 / 2 for j > i, every operation
     * rounded downward (a lower bound by construction, overflow included);
     * NaN when no bound is available */
    if (ul && i + 1 < n)
        fround_half_sqdist_down(cx->x + i * d, cx->x + (i + 1) * d, d, n - i - 1, cx->beta, ul);
    for (size_t j = i; j < n; j++) {
        arb_ptr g = cx->tri + tri_index(n, i, j);
        double gap = cx->tail + fabs(cx->lc[i] - cx->lc[j]);
        double uj = ul && j > i ? ul[j - i - 1] : NAN;
        if (uj > gap) {
            /* negligible in rows i and j: G_ij <= exp(-uj) */
            mag_set_d_lower(tmp, uj);
            mag_expinv(arb_radref(g), tmp);
            arf_zero(arb_midref(g));
            continue;
        }
        /* t = h_i + h_j - beta x_i.x_j = beta |x_i - x_j|^2 / 2 */
        arb_add(t, cx->h + i, cx->h + j, cx->lp);
        arb_dot(t, t, 1, cx->bk + i * d, 1, cx->xa + j * d, 1, (slong)d, cx->lp);
        arb_neg(t, t);
        /* A_ij <= G_ij c_j / (G_ii c_i) = G_ij c_j / c_i, and symmetrically for
         * A_ji: the entry is negligible in both rows when this test passes */
        if (arb_is_negative(t) && arf_get_d(arb_midref(t), ARF_RND_DOWN) < -gap)
            exp_tail(g, t, tmp);
        else
            arb_exp(g, t, cx->prec);
    }
    mag_clear(tmp);
}

/* Symmetric phase 1: row i of A from the stored triangle. */
static void row_sym_finish(const smx_ctx *cx, size_t i, arb_ptr E)
{
    size_t n = cx->n;
    row_acc r;
    mag_t zerr;
    acc_init(&r);
    mag_init(zerr);
    for (size_t j = 0; j < n; j++) {
        arb_srcptr g = cx->tri + (j >= i ? tri_index(n, i, j) : tri_index(n, j, i));
        if (arf_is_zero(arb_midref(g))) {
            /* E_ij in [0 +- rad(G_ij) |c_j|]: enclose without ball products */
            arf_zero(arb_midref(E + j));
            mag_mul(arb_radref(E + j), arb_radref(g), cx->cmag + j);
            mag_add(zerr, zerr, arb_radref(E + j));
            mag_add(r.srad, r.srad, arb_radref(E + j));
            continue;
        }
        arb_mul(E + j, g, cx->c + j, cx->prec);
        acc_add(&r, E + j, cx->prec);
    }
    arb_add_error_mag(r.Z, zerr);
    mag_clear(zerr);
    row_finish(cx, i, E, &r, arf_get_d(arb_midref(cx->h + i), ARF_RND_NEAR));
    acc_clear(&r);
}

/* Body (round-to-nearest, so that the double image does not depend on the
 * caller's mode): the rows of one job. */
static FROUND_BODY void smx_worker_body(void *arg)
{
    const smx_job *job = arg;
    const smx_ctx *cx = job->ctx;
    size_t m = cx->m;
    size_t nblk = (m + SMX_ROWBLK - 1) / SMX_ROWBLK;
    arb_ptr E = NULL;
    double *ul = NULL;  /* NULL (allocation failed): no shortcut, Arb decides */
    arb_t t;
    arb_init(t);
    if (!(cx->sym && job->phase == 0))
        E = _arb_vec_init((slong)cx->n);
    else
        ul = malloc(cx->n * sizeof *ul);
    for (size_t b = (size_t)job->tid; b < nblk; b += (size_t)job->nthreads) {
        size_t i1 = (b + 1) * SMX_ROWBLK < m ? (b + 1) * SMX_ROWBLK : m;
        for (size_t i = b * SMX_ROWBLK; i < i1; i++) {
            if (!cx->sym)
                row_general(cx, i, E);
            else if (job->phase == 0)
                row_sym_kernel(cx, i, t, ul);
            else
                row_sym_finish(cx, i, E);
        }
    }
    if (E)
        _arb_vec_clear(E, (slong)cx->n);
    free(ul);
    arb_clear(t);
}

static void smx_worker(void *arg)
{
    fround_run(FE_TONEAREST, smx_worker_body, arg);
}

/* Run one phase on nthreads threads (the calling thread takes job 0). */
static void smx_run(const smx_ctx *cx, int nthreads, int phase)
{
    smx_job jobs[SMX_MAX_THREADS];
    for (int t = 0; t < nthreads; t++) {
        jobs[t].ctx = cx;
        jobs[t].tid = t;
        jobs[t].nthreads = nthreads;
        jobs[t].phase = phase;
    }
    par_run(nthreads, smx_worker, flint_cleanup, jobs, sizeof jobs[0]);
}

void smx_clear(smx_t *A)
{
    if (!A)
        return;
    free(A->a);
    free(A->rowerr);
    free(A->lognorm);
    A->a = A->rowerr = A->lognorm = NULL;
}

ar_status smx_validate(const double *q, size_t m, const double *k, size_t n, size_t d,
                       const fmpz *w, double beta, long prec, int nthreads)
{
    if (m == 0 || n == 0 || d == 0) {
        ar_error_set("softmax: empty problem (m=%zu, n=%zu, d=%zu)", m, n, d);
        return AR_EINVAL;
    }
    if (!q || !k) {
        ar_error_set("softmax: NULL coordinate array");
        return AR_EINVAL;
    }
    if (!isfinite(beta) || beta < 0) {
        ar_error_set("softmax: beta must be finite and >= 0 (got %g)", beta);
        return AR_EINVAL;
    }
    if (prec != 0 && (prec < 53 || prec > SMX_MAX_PREC)) {
        ar_error_set("softmax: precision %ld outside [53, %ld]", prec, SMX_MAX_PREC);
        return AR_EINVAL;
    }
    if (nthreads < 0) {
        ar_error_set("softmax: negative thread count %d", nthreads);
        return AR_EINVAL;
    }
    if (m > ((size_t)-1) / d || n > ((size_t)-1) / d) {
        ar_error_set("softmax: size overflow (m=%zu, n=%zu, d=%zu)", m, n, d);
        return AR_EINVAL;
    }
    for (size_t i = 0; i < m * d; i++)
        if (!isfinite(q[i])) {
            ar_error_set("softmax: query %zu coordinate %zu is not finite", i / d, i % d);
            return AR_EINVAL;
        }
    for (size_t i = 0; i < n * d; i++)
        if (!isfinite(k[i])) {
            ar_error_set("softmax: key %zu coordinate %zu is not finite", i / d, i % d);
            return AR_EINVAL;
        }
    if (w)
        for (size_t j = 0; j < n; j++)
            if (fmpz_sgn(w + j) <= 0) {
                ar_error_set("softmax: multiplicity of key %zu is not positive", j);
                return AR_EINVAL;
            }
    return AR_OK;
}

ar_status smx_bias_check(const double *bias, size_t m, size_t n)
{
    if (!bias)
        return AR_OK;
    for (size_t i = 0; i < m; i++) {
        int kept = 0;
        for (size_t j = 0; j < n; j++) {
            double v = bias[i * n + j];
            if (isnan(v) || v == INFINITY) {
                ar_error_set("logit bias: entry (%zu, %zu) is %s (allowed: finite values, and -inf for a masked "
                             "entry)", i, j, isnan(v) ? "NaN" : "+inf");
                return AR_EINVAL;
            }
            kept += v != -INFINITY;
        }
        if (!kept) {
            ar_error_set("logit bias: every key of query %zu is masked (-inf): its softmax row is undefined", i);
            return AR_EINVAL;
        }
    }
    return AR_OK;
}

static double max_abs(const double *x, size_t len)
{
    double r = 0;
    for (size_t i = 0; i < len; i++)
        if (fabs(x[i]) > r)
            r = fabs(x[i]);
    return r;
}

ar_status smx_compute(smx_t *A, const double *q, size_t m, const double *k, size_t n,
                      size_t d, const fmpz *w, double beta, long prec, int nthreads)
{
    return smx_compute_bias(A, q, m, k, n, d, w, NULL, beta, prec, nthreads);
}

ar_status smx_compute_bias(smx_t *A, const double *q, size_t m, const double *k, size_t n, size_t d,
                           const fmpz *w, const double *bias, double beta, long prec, int nthreads)
{
    if (!A) {
        ar_error_set("softmax: NULL output");
        return AR_EINVAL;
    }
    memset(A, 0, sizeof *A);
    ar_status st = smx_validate(q, m, k, n, d, w, beta, prec, nthreads);
    if (st == AR_OK)
        st = smx_bias_check(bias, m, n);
    if (st != AR_OK)
        return st;
    if (prec == 0)
        prec = SMX_DEFAULT_PREC;
    if (nthreads == 0)
        nthreads = par_threads();
    if (nthreads > SMX_MAX_THREADS)
        nthreads = SMX_MAX_THREADS;

    if (n > ((size_t)-1) / m) {
        ar_error_set("softmax: size overflow (m=%zu, n=%zu)", m, n);
        return AR_ENOMEM;
    }
    A->a = ar_calloc(m * n, sizeof(double), "softmax matrix");
    A->rowerr = A->a ? ar_calloc(m, sizeof(double), "softmax row errors") : NULL;
    A->lognorm = A->rowerr ? ar_calloc(m, sizeof(double), "softmax log-normalisers") : NULL;
    if (!A->lognorm) {
        smx_clear(A);
        return AR_ENOMEM;
    }
    A->m = m;
    A->n = n;
    A->prec = prec;
    A->method = "arb";

    /* Working precision of the logits: |logit| < 2^lb, so lb extra bits keep
     * prec bits in L - s. */
    double mq = max_abs(q, m * d), mk = max_abs(k, n * d);
    double lb = 0;
    if (beta > 0 && mq > 0 && mk > 0)
        lb = log2(beta) + log2(mq) + log2(mk) + log2((double)d) + 1;
    if (w)
        for (size_t j = 0; j < n; j++) {
            double bw = log2((double)fmpz_bits(w + j) + 1.0);
            if (bw > lb)
                lb = bw;
        }
    if (bias)                                  /* |b_ij| adds to the logits' magnitude */
        for (size_t t = 0; t < m * n; t++)
            if (isfinite(bias[t]) && bias[t] != 0.0 && log2(fabs(bias[t])) + 1 > lb)
                lb = log2(fabs(bias[t])) + 1;
    if (lb < 0)
        lb = 0;
    long lp = prec + (long)ceil(lb) + 16;

    smx_ctx cx;
    memset(&cx, 0, sizeof cx);
    cx.m = m;
    cx.n = n;
    cx.d = d;
    cx.prec = prec;
    cx.lp = lp;
    cx.out = A;
    cx.tail = (double)(prec + 20) * 0.6931471805599453;

    arf_t bf;
    arf_init(bf);
    arf_set_d(bf, beta);
    int allone = 1;
    if (w)
        for (size_t j = 0; j < n && allone; j++)
            allone = fmpz_is_one(w + j);

    int sym = (q == k && m == n && !bias);    /* a bias breaks the kernel's symmetry */
    cx.bias = bias;
    size_t nt = n * (n + 1) / 2;
    if (sym && (n > 3000000 || nt > SMX_SYM_MAX_BYTES / sizeof(arb_struct)))
        sym = 0;
    arb_ptr tri = NULL;
    double *lcbuf = NULL;
    if (sym) {
        lcbuf = ar_calloc(n, sizeof(double), "softmax column scales");
        if (!lcbuf) {
            arf_clear(bf);
            smx_clear(A);
            return AR_ENOMEM;
        }
        tri = ar_calloc(nt, sizeof(arb_struct), "softmax symmetric kernel");
        if (!tri) {
            sym = 0; /* fall back to the general path (no error) */
            free(lcbuf);
            lcbuf = NULL;
        }
        else
            for (size_t t = 0; t < nt; t++)
                arb_init(tri + t);
    }
    cx.sym = sym;

    /* beta * k (or beta * x) exactly: a product of two doubles */
    arb_ptr bk = _arb_vec_init((slong)(n * d));
    for (size_t t = 0; t < n * d; t++) {
        arb_set_d(bk + t, k[t]);
        arb_mul_arf(bk + t, bk + t, bf, ARF_PREC_EXACT);
    }
    arb_ptr logw = NULL;
    if (!allone) {
        logw = _arb_vec_init((slong)n);
        for (size_t j = 0; j < n; j++)
            arb_log_fmpz(logw + j, w + j, lp);
    }

    if (!sym) {
        arb_ptr qa = _arb_vec_init((slong)(m * d));
        for (size_t t = 0; t < m * d; t++)
            arb_set_d(qa + t, q[t]);
        cx.qa = qa;
        cx.bk = bk;
        cx.logw = logw;
        smx_run(&cx, nthreads, 0);
        _arb_vec_clear(qa, (slong)(m * d));
    } else {
        arb_ptr xa = _arb_vec_init((slong)(n * d));
        arb_ptr h = _arb_vec_init((slong)n);
        arb_ptr c = _arb_vec_init((slong)n);
        mag_ptr cmag = _mag_vec_init((slong)n);
        double *lc = lcbuf;
        for (size_t t = 0; t < n * d; t++)
            arb_set_d(xa + t, k[t]);
        for (size_t j = 0; j < n; j++) {
            /* h_j = beta |x_j|^2 / 2 */
            arb_dot(h + j, NULL, 0, bk + j * d, 1, xa + j * d, 1, (slong)d, lp);
            arb_mul_2exp_si(h + j, h + j, -1);
            if (logw)
                arb_add(c + j, h + j, logw + j, lp);
            else
                arb_set(c + j, h + j);
            lc[j] = arf_get_d(arb_midref(c + j), ARF_RND_NEAR);
            arb_exp(c + j, c + j, prec);
            arb_get_mag(cmag + j, c + j);
        }
        cx.xa = xa;
        cx.bk = bk;
        cx.h = h;
        cx.c = c;
        cx.tri = tri;
        cx.lc = lc;
        cx.x = k;
        cx.beta = beta;
        cx.cmag = cmag;
        smx_run(&cx, nthreads, 0);
        smx_run(&cx, nthreads, 1);
        _arb_vec_clear(xa, (slong)(n * d));
        _arb_vec_clear(h, (slong)n);
        _arb_vec_clear(c, (slong)n);
        free(lc);
        _mag_vec_clear(cmag, (slong)n);
        for (size_t t = 0; t < nt; t++)
            arb_clear(tri + t);
        free(tri);
    }
    _arb_vec_clear(bk, (slong)(n * d));
    if (logw)
        _arb_vec_clear(logw, (slong)n);
    arf_clear(bf);

    /* maxerr: NaN cannot occur (mag_get_d gives >= 0 or +inf) */
    A->maxerr = 0;
    for (size_t i = 0; i < m; i++)
        if (A->rowerr[i] > A->maxerr)
            A->maxerr = A->rowerr[i];
    return AR_OK;
}
