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
 * Both give balls containing A_ij.  The double image is a_ij = mid rounded to
 * nearest, and rowerr_i is an upper bound of sum_j (rad(A_ij) + |mid - a_ij|)
 * accumulated in mag_t (rounded upward) and converted with mag_get_d (an
 * upper bound).  Since |A_ij - a_ij| <= rad + |mid - a_ij|, this is rigorous.
 *
 * Precision: logits are formed at lp = prec + (bits of the largest possible
 * |logit|) + guard bits, so that L_ij - s_i has about prec correct bits and
 * every E_ij about prec relative bits; exp, sums and quotients run at prec.
 *
 * Threads: rows are split in blocks of SMX_ROWBLK over nthreads pthreads
 * (blocks avoid false sharing in the column-major output).  Each worker
 * calls flint_cleanup() before it exits (Arb caches are thread-local). */
#include "numerics/softmax.h"

#include <math.h>
#include <pthread.h>
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
    arb_srcptr h;     /* symmetric: n values beta|x_j|^2/2 */
    arb_srcptr c;     /* symmetric: n values w_j exp(h_j) */
    arb_ptr tri;      /* symmetric: packed upper triangle of G */
    smx_t *out;
} smx_ctx;

typedef struct {
    const smx_ctx *ctx;
    int tid, nthreads, phase;
} smx_job;

static size_t tri_index(size_t n, size_t i, size_t j)
{
    /* i <= j; row i of the packed upper triangle starts at i*n - i(i-1)/2 */
    return i * n - i * (i - 1) / 2 + (j - i);
}

/* Scale the row of balls E (length n, containing E_i.) by 1/Z, store the
 * double image and the rigorous row error of row i. */
static void row_finish(const smx_ctx *cx, size_t i, arb_ptr E, const arb_t Z, double logshift)
{
    size_t m = cx->m, n = cx->n;
    arb_t zinv;
    arf_t diff, ad;
    mag_t acc, t;
    arb_init(zinv);
    arf_init(diff);
    arf_init(ad);
    mag_init(acc);
    mag_init(t);

    arb_inv(zinv, Z, cx->prec);
    for (size_t j = 0; j < n; j++) {
        arb_mul(E + j, E + j, zinv, cx->prec);
        double a = arf_get_d(arb_midref(E + j), ARF_RND_NEAR);
        cx->out->a[i + j * m] = a;
        mag_add(acc, acc, arb_radref(E + j));
        arf_set_d(ad, a);
        arf_sub(diff, arb_midref(E + j), ad, 30, ARF_RND_UP); /* |diff| rounded up */
        arf_get_mag(t, diff);
        mag_add(acc, acc, t);
    }
    cx->out->rowerr[i] = mag_get_d(acc);

    arb_log(zinv, Z, 53);
    cx->out->lognorm[i] = arf_get_d(arb_midref(zinv), ARF_RND_NEAR) + logshift;

    arb_clear(zinv);
    arf_clear(diff);
    arf_clear(ad);
    mag_clear(acc);
    mag_clear(t);
}

static void row_general(const smx_ctx *cx, size_t i, arb_ptr E)
{
    size_t n = cx->n, d = cx->d;
    arf_t s;
    arb_t Z;
    arf_init(s);
    arb_init(Z);
    for (size_t j = 0; j < n; j++)
        arb_dot(E + j, cx->logw ? cx->logw + j : NULL, 0, cx->qa + i * d, 1, cx->bk + j * d, 1,
                (slong)d, cx->lp);
    arf_set(s, arb_midref(E + 0));
    for (size_t j = 1; j < n; j++)
        if (arf_cmp(arb_midref(E + j), s) > 0)
            arf_set(s, arb_midref(E + j));
    for (size_t j = 0; j < n; j++) {
        arb_sub_arf(E + j, E + j, s, cx->lp);
        arb_exp(E + j, E + j, cx->prec);
        arb_add(Z, Z, E + j, cx->prec);
    }
    row_finish(cx, i, E, Z, arf_get_d(s, ARF_RND_NEAR));
    arf_clear(s);
    arb_clear(Z);
}

/* Symmetric phase 0: G_ij for j >= i. */
static void row_sym_kernel(const smx_ctx *cx, size_t i, arb_t t)
{
    size_t n = cx->n, d = cx->d;
    for (size_t j = i; j < n; j++) {
        arb_ptr g = cx->tri + tri_index(n, i, j);
        /* t = h_i + h_j - beta x_i.x_j = beta |x_i - x_j|^2 / 2 */
        arb_add(t, cx->h + i, cx->h + j, cx->lp);
        arb_dot(t, t, 1, cx->bk + i * d, 1, cx->xa + j * d, 1, (slong)d, cx->lp);
        arb_neg(t, t);
        arb_exp(g, t, cx->prec);
    }
}

