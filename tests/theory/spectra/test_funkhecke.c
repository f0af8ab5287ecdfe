/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_funkhecke.c -- Funk-Hecke spectrum of exp(beta x.y) on S^{d-1}
 * (theory/spectra/funkhecke.h, numerics/bessel.h; proofs-notes/funk-hecke.md).
 *
 * Truths used: closed forms of the harmonic dimensions, elementary closed
 * forms of lambda_0, lambda_1 on S^2, the trapezoid rule for the integral
 * representation of I_k (d = 2), the trace identity sum_k N(d,k) lambda_k =
 * e^beta (K(x,x) = e^beta), and Arb's unscaled Bessel function. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arb.h>
#include <arb_hypgeom.h>
#include <flint/fmpz.h>
#include "testutil.h"
#include "numerics/bessel.h"
#include "constructions/pointsets/sphere.h"
#include "theory/spectra/funkhecke.h"

/* ---- small helpers -------------------------------------------------- */

/* Point sets from constructions/pointsets/sphere.h (correctly rounded coordinates). */
static void pts_polygon(pointset_t *P, size_t n)
{
    ar_status st = sphere_polygon(P, n);
    ck_assert_msg(st == AR_OK, "sphere_polygon(%zu): %s", n, ar_error_get());
}

static void pts_fibonacci(pointset_t *P, size_t n)
{
    ar_status st = sphere_fibonacci(P, n);
    ck_assert_msg(st == AR_OK, "sphere_fibonacci(%zu): %s", n, ar_error_get());
}

/* 1 if a overlaps b widened by tol * |b| (|a - b| <= tol |b| up to the radii). */
static int arb_close_rel(const arb_t a, const arb_t b, double tol)
{
    arb_t t;
    mag_t m, e;
    arb_init(t);
    mag_init(m);
    mag_init(e);
    arb_get_mag(m, b);
    mag_set_d(e, tol);
    mag_mul(e, e, m);
    arb_set(t, b);
    arb_add_error_mag(t, e);
    int ok = arb_overlaps(a, t);
    arb_clear(t);
    mag_clear(m);
    mag_clear(e);
    return ok;
}

/* 1 if |v - t| <= rel |t| is certain up to 1e-30 relative slack (t an accurate ball). */
static int within_rel(double v, const arb_t t, double rel)
{
    arb_t e;
    arf_t hi;
    arb_init(e);
    arf_init(hi);
    arb_set_d(e, v);
    arb_sub(e, e, t, 256);
    arb_div(e, e, t, 256);
    arb_get_abs_ubound_arf(hi, e, 64);
    int ok = arf_cmp_d(hi, rel + 1e-30) <= 0;
    arb_clear(e);
    arf_clear(hi);
    return ok;
}

/* ---- multiplicities ------------------------------------------------- */

START_TEST(test_multiplicity_closed_forms)
{
    fmpz_t N, want;
    fmpz_init(N);
    fmpz_init(want);
    for (ulong k = 0; k <= 400; k++) {
        for (int d = 2; d <= 5; d++) {
            fh_multiplicity(N, d, k);
            if (k == 0)
                fmpz_one(want);
            else if (d == 2)
                fmpz_set_ui(want, 2);
            else if (d == 3)
                fmpz_set_ui(want, 2 * k + 1);
            else if (d == 4)
                fmpz_set_ui(want, (k + 1) * (k + 1));
            else                                    /* dim of degree-k harmonics in 5 variables */
                fmpz_set_ui(want, (k + 1) * (k + 2) * (2 * k + 3) / 6);
            ck_assert_msg(fmpz_equal(N, want), "N(%d,%lu) = %s, expected %s", d, (unsigned long)k,
                          fmpz_get_str(NULL, 10, N), fmpz_get_str(NULL, 10, want));
        }
    }
    fh_multiplicity(N, 1, 3);
    ck_assert_msg(fmpz_is_zero(N), "N(1,3) should be 0 (d < 2 is not supported)");
    fmpz_clear(N);
    fmpz_clear(want);
}
END_TEST

