/* SPDX-License-Identifier: GPL-3.0-or-later */
/* visible_dim.c -- the numerical visible dimension r of one head: the row-centred
 * logits, their SVD and the rank tolerance tied to the inputs' precision
 * (THEORY 3.1, 3.3; proofs-notes/claim-T.md). */
#include "theory/heads/visible.h"
#include "theory/heads/visible_impl.h"

#include <math.h>
#include <stdlib.h>

#include <stdint.h>
#include <string.h>
#include <flint/fmpz_mat.h>
#include "base/clock.h"
#include "numerics/linalg.h"

void visible_opts_default(visible_opts_t *o)
{
    o->tol_safety = 8.0;
    o->exact_max = (size_t)1 << 24;
}

ar_status visible_check_finite(const double *x, size_t cnt, const char *what)
{
    for (size_t t = 0; t < cnt; t++)
        if (!isfinite(x[t])) {
            ar_error_set("%s: entry %zu is not finite", what, t);
            return AR_EINVAL;
        }
    return AR_OK;
}

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
    if ((st = visible_check_finite(Q, m * dh, "queries")) || (st = visible_check_finite(K, n * dh, "keys")))
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
        v->r_exact = visible_exact_rank_product(Q, m, K, n, dh, 1);
    free(Qc); free(Dc); free(C); free(U); free(s); free(VT);
    v->seconds = clock_now() - t0;
    return AR_OK;
fail:
    free(Qc); free(Dc); free(C); free(U); free(s); free(VT);
    visible_clear(v);
    return st;
}
