/* SPDX-License-Identifier: GPL-3.0-or-later */
/* invnorm.h -- verified upper bound on ||M^{-1}||_inf for an enclosed square matrix.
 *
 * M is an exact real m x m matrix known as Mmid + E, with Mmid a double
 * matrix (column-major) and ||E||_inf <= enorm (a rigorous bound on the
 * max-row-l1 norm of the unknown perturbation).
 * Method: R ~ Mmid^{-1} from LAPACK (dgetrf/dgetri; for m >= 1024 dgetrf and triangular solves on
 * fixed blocks); G = I - R Mmid by dgemm (for m >= 1024 on fixed column blocks);
 * a-priori bound |fl(G) - G| <= gamma_{m+1}(I + |R||Mmid|), whose row sums
 * are formed exactly as sum_l |R_il| rowsum_l(|Mmid|) with upward rounding
 * (no second dgemm); alpha >= ||I - R M||_inf
 * accumulated with upward rounding, including ||R||_inf * enorm.  If alpha < 1,
 * then M is invertible and ||M^{-1}||_inf <= ||R||_inf / (1 - alpha) (rounded up).
 * Returns that bound, or +INFINITY if it cannot be certified (singular Mmid,
 * alpha >= 1, non-finite input, allocation failure).  Every BLAS call runs on one
 * OpenBLAS thread; for m >= 1024 the blocks (a function of m alone) run on par_threads()
 * threads, and the bound is the same bits for any thread count (base/parallel.h). */
#ifndef ATTNRANK_NUMERICS_INVNORM_H
#define ATTNRANK_NUMERICS_INVNORM_H

#include <stddef.h>

double invnorm_inf_bound(size_t m, const double *Mmid, double enorm);

/* The same bound with R = R0, a caller's approximate inverse of Mmid (m x m, column-major, not
 * modified; NULL: LAPACK's, as invnorm_inf_bound).  How R0 was found plays no part in the bound
 * (alpha is computed from it as above); it saves the O(m^3) factorisation when the caller already
 * holds an inverse, e.g. one updated through row and column deletions (cert_lower_peel.c).  An
 * R0 with a non-finite entry gives +INFINITY. */
double invnorm_inf_bound_guess(size_t m, const double *Mmid, double enorm, const double *R0);

/* Varah's bound for a strictly row-diagonally-dominant matrix:
 * if delta = min_i (|M_ii| - sum_{j!=i} |M_ij|) - enorm > 0 (computed with upward/
 * downward rounding as appropriate), then ||M^{-1}||_inf <= 1/delta; returns
 * that bound (rounded up) or +INFINITY.  O(m^2), no LAPACK. */
double invnorm_varah_bound(size_t m, const double *Mmid, double enorm);

#endif
