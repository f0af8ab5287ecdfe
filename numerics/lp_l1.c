/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lp_l1.c -- weighted l1 fit by GLPK (see lp_l1.h). */
#include "numerics/lp_l1.h"

#include <lapacke.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <glpk.h>

/* IRLS steps of the last-resort fallback of lp_l1_solve */
#define LP_L1_IRLS_FALLBACK_ITERS 30

static double lp_l1_objective(size_t m, size_t k, const double *F, const double *f,
                              const double *w, const double *c)
{
    double s = 0;
    for (size_t i = 0; i < m; i++) {
        double r = f[i];
        for (size_t j = 0; j < k; j++)
            r -= F[i + j * m] * c[j];
        s += (w ? w[i] : 1.0) * fabs(r);
    }
    return s;
}

/* Iteratively reweighted least squares (see lp_l1.h).  Also the fallback of
 * lp_l1_solve when both simplex methods and the interior-point method fail
 * (seen on badly scaled fits: Chebyshev degree ~85 against exp(1000 (s-1))). */
ar_status lp_l1_irls(size_t m, size_t k, const double *F, const double *f, const double *w,
                     int iters, double *coef, double *obj)
{
    if (k < 1 || m < k || iters < 1 || m * k > ((size_t)1 << 27)) {
        ar_error_set("lp_l1_irls: need 1 <= k <= m, m*k <= 2^27, iters >= 1 (got m=%zu, k=%zu, iters=%d)",
                     m, k, iters);
        return AR_EINVAL;
    }
    for (size_t i = 0; i < m; i++)
        if (!isfinite(f[i]) || (w && !(isfinite(w[i]) && w[i] > 0))) {
            ar_error_set("lp_l1_irls: f[%zu] or w[%zu] not finite/positive", i, i);
            return AR_EINVAL;
        }
    for (size_t t = 0; t < m * k; t++)
        if (!isfinite(F[t])) {
            ar_error_set("lp_l1_irls: F has a non-finite entry");
            return AR_EINVAL;
        }
    double *G = ar_calloc(m * k, sizeof *G, "irls matrix"), *r = ar_calloc(m, sizeof *r, "irls rhs");
    double *u = ar_calloc(m, sizeof *u, "irls weights");
    if (!G || !r || !u) {
        free(G); free(r); free(u);
        return AR_ENOMEM;
    }
    for (size_t i = 0; i < m; i++)
        u[i] = w ? w[i] : 1.0;
    ar_status st = AR_OK;
    for (int it = 0; it < iters; it++) {
        for (size_t i = 0; i < m; i++) {
            double sq = sqrt(u[i]);
            r[i] = sq * f[i];
            for (size_t j = 0; j < k; j++)
                G[i + j * m] = sq * F[i + j * m];
        }
        lapack_int info = LAPACKE_dgels(LAPACK_COL_MAJOR, 'N', (lapack_int)m, (lapack_int)k, 1, G, (lapack_int)m,
                                        r, (lapack_int)m);
        if (info != 0) {
            ar_error_set("lp_l1_irls: least-squares step failed (info %d)", (int)info);
            st = AR_ENUMERIC;
            break;
        }
        for (size_t j = 0; j < k; j++)
            coef[j] = r[j];
        /* residuals and new weights w_i / max(|res_i|, floor) */
        double scale = 0;
        for (size_t i = 0; i < m; i++)
            scale = fmax(scale, fabs(f[i]));
        double floor_ = 1e-14 * (scale > 0 ? scale : 1);
        for (size_t i = 0; i < m; i++) {
            double v = 0;
            for (size_t j = 0; j < k; j++)
                v += F[i + j * m] * coef[j];
            double res = fabs(f[i] - v);
            u[i] = (w ? w[i] : 1.0) / (res > floor_ ? res : floor_);
        }
    }
    if (st == AR_OK) {
        double o = 0;
        for (size_t i = 0; i < m; i++) {
            double v = 0;
            for (size_t j = 0; j < k; j++)
                v += F[i + j * m] * coef[j];
            o += (w ? w[i] : 1.0) * fabs(f[i] - v);
        }
        if (!isfinite(o)) {
            ar_error_set("lp_l1_irls: non-finite fit (m=%zu, k=%zu)", m, k);
            st = AR_ENUMERIC;
        } else if (obj) {
            *obj = o;
        }
    }
    free(G); free(r); free(u);
    return st;
}

