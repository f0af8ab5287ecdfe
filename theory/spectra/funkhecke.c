/* SPDX-License-Identifier: GPL-3.0-or-later */
/* funkhecke.c -- Funk-Hecke eigenvalues of exp(beta x.y) on S^{d-1}, their
 * multiplicities, eigenvalue counts, and a double-precision spectral check of
 * K/n on a point set (see funkhecke.h; not a certificate). */
#include "theory/spectra/funkhecke.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <arb_hypgeom.h>
#include <lapacke.h>
#include "numerics/bessel.h"

#define FH_MAX_DEGREE 10000000UL   /* safety cap of the degree scan */
#define FH_MAX_PREC 4096

static int fh_beta_ok(double beta) { return isfinite(beta) && beta >= 0; }
static int fh_tau_ok(double tau) { return isfinite(tau) && tau > 0 && tau <= 1; }

ar_status fh_eigenvalue_scaled(arb_t lam, int d, ulong k, double beta, long prec)
{
    if (d < 2) {
        ar_error_set("fh_eigenvalue_scaled: dimension d=%d must be >= 2", d);
        return AR_EINVAL;
    }
    if (!fh_beta_ok(beta)) {
        ar_error_set("fh_eigenvalue_scaled: beta=%g must be finite and >= 0", beta);
        return AR_EINVAL;
    }
    if (prec < 2) {
        ar_error_set("fh_eigenvalue_scaled: precision %ld bits is too small", prec);
        return AR_EINVAL;
    }
    if (beta == 0) {                 /* the kernel is 1: only constants survive */
        if (k == 0)
            arb_one(lam);
        else
            arb_zero(lam);
        return AR_OK;
    }
    arb_t half, nu, b, fac, t;
    arb_init(half);
    arb_init(nu);
    arb_init(b);
    arb_init(fac);
    arb_init(t);
    arb_set_si(half, d - 2);
    arb_mul_2exp_si(half, half, -1);          /* (d-2)/2, exact */
    arb_set_ui(nu, k);
    arb_add(nu, nu, half, prec);              /* k + d/2 - 1 (exact for moderate k) */
    arb_set_d(b, beta);
    ar_status st = bessel_i_scaled(t, nu, b, prec);   /* e^{-beta} I_nu(beta) */
    if (st == AR_OK) {
        arb_set_si(fac, d);
        arb_mul_2exp_si(fac, fac, -1);
        arb_gamma(fac, fac, prec);            /* Gamma(d/2) */
        arb_mul(t, t, fac, prec);
        arb_ui_div(fac, 2, b, prec);          /* 2/beta */
        arb_pow(fac, fac, half, prec);        /* (2/beta)^{d/2-1} */
        arb_mul(lam, t, fac, prec);
        if (!arb_is_finite(lam)) {
            ar_error_set("fh_eigenvalue_scaled: no finite enclosure (d=%d, k=%lu, beta=%g, prec=%ld)",
                         d, (unsigned long)k, beta, prec);
            st = AR_ENUMERIC;
        }
    }
    arb_clear(half);
    arb_clear(nu);
    arb_clear(b);
    arb_clear(fac);
    arb_clear(t);
    return st;
}

