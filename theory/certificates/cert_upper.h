/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_upper.h -- upper certificates for the eps-rank (THEORY 3.5).
 *
 * An upper certificate is an explicit B = U V^T of rank k together with a
 * rigorous bound err >= ||A - B||_r1 (resid_r1_bound against the enclosure
 * (a, rowerr) of A).  err <= eps proves rank_eps(A) <= k.
 * Each construction factors once and then bisects over k, re-using the
 * factorisation (one O(m n k) residual per probe); the least k whose
 * certified error is <= eps is returned.  When no k < min(m, n) is
 * certified, the trivial certificate B = A (rank <= min(m, n), err 0) is
 * returned with method "trivial". */
#ifndef ATTNRANK_THEORY_CERT_UPPER_H
#define ATTNRANK_THEORY_CERT_UPPER_H

#include <stddef.h>
#include "numerics/status.h"
#include "numerics/softmax.h"
#include "theory/certificates/cert_method.h"

typedef struct {
    size_t rank;        /* rank_eps(A) <= rank is certified */
    double err;         /* rigorous bound on ||A - B||_r1 for the B found (<= eps) */
    ar_method_t method; /* svd, symeig, pchol, rsvd, rsym, ... or trivial (none: not run) */
    double seconds;     /* wall time spent */
} upper_cert_t;

/* min(m, n) from which the truncated SVD's factors come from the Gram matrix's eigendecomposition
 * (numerics/linalg.h la_gram_factors) instead of dgesdd: the same truncations U_k U_k^T A, at
 * about half the cost; below it dgesdd, whose results the golden tables record. */
#define UPPER_SVD_GRAM_MIN 1500

/* Truncated SVD of the double image (dgesdd, or the Gram route above UPPER_SVD_GRAM_MIN). */
ar_status upper_svd(const smx_t *A, double eps, upper_cert_t *out);

/* Self-attention only (square A = D^{-1} K W, K symmetric positive
 * semidefinite, W = diag(w)).  With T = diag(t), t_i = sqrt(Z_i w_i),
 * S = T A T^{-1} is symmetric PSD, S_ij = sqrt(A_ij A_ji).
 * logt[i] = log t_i (approximate is fine: only the candidate depends on it).
 *   upper_symeig: S_k = top-k eigenpairs of S (dsyevd), B = T^{-1} S_k T.
 *   upper_pchol:  S ~ L_k L_k^T (first k steps of pivoted Cholesky, dpstrf),
 *                 B = T^{-1} L_k L_k^T T.
 * If log t spans more than the double range allows, AR_OK with the trivial
 * certificate and method "trivial". */
ar_status upper_symeig(const smx_t *A, const double *logt, double eps, upper_cert_t *out);
ar_status upper_pchol(const smx_t *A, const double *logt, double eps, upper_cert_t *out);

/* The three constructions behind one entry point. */
typedef enum { UPPER_SVD = 0, UPPER_SYMEIG = 1, UPPER_PCHOL = 2 } upper_method_t;

/* Search procedure shared by the three functions above: the candidate
 * factors of every rank are built once (column c of U and V does not depend
 * on k); probes k = 1, 2, 4, ... up to kmax (galloping), then bisection
 * between the last failing and the first certified k, so that whenever
 * rank > 1 the certified error of rank - 1 was observed to exceed eps (this
 * relies on monotonicity only for minimality, never for soundness).
 * kmax = min(m, n) - 1 (pchol: also <= the numerical rank of dpstrf).
 * eps must satisfy 0 < eps < 1.  logt is used for symeig/pchol only (n
 * entries; must be non-NULL then).  If U and V are non-NULL, the certified
 * factors are returned (*U m x rank, *V n x rank, column-major, caller
 * frees; both NULL for the trivial certificate). */
ar_status upper_certify(const smx_t *A, upper_method_t method, const double *logt, double eps,
                        upper_cert_t *out, double **U, double **V);

/* The rank-k candidate of `method` (same construction as upper_certify) and
 * its certified error bound *err >= ||A - U V^T||_r1 (resid_r1_bound).
 * 1 <= k <= min(m, n); *U is m x k, *V is n x k (caller frees).  For tests
 * and fixed-rank experiments.  AR_EINVAL if the construction does not apply
 * (symeig/pchol on non-square A, or log t spanning more than 600). */
ar_status upper_candidate(const smx_t *A, upper_method_t method, const double *logt, size_t k,
                          double **U, double **V, double *err);

#endif