START_TEST(test_multiplicity_cumulative)
{
    /* sum_{k<=L} N(d,k) = C(L+d-1,d-1) + C(L+d-2,d-1): harmonic polynomials of
     * degree <= L are the restrictions of all polynomials of degree <= L. */
    fmpz_t N, sum, want, t;
    fmpz_init(N);
    fmpz_init(sum);
    fmpz_init(want);
    fmpz_init(t);
    for (int d = 2; d <= 24; d++) {
        fmpz_zero(sum);
        for (ulong L = 0; L <= 80; L++) {
            fh_multiplicity(N, d, L);
            fmpz_add(sum, sum, N);
            fmpz_bin_uiui(want, L + (ulong)d - 1, (ulong)d - 1);
            fmpz_bin_uiui(t, L + (ulong)d - 2, (ulong)d - 1);   /* 0 when L = 0 */
            fmpz_add(want, want, t);
            ck_assert_msg(fmpz_equal(sum, want), "d=%d L=%lu: sum N = %s, expected %s", d,
                          (unsigned long)L, fmpz_get_str(NULL, 10, sum), fmpz_get_str(NULL, 10, want));
        }
    }
    fmpz_clear(N);
    fmpz_clear(sum);
    fmpz_clear(want);
    fmpz_clear(t);
}
END_TEST

/* ---- Bessel --------------------------------------------------------- */

START_TEST(test_bessel_scaled_double)
{
    test_rng_init(test_seed() * 7919u + 1);
    arb_t nu, x, tr, ex;
    arb_init(nu);
    arb_init(x);
    arb_init(tr);
    arb_init(ex);
    for (int it = 0; it < 300; it++) {
        double dn = (it % 3 == 0) ? floor(60 * test_unif()) : 80 * test_unif();
        double dx = (it % 2 == 0) ? 1e-3 + 5 * test_unif() : exp(log(1e-2) + test_unif() * log(1e5));
        double rel;
        double v = bessel_i_scaled_d(dn, dx, &rel);
        /* truth: unscaled I_nu(x) times e^{-x} at 600 bits */
        arb_set_d(nu, dn);
        arb_set_d(x, dx);
        arb_hypgeom_bessel_i(tr, nu, x, 600);
        arb_neg(ex, x);
        arb_exp(ex, ex, 600);
        arb_mul(tr, tr, ex, 600);
        double t = arf_get_d(arb_midref(tr), ARF_RND_NEAR);
        ck_assert_msg(arb_rel_accuracy_bits(tr) > 200, "truth not accurate (nu=%.17g x=%.17g)", dn, dx);
        if (t < 1e-300)   /* beyond double range: skip the relative check */
            continue;
        ck_assert_msg(rel <= 0x1p-52, "seed=%llu nu=%.17g x=%.17g: bound %g > 2^-52",
                      (unsigned long long)test_seed(), dn, dx, rel);
        ck_assert_msg(within_rel(v, tr, rel), "seed=%llu nu=%.17g x=%.17g: |%.17g - %.17g| exceeds bound %g",
                      (unsigned long long)test_seed(), dn, dx, v, t, rel);
    }
    /* closed form: e^{-x} I_{1/2}(x) = sqrt(2/(pi x)) e^{-x} sinh x */
    for (double dx = 0.125; dx < 2000; dx *= 3) {
        double rel, v = bessel_i_scaled_d(0.5, dx, &rel);
        arb_set_d(x, dx);
        arb_sinh(tr, x, 256);
        arb_neg(ex, x);
        arb_exp(ex, ex, 256);
        arb_mul(tr, tr, ex, 256);
        arb_const_pi(ex, 256);
        arb_mul(ex, ex, x, 256);
        arb_ui_div(ex, 2, ex, 256);
        arb_sqrt(ex, ex, 256);
        arb_mul(tr, tr, ex, 256);
        ck_assert_msg(rel <= 0x1p-52 && within_rel(v, tr, rel), "I_1/2 closed form, x=%g: %.17g vs %.17g (bound %g)",
                      dx, v, arf_get_d(arb_midref(tr), ARF_RND_NEAR), rel);
    }
    /* bad input */
    double rel;
    ck_assert(isnan(bessel_i_scaled_d(1.0, 0.0, &rel)) && isinf(rel));
    ck_assert(isnan(bessel_i_scaled_d(NAN, 1.0, &rel)));
    arb_set_d(nu, 1.0);
    arb_set_d(x, -1.0);
    ck_assert_int_eq(bessel_i_scaled(tr, nu, x, 128), AR_EINVAL);
    arb_zero(x);
    ck_assert_int_eq(bessel_i_scaled(tr, nu, x, 128), AR_EINVAL);
    arb_clear(nu);
    arb_clear(x);
    arb_clear(tr);
    arb_clear(ex);
}
END_TEST

