/* SPDX-License-Identifier: GPL-3.0-or-later */
/* uncertified.h -- the measures people use today to talk about the rank of
 * an attention matrix, computed in plain double arithmetic with no error
 * bound: NOT certificates.  They are printed beside the certified bracket
 * lower <= rank_eps(A) <= upper (claim E, proofs-notes/claim-E.md section 6)
 * so that a reader sees where the bracket stands among them.
 *
 * For A = rowsoftmax(beta Q K^T) (m x n, evaluated in double) with singular
 * values s_1 >= s_2 >= ... (LAPACK dgesdd):
 *   numrank_default  #{k : s_k > max(m, n) * 2^-52 * s_1}  (numpy.linalg.matrix_rank's default)
 *   numrank_eps      #{k : s_k > eps * s_1}  (a relative spectral threshold at the bracket's eps)
 *   stable           ||A||_F^2 / ||A||_2^2 = sum s_k^2 / s_1^2
 *   effective        exp(-sum p_k log p_k), p_k = s_k / sum s  (Roy and Vetterli, 2007) */
#ifndef ATTNRANK_THEORY_UNCERTIFIED_H
#define ATTNRANK_THEORY_UNCERTIFIED_H

#include <stddef.h>
#include "base/status.h"

typedef struct {
    size_t numrank_default, numrank_eps;
    double stable, effective;
} uncertified_t;

/* The measures of A = rowsoftmax(beta Q K^T), Q m x d, K n x d (row-major),
 * at the relative threshold eps (0 < eps < 1). */
ar_status uncertified_measures(const double *Q, size_t m, const double *K, size_t n, size_t d, double beta,
                               double eps, uncertified_t *u);

#endif
