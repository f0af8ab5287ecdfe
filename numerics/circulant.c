/* SPDX-License-Identifier: GPL-3.0-or-later */
/* circulant.c -- rigorous tools for real circulant matrices: cosine tables,
 * symbols by Arb DFT, verified inverse norms, certified band-fit errors,
 * and the two floating-point band candidates (projection, l1 LP). */
#include "numerics/circulant.h"
#include "numerics/fround.h"

#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <acb_dft.h>
#include <flint/fmpq.h>
#include <glpk.h>

size_t circ_half_len(size_t n)
{
    return n / 2 + 1;
}

unsigned circ_half_weight(size_t n, size_t k)
{
    return (k == 0 || 2 * k == n) ? 1u : 2u;
}

size_t circ_fold(size_t k, size_t n)
{
    k %= n;
    return (k <= n - k) ? k : n - k;
}

void circ_cos_table(arb_ptr C, size_t n, long prec)
{
    size_t h = circ_half_len(n);
    fmpq_t x;
    fmpq_init(x);
    for (size_t j = 0; j < h; j++) {
        fmpq_set_si(x, 2 * (slong)j, (ulong)n); /* canonicalises */
        arb_cos_pi_fmpq(C + j, x, prec);
    }
    fmpq_clear(x);
}

void circ_symbol(acb_ptr W, arb_srcptr c, size_t m, long prec)
{
    acb_ptr v = _acb_vec_init((slong)m);
    for (size_t k = 0; k < m; k++)
        acb_set_arb(v + k, c + k);
    acb_dft(W, v, (slong)m, prec);
    _acb_vec_clear(v, (slong)m);
}

/* arf upper bound -> double rounded up (+INFINITY if it does not fit) */
static double arf_to_double_up(const arf_t x)
{
    if (!arf_is_finite(x))
        return INFINITY;
    return arf_get_d(x, ARF_RND_CEIL);
}

double circ_inv_norm_ubound(arb_srcptr c, size_t m, long prec)
{
    if (m == 0)
        return INFINITY;
    for (size_t k = 0; k < m; k++)
        if (!arb_is_finite(c + k))
            return INFINITY;
    acb_ptr W = _acb_vec_init((slong)m);
    acb_ptr nu = _acb_vec_init((slong)m);
    double result = INFINITY;
    circ_symbol(W, c, m, prec);
    for (size_t f = 0; f < m; f++) {
        if (acb_contains_zero(W + f))
            goto done;
        acb_inv(W + f, W + f, prec);
    }
    /* nu_k = (1/m) sum_f W_f^{-1} e^{2 pi i f k/m}: the first row of C^{-1}
     * (C^{-1} has eigenvalue 1/lambda_f on v_f, and W_f = lambda_{-f}). */
    acb_dft_inverse(nu, W, (slong)m, prec);
    {
        arb_t s, t;
        arf_t u;
        arb_init(s);
        arb_init(t);
        arf_init(u);
        for (size_t k = 0; k < m; k++) {
            acb_abs(t, nu + k, prec);
            arb_add(s, s, t, prec);
        }
        arb_get_abs_ubound_arf(u, s, prec);
        result = arf_to_double_up(u);
        arb_clear(s);
        arb_clear(t);
        arf_clear(u);
    }
done:
    _acb_vec_clear(W, (slong)m);
    _acb_vec_clear(nu, (slong)m);
    return result;
}

/* sum_{f=0..K} c2[f] x_f with x_f = cos(2 pi f k/n) taken from the table
 * side (lo or hi) that makes each product a bound in the current rounding
 * direction: dir > 0 upper bound (round up, c2 >= 0 -> hi), dir < 0 lower.
 * Called only from the fround bodies below (the mode is theirs). */
static double band_pass(const double *c2, size_t K, size_t k, size_t n, const double *clo,
                        const double *chi, int dir)
{
    double s = c2[0];
    size_t idx = 0;
    for (size_t f = 1; f <= K; f++) {
        idx += k;
        if (idx >= n)
            idx -= n;
        size_t j = circ_fold(idx, n);
        double x = ((c2[f] >= 0) == (dir > 0)) ? chi[j] : clo[j];
        s += c2[f] * x;
    }
    return s;
}

