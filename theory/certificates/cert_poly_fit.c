/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_poly_fit.c -- the candidate zonal polynomial: dim P_L(S^{d-1}) and the
 * weighted l1 fit of exp(beta (s - 1)) by an LP (a candidate only; the
 * certificate is computed independently)
 * (see cert_poly.h and proofs-notes/polynomial-certificate.md). */
#include "theory/certificates/cert_poly.h"
#include "theory/certificates/cert_poly_impl.h"

#include <stdint.h>
#include <stdlib.h>
#include <flint/fmpz.h>
#include "base/blas.h"
#include "numerics/lp_l1.h"

size_t poly_dim(int d, unsigned long L)
{
    if (d < 2)
        return 0;
    fmpz_t a, b;
    fmpz_init(a);
    fmpz_init(b);
    fmpz_bin_uiui(a, L + (ulong)d - 1, (ulong)d - 1);
    fmpz_bin_uiui(b, L + (ulong)d - 2, (ulong)d - 1);
    fmpz_add(a, a, b);
    size_t r = SIZE_MAX;
    if (fmpz_sgn(a) >= 0 && fmpz_bits(a) < 63)
        r = (size_t)fmpz_get_ui(a);
    fmpz_clear(a);
    fmpz_clear(b);
    return r;
}


/* ---------- candidate: weighted l1 fit ---------- */

/* The discretised problem of poly_fit: m = max(2048, 24 (L + 1)) nodes
 * theta_i = pi (i + 1/2) / m, s_i = cos theta_i; F (m x (L+1), column-major)
 * = T_j(s_i) = cos(j theta_i), f_i = g(s_i), w_i = sin^{d-2} theta_i pi / m
 * (floored at 1e-300), mass = sum w_i f_i.  fit_grid_clear frees it. */
typedef struct {
    size_t m, k;
    double *F, *f, *w;
    double mass;
} fit_grid_t;

static void fit_grid_clear(fit_grid_t *G)
{
    free(G->F);
    free(G->f);
    free(G->w);
}

static ar_status fit_grid_make(const char *who, int d, double beta, unsigned long L, fit_grid_t *G)
{
    if (d < 2 || d > 64 || !cp_beta_ok(beta) || L > CP_MAXL) {
        ar_error_set("%s: need 2 <= d <= 64, 0 <= beta <= 1e7, L <= %lu (got d=%d, beta=%g, L=%lu)",
                     who, CP_MAXL, d, beta, L);
        return AR_EINVAL;
    }
    size_t k = L + 1;
    size_t m = 24 * k;
    if (m < 2048)
        m = 2048;
    G->m = m;
    G->k = k;
    G->F = ar_calloc(m * k, sizeof(double), "poly_fit matrix");
    G->f = ar_calloc(m, sizeof(double), "poly_fit values");
    G->w = ar_calloc(m, sizeof(double), "poly_fit weights");
    if (!G->F || !G->f || !G->w) {
        fit_grid_clear(G);
        return AR_ENOMEM;
    }
    double mass = 0;
    for (size_t i = 0; i < m; i++) {
        double th = M_PI * ((double)i + 0.5) / (double)m;
        double s = cos(th);
        G->f[i] = exp(beta * (s - 1.0));
        double wi = pow(sin(th), d - 2) * (M_PI / (double)m);
        G->w[i] = wi > 1e-300 ? wi : 1e-300;
        mass += G->w[i] * G->f[i];
        for (size_t j = 0; j < k; j++)
            G->F[i + j * m] = cos((double)j * th);
    }
    G->mass = mass;
    return AR_OK;
}

ar_status poly_fit(int d, double beta, unsigned long L, double *coef, double *est)
{
    if (!coef) {
        ar_error_set("poly_fit: no output array");
        return AR_EINVAL;
    }
    fit_grid_t G;
    ar_status st = fit_grid_make("poly_fit", d, beta, L, &G);
    if (st != AR_OK)
        return st;
    double obj = 0;
    st = lp_l1_solve(G.m, G.k, G.F, G.f, G.w, coef, &obj);
    if (st == AR_OK && est)
        *est = G.mass > 0 ? obj / G.mass : INFINITY;
    fit_grid_clear(&G);
    return st;
}

ar_status poly_fit_estimate(int d, double beta, unsigned long L, double *est)
{
    if (!est) {
        ar_error_set("poly_fit_estimate: no output");
        return AR_EINVAL;
    }
    fit_grid_t G;
    ar_status st = fit_grid_make("poly_fit_estimate", d, beta, L, &G);
    if (st != AR_OK)
        return st;
    double *c = ar_calloc(G.k, sizeof(double), "poly_fit_estimate coefficients");
    double obj = 0;
    /* one BLAS thread: the same value on every machine and load, and no
     * spinning OpenBLAS threads on a shared machine */
    blas_single_begin();
    st = c ? lp_l1_irls(G.m, G.k, G.F, G.f, G.w, POLY_ESTIMATE_ITERS, c, &obj) : AR_ENOMEM;
    blas_single_end();
    if (st == AR_OK)
        *est = G.mass > 0 ? obj / G.mass : INFINITY;
    free(c);
    fit_grid_clear(&G);
    return st;
}
