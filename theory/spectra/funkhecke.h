/* SPDX-License-Identifier: GPL-3.0-or-later */
/* funkhecke.h -- the Funk-Hecke spectrum of exp(beta x.y) on S^{d-1}: an
 * external ground truth for the harness's linear algebra (THEORY 3.7,
 * proofs-notes/funk-hecke.md).
 *
 * On S^{d-1} with the normalised uniform measure sigma, the integral operator
 * (T f)(x) = int exp(beta x.y) f(y) dsigma(y) has the eigenvalues
 *
 *   lambda_k = Gamma(d/2) (2/beta)^{d/2-1} I_{k+d/2-1}(beta),   k = 0, 1, ...
 *
 * with multiplicity N(d,k) = dim of the spherical harmonics of degree k.
 * For beta > 0 they decrease strictly in k.  Everything here is reported
 * scaled by e^{-beta} (the kernel exp(beta (x.y - 1)) <= 1), which keeps
 * the values representable for large beta.
 *
 * fh_eigenvalue_scaled, fh_multiplicity and fh_count are rigorous (Arb balls,
 * exact integers).  fh_check is NOT a certificate: it is a spectral sanity
 * check of the harness on a point set, computed in plain double precision
 * (double exp, LAPACK dsyevd) and compared with the continuum prediction. */
#ifndef ATTNRANK_THEORY_FUNKHECKE_H
#define ATTNRANK_THEORY_FUNKHECKE_H

#include <stddef.h>
#include <arb.h>
#include <flint/flint.h>
#include <flint/fmpz.h>
#include "base/status.h"
#include "constructions/pointsets/pointset.h"

/* lam = Arb ball containing e^{-beta} lambda_k (formula above) at `prec`
 * bits.  d >= 2, beta finite and >= 0 (beta = 0: lambda_0 = 1 and
 * lambda_k = 0 for k >= 1, exactly), prec >= 2; AR_EINVAL otherwise,
 * AR_ENUMERIC if Arb cannot produce a finite ball. */
ar_status fh_eigenvalue_scaled(arb_t lam, int d, ulong k, double beta, long prec);

/* lam[k] = Arb ball containing e^{-z} lambda_k(z) for every k = 0..kmax,
 * lambda_k(z) = Gamma(d/2) (2/z)^{d/2-1} I_{k+d/2-1}(z) (the formula above
 * with beta replaced by the ball z, which may be an exact product such as
 * beta r s).  Two Bessel evaluations at the top orders, then the backward
 * recurrence I_{nu-1} = I_{nu+1} + (2 nu / z) I_nu, whose terms are all
 * positive (no cancellation).  d >= 2, z certainly > 0 or exactly 0 (then
 * lam[0] = 1, the rest 0), prec >= 16; AR_EINVAL otherwise, AR_ENUMERIC if
 * no finite enclosure results.  lam has kmax + 1 entries. */
ar_status fh_eigenvalues_scaled_all(arb_ptr lam, int d, ulong kmax, const arb_t z, long prec);

/* N = N(d,k), the dimension of the space of spherical harmonics of degree k
 * on S^{d-1}: N(d,0) = 1, N(d,k) = (2k+d-2)/k * C(k+d-3, k-1) for k >= 1
 * (d = 2: 2; d = 3: 2k+1).  Exact.  d >= 2; for d < 2, N = 0. */
void fh_multiplicity(fmpz_t N, int d, ulong k);

/* *count = number of continuum eigenvalues, with multiplicity, that are
 * >= tau * lambda_0:  sum over k with lambda_k >= tau lambda_0 of N(d,k).
 * Every comparison is decided rigorously in Arb (precision raised up to
 * 4096 bits; AR_ENUMERIC if still undecided).  d >= 2, beta finite >= 0,
 * 0 < tau <= 1; AR_EINVAL otherwise or if the count exceeds SIZE_MAX. */
ar_status fh_count(int d, double beta, double tau, size_t *count);

/* Result of fh_check.  Eigenvalues are of K/n with
 * K_ij = exp(beta (x_i.x_j - 1)), compared with e^{-beta} lambda_k. */
typedef struct {
    size_t n, d;              /* point set size and ambient dimension */
    double beta, tau;         /* inputs */
    size_t count_pred;        /* continuum eigenvalues >= tau * lambda_0 (with multiplicity) */
    size_t count_num;         /* computed eigenvalues >= tau * (largest computed eigenvalue) */
    unsigned long max_degree; /* largest k with lambda_k >= tau * lambda_0 */
    double max_relerr;        /* max_{i < count_pred} |mu_i - p_i| / p_i, both sorted descending */
    size_t worst_index;       /* the i (0-based, descending order) attaining max_relerr */
    double lambda0_pred;      /* e^{-beta} lambda_0 (double nearest to an Arb enclosure) */
    double lambda0_num;       /* largest computed eigenvalue of K/n */
} fh_report_t;

/* Spectral sanity check (NOT a certificate; plain double arithmetic):
 * builds K/n for the points of P (all multiplicities must be 1), computes
 * its eigenvalues with LAPACKE_dsyevd, sorts them descending (mu_i), and
 * compares them one-to-one with the predicted list p_i (e^{-beta} lambda_k
 * repeated N(d,k) times, descending, truncated at the first value below
 * tau * lambda_0).  Fills *out (see fh_report_t).
 * Requirements (AR_EINVAL otherwise, with a message): P->d >= 2, every point
 * on the unit sphere (| |x_i| - 1 | <= 1e-12), multiplicities all 1 or
 * absent, beta finite >= 0, 0 < tau <= 1, and n >= 3 * count_pred ("n must be
 * at least 3x the number of eigenvalues checked").  AR_ENOMEM if the n x n
 * matrix cannot be allocated, AR_ENUMERIC if dsyevd fails.
 * Cost: O(n^2 d) to build K plus one dsyevd without eigenvectors. */
ar_status fh_check(const pointset_t *P, double beta, double tau, fh_report_t *out);

#endif