typedef struct {
    size_t n, K, h;
    const double *c2, *clo, *chi, *alo, *ahi;
    double *blo;        /* h lower bounds of b_k (out of band_lower) */
    double acc;         /* out of band_gap_up */
} band_ctx;

/* Body, in FE_DOWNWARD: blo[k] <= b_k for k < h. */
static FROUND_BODY void band_lower(void *arg)
{
    band_ctx *b = arg;
    for (size_t k = 0; k < b->h; k++)
        b->blo[k] = band_pass(b->c2, b->K, k, b->n, b->clo, b->chi, -1);
}

/* Body, in FE_UPWARD: acc >= sum_k w_k max(ahi_k - blo_k, bhi_k - alo_k, 0). */
static FROUND_BODY void band_gap_up(void *arg)
{
    band_ctx *b = arg;
    double acc = 0.0;
    for (size_t k = 0; k < b->h; k++) {
        double bhi = band_pass(b->c2, b->K, k, b->n, b->clo, b->chi, +1);
        double d1 = b->ahi[k] - b->blo[k], d2 = bhi - b->alo[k];
        double d = d1 > d2 ? d1 : d2;
        if (!(d > 0))
            d = 0.0;
        acc = acc + (double)circ_half_weight(b->n, k) * d;
    }
    b->acc = acc;
}

double circ_band_l1_ubound(arb_srcptr ahalf, size_t n, const double *c, size_t K, arb_srcptr C)
{
    if (n == 0)
        return INFINITY;
    for (size_t f = 0; f <= K; f++)
        if (!isfinite(c[f]) || !isfinite(2.0 * c[f]))
            return INFINITY;
    size_t h = circ_half_len(n);
    double *buf = malloc((5 * h + K + 1) * sizeof *buf);
    if (!buf)
        return INFINITY;
    double *clo = buf, *chi = buf + h, *alo = buf + 2 * h, *ahi = buf + 3 * h, *blo = buf + 4 * h,
           *c2 = buf + 5 * h;
    arf_t t;
    arf_init(t);
    int ok = 1;
    /* directed conversions: FLOOR/CEIL (toward -inf/+inf), right for either
     * sign (RND_DOWN/UP round toward/away from zero) */
    for (size_t j = 0; j < h; j++) {
        arb_get_lbound_arf(t, C + j, 53);
        clo[j] = arf_get_d(t, ARF_RND_FLOOR);
        arb_get_ubound_arf(t, C + j, 53);
        chi[j] = arf_get_d(t, ARF_RND_CEIL);
        arb_get_lbound_arf(t, ahalf + j, 53);
        alo[j] = arf_get_d(t, ARF_RND_FLOOR);
        arb_get_ubound_arf(t, ahalf + j, 53);
        ahi[j] = arf_get_d(t, ARF_RND_CEIL);
        if (!isfinite(clo[j]) || !isfinite(chi[j]) || !isfinite(alo[j]) || !isfinite(ahi[j]))
            ok = 0;
    }
    arf_clear(t);
    for (size_t f = 0; f <= K; f++)
        c2[f] = (f == 0) ? c[0] : 2.0 * c[f]; /* exact (finite checked) */
    double acc = 0.0;
    if (ok) {
        band_ctx b = {.n = n, .K = K, .h = h, .c2 = c2, .clo = clo, .chi = chi, .alo = alo,
                      .ahi = ahi, .blo = blo};
        fround_run(FE_DOWNWARD, band_lower, &b);
        fround_run(FE_UPWARD, band_gap_up, &b);
        acc = b.acc;
    }
    free(buf);
    if (!ok || !isfinite(acc))
        return INFINITY;
    return acc;
}

/* double table cos(2 pi j/n), j = 0..n/2 (candidates only) */
static double *cos_table_d(size_t n)
{
    size_t h = circ_half_len(n);
    double *t = malloc(h * sizeof *t);
    if (!t)
        return NULL;
    for (size_t j = 0; j < h; j++)
        t[j] = cos(2.0 * M_PI * (double)j / (double)n);
    return t;
}

