/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_circulant.h -- certified eps-rank brackets of the regular n-gon
 * (d = 2) self-attention matrix, without any n x n matrix.
 *
 * THE INSTANCE: the exact points x_j = (cos 2 pi j/n, sin 2 pi j/n) on the
 * unit circle (not their double roundings).  Then x_i . x_j =
 * cos(2 pi (j-i)/n) and A = rowsoftmax(beta X X^T) is the circulant
 *     A_ij = a_{(j-i) mod n},  a_k = exp(beta cos(2 pi k/n)) / Z,
 *     Z = sum_k exp(beta cos(2 pi k/n)),
 * symmetric (a_k = a_{n-k}).  Every a_k is enclosed in Arb from the exact
 * rational angle (arb_cos_pi_fmpq).  The dense path (theory/brackets/bracket.h on
 * constructions/sphere_polygon) certifies the matrix of the *rounded* double
 * points instead; the two matrices agree to ~1e-16 in every entry (relative
 * error ~ beta * 2^-53 in each logit), so their brackets agree except
 * possibly when eps sits within ~1e-15 of a threshold.
 *
 * Upper certificates (proofs-notes/circulant.md): the circulant B with first
 * row b_k = c_0 + 2 sum_{f=1..K} c_f cos(2 pi f k/n) has rank <= 2K+1, and
 * ||A - B||_r1 = sum_k |a_k - b_k| (the same for every row), certified by
 * circ_band_l1_ubound.  Candidates: the band projection (= truncated SVD at
 * odd ranks) and the l1-optimal band fit (GLPK LP).
 * Lower certificate: for m | n, rows S = {0, p, 2p, ..} (p = n/m) and arcs of
 * p columns centred at them (when p is even the two boundary columns are
 * split 1/2 : 1/2), M = A_S W is the symmetric circulant with first row
 * mu_c = sum_{arc c} a_k, and eps ||M^{-1}||_inf < 1 proves rank >= m
 * (circ_inv_norm_ubound). */
#ifndef ATTNRANK_THEORY_CERT_CIRCULANT_H
#define ATTNRANK_THEORY_CERT_CIRCULANT_H

#include <stddef.h>
#include <arb.h>
#include "numerics/status.h"
#include "theory/certificates/cert_method.h"
#include "theory/certificates/cert_status.h"

/* The enclosed first row of one instance. */
typedef struct {
    size_t n;          /* number of points */
    double beta;
    long prec;         /* Arb precision used */
    arb_ptr a;         /* half array a_0..a_{n/2} (balls containing the exact values) */
    double *ad;        /* their midpoints as doubles (for the candidates) */
    arb_ptr cosn;      /* cos(2 pi j/n), j = 0..n/2 */
    double arad;       /* upper bound on sum_{k=0}^{n-1} rad(a_k) (enclosure width, row l1) */
} circ_instance_t;

/* Default Arb precision for (n, beta): 80 + log2(n) + log2(1 + beta) bits. */
long circ_default_prec(size_t n, double beta);

/* Enclose the first row.  n >= 1, beta finite >= 0, prec >= 16 or 0 (default).
 * O(n) Arb exponentials at prec bits.  AR_EINVAL / AR_ENOMEM. */
ar_status circ_instance_init(circ_instance_t *I, size_t n, double beta, long prec);

/* Free (safe on a zeroed or cleared instance). */
void circ_instance_clear(circ_instance_t *I);

typedef struct {
    size_t rank;        /* rank_eps(A) <= rank certified (2K+1, or n when trivial) */
    size_t K;           /* band half-width of the certificate (SIZE_MAX when trivial) */
    double err;         /* certified bound on ||A - B||_r1 (<= eps; 0 when trivial) */
    double lpval;       /* LP optimum estimate of the last accepted LP (lp only; else 0) */
    size_t stride;      /* sample stride of the accepted LP (lp only; else 0) */
    size_t probes;      /* candidates certified during the search */
    ar_method_t method; /* projection, l1lp or trivial */
    double seconds;
} circ_upper_t;

typedef enum { CIRC_PROJECTION = 0, CIRC_L1LP = 1 } circ_upper_method_t;

/* The band-K candidate of `method` (c: K+1 doubles, caller's array) and its
 * certified error *err >= sum_k |a_k - b_k| = ||A - B||_r1.  stride: LP
 * sample stride (>= 1; ignored for the projection).  Any K >= 0 (the rank
 * claim 2K+1 is the caller's business: it is a bound only when 2K+1 < n). */
ar_status circ_upper_candidate(const circ_instance_t *I, circ_upper_method_t method, size_t K,
                               size_t stride, double *c, double *err);