/* ---- eigenvalues ---------------------------------------------------- */

START_TEST(test_eigen_d3_closed_form)
{
    /* S^2: lambda_0 = sinh(b)/b, lambda_1 = cosh(b)/b - sinh(b)/b^2 (scaled by e^{-b}). */
    test_rng_init(test_seed() * 104729u + 3);
    const long prec = 256;
    arb_t lam, b, s, c, e, t0, t1;
    arb_init(lam); arb_init(b); arb_init(s); arb_init(c); arb_init(e); arb_init(t0); arb_init(t1);
    double fixed[] = { 1e-3, 0.5, 1.0, 10.0, 100.0, 700.0, 5000.0 };
    for (int it = 0; it < 47; it++) {
        double beta = it < 7 ? fixed[it] : exp(log(1e-2) + test_unif() * log(1e5));
        arb_set_d(b, beta);
        arb_sinh_cosh(s, c, b, prec);
        arb_neg(e, b);
        arb_exp(e, e, prec);
        arb_div(t0, s, b, prec);
        arb_mul(t0, t0, e, prec);                 /* e^-b sinh b / b */
        arb_div(t1, c, b, prec);
        arb_div(s, t0, b, prec);                  /* e^-b sinh b / b^2 */
        arb_mul(t1, t1, e, prec);
        arb_sub(t1, t1, s, prec);
        ck_assert_int_eq(fh_eigenvalue_scaled(lam, 3, 0, beta, prec), AR_OK);
        ck_assert_msg(arb_close_rel(lam, t0, 1e-60) && arb_rel_accuracy_bits(lam) > 150,
                      "d=3 k=0 beta=%.17g seed=%llu: %s vs %s", beta, (unsigned long long)test_seed(),
                      arb_get_str(lam, 20, 0), arb_get_str(t0, 20, 0));
        ck_assert_int_eq(fh_eigenvalue_scaled(lam, 3, 1, beta, prec), AR_OK);
        ck_assert_msg(arb_close_rel(lam, t1, 1e-60) && arb_rel_accuracy_bits(lam) > 150,
                      "d=3 k=1 beta=%.17g seed=%llu: %s vs %s", beta, (unsigned long long)test_seed(),
                      arb_get_str(lam, 20, 0), arb_get_str(t1, 20, 0));
    }
    arb_clear(lam); arb_clear(b); arb_clear(s); arb_clear(c); arb_clear(e); arb_clear(t0); arb_clear(t1);
}
END_TEST