void circ_band_project(double *c, const double *ahalf, size_t n, size_t K)
{
    size_t h = circ_half_len(n);
    double *t = cos_table_d(n);
    for (size_t f = 0; f <= K; f++) {
        double s = 0.0;
        size_t idx = 0;
        for (size_t k = 0; k < h; k++) {
            double cv = t ? t[circ_fold(idx, n)] : cos(2.0 * M_PI * (double)((f * k) % n) / (double)n);
            s += circ_half_weight(n, k) * ahalf[k] * cv;
            idx = (idx + f) % n;
        }
        c[f] = s / (double)n;
    }
    free(t);
}

struct circ_lp {
    glp_prob *P;
    size_t n, stride, ns;   /* row length, sample stride, number of samples */
    size_t rows;            /* frequency rows present (K + 1 after a solve) */
    double amax;            /* objective scale */
    double *cosd;           /* double cos(2 pi j/n), j = 0..n/2 */
    int *ind;               /* ns + 1 column indices (1-based) */
    double *val;            /* ns + 1 row values */
};

void circ_lp_free(circ_lp_t *lp)
{
    if (!lp)
        return;
    if (lp->P)
        glp_delete_prob(lp->P);
    free(lp->cosd);
    free(lp->ind);
    free(lp->val);
    free(lp);
}

static circ_lp_t *lp_alloc(size_t n, size_t stride)
{
    circ_lp_t *lp = calloc(1, sizeof *lp);
    if (!lp)
        return NULL;
    lp->n = n;
    lp->stride = stride;
    lp->ns = (circ_half_len(n) - 1) / stride + 1; /* samples k = 0, s, 2s, ... <= n/2 */
    lp->cosd = cos_table_d(n);
    lp->ind = malloc((lp->ns + 1) * sizeof *lp->ind);
    lp->val = malloc((lp->ns + 1) * sizeof *lp->val);
    if (!lp->cosd || !lp->ind || !lp->val || lp->ns > (size_t)INT32_MAX / 2) {
        circ_lp_free(lp);
        return NULL;
    }
    for (size_t s = 0; s < lp->ns; s++)
        lp->ind[s + 1] = (int)s + 1;
    return lp;
}

ar_status circ_lp_init(circ_lp_t **out, const double *ahalf, size_t n, size_t stride)
{
    *out = NULL;
    if (n == 0 || stride == 0) {
        ar_error_set("circ_lp_init: n and stride must be >= 1");
        return AR_EINVAL;
    }
    circ_lp_t *lp = lp_alloc(n, stride);
    if (!lp) {
        ar_error_set("circ_lp_init: cannot allocate an LP for n = %zu", n);
        return AR_ENOMEM;
    }
    size_t h = circ_half_len(n);
    /* scale the objective to max |a| = 1 (duals scale back linearly) */
    double amax = 0.0;
    for (size_t k = 0; k < h; k++)
        if (fabs(ahalf[k]) > amax)
            amax = fabs(ahalf[k]);
    if (!(amax > 0.0) || !isfinite(amax))
        amax = 1.0;
    lp->amax = amax;
    lp->P = glp_create_prob();
    glp_set_obj_dir(lp->P, GLP_MAX);
    glp_add_cols(lp->P, (int)lp->ns);
    for (size_t s = 0; s < lp->ns; s++) {
        size_t k = s * stride;
        double w = circ_half_weight(n, k);
        double obj = ahalf[k] / amax;
        glp_set_col_bnds(lp->P, (int)s + 1, GLP_DB, -w, w);
        glp_set_obj_coef(lp->P, (int)s + 1, obj);
        /* the optimum without rows: a dual feasible start for every K */
        glp_set_col_stat(lp->P, (int)s + 1, obj >= 0 ? GLP_NU : GLP_NL);
    }
    *out = lp;
    return AR_OK;
}

