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

ar_status poly_fit(int d, double beta, unsigned long L, double *coef, double *est)
{
    if (d < 2 || d > 64 || !cp_beta_ok(beta) || L > CP_MAXL || !coef) {
        ar_error_set("poly_fit: need 2 <= d <= 64, 0 <= beta <= 1e7, L <= %lu (got d=%d, beta=%g, L=%lu)",
                     CP_MAXL, d, beta, L);
        return AR_EINVAL;
    }
    size_t k = L + 1;
    size_t m = 24 * k;
    if (m < 2048)
        m = 2048;
    double *F = ar_calloc(m * k, sizeof(double), "poly_fit matrix");
    double *f = ar_calloc(m, sizeof(double), "poly_fit values");
    double *w = ar_calloc(m, sizeof(double), "poly_fit weights");
    if (!F || !f || !w) {
        free(F);
        free(f);
        free(w);
        return AR_ENOMEM;
    }
    double mass = 0;
    for (size_t i = 0; i < m; i++) {
        double th = M_PI * ((double)i + 0.5) / (double)m;
        double s = cos(th);
        f[i] = exp(beta * (s - 1.0));
        double wi = pow(sin(th), d - 2) * (M_PI / (double)m);
        w[i] = wi > 1e-300 ? wi : 1e-300;
        mass += w[i] * f[i];
        for (size_t j = 0; j < k; j++)
            F[i + j * m] = cos((double)j * th);
    }
    double obj = 0;
    ar_status st = lp_l1_solve(m, k, F, f, w, coef, &obj);
    if (st == AR_OK && est)
        *est = mass > 0 ? obj / mass : INFINITY;
    free(F);
    free(f);
    free(w);
    return st;
}
