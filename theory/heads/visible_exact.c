/* SPDX-License-Identifier: GPL-3.0-or-later */
/* visible_exact.c -- exact rank of the row-centred logits for the stored doubles
 * (FLINT integer arithmetic)
 * (THEORY 3.1, 3.3; proofs-notes/claim-T.md). */
#include "theory/heads/visible.h"
#include "theory/heads/visible_impl.h"

#include <math.h>
#include <stdlib.h>

#include <flint/fmpz_mat.h>

/* ---------------------------------------------------------------------
 * Exact rank of A B^T (A ma x d, B nb x d, row-major doubles).
 * --------------------------------------------------------------------- */

/* Write the doubles x[0..cnt) as integers X = x * 2^-E with one common E
 * (the least exponent of a nonzero entry), so that X is exact. */
static void doubles_to_fmpz(const double *x, size_t rows, size_t cols, fmpz_mat_t Z)
{
    long E = LONG_MAX;
    for (size_t t = 0; t < rows * cols; t++) {
        if (x[t] == 0.0)
            continue;
        int e;
        frexp(x[t], &e);        /* |x| = f 2^e, f in [0.5, 1): x = (f 2^53) 2^(e-53) */
        if ((long)e - 53 < E)
            E = (long)e - 53;
    }
    fmpz_t v;
    fmpz_init(v);
    for (size_t i = 0; i < rows; i++)
        for (size_t c = 0; c < cols; c++) {
            double y = x[i * cols + c];
            if (y == 0.0) {
                fmpz_zero(fmpz_mat_entry(Z, i, c));
                continue;
            }
            int e;
            double f = frexp(y, &e);
            fmpz_set_d(v, ldexp(f, 53));                    /* exact integer */
            fmpz_mul_2exp(fmpz_mat_entry(Z, i, c), v, (ulong)((long)e - 53 - E));
        }
    fmpz_clear(v);
}

/* rank(A Bd^T) where Bd are the rows B_j - B_0 (j >= 1): the row space of Bd
 * is reduced first (rref), then rank(A S^T) for a basis S of it. */
long visible_exact_rank_product(const double *A, size_t ma, const double *B, size_t nb, size_t d,
                               int diffs)
{
    fmpz_mat_t Az, Bz, Dz, R, S, M;
    fmpz_t den;
    fmpz_init(den);
    fmpz_mat_init(Az, (slong)ma, (slong)d);
    fmpz_mat_init(Bz, (slong)nb, (slong)d);
    doubles_to_fmpz(A, ma, d, Az);
    doubles_to_fmpz(B, nb, d, Bz);
    size_t nd = diffs ? nb - 1 : nb;
    long rank = 0;
    if (nd > 0) {
        fmpz_mat_init(Dz, (slong)nd, (slong)d);
        for (size_t j = 0; j < nd; j++)
            for (size_t c = 0; c < d; c++) {
                if (diffs)
                    fmpz_sub(fmpz_mat_entry(Dz, j, c), fmpz_mat_entry(Bz, j + 1, c), fmpz_mat_entry(Bz, 0, c));
                else
                    fmpz_set(fmpz_mat_entry(Dz, j, c), fmpz_mat_entry(Bz, j, c));
            }
        fmpz_mat_init(R, (slong)nd, (slong)d);
        slong k = fmpz_mat_rref(R, den, Dz);
        if (k > 0) {
            fmpz_mat_init(S, (slong)d, k);              /* S = (first k rows of R)^T */
            for (slong t = 0; t < k; t++)
                for (size_t c = 0; c < d; c++)
                    fmpz_set(fmpz_mat_entry(S, c, t), fmpz_mat_entry(R, t, c));
            fmpz_mat_init(M, (slong)ma, k);
            fmpz_mat_mul(M, Az, S);
            rank = (long)fmpz_mat_rank(M);
            fmpz_mat_clear(M);
            fmpz_mat_clear(S);
        }
        fmpz_mat_clear(R);
        fmpz_mat_clear(Dz);
    }
    fmpz_mat_clear(Az);
    fmpz_mat_clear(Bz);
    fmpz_clear(den);
    return rank;
}

ar_status visible_rank_exact(const double *Q, size_t m, const double *K, size_t n, size_t dh, long *rank)
{
    if (!Q || !K || m == 0 || n == 0 || dh == 0) {
        ar_error_set("visible_rank_exact: empty input");
        return AR_EINVAL;
    }
    ar_status st;
    if ((st = visible_check_finite(Q, m * dh, "queries")) || (st = visible_check_finite(K, n * dh, "keys")))
        return st;
    *rank = visible_exact_rank_product(Q, m, K, n, dh, 1);
    return AR_OK;
}

/* ---------------------------------------------------------------------
 * Instance mode.
 * --------------------------------------------------------------------- */
