/* SPDX-License-Identifier: GPL-3.0-or-later */
/* softmax.h -- rigorous evaluation of a row-softmax matrix with key multiplicities.
 *
 *   A_ij = w_j exp(beta q_i.k_j) / sum_l w_l exp(beta q_i.k_l)
 *
 * Inputs are exact: coordinates and beta are IEEE doubles (exact dyadic
 * rationals), multiplicities are FLINT integers of any size.  Every entry is
 * computed in Arb ball arithmetic (logits shifted by an approximate row
 * maximum, which changes nothing mathematically), then rounded to the nearest
 * double.  The result is the double image `a` together with a rigorous
 * bound on its rounding:  for every row i,
 *
 *      sum_j |A_ij - a_ij| <= rowerr[i]       (A = the exact matrix)
 *
 * This pair (a, rowerr) is all that the certificates downstream need. */
#ifndef ATTNRANK_NUMERICS_SOFTMAX_H
#define ATTNRANK_NUMERICS_SOFTMAX_H

#include <stddef.h>
#include <flint/fmpz.h>
#include "base/status.h"

typedef struct {
    size_t m, n;      /* rows (queries) and columns (keys) */
    double *a;        /* m*n, column-major: a[i + j*m] ~ A_ij */
    double *rowerr;   /* m: rigorous bound on sum_j |A_ij - a[i+j*m]| */
    double maxerr;    /* max_i rowerr[i] */
    double *lognorm;  /* m: approximate log sum_l w_l exp(beta q_i.k_l) (not rigorous; for constructions) */
    long prec;        /* Arb working precision used (bits; 53 for the double path) */
    const char *method; /* "arb" (smx_compute) or "double" (smx_compute_dbl, numerics/softmax_dbl.h) */
} smx_t;

/* Compute the enclosure of A.
 *   q: m x d row-major (q[i*d + c]), k: n x d row-major, all finite.
 *   w: n positive multiplicities, or NULL for all ones.
 *   beta: finite, >= 0.   prec: Arb precision in bits (>= 53; 0 = default 96).
 *   nthreads: worker threads for the entry evaluation (0 = par_threads(),
 *             the configuration's count; rows are computed independently, so
 *             the result is the same for any count).
 * On success A owns its arrays (free with smx_clear). Errors: AR_EINVAL for
 * bad arguments (non-finite input, beta < 0, nonpositive weight, m or n = 0),
 * AR_ENOMEM if m*n doubles cannot be allocated. */
ar_status smx_compute(smx_t *A, const double *q, size_t m, const double *k, size_t n,
                      size_t d, const fmpz *w, double beta, long prec, int nthreads);

/* The same with an additive logit bias (issue 32: attention masks): bias NULL, or m x n row-major
 * doubles b_ij, each finite or -inf, at least one finite per row, and
 *   A_ij = w_j exp(beta q_i.k_j + b_ij) / sum_l w_l exp(beta q_i.k_l + b_il),
 * so that b_ij = -inf makes A_ij exactly 0 (a masked entry: a[i + j m] = 0, in no sum) and a finite
 * b_ij is added to the logit exactly in Arb.  The symmetric path is not used with a bias.  Same
 * contract otherwise; AR_EINVAL for a NaN or +inf entry or a row with every entry -inf. */
ar_status smx_compute_bias(smx_t *A, const double *q, size_t m, const double *k, size_t n, size_t d,
                           const fmpz *w, const double *bias, double beta, long prec, int nthreads);

/* The checks of a logit bias (see smx_compute_bias): AR_OK for NULL. */
ar_status smx_bias_check(const double *bias, size_t m, size_t n);

/* The argument checks of smx_compute (AR_EINVAL with a message; prec 0 or
 * in [53, 65536]), shared with the double enclosure. */
ar_status smx_validate(const double *q, size_t m, const double *k, size_t n, size_t d,
                       const fmpz *w, double beta, long prec, int nthreads);

/* Free the arrays of A (safe on a zeroed or cleared smx_t). */
void smx_clear(smx_t *A);

#endif
