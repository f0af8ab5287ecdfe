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
#include "numerics/status.h"

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
 *   nthreads: worker threads for the entry evaluation (0 = default 2).
 * On success A owns its arrays (free with smx_clear). Errors: AR_EINVAL for
 * bad arguments (non-finite input, beta < 0, nonpositive weight, m or n = 0),
 * AR_ENOMEM if m*n doubles cannot be allocated. */
ar_status smx_compute(smx_t *A, const double *q, size_t m, const double *k, size_t n,
                      size_t d, const fmpz *w, double beta, long prec, int nthreads);

/* The argument checks of smx_compute (AR_EINVAL with a message; prec 0 or
 * in [53, 65536]), shared with the double enclosure. */
ar_status smx_validate(const double *q, size_t m, const double *k, size_t n, size_t d,
                       const fmpz *w, double beta, long prec, int nthreads);

/* Free the arrays of A (safe on a zeroed or cleared smx_t). */
void smx_clear(smx_t *A);

#endif