/* Whether a simplex run (return code rc) ended at a point the caller can
 * use: GLPK reports an optimum, and its column values y_i = w_i z_i satisfy
 * the equality rows F^T y = 0 of the original (unscaled) problem to a
 * relative 1e-6 of sum_i |F_ij| w_i.  The second test rejects the false
 * optima a badly scaled problem can produce (all z_i at a bound, every
 * row far from zero).  Candidate screening only, not rigorous. */
static int lp_l1_accept(glp_prob *P, int rc, size_t m, size_t k, const double *F,
                        const double *w)
{
    if (rc != 0 || glp_get_status(P) != GLP_OPT)
        return 0;
    for (size_t j = 0; j < k; j++) {
        double s = 0, a = 0;
        for (size_t i = 0; i < m; i++) {
            double wi = w ? w[i] : 1.0;
            double z = glp_get_col_prim(P, (int)i + 1);
            s += F[i + j * m] * wi * z;
            a += fabs(F[i + j * m]) * wi;
        }
        if (!(fabs(s) <= 1e-6 * a))
            return 0;
    }
    return 1;
}

ar_status lp_l1_solve(size_t m, size_t k, const double *F, const double *f, const double *w,
                      double *c, double *obj)
{
    if (k < 1 || m < k || m > (size_t)1 << 24 || k > (size_t)1 << 16) {
        ar_error_set("lp_l1_solve: need 1 <= k <= m (got m=%zu, k=%zu)", m, k);
        return AR_EINVAL;
    }
    if (m * k > ((size_t)1 << 27)) {
        ar_error_set("lp_l1_solve: problem too large (m*k=%zu)", m * k);
        return AR_EINVAL;
    }
    for (size_t i = 0; i < m; i++) {
        if (!isfinite(f[i]) || (w && !(isfinite(w[i]) && w[i] > 0))) {
            ar_error_set("lp_l1_solve: f[%zu] or w[%zu] not finite/positive", i, i);
            return AR_EINVAL;
        }
    }
    for (size_t t = 0; t < m * k; t++)
        if (!isfinite(F[t])) {
            ar_error_set("lp_l1_solve: F has a non-finite entry");
            return AR_EINVAL;
        }
    /* Normalisation: objective coefficients sigma w_i f_i (max 1), constraint
     * rows rho_j w_i F_ij (max 1 per row).  Reduced cost of column i is then
     * sigma w_i (f_i - sum_j (pi_j rho_j / sigma) F_ij): c_j = pi_j rho_j / sigma. */
    double of = 0;
    for (size_t i = 0; i < m; i++)
        of = fmax(of, (w ? w[i] : 1.0) * fabs(f[i]));
    if (of == 0) {                 /* f = 0: c = 0 is optimal */
        for (size_t j = 0; j < k; j++)
            c[j] = 0;
        if (obj)
            *obj = 0;
        return AR_OK;
    }
    double sigma = 1.0 / of;
    double *rho = malloc(k * sizeof *rho);
    int *ia = malloc((m * k + 1) * sizeof *ia);
    int *ja = malloc((m * k + 1) * sizeof *ja);
    double *ar = malloc((m * k + 1) * sizeof *ar);
    if (!rho || !ia || !ja || !ar) {
        free(rho);
        free(ia);
        free(ja);
        free(ar);
        ar_error_set("lp_l1_solve: out of memory (m=%zu, k=%zu)", m, k);
        return AR_ENOMEM;
    }
    size_t ne = 0;
    for (size_t j = 0; j < k; j++) {
        double mx = 0;
        for (size_t i = 0; i < m; i++)
            mx = fmax(mx, (w ? w[i] : 1.0) * fabs(F[i + j * m]));
        rho[j] = mx > 0 ? 1.0 / mx : 1.0;
        for (size_t i = 0; i < m; i++) {
            double v = rho[j] * (w ? w[i] : 1.0) * F[i + j * m];
            if (v != 0) {
                ne++;
                ia[ne] = (int)j + 1;
                ja[ne] = (int)i + 1;
                ar[ne] = v;
            }
        }
    }
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MAX);
    glp_add_rows(P, (int)k);
    for (size_t j = 0; j < k; j++)
        glp_set_row_bnds(P, (int)j + 1, GLP_FX, 0.0, 0.0);
    glp_add_cols(P, (int)m);
    for (size_t i = 0; i < m; i++) {
        /* z_i = y_i / w_i in [-1, 1] */
        glp_set_col_bnds(P, (int)i + 1, GLP_DB, -1.0, 1.0);
        glp_set_obj_coef(P, (int)i + 1, sigma * (w ? w[i] : 1.0) * f[i]);
    }
    glp_load_matrix(P, (int)ne, ia, ja, ar);
    free(ia);
    free(ja);
    free(ar);
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.presolve = GLP_OFF;
    int term = glp_term_out(GLP_OFF);       /* glp_scale_prob/glp_adv_basis print otherwise */
    /* Wide objective: some coefficient sigma w_i f_i is below the normal
     * range (subnormal or zero; for exp(beta (s - 1)) on [-1, 1] once
     * e^{-2 beta} w_i < 2^-1022, beta >~ 354).  There GLPK's automatic
     * scaling (geometric means over the columns) misleads the dual simplex:
     * minutes of iterations, then a false "no feasible solution" or a false
     * optimum at the starting basis (measured for exp(beta (s - 1)),
     * beta = 450..640, degree 85..100, weight sin^3; see
     * proofs-notes/polynomial-certificate.md section 3).  The columns'
     * normalisation above already keeps every entry in [-1, 1], so the
     * unscaled problem is tried first there.  Elsewhere the scaled problem
     * comes first, as it always did. */
    int wide = 0;
    for (size_t i = 0; i < m && !wide; i++)
        wide = sigma * (w ? w[i] : 1.0) * fabs(f[i]) < DBL_MIN;
    /* First: the dual simplex with the long-step (bound flipping) ratio test from the
     * standard basis, which is dual feasible here (every column boxed): about k
     * iterations instead of about m for the primal simplex. */
    parm.meth = GLP_DUAL;
    parm.r_test = GLP_RT_FLIP;
    int rc = -1;
    ar_status st = AR_OK;
    if (wide) {
        glp_std_basis(P);
        rc = glp_simplex(P, &parm);
    }
    if (!lp_l1_accept(P, rc, m, k, F, w)) {
        glp_scale_prob(P, GLP_SF_AUTO);
        glp_std_basis(P);
        rc = glp_simplex(P, &parm);
    }
    if (!lp_l1_accept(P, rc, m, k, F, w)) {
        /* retry: the primal simplex from an advanced basis, then the dual from the standard one */
        parm.r_test = GLP_RT_HAR;
        parm.meth = GLP_PRIMAL;
        glp_adv_basis(P, 0);
        rc = glp_simplex(P, &parm);
        if (rc != 0 || glp_get_status(P) != GLP_OPT) {
            glp_std_basis(P);
            parm.meth = GLP_DUALP;
            rc = glp_simplex(P, &parm);
        }
    }
    int interior = 0;
    if (rc != 0 || glp_get_status(P) != GLP_OPT) {
        /* last resort: the interior-point method (only a candidate is needed:
         * every use of the fit is certified independently) */
        glp_iptcp ip;
        glp_init_iptcp(&ip);
        ip.msg_lev = GLP_MSG_OFF;
        rc = glp_interior(P, &ip);
        interior = rc == 0 && glp_ipt_status(P) == GLP_OPT;
    }
    glp_term_out(term);
    if (interior) {
        for (size_t j = 0; j < k; j++)
            c[j] = glp_ipt_row_dual(P, (int)j + 1) * rho[j] / sigma;
        double o = lp_l1_objective(m, k, F, f, w, c);
        if (!isfinite(o)) {
            ar_error_set("lp_l1_solve: non-finite fit (m=%zu, k=%zu)", m, k);
            st = AR_ENUMERIC;
        } else if (obj) {
            *obj = o;
        }
    } else if (rc != 0 || glp_get_status(P) != GLP_OPT) {
        st = lp_l1_irls(m, k, F, f, w, LP_L1_IRLS_FALLBACK_ITERS, c, obj);
    } else {
        for (size_t j = 0; j < k; j++)
            c[j] = glp_get_row_dual(P, (int)j + 1) * rho[j] / sigma;
        double o = lp_l1_objective(m, k, F, f, w, c);
        if (!isfinite(o)) {
            ar_error_set("lp_l1_solve: non-finite fit (m=%zu, k=%zu)", m, k);
            st = AR_ENUMERIC;
        } else if (obj) {
            *obj = o;
        }
    }
    glp_delete_prob(P);
    free(rho);
    return st;
}