START_TEST(test_eigen_d2_trapezoid)
{
    /* d=2: lambda_k = I_k(b) = (1/2pi) int_0^{2pi} e^{b cos t} cos(kt) dt.  The M-point
     * trapezoid rule equals sum_m I_{|k+mM|}(b): with M >= 4(k+b)+120 the aliasing is
     * far below the 1e-25 relative tolerance. */
    const long prec = 192;
    arb_t lam, acc, term, b, arg, cs, one;
    arb_init(lam); arb_init(acc); arb_init(term); arb_init(b); arb_init(arg); arb_init(cs); arb_init(one);
    double betas[] = { 0.5, 3.0, 20.0, 75.0 };
    ulong ks[] = { 0, 1, 2, 5, 17, 40 };
    for (size_t ib = 0; ib < 4; ib++) {
        for (size_t ik = 0; ik < 6; ik++) {
            double beta = betas[ib];
            ulong k = ks[ik];
            ulong M = 4 * (k + (ulong)ceil(beta)) + 120;
            arb_set_d(b, beta);
            arb_zero(acc);
            for (ulong j = 0; j < M; j++) {
                arb_set_ui(arg, 2 * j);
                arb_div_ui(arg, arg, M, prec);          /* 2j/M */
                arb_cos_pi(cs, arg, prec);
                arb_sub_ui(cs, cs, 1, prec);
                arb_mul(cs, cs, b, prec);
                arb_exp(term, cs, prec);                 /* e^{b (cos t_j - 1)} */
                arb_set_ui(arg, (2 * k * j) % (2 * M));
                arb_div_ui(arg, arg, M, prec);
                arb_cos_pi(cs, arg, prec);
                arb_addmul(acc, term, cs, prec);
            }
            arb_div_ui(acc, acc, M, prec);
            ck_assert_int_eq(fh_eigenvalue_scaled(lam, 2, k, beta, prec), AR_OK);
            ck_assert_msg(arb_close_rel(lam, acc, 1e-25), "d=2 k=%lu beta=%g: %s vs trapezoid %s",
                          (unsigned long)k, beta, arb_get_str(lam, 25, 0), arb_get_str(acc, 25, 0));
        }
    }
    arb_clear(lam); arb_clear(acc); arb_clear(term); arb_clear(b); arb_clear(arg); arb_clear(cs); arb_clear(one);
}
END_TEST

START_TEST(test_trace_identity)
{
    /* sum_k N(d,k) lambda_k = K(x,x) = e^beta, i.e. sum_k N(d,k) e^{-b} lambda_k = 1. */
    const long prec = 128;
    arb_t lam, sum, t;
    fmpz_t N;
    arb_init(lam); arb_init(sum); arb_init(t);
    fmpz_init(N);
    double betas[] = { 0.1, 1.0, 5.0, 20.0, 100.0, 400.0 };
    for (int d = 2; d <= 4; d++) {
        for (size_t ib = 0; ib < 6; ib++) {
            double beta = betas[ib];
            arb_zero(sum);
            ulong k;
            for (k = 0; k < 100000; k++) {
                ck_assert_int_eq(fh_eigenvalue_scaled(lam, d, k, beta, prec), AR_OK);
                fh_multiplicity(N, d, k);
                arb_mul_fmpz(t, lam, N, prec);
                arb_add(sum, sum, t, prec);
                if ((double)k > beta + 10 && arf_cmpabs_2exp_si(arb_midref(t), -80) < 0)
                    break;
            }
            double s = arf_get_d(arb_midref(sum), ARF_RND_NEAR);
            ck_assert_msg(fabs(s - 1.0) < 1e-10, "d=%d beta=%g: sum_k N(d,k) e^-b lambda_k = %.17g (k<=%lu)", d,
                          beta, s, (unsigned long)k);
        }
    }
    arb_clear(lam); arb_clear(sum); arb_clear(t);
    fmpz_clear(N);
}
END_TEST

/* fh_eigenvalues_scaled_all (backward recurrence) overlaps the direct
 * evaluation at every order, has tight balls, sums to 1 with multiplicities
 * (the kernel at t = 1), and handles z = 0 and bad input. */