/* Symmetric phase 1: row i of A from the stored triangle. */
static void row_sym_finish(const smx_ctx *cx, size_t i, arb_ptr E)
{
    size_t n = cx->n;
    arb_t Z;
    arb_init(Z);
    for (size_t j = 0; j < n; j++) {
        arb_srcptr g = cx->tri + (j >= i ? tri_index(n, i, j) : tri_index(n, j, i));
        arb_mul(E + j, g, cx->c + j, cx->prec);
        arb_add(Z, Z, E + j, cx->prec);
    }
    row_finish(cx, i, E, Z, arf_get_d(arb_midref(cx->h + i), ARF_RND_NEAR));
    arb_clear(Z);
}

static void *smx_worker(void *arg)
{
    const smx_job *job = arg;
    const smx_ctx *cx = job->ctx;
    size_t m = cx->m;
    size_t nblk = (m + SMX_ROWBLK - 1) / SMX_ROWBLK;
    arb_ptr E = NULL;
    arb_t t;
    arb_init(t);
    if (!(cx->sym && job->phase == 0))
        E = _arb_vec_init((slong)cx->n);
    for (size_t b = (size_t)job->tid; b < nblk; b += (size_t)job->nthreads) {
        size_t i1 = (b + 1) * SMX_ROWBLK < m ? (b + 1) * SMX_ROWBLK : m;
        for (size_t i = b * SMX_ROWBLK; i < i1; i++) {
            if (!cx->sym)
                row_general(cx, i, E);
            else if (job->phase == 0)
                row_sym_kernel(cx, i, t);
            else
                row_sym_finish(cx, i, E);
        }
    }
    if (E)
        _arb_vec_clear(E, (slong)cx->n);
    arb_clear(t);
    return NULL;
}

static void *smx_thread_main(void *arg)
{
    smx_worker(arg);
    flint_cleanup();
    return NULL;
}

/* Run one phase on nthreads threads (the calling thread takes job 0). */
static void smx_run(const smx_ctx *cx, int nthreads, int phase)
{
    smx_job jobs[SMX_MAX_THREADS];
    pthread_t th[SMX_MAX_THREADS];
    int started[SMX_MAX_THREADS];
    for (int t = 0; t < nthreads; t++) {
        jobs[t].ctx = cx;
        jobs[t].tid = t;
        jobs[t].nthreads = nthreads;
        jobs[t].phase = phase;
        started[t] = 0;
    }
    for (int t = 1; t < nthreads; t++)
        started[t] = pthread_create(&th[t], NULL, smx_thread_main, &jobs[t]) == 0;
    smx_worker(&jobs[0]);
    for (int t = 1; t < nthreads; t++) {
        if (started[t])
            pthread_join(th[t], NULL);
        else
            smx_worker(&jobs[t]); /* thread creation failed: do its share here */
    }
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

static ar_status smx_check(const double *q, size_t m, const double *k, size_t n, size_t d,
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
    if (!A) {
        ar_error_set("softmax: NULL output");
        return AR_EINVAL;
    }
    memset(A, 0, sizeof *A);
    ar_status st = smx_check(q, m, k, n, d, w, beta, prec, nthreads);
    if (st != AR_OK)
        return st;
    if (prec == 0)
        prec = SMX_DEFAULT_PREC;
    if (nthreads == 0)
        nthreads = 2;
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

    arf_t bf;
    arf_init(bf);
    arf_set_d(bf, beta);
    int allone = 1;
    if (w)
        for (size_t j = 0; j < n && allone; j++)
            allone = fmpz_is_one(w + j);

    int sym = (q == k && m == n);
    size_t nt = n * (n + 1) / 2;
    if (sym && (n > 3000000 || nt > SMX_SYM_MAX_BYTES / sizeof(arb_struct)))
        sym = 0;
    arb_ptr tri = NULL;
    if (sym) {
        tri = ar_calloc(nt, sizeof(arb_struct), "softmax symmetric kernel");
        if (!tri)
            sym = 0; /* fall back to the general path (no error) */
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
            arb_exp(c + j, c + j, prec);
        }
        cx.xa = xa;
        cx.bk = bk;
        cx.h = h;
        cx.c = c;
        cx.tri = tri;
        smx_run(&cx, nthreads, 0);
        smx_run(&cx, nthreads, 1);
        _arb_vec_clear(xa, (slong)(n * d));
        _arb_vec_clear(h, (slong)n);
        _arb_vec_clear(c, (slong)n);
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