ar_status fh_eigenvalues_scaled_all(arb_ptr lam, int d, ulong kmax, const arb_t z, long prec)
{
    if (d < 2 || prec < 16 || kmax > FH_MAX_DEGREE || !arb_is_finite(z)) {
        ar_error_set("fh_eigenvalues_scaled_all: need d >= 2, finite z, kmax <= %lu (d=%d, kmax=%lu)",
                     FH_MAX_DEGREE, d, (unsigned long)kmax);
        return AR_EINVAL;
    }
    if (arb_is_zero(z)) {
        arb_one(lam);
        for (ulong k = 1; k <= kmax; k++)
            arb_zero(lam + k);
        return AR_OK;
    }
    if (!arb_is_positive(z)) {
        ar_error_set("fh_eigenvalues_scaled_all: z must be certainly positive or exactly zero");
        return AR_EINVAL;
    }
    arb_t half, nu, top, fac, t;
    arb_init(half);
    arb_init(nu);
    arb_init(top);
    arb_init(fac);
    arb_init(t);
    arb_set_si(half, d - 2);
    arb_mul_2exp_si(half, half, -1);                 /* (d-2)/2 */
    /* I at orders kmax + 1 + half (top) and kmax + half (lam[kmax]) */
    arb_set_ui(nu, kmax + 1);
    arb_add(nu, nu, half, prec);
    ar_status st = bessel_i_scaled(top, nu, z, prec + 64);   /* extra bits: Arb's asymptotic forms lose some */
    if (st == AR_OK) {
        arb_set_ui(nu, kmax);
        arb_add(nu, nu, half, prec);
        st = bessel_i_scaled(lam + kmax, nu, z, prec + 64);
    }
    if (st == AR_OK) {
        /* backward: I_{nu-1} = I_{nu+1} + (2 nu / z) I_nu, nu = k + half */
        for (ulong k = kmax; k >= 1; k--) {
            arb_set_ui(nu, k);
            arb_add(nu, nu, half, prec);
            arb_mul_2exp_si(nu, nu, 1);
            arb_div(t, nu, z, prec);
            arb_mul(t, t, lam + k, prec);
            arb_add(lam + k - 1, t, k == kmax ? top : lam + k + 1, prec);
        }
        arb_set_si(fac, d);
        arb_mul_2exp_si(fac, fac, -1);
        arb_gamma(fac, fac, prec);                   /* Gamma(d/2) */
        arb_ui_div(t, 2, z, prec);
        arb_pow(t, t, half, prec);                   /* (2/z)^{d/2-1} */
        arb_mul(fac, fac, t, prec);
        for (ulong k = 0; k <= kmax; k++) {
            arb_mul(lam + k, lam + k, fac, prec);
            if (!arb_is_finite(lam + k)) {
                ar_error_set("fh_eigenvalues_scaled_all: no finite enclosure (d=%d, k=%lu)", d, (unsigned long)k);
                st = AR_ENUMERIC;
                break;
            }
        }
    }
    arb_clear(half);
    arb_clear(nu);
    arb_clear(top);
    arb_clear(fac);
    arb_clear(t);
    return st;
}

void fh_multiplicity(fmpz_t N, int d, ulong k)
{
    if (d < 2) {
        fmpz_zero(N);
        return;
    }
    if (k == 0) {
        fmpz_one(N);
        return;
    }
    /* (2k+d-2)/k * C(k+d-3, k-1); the product is divisible by k. */
    fmpz_bin_uiui(N, k + (ulong)d - 3, k - 1);
    fmpz_mul_ui(N, N, 2 * k + (ulong)d - 2);
    fmpz_divexact_ui(N, N, k);
}

/* Scan k = 0, 1, ... while lambda_k >= tau lambda_0 (decided in Arb, raising
 * the precision when a comparison is undecided).  Outputs the largest such
 * k, the count with multiplicity, and optionally (if lam != NULL) a malloc'd
 * array of the kmax+1 scaled eigenvalues as doubles (nearest to the ball
 * midpoints).  The scan stops as soon as the count exceeds cap: then
 * *over = 1, AR_OK, and count/kmax are partial (a lower bound on the count).
 * The count only grows with k, so a caller that needs count <= cap can
 * refuse at once instead of scanning to the end (huge beta: millions of
 * degrees). */