START_TEST(test_eigen_all_recurrence)
{
    const int ds[4] = { 2, 3, 4, 5 };
    const double zs[4] = { 0.37, 7.0, 123.456, 2000.0 };
    ulong kmax = 60;
    arb_ptr lam = _arb_vec_init((slong)kmax + 1);
    arb_t z, one, sum, Nb;
    arb_init(z); arb_init(one); arb_init(sum); arb_init(Nb);
    fmpz_t N;
    fmpz_init(N);
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) {
            arb_set_d(z, zs[b]);
            ck_assert_int_eq(fh_eigenvalues_scaled_all(lam, ds[a], kmax, z, 128), AR_OK);
            for (ulong k = 0; k <= kmax; k += 7) {
                ck_assert_int_eq(fh_eigenvalue_scaled(one, ds[a], k, zs[b], 128), AR_OK);
                ck_assert_msg(arb_overlaps(one, lam + k), "d=%d z=%g k=%lu: recurrence and direct disagree", ds[a],
                              zs[b], (unsigned long)k);
                ck_assert_msg(arb_rel_accuracy_bits(lam + k) > 100 || arb_is_zero(lam + k),
                              "d=%d z=%g k=%lu: only %ld bits", ds[a], zs[b], (unsigned long)k,
                              (long)arb_rel_accuracy_bits(lam + k));
            }
        }
    /* sum_k N(d,k) e^{-z} lambda_k(z) = 1 (e^{z t} at t = 1), z small enough for kmax */
    arb_set_d(z, 30.0);
    ck_assert_int_eq(fh_eigenvalues_scaled_all(lam, 3, kmax, z, 128), AR_OK);
    arb_zero(sum);
    for (ulong k = 0; k <= kmax; k++) {
        fh_multiplicity(N, 3, k);
        arb_set_fmpz(Nb, N);
        arb_addmul(sum, Nb, lam + k, 128);
    }
    arb_one(one);
    arb_sub(sum, sum, one, 128);
    ck_assert(arf_cmpabs_2exp_si(arb_midref(sum), -60) < 0);
    arb_zero(z);
    ck_assert_int_eq(fh_eigenvalues_scaled_all(lam, 4, kmax, z, 128), AR_OK);
    ck_assert(arb_is_one(lam) && arb_is_zero(lam + 1) && arb_is_zero(lam + kmax));
    arb_set_si(z, -1);
    ck_assert_int_eq(fh_eigenvalues_scaled_all(lam, 3, kmax, z, 128), AR_EINVAL);
    arb_set_d(z, 1.0);
    ck_assert_int_eq(fh_eigenvalues_scaled_all(lam, 1, kmax, z, 128), AR_EINVAL);
    fmpz_clear(N);
    arb_clear(z); arb_clear(one); arb_clear(sum); arb_clear(Nb);
    _arb_vec_clear(lam, (slong)kmax + 1);
}
END_TEST

START_TEST(test_beta_zero_and_args)
{
    arb_t lam;
    arb_init(lam);
    ck_assert_int_eq(fh_eigenvalue_scaled(lam, 3, 0, 0.0, 64), AR_OK);
    ck_assert(arb_is_one(lam));
    ck_assert_int_eq(fh_eigenvalue_scaled(lam, 3, 4, 0.0, 64), AR_OK);
    ck_assert(arb_is_zero(lam));
    size_t c = 99;
    ck_assert_int_eq(fh_count(4, 0.0, 1e-9, &c), AR_OK);
    ck_assert_uint_eq(c, 1);
    ck_assert_int_eq(fh_eigenvalue_scaled(lam, 1, 0, 1.0, 64), AR_EINVAL);
    ck_assert_int_eq(fh_eigenvalue_scaled(lam, 3, 0, -1.0, 64), AR_EINVAL);
    ck_assert_int_eq(fh_eigenvalue_scaled(lam, 3, 0, INFINITY, 64), AR_EINVAL);
    ck_assert_int_eq(fh_count(3, 10.0, 0.0, &c), AR_EINVAL);
    ck_assert_int_eq(fh_count(3, 10.0, 1.5, &c), AR_EINVAL);
    ck_assert_int_eq(fh_count(3, NAN, 0.5, &c), AR_EINVAL);
    arb_clear(lam);
}
END_TEST

/* ---- counts --------------------------------------------------------- */