/* Least certified K (galloping from kstart, then bisection; monotonicity
 * of the error in K is used for minimality only, never for soundness) with
 * rank 2K+1 < n; the trivial certificate (rank n) when none.
 * For CIRC_L1LP the search LPs are solved on every s-th sample with
 * s = max(1, (n/2+1) / (8 (K+1))) and the result is then polished: K-1, K-2, ..
 * are retried with a finer stride (>= 1, at most ~1.5e6 LP nonzeros) while
 * they certify.  Hints (pass SIZE_MAX for none): kfail, a K expected to
 * fail (probed; if it certifies it simply becomes the answer), and kok, a K
 * expected to certify (probed first).  0 < eps < 1.  If coef is non-NULL it
 * receives a malloc'd copy of the K+1 certified coefficients (NULL when
 * trivial). */
ar_status circ_upper_search(const circ_instance_t *I, circ_upper_method_t method, double eps,
                            size_t kfail, size_t kok, circ_upper_t *out, double **coef);

/* First row mu (m balls, caller-initialised) of the block test matrix
 * M = A_S W for m | n (see the header comment).  AR_EINVAL if m does not
 * divide n or m = 0. */
ar_status circ_block_row(const circ_instance_t *I, size_t m, arb_ptr mu);

typedef struct {
    size_t rank;        /* rank_eps(A) >= rank certified */
    size_t step;        /* p = n / rank: spacing of the chosen rows (n when trivial) */
    double invnorm;     /* certified bound on ||M^{-1}||_inf (1 when trivial) */
    size_t probes;
    double seconds;
} circ_lower_t;

/* Certified bound on ||M^{-1}||_inf for the block test matrix of m | n
 * (+INFINITY if not certified). */
double circ_lower_invnorm(const circ_instance_t *I, size_t m);

/* Largest divisor m of n certified by eps * ||M^{-1}||_inf < 1 (product
 * rounded up); divisors are tried in decreasing order, m <= mmax (SIZE_MAX
 * for all).  Rank 1 (trivial) when none.  0 < eps < 1. */
ar_status circ_lower_search(const circ_instance_t *I, double eps, size_t mmax, circ_lower_t *out);

typedef struct {
    size_t n;
    double beta, eps;
    long prec;
    size_t lower, upper;          /* the bracket: lower <= rank_eps(A) <= upper */
    size_t upper_projection;      /* rank of the projection (truncated SVD) certificate */
    size_t upper_lp;              /* rank of the l1-optimal LP certificate (n when skipped) */
    int lp_skipped;               /* 1 if the LP was too large for circ_bracket (more than
                                     2e6 LP nonzeros at the search stride; call
                                     circ_upper_search directly to run it anyway) */
    size_t lower_m_step;          /* spacing n / lower of the certified block rows */
    double upper_err;             /* certified error of the winning upper certificate */
    double upper_err_projection, upper_err_lp;
    double lower_invnorm;         /* certified ||M^{-1}||_inf of the lower certificate */
    double arad;                  /* enclosure width of the first row (row l1) */
    ar_cert_status_t status;      /* certified or inconclusive */
    double seconds, seconds_enclose, seconds_lower, seconds_projection, seconds_lp;
} circ_bracket_t;

/* The bracket of the n-gon at (beta, eps): enclosure, lower (divisors),
 * projection upper, then the LP upper searched between the K excluded by
 * the lower bound (2K+1 < lower, probed as a consistency check) and the
 * projection's K (skipped, lp_skipped = 1, when the LP would exceed 2e6
 * nonzeros: beta ~ 1e5 on n ~ 2e4).  n >= 1, beta finite >= 0, 0 < eps < 1, prec 0 (default)
 * or >= 16.  status "inconclusive" (bracket 1..n, nothing certified) when
 * the enclosure is too wide (2 arad >= eps).  AR_ENUMERIC if a certified
 * lower bound ever exceeded a certified upper bound (a bug; never reported
 * as a bracket). */
ar_status circ_bracket(size_t n, double beta, double eps, long prec, circ_bracket_t *out);

/* circ_bracket with the lower end certified for rank_{eps_lower} and the
 * upper end for rank_{eps_upper}, 0 < eps_upper <= eps_lower < 1 (so that
 * lower <= rank_{eps_lower} <= rank_{eps_upper} <= upper still holds).
 * Used when the instance is a perturbation of the exact n-gon by eta in
 * ||.||_r1: rank_eps(A) lies in [rank_{eps+eta}(A_exact), rank_{eps-eta}(A_exact)]
 * (theory/certificates/polygon_match.h).  out->eps is eps_upper. */
ar_status circ_bracket_split(size_t n, double beta, double eps_lower, double eps_upper, long prec,
                             circ_bracket_t *out);

#endif