static ar_status fh_scan(int d, double beta, double tau, const fmpz_t cap, int *over, ulong *kmax, fmpz_t count,
                         double **lam)
{
    *over = 0;
    if (d < 2) {
        ar_error_set("funk-hecke: dimension d=%d must be >= 2", d);
        return AR_EINVAL;
    }
    if (!fh_beta_ok(beta)) {
        ar_error_set("funk-hecke: beta=%g must be finite and >= 0", beta);
        return AR_EINVAL;
    }
    if (!fh_tau_ok(tau)) {
        ar_error_set("funk-hecke: tau=%g must satisfy 0 < tau <= 1", tau);
        return AR_EINVAL;
    }
    arb_t l0, lk, thr;
    fmpz_t N;
    arb_init(l0);
    arb_init(lk);
    arb_init(thr);
    fmpz_init(N);
    double *vals = NULL;
    size_t vcap = 0;
    ar_status st = AR_OK;
    int decided = 0;
    ulong k = 0;
    for (long prec = 128; prec <= FH_MAX_PREC && !decided; prec *= 2) {
        st = fh_eigenvalue_scaled(l0, d, 0, beta, prec);
        if (st != AR_OK)
            break;
        arb_set_d(thr, tau);
        arb_mul(thr, thr, l0, prec);
        fmpz_one(count);                     /* k = 0 always counts (tau <= 1) */
        *kmax = 0;
        int undecided = 0;
        for (k = 0;; k++) {
            if (k > FH_MAX_DEGREE) {
                ar_error_set("funk-hecke: degree scan exceeded %lu (d=%d, beta=%g, tau=%g)",
                             FH_MAX_DEGREE, d, beta, tau);
                st = AR_ENUMERIC;
                break;
            }
            if (k == 0) {
                arb_set(lk, l0);
            } else {
                st = fh_eigenvalue_scaled(lk, d, k, beta, prec);
                if (st != AR_OK)
                    break;
                if (arb_lt(lk, thr))
                    break;                   /* lambda_k decreases: done */
                if (!arb_ge(lk, thr)) {
                    undecided = 1;
                    break;
                }
                fh_multiplicity(N, d, k);
                fmpz_add(count, count, N);
                *kmax = k;
                if (fmpz_cmp(count, cap) > 0) {
                    *over = 1;
                    break;
                }
            }
            if (lam) {
                if (k >= vcap) {
                    size_t nc = vcap ? 2 * vcap : 64;
                    double *nv = realloc(vals, nc * sizeof *vals);
                    if (!nv) {
                        ar_error_set("funk-hecke: out of memory for %zu eigenvalues", nc);
                        st = AR_ENOMEM;
                        break;
                    }
                    vals = nv;
                    vcap = nc;
                }
                vals[k] = arf_get_d(arb_midref(lk), ARF_RND_NEAR);
            }
        }
        if (st != AR_OK)
            break;
        if (!undecided || *over)
            decided = 1;
    }
    if (st == AR_OK && !decided) {
        ar_error_set("funk-hecke: cannot decide lambda_%lu >= tau lambda_0 at %d bits (d=%d, beta=%g, tau=%g)",
                     (unsigned long)k, FH_MAX_PREC, d, beta, tau);
        st = AR_ENUMERIC;
    }
    if (st == AR_OK && lam)
        *lam = vals;
    else
        free(vals);
    arb_clear(l0);
    arb_clear(lk);
    arb_clear(thr);
    fmpz_clear(N);
    return st;
}

static ar_status fh_count_to_size(const fmpz_t c, size_t *out)
{
    if (fmpz_sgn(c) < 0 || !fmpz_abs_fits_ui(c) || fmpz_get_ui(c) > (ulong)SIZE_MAX) {
        ar_error_set("funk-hecke: eigenvalue count does not fit in size_t");
        return AR_EINVAL;
    }
    *out = (size_t)fmpz_get_ui(c);
    return AR_OK;
}

ar_status fh_count(int d, double beta, double tau, size_t *count)
{
    fmpz_t c, cap;
    ulong kmax;
    int over;
    fmpz_init(c);
    fmpz_init(cap);
    fmpz_set_ui(cap, (ulong)SIZE_MAX);
    ar_status st = fh_scan(d, beta, tau, cap, &over, &kmax, c, NULL);
    if (st == AR_OK)
        st = fh_count_to_size(c, count);   /* over: c > SIZE_MAX, refused here */
    fmpz_clear(c);
    fmpz_clear(cap);
    return st;
}

static int cmp_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

/* fh_check's input: a non-empty point set P in dimension 2..1e6, unweighted, every point on the unit
 * sphere (within 1e-12), finite beta >= 0 and 0 < tau <= 1 (checked in that order). */