START_TEST(test_count_structure)
{
    /* d=2: 1 + 2L (odd); d=3: (L+1)^2; d=4: sum (k+1)^2; tau = 1 keeps only lambda_0;
     * count is nondecreasing in beta and nonincreasing in tau. */
    double betas[] = { 0.5, 3.0, 10.0, 40.0, 160.0 };
    double taus[] = { 1e-1, 1e-3, 1e-8 };
    for (int d = 2; d <= 4; d++) {
        size_t c1;
        ck_assert_int_eq(fh_count(d, 50.0, 1.0, &c1), AR_OK);
        ck_assert_msg(c1 == 1, "d=%d tau=1: count %zu != 1", d, c1);
        for (size_t it = 0; it < 3; it++) {
            size_t prev = 0;
            for (size_t ib = 0; ib < 5; ib++) {
                size_t c, c2;
                ck_assert_int_eq(fh_count(d, betas[ib], taus[it], &c), AR_OK);
                ck_assert_msg(c >= prev, "d=%d tau=%g: count not monotone in beta (%zu < %zu)", d, taus[it], c,
                              prev);
                prev = c;
                if (it > 0) {
                    ck_assert_int_eq(fh_count(d, betas[ib], taus[it - 1], &c2), AR_OK);
                    ck_assert_msg(c >= c2, "d=%d beta=%g: count not monotone in tau", d, betas[ib]);
                }
                size_t L = 0, s = 1;
                while (s < c) {   /* find L with count = sum_{k<=L} N(d,k) */
                    L++;
                    s += d == 2 ? 2 : d == 3 ? 2 * L + 1 : (L + 1) * (L + 1);
                }
                ck_assert_msg(s == c, "d=%d beta=%g tau=%g: count %zu is not a full harmonic block", d,
                              betas[ib], taus[it], c);
            }
        }
    }
}
END_TEST

START_TEST(test_count_slope)
{
    /* log2(count(2b)/count(b)) -> (d-1)/2. */
    const double tau = 1e-3;
    double betas[] = { 30.0, 100.0, 300.0, 1000.0 };
    for (int d = 2; d <= 4; d++) {
        for (size_t ib = 0; ib < 4; ib++) {
            size_t c1, c2;
            ck_assert_int_eq(fh_count(d, betas[ib], tau, &c1), AR_OK);
            ck_assert_int_eq(fh_count(d, 2 * betas[ib], tau, &c2), AR_OK);
            double slope = log((double)c2 / (double)c1) / log(2.0);
            fprintf(stderr, "fh_count slope d=%d beta=%g tau=%g: %zu -> %zu, slope %.4f (target %.1f)\n", d,
                    betas[ib], tau, c1, c2, slope, (d - 1) / 2.0);
            ck_assert_msg(fabs(slope - (d - 1) / 2.0) < 0.1,
                          "d=%d beta=%g tau=%g: counts %zu, %zu give slope %.4f, want %.1f +- 0.1", d, betas[ib],
                          tau, c1, c2, slope, (d - 1) / 2.0);
        }
    }
}
END_TEST

/* ---- point sets ----------------------------------------------------- */

START_TEST(test_check_polygon)
{
    pointset_t P;
    fh_report_t r;
    pts_polygon(&P, 400);
    ar_status st = fh_check(&P, 20.0, 1e-6, &r);
    ck_assert_msg(st == AR_OK, "fh_check polygon: %s", ar_error_get());
    size_t cnt;
    ck_assert_int_eq(fh_count(2, 20.0, 1e-6, &cnt), AR_OK);
    fprintf(stderr, "fh_check polygon n=%zu beta=%g tau=%g: count_pred=%zu count_num=%zu kmax=%lu maxrel=%.3e at %zu\n",
            r.n, r.beta, r.tau, r.count_pred, r.count_num, r.max_degree, r.max_relerr, r.worst_index);
    ck_assert_uint_eq(r.count_pred, cnt);
    ck_assert_uint_eq(r.n, 400);
    ck_assert_uint_eq(r.d, 2);
    ck_assert_msg(r.count_num == r.count_pred, "count_num %zu != count_pred %zu", r.count_num, r.count_pred);
    ck_assert_msg(r.max_relerr < 1e-9, "polygon n=400 beta=20: max rel error %.3e (index %zu) >= 1e-9",
                  r.max_relerr, r.worst_index);
    pointset_clear(&P);
}
END_TEST

