/* SPDX-License-Identifier: GPL-3.0-or-later */
/* visible.h -- the visible interaction dimension of one attention head and
 * the tolerance-indexed dimension r(tau) (THEORY 3.1, 3.3; proofs-notes/
 * row-scalar-invariance.md, softmax-perturbation.md, claim-T.md).
 *
 * Logits L = beta Q K^T (Q m x dh queries, K n x dh keys, row-major doubles,
 * the stored doubles being the exact instance).  Row-softmax ignores row
 * constants, so only the row-centred logits Lc = L (I - 1 1^T / n) matter;
 * r = rank(Lc) is the visible dimension (for beta > 0 it equals
 * rank(Q (K - 1 k_0^T)^T) for any affine combination k_0 of the keys).
 *
 * Three numbers per head:
 *   r        numerical rank: singular values of the computed Lc above a
 *            tolerance tied to the inputs' precision (see visible_t.tol);
 *            a floating-point estimate, not a certificate;
 *   r_exact  exact rank of Lc for the stored doubles (FLINT integer
 *            arithmetic), for small inputs; can exceed r when rotated data
 *            were rounded on storage;
 *   eta(k)   for the rank-k truncation P_k = Qk Kk^T of the SVD of Lc
 *            (Qk = U_k S_k, Kk = V_k stored as doubles), a RIGOROUS upper
 *            bound on max_i || softmax_w(L_i) - softmax_w((P_k)_i) ||_1:
 *            eta(k) = max_i 2 tanh(osc(L_i - (P_k)_i) / 4), with L and P_k
 *            enclosed entrywise by directed rounding and the tanh rounded up.
 *            Since osc(x) <= sqrt(2) ||x - c||_2, this is never worse than
 *            2 tanh(sigma_{k+1} / (2 sqrt 2)) up to rounding.
 *   r(tau)   least k whose eta(k) <= tau (certified: the rank-k logits
 *            change the attention by at most tau in the max-row-l1 norm).
 * Multiplicities w do not enter r or eta (the bound holds for any w). */
#ifndef ATTNRANK_THEORY_VISIBLE_H
#define ATTNRANK_THEORY_VISIBLE_H

#include <stddef.h>
#include <flint/fmpz.h>
#include "numerics/status.h"
#include "theory/brackets/bracket.h"

/* r_tau value meaning "no rank k <= min(m, n) was certified at this tau". */
#define VISIBLE_NONE ((size_t)-1)

typedef struct {
    double tol_safety;   /* safety factor of the rank tolerance (0 = default 8) */
    size_t exact_max;    /* r_exact only when m*n*dh <= exact_max (0 = default 2^24;
                            SIZE_MAX: always; 1: never) */
} visible_opts_t;

void visible_opts_default(visible_opts_t *o);

typedef struct {
    size_t m, n, dh;     /* queries, keys, head dimension */
    double beta;
    size_t r;            /* numerical visible dimension: #{k : sigma_k > tol} */
    double tol;          /* tolerance used: tol_safety * u * (max(m,n) sigma_1
                            + (dh + 2) beta ||Q||_F ||K - 1 kbar^T||_F), u = 2^-53 */
    double tol_safety;
    long r_exact;        /* exact rank of Lc of the stored doubles; -1 = not computed */
    size_t nsigma;       /* min(m, n) */
    double *sigma;       /* nsigma singular values of the computed Lc, descending
                            (floating point, not certified) */
    size_t neta;         /* eta[0..neta) computed so far (lazily, by visible_eta) */
    double *eta;         /* eta[k] = certified bound for the rank-k truncation
                            (eta[0]: all logits dropped, A replaced by 1 w^T / sum w) */
    /* private: copies of the inputs, SVD factors, enclosures (do not touch) */
    double *q_, *k_, *qk_, *kk_, *llo_, *lhi_, *plo_, *phi_;
    size_t nfac_;
    double seconds;      /* wall time of visible_compute */
} visible_t;

/* Compute r, tol, sigma (and r_exact when small enough) for Q (m x dh) and
 * K (n x dh), row-major, finite; m, n, dh >= 1; beta finite >= 0 (beta = 0
 * gives r = r_exact = 0).  o may be NULL.  The inputs are copied.  On
 * success v owns its arrays (visible_clear).  AR_EINVAL on bad input
 * (message), AR_ENOMEM, AR_ENUMERIC if the SVD fails. */
ar_status visible_compute(const double *Q, size_t m, const double *K, size_t n, size_t dh,
                          double beta, const visible_opts_t *o, visible_t *v);

/* Free v's arrays (safe on a zeroed or cleared visible_t). */
void visible_clear(visible_t *v);

/* Certified eta(k) for 0 <= k <= nsigma (computes and caches eta[0..k]).
 * Cost O(m n dh) once, then O(m n) per k. */
ar_status visible_eta(visible_t *v, size_t k, double *eta);