static ar_status fh_check_input(const pointset_t *P, double beta, double tau, const fh_report_t *out)
{
    if (!P || !P->x || P->n == 0 || !out) {
        ar_error_set("fh_check: empty point set or NULL argument");
        return AR_EINVAL;
    }
    if (P->d < 2 || P->d > 1000000) {
        ar_error_set("fh_check: dimension d=%zu must be in [2, 1e6]", P->d);
        return AR_EINVAL;
    }
    if (!fh_beta_ok(beta) || !fh_tau_ok(tau)) {
        ar_error_set("fh_check: need finite beta >= 0 and 0 < tau <= 1 (beta=%g, tau=%g)", beta, tau);
        return AR_EINVAL;
    }
    const size_t n = P->n, d = P->d;
    if (P->w) {
        for (size_t i = 0; i < n; i++)
            if (!fmpz_is_one(P->w + i)) {
                ar_error_set("fh_check: point %zu has multiplicity != 1 (weighted sets are not supported)", i);
                return AR_EINVAL;
            }
    }
    for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (size_t c = 0; c < d; c++)
            s += P->x[i * d + c] * P->x[i * d + c];
        double nr = sqrt(s);
        if (!(fabs(nr - 1.0) <= 1e-12)) {
            ar_error_set("fh_check: point %zu is not on the unit sphere (|x| = %.17g, tolerance 1e-12)", i, nr);
            return AR_EINVAL;
        }
    }
    return AR_OK;
}

/* Sets the error for n points too few for the count of predicted eigenvalues >= tau lambda_0 (more
 * than n/3): it names the least valid n when a bounded second scan finds the whole count. */
static void fh_too_small_error(size_t n, size_t d, double beta, double tau)
{
    /* the whole count, to name the least valid n (issue 33: the message named neither) */
    fmpz_t big, full;
    fmpz_init(big);
    fmpz_init(full);
    fmpz_set_ui(big, n / 3 > 100000 / 64 ? (ulong)(n / 3) * 64 : 100000);   /* bounded: a huge beta stays quick */
    int over2 = 0;
    ulong km2 = 0;
    double *lam2 = NULL;
    size_t need = 0;
    if (fh_scan((int)d, beta, tau, big, &over2, &km2, full, &lam2) == AR_OK && !over2 &&
        fh_count_to_size(full, &need) == AR_OK && need <= SIZE_MAX / 3)
        ar_error_set("n = %zu is too small: the check compares the %zu predicted eigenvalues >= tau lambda_0 "
                     "(d = %zu, beta = %g, tau = %g) and needs n >= 3 x %zu = %zu; raise n to at least %zu, or "
                     "lower beta or raise tau", n, need, d, beta, tau, need, 3 * need, 3 * need);
    else
        ar_error_set("n = %zu is too small: more than %zu predicted eigenvalues >= tau lambda_0 (d = %zu, beta = "
                     "%g, tau = %g), and n must be at least 3 times their number; lower beta or raise tau", n,
                     n / 3, d, beta, tau);
    free(lam2);
    fmpz_clear(big);
    fmpz_clear(full);
}

/* The eigenvalues w[0 .. n) (ascending, as LAPACK returns them) of the kernel matrix
 * K_ij = exp(beta (x_i.x_j - 1)) / n of the points P (K: n x n workspace). */
static ar_status fh_kernel_eigs(const pointset_t *P, double beta, double *K, double *w)
{
    const size_t n = P->n, d = P->d;
    /* K/n: lower triangle then mirrored (column-major, symmetric). */
    const double inv_n = 1.0 / (double)n;
    for (size_t j = 0; j < n; j++) {
        const double *xj = P->x + j * d;
        for (size_t i = j; i < n; i++) {
            const double *xi = P->x + i * d;
            double dot = 0;
            for (size_t c = 0; c < d; c++)
                dot += xi[c] * xj[c];
            double v = exp(beta * (dot - 1.0)) * inv_n;
            K[i + j * n] = v;
            K[j + i * n] = v;
        }
    }
    lapack_int info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', (lapack_int)n, K, (lapack_int)n, w);
    if (info != 0) {
        ar_error_set("fh_check: LAPACKE_dsyevd failed (info=%d, n=%zu)", (int)info, n);
        return AR_ENUMERIC;
    }
    return AR_OK;
}