START_TEST(test_check_fibonacci)
{
    pointset_t P;
    fh_report_t r500, r2000;
    const double beta = 10.0, tau = 1e-3;
    pts_fibonacci(&P, 2000);
    ar_status st = fh_check(&P, beta, tau, &r2000);
    ck_assert_msg(st == AR_OK, "fh_check fibonacci 2000: %s", ar_error_get());
    pointset_clear(&P);
    pts_fibonacci(&P, 500);
    st = fh_check(&P, beta, tau, &r500);
    ck_assert_msg(st == AR_OK, "fh_check fibonacci 500: %s", ar_error_get());
    pointset_clear(&P);
    fprintf(stderr, "fh_check fibonacci beta=%g tau=%g: n=500 maxrel=%.3e (count %zu/%zu), n=2000 maxrel=%.3e (count %zu/%zu)\n",
            beta, tau, r500.max_relerr, r500.count_num, r500.count_pred, r2000.max_relerr, r2000.count_num,
            r2000.count_pred);
    ck_assert_msg(r2000.max_relerr < 5e-3, "fibonacci n=2000 beta=10: max rel error %.3e >= 5e-3",
                  r2000.max_relerr);
    ck_assert_msg(r2000.max_relerr < r500.max_relerr, "error did not shrink with n: n=500 %.3e, n=2000 %.3e",
                  r500.max_relerr, r2000.max_relerr);
}
END_TEST

START_TEST(test_check_bad_input)
{
    pointset_t P;
    fh_report_t r;
    /* n too small: polygon n=20 at beta=20 needs many more points */
    pts_polygon(&P, 20);
    ck_assert_int_eq(fh_check(&P, 20.0, 1e-6, &r), AR_EINVAL);
    ck_assert_msg(strstr(ar_error_get(), "n = 20 is too small") && strstr(ar_error_get(), "raise n to at least"),
                  "message: %s", ar_error_get());
    pointset_clear(&P);
    /* a point off the sphere */
    pts_polygon(&P, 300);
    P.x[2 * 17] *= 1.0 + 1e-10;
    P.x[2 * 17 + 1] *= 1.0 + 1e-10;
    ck_assert_int_eq(fh_check(&P, 5.0, 1e-3, &r), AR_EINVAL);
    ck_assert_msg(strstr(ar_error_get(), "not on the unit sphere") != NULL, "message: %s", ar_error_get());
    pointset_clear(&P);
    /* multiplicities other than one */
    pts_polygon(&P, 300);
    ck_assert_int_eq(pointset_alloc_weights(&P), AR_OK);
    ck_assert_int_eq(fh_check(&P, 5.0, 1e-3, &r), AR_OK);
    fmpz_set_ui(P.w + 5, 2);
    ck_assert_int_eq(fh_check(&P, 5.0, 1e-3, &r), AR_EINVAL);
    pointset_clear(&P);
    /* bad beta / tau / dimension */
    pts_polygon(&P, 300);
    ck_assert_int_eq(fh_check(&P, -1.0, 1e-3, &r), AR_EINVAL);
    ck_assert_int_eq(fh_check(&P, 5.0, 0.0, &r), AR_EINVAL);
    ck_assert_int_eq(fh_check(NULL, 5.0, 0.1, &r), AR_EINVAL);
    P.d = 1;
    P.n = 600;
    ck_assert_int_eq(fh_check(&P, 5.0, 0.1, &r), AR_EINVAL);
    P.d = 2;
    P.n = 300;
    pointset_clear(&P);
}
END_TEST

Suite *suite_funkhecke(void)
{
    Suite *s = suite_create("funkhecke");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_multiplicity_closed_forms);
    tcase_add_test(tc, test_multiplicity_cumulative);
    tcase_add_test(tc, test_bessel_scaled_double);
    tcase_add_test(tc, test_eigen_d3_closed_form);
    tcase_add_test(tc, test_eigen_d2_trapezoid);
    tcase_add_test(tc, test_trace_identity);
    tcase_add_test(tc, test_beta_zero_and_args);
    tcase_add_test(tc, test_eigen_all_recurrence);
    tcase_add_test(tc, test_count_structure);
    tcase_add_test(tc, test_count_slope);
    tcase_add_test(tc, test_check_polygon);
    tcase_add_test(tc, test_check_fibonacci);
    tcase_add_test(tc, test_check_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