/* r(tau) for each of ntau tolerances (each 0 < tau < 2): r_tau[t] = least
 * k with eta(k) <= taus[t] and eta_tau[t] = eta(k); VISIBLE_NONE and NAN
 * when no k <= nsigma qualifies.  Either output may be NULL. */
ar_status visible_rtau(visible_t *v, const double *taus, size_t ntau, size_t *r_tau, double *eta_tau);

/* The rank-k logit factors as point sets (beta = 1): Qk (m x k, rows U_k S_k)
 * and Kk (n x k, rows V_k) with P_k = Qk Kk^T exactly the matrix eta(k)
 * refers to; Kk gets copies of w (may be NULL).  1 <= k <= nsigma. */
ar_status visible_factors(const visible_t *v, size_t k, const fmpz *w, pointset_t *Qk, pointset_t *Kk);

/* The chain of THEORY 3.3: rank_eps(A) <= upper bracket of A_k at eps - eta(k),
 * with A_k = rowsoftmax_w(P_k).  Runs bracket_compute on the factors (k >= 1;
 * k = 0 gives the rank-one matrix 1 w^T/sum w: upper = 1 when eta(0) < eps).
 * *upper = that rigorous upper bound of rank_eps(A); *eta_used = eta(k);
 * AR_EINVAL if eta(k) >= eps (no slack left).  bo may be NULL; b (may be
 * NULL) receives the bracket of A_k. */
ar_status visible_upper_via(visible_t *v, size_t k, const fmpz *w, double eps,
                            const bracket_opts_t *bo, size_t *upper, double *eta_used, bracket_t *b);

/* Both ends through the rank-k logits: since ||A - A_k||_r1 <= eta(k),
 *     lower bracket of A_k at eps + eta  <=  rank_eps(A)  <=  upper bracket of A_k at eps - eta.
 * A_k lives in k dimensions, so the bracket engine (whose lower certificate
 * picks rows by farthest-point order of the query coordinates) sees only
 * visible geometry: invisible query parts and offsets cannot mislead it.
 * Needs eta(k) < eps and eps + eta(k) < 1 (else AR_EINVAL).  k >= 1.
 * *lower, *upper rigorous (a run whose enclosure is too wide gives the
 * trivial end, 1 or min(m, n)); *eta_used = eta(k); status is
 * bracket_status_decide on the two ends (theory/brackets/bracket_status.h). */
ar_status visible_bracket_via(visible_t *v, size_t k, const fmpz *w, double eps, const bracket_opts_t *bo,
                              size_t *lower, size_t *upper, double *eta_used, ar_cert_status_t *status);

/* Exact rank of Q (K - 1 k_1^T)^T (= rank Lc for beta > 0) for the stored
 * doubles, by FLINT integer arithmetic (doubles scaled to integers by a
 * common power of two; row space of the key differences reduced first).
 * Any size (cost grows quickly: use for small inputs). */
ar_status visible_rank_exact(const double *Q, size_t m, const double *K, size_t n, size_t dh,
                             long *rank);

/* ---- weights-only mode: the bilinear form M = WQ WK^T ----
 * Logits beta x^T M y for inputs x, y with ||x||_2, ||y||_2 <= radius.
 * WQ, WK: dmodel x dh, row-major.  With M_k the SVD truncation (factors
 * stored as doubles), every key row's logit change has oscillation
 * <= 2 beta radius^2 ||M - M_k||_2, so eta(k) = 2 tanh(beta radius^2 B_k / 2)
 * where B_k >= ||M - M_k||_2 is rigorous (min of the Frobenius norm and
 * sqrt(||.||_1 ||.||_inf) of the enclosed difference). */
typedef struct {
    size_t dmodel, dh;
    double beta, radius;
    size_t r;            /* numerical rank of M at tol = tol_safety * u * dmodel * sigma_1(M)
                            + rounding of the product (as for visible_t) */
    double tol;
    long r_exact;        /* exact rank of M for the stored doubles; -1 = not computed */
    size_t nsigma;       /* min(dmodel, dh) */
    double *sigma;       /* singular values of M, descending (not certified) */
    size_t neta;
    double *eta;         /* eta[k] for k < neta (certified) */
    double *normb;       /* normb[k] = B_k (certified bound on ||M - M_k||_2) */
    double *m_, *u_, *vt_, *s_;   /* private */
} visible_bilinear_t;

/* beta finite >= 0, radius finite > 0, dmodel, dh >= 1, finite entries. */
ar_status visible_bilinear(const double *WQ, const double *WK, size_t dmodel, size_t dh,
                           double beta, double radius, const visible_opts_t *o, visible_bilinear_t *v);

/* r(tau) as visible_rtau, for the bilinear form. */
ar_status visible_bilinear_rtau(visible_bilinear_t *v, const double *taus, size_t ntau,
                                size_t *r_tau, double *eta_tau);

void visible_bilinear_clear(visible_bilinear_t *v);

#endif