ar_status circ_lp_copy(circ_lp_t **out, const circ_lp_t *src)
{
    *out = NULL;
    circ_lp_t *lp = lp_alloc(src->n, src->stride);
    if (!lp) {
        ar_error_set("circ_lp_copy: cannot allocate an LP for n = %zu", src->n);
        return AR_ENOMEM;
    }
    lp->rows = src->rows;
    lp->amax = src->amax;
    lp->P = glp_create_prob();
    glp_copy_prob(lp->P, src->P, GLP_OFF);
    /* make sure the basis statuses travel with the copy */
    for (size_t i = 1; i <= src->rows; i++)
        glp_set_row_stat(lp->P, (int)i, glp_get_row_stat(src->P, (int)i));
    for (size_t s = 1; s <= src->ns; s++)
        glp_set_col_stat(lp->P, (int)s, glp_get_col_stat(src->P, (int)s));
    *out = lp;
    return AR_OK;
}

size_t circ_lp_band(const circ_lp_t *lp)
{
    return lp->rows ? lp->rows - 1 : SIZE_MAX;
}

ar_status circ_lp_solve(circ_lp_t *lp, size_t K, double *c, double *lpval)
{
    if (lp->rows > K + 1) {
        ar_error_set("circ_lp_solve: the band can only grow (have K = %zu, asked %zu)",
                     lp->rows - 1, K);
        return AR_EINVAL;
    }
    if (K + 1 > (size_t)INT32_MAX / 2 || lp->ns * (K + 1) > ((size_t)1 << 31)) {
        ar_error_set("circ_lp_solve: LP too large (%zu samples x %zu rows)", lp->ns, K + 1);
        return AR_ENOMEM;
    }
    size_t n = lp->n;
    if (K + 1 > lp->rows) {
        int first = glp_add_rows(lp->P, (int)(K + 1 - lp->rows));
        for (size_t f = lp->rows; f <= K; f++) {
            int i = first + (int)(f - lp->rows);
            glp_set_row_bnds(lp->P, i, GLP_FX, 0.0, 0.0);
            size_t step = (f * lp->stride) % n, idx = 0; /* f k mod n, k = s * stride */
            for (size_t s = 0; s < lp->ns; s++) {
                lp->val[s + 1] = lp->cosd[circ_fold(idx, n)];
                idx = (idx + step) % n;
            }
            glp_set_mat_row(lp->P, i, (int)lp->ns, lp->ind, lp->val);
        }
        lp->rows = K + 1;
    }
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    /* dual simplex with the long-step (bound flipping) ratio test: every
     * column is boxed and the start is dual feasible (new rows enter the
     * basis); measured 20-60x faster than the primal simplex here */
    parm.meth = GLP_DUALP;
    parm.r_test = GLP_RT_FLIP;
    int rc = glp_simplex(lp->P, &parm);
    if (rc != 0 || glp_get_status(lp->P) != GLP_OPT) {
        /* retry from the standard basis once */
        glp_std_basis(lp->P);
        rc = glp_simplex(lp->P, &parm);
    }
    if (rc != 0 || glp_get_status(lp->P) != GLP_OPT) {
        ar_error_set("circ_lp_solve: GLPK simplex failed (rc %d, status %d) for n=%zu K=%zu",
                     rc, glp_get_status(lp->P), n, K);
        return AR_ENUMERIC;
    }
    for (size_t f = 0; f <= K; f++) {
        double d = glp_get_row_dual(lp->P, (int)f + 1) * lp->amax;
        c[f] = (f == 0) ? d : 0.5 * d;
    }
    if (lpval)
        *lpval = glp_get_obj_val(lp->P) * lp->amax * (double)lp->stride;
    return AR_OK;
}

ar_status circ_band_l1_fit(double *c, double *lpval, const double *ahalf, size_t n, size_t K,
                           size_t stride)
{
    circ_lp_t *lp;
    ar_status st = circ_lp_init(&lp, ahalf, n, stride);
    if (st != AR_OK)
        return st;
    st = circ_lp_solve(lp, K, c, lpval);
    circ_lp_free(lp);
    return st;
}
