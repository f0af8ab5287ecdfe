/* circulant.c -- rigorous tools for real circulant matrices: cosine tables,
 * symbols by Arb DFT, verified inverse norms, certified band-fit errors,
 * and the two floating-point band candidates (projection, l1 LP). */
#include "numerics/circulant.h"

#include <math.h>
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
    return arf_get_d(x, ARF_RND_UP);
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

double circ_band_l1_ubound(arb_srcptr ahalf, size_t n, const double *c, size_t K,
                           arb_srcptr C, long prec)
{
    if (n == 0)
        return INFINITY;
    for (size_t f = 0; f <= K; f++)
        if (!isfinite(c[f]) || !isfinite(2.0 * c[f]))
            return INFINITY;
    size_t h = circ_half_len(n);
    arf_t *c2 = malloc((K + 1) * sizeof *c2);
    if (!c2)
        return INFINITY;
    for (size_t f = 0; f <= K; f++) {
        arf_init(c2[f]);
        arf_set_d(c2[f], f == 0 ? c[0] : 2.0 * c[f]); /* exact */
    }
    arb_t b, s;
    arf_t u;
    arb_init(b);
    arb_init(s);
    arf_init(u);
    for (size_t k = 0; k < h; k++) {
        arb_set_arf(b, c2[0]);
        size_t idx = 0; /* f k mod n, updated incrementally */
        for (size_t f = 1; f <= K; f++) {
            idx += k;
            if (idx >= n)
                idx -= n;
            arb_addmul_arf(b, C + circ_fold(idx, n), c2[f], prec);
        }
        arb_sub(b, ahalf + k, b, prec);
        arb_abs(b, b);
        arb_mul_ui(b, b, circ_half_weight(n, k), prec);
        arb_add(s, s, b, prec);
    }
    arb_get_abs_ubound_arf(u, s, prec);
    double r = arf_to_double_up(u);
    arb_clear(b);
    arb_clear(s);
    arf_clear(u);
    for (size_t f = 0; f <= K; f++)
        arf_clear(c2[f]);
    free(c2);
    return r;
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

ar_status circ_band_l1_fit(double *c, double *lpval, const double *ahalf, size_t n, size_t K,
                           size_t stride)
{
    if (n == 0 || stride == 0) {
        ar_error_set("circ_band_l1_fit: n and stride must be >= 1");
        return AR_EINVAL;
    }
    size_t h = circ_half_len(n);
    size_t ns = (h - 1) / stride + 1; /* samples k = 0, s, 2s, ... <= n/2 */
    size_t rows = K + 1;
    size_t nnz = ns * rows;
    double *t = cos_table_d(n);
    int *ia = calloc(nnz + 1, sizeof *ia);
    int *ja = calloc(nnz + 1, sizeof *ja);
    double *ar = calloc(nnz + 1, sizeof *ar);
    if (!t || !ia || !ja || !ar || nnz > (size_t)1 << 30) {
        free(t);
        free(ia);
        free(ja);
        free(ar);
        ar_error_set("circ_band_l1_fit: cannot allocate an LP with %zu nonzeros", nnz);
        return AR_ENOMEM;
    }
    /* scale the objective to max |a| = 1 (duals scale back linearly) */
    double amax = 0.0;
    for (size_t k = 0; k < h; k++)
        if (fabs(ahalf[k]) > amax)
            amax = fabs(ahalf[k]);
    if (!(amax > 0.0) || !isfinite(amax))
        amax = 1.0;

    glp_prob *lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MAX);
    glp_add_rows(lp, (int)rows);
    for (size_t f = 0; f < rows; f++)
        glp_set_row_bnds(lp, (int)f + 1, GLP_FX, 0.0, 0.0);
    glp_add_cols(lp, (int)ns);
    size_t e = 1;
    for (size_t s = 0; s < ns; s++) {
        size_t k = s * stride;
        double w = circ_half_weight(n, k);
        glp_set_col_bnds(lp, (int)s + 1, GLP_DB, -w, w);
        glp_set_obj_coef(lp, (int)s + 1, ahalf[k] / amax);
        size_t idx = 0;
        for (size_t f = 0; f < rows; f++) {
            ia[e] = (int)f + 1;
            ja[e] = (int)s + 1;
            ar[e] = t[circ_fold(idx, n)];
            e++;
            idx += k;
            idx %= n;
        }
    }
    glp_load_matrix(lp, (int)nnz, ia, ja, ar);
    free(ia);
    free(ja);
    free(ar);
    free(t);

    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = getenv("MSG") ? GLP_MSG_ALL : GLP_MSG_OFF; if (getenv("FLIP")) parm.r_test = GLP_RT_FLIP;
    parm.meth = getenv("METH") ? atoi(getenv("METH")) : GLP_PRIMAL;
    int rc = glp_simplex(lp, &parm);
    ar_status st = AR_OK;
    if (rc != 0 || glp_get_status(lp) != GLP_OPT) {
        ar_error_set("circ_band_l1_fit: GLPK simplex failed (rc %d, status %d) for n=%zu K=%zu",
                     rc, glp_get_status(lp), n, K);
        st = AR_ENUMERIC;
    } else {
        for (size_t f = 0; f < rows; f++) {
            double d = glp_get_row_dual(lp, (int)f + 1) * amax;
            c[f] = (f == 0) ? d : 0.5 * d;
        }
        if (lpval)
            *lpval = glp_get_obj_val(lp) * amax;
    }
    glp_delete_prob(lp);
    return st;
}