/* The report out: the numerical eigenvalues w (n of them, sorted here in descending order) against
 * the count_pred predicted ones pred (lam: the distinct predicted values, degrees 0 .. kmax). */
static void fh_report_fill(fh_report_t *out, size_t n, size_t d, double beta, double tau, double *w,
                           const double *pred, size_t count_pred, ulong kmax, const double *lam)
{
    qsort(w, n, sizeof *w, cmp_desc);
    out->n = n;
    out->d = d;
    out->beta = beta;
    out->tau = tau;
    out->count_pred = count_pred;
    out->max_degree = (unsigned long)kmax;
    out->lambda0_pred = lam[0];
    out->lambda0_num = w[0];
    size_t cn = 0;
    while (cn < n && w[cn] >= tau * w[0])
        cn++;
    out->count_num = cn;
    out->max_relerr = 0;
    out->worst_index = 0;
    for (size_t i = 0; i < count_pred; i++) {
        double e = fabs(w[i] - pred[i]) / pred[i];
        if (e > out->max_relerr || isnan(e)) {
            out->max_relerr = e;
            out->worst_index = i;
        }
    }
}

ar_status fh_check(const pointset_t *P, double beta, double tau, fh_report_t *out)
{
    ar_status st = fh_check_input(P, beta, tau, out);
    if (st)
        return st;
    const size_t n = P->n, d = P->d;
    fmpz_t cnt, N, cap;
    ulong kmax = 0;
    double *lam = NULL, *pred = NULL, *K = NULL, *w = NULL;
    int over = 0;
    fmpz_init(cnt);
    fmpz_init(N);
    fmpz_init(cap);
    fmpz_set_ui(cap, (ulong)(n / 3));      /* n >= 3 count  <=>  count <= floor(n/3) */
    size_t count_pred = 0;
    st = fh_scan((int)d, beta, tau, cap, &over, &kmax, cnt, &lam);
    if (st == AR_OK && over) {
        fh_too_small_error(n, d, beta, tau);
        st = AR_EINVAL;
    }
    if (st == AR_OK)
        st = fh_count_to_size(cnt, &count_pred);
    if (st == AR_OK && (count_pred > n / 3 || 3 * count_pred > n)) {
        ar_error_set("n = %zu is too small: the check compares the %zu predicted eigenvalues >= tau lambda_0 "
                     "(d = %zu, beta = %g, tau = %g) and needs n >= 3 x %zu = %zu; raise n to at least %zu, or "
                     "lower beta or raise tau", n, count_pred, d, beta, tau, count_pred, 3 * count_pred,
                     3 * count_pred);
        st = AR_EINVAL;
    }
    if (st == AR_OK) {
        pred = ar_calloc(count_pred, sizeof *pred, "fh_check predicted eigenvalues");
        w = ar_calloc(n, sizeof *w, "fh_check eigenvalues");
        K = (n <= SIZE_MAX / n) ? ar_calloc(n * n, sizeof *K, "fh_check kernel matrix") : NULL;
        if (!pred || !w || !K) {
            if (n > SIZE_MAX / n)
                ar_error_set("fh_check: n=%zu too large", n);
            st = AR_ENOMEM;
        }
    }
    if (st == AR_OK) {
        size_t pos = 0;
        for (ulong k = 0; k <= kmax; k++) {
            fh_multiplicity(N, (int)d, k);
            ulong m = fmpz_get_ui(N);        /* <= count_pred, fits */
            for (ulong r = 0; r < m && pos < count_pred; r++)
                pred[pos++] = lam[k];
        }
        st = fh_kernel_eigs(P, beta, K, w);
    }
    if (st == AR_OK)
        fh_report_fill(out, n, d, beta, tau, w, pred, count_pred, kmax, lam);
    free(lam);
    free(pred);
    free(w);
    free(K);
    fmpz_clear(cnt);
    fmpz_clear(N);
    fmpz_clear(cap);
    return st;
}
