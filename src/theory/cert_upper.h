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

typedef struct {
    size_t rank;        /* rank_eps(A) <= rank is certified */
    double err;         /* rigorous bound on ||A - B||_r1 for the B found (<= eps) */
    char method[32];    /* "svd", "symeig", "pchol" or "trivial" */
    double seconds;     /* wall time spent */
} upper_cert_t;

/* Truncated SVD of the double image (dgesdd), bisection over k. */
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

#endif
