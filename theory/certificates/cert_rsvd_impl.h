/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_rsvd_impl.h -- what the randomized upper certificate's files share (not a public
 * interface): the search's sizes, progress messages (cert_rsvd.c), the sketch and its factors
 * (cert_rsvd_sketch.c), the sample rows and the search over the ranks (cert_rsvd_search.c). */
#ifndef ATTNRANK_THEORY_CERT_RSVD_IMPL_H
#define ATTNRANK_THEORY_CERT_RSVD_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include "theory/certificates/cert_rsvd.h"

#define RSVD_LADDER 16      /* ranks per residual pass */
#define RSVD_FINE 24        /* a gap of at most this many ranks is probed rank by rank */
#define RSVD_SAMPLE 384     /* rows on which the rank to certify is guessed */
#define RSVD_GUESS 14       /* ranks certified from the guess on in the first full pass */

/* One progress message fmt (two %zu: a, b) through o->progress; nothing without a callback. */
void rsvd_say(const rsvd_opts_t *o, const char *fmt, size_t a, size_t b);

/* The range found so far: Q (rows x l, orthonormal columns; rows = m for rsvd, n for rsym) and
 * P = A^T Q (rsvd, n x l) or P = S Q (rsym, n x l).  Extending it by more columns reuses every
 * product already made (issue 24: a sketch that is too small is extended, never redrawn). */
typedef struct {
    size_t rows, l;
    double *Q, *P;
} rsvd_sketch_t;

/* Frees Q and P; *sk zeroed. */
void rsvd_sketch_clear(rsvd_sketch_t *sk);

/* Extends the range to lnew > sk->l columns (lnew - l new Gaussian columns from seed, q power
 * iterations, kept orthogonal to the old columns) and P's new columns; t NULL: rsvd, else the
 * scaling of S = T A T^{-1} (rsym).  AR_OK, or an error with *sk still a valid smaller range. */
ar_status rsvd_sketch_extend(amat_t *M, const double *t, rsvd_sketch_t *sk, size_t lnew, int q, uint64_t seed,
                             const rsvd_opts_t *o);

/* Rank-l factors U (m x l), V (n x l) of A from the range (rsvd; the caller frees them). */
ar_status rsvd_svd_factors(const rsvd_sketch_t *sk, size_t m, size_t n, double **Uo, double **Vo);

/* Rank-l factors U (n x l), V (n x l) of the randomized eigendecomposition of S = T A T^{-1}
 * (rsym; the caller frees them). */
ar_status rsvd_sym_factors(const rsvd_sketch_t *sk, const double *t, size_t n, double **Uo, double **Vo);

/* The sample rows of A: evenly spaced, max(RSVD_SAMPLE, m / 16) of them (at most m), enclosed
 * once per upper certificate and kept across its sketch rounds (issue 24: gathering 1000 rows of
 * a held 16000 x 16000 image took 0.45 s per round; the rows depend on m alone). */
typedef struct {
    size_t s;
    size_t *rows;
    smx_t R;        /* the enclosure of those rows (R.a NULL: not yet made) */
} rsvd_sample_t;

/* Frees the rows and their enclosure; *S zeroed. */
void rsvd_sample_clear(rsvd_sample_t *S);

/* *guess = the least rank <= top certified on the sample rows (made on first use) with the
 * factors U, V (l columns), 0 when none, and then *next = a larger sketch size predicted from
 * the sample errors (else 2 l).  Not a certificate: a maximum over fewer rows. */
ar_status rsvd_sample_guess(amat_t *M, rsvd_sample_t *S, const double *U, const double *V, size_t l, size_t top,
                            double eps, size_t *guess, size_t *next);

/* The ranks the first full pass probes from a guess (every rank up to guess + 5, then spread)
 * into ks0 (RSVD_GUESS entries); returns their number. */
size_t rsvd_guess_ranks(size_t guess, size_t top, size_t *ks0);

/* The search over the ranks of the factors U, V (l columns) on M (rsvd_search). */
typedef struct {
    /* in */
    amat_t *M;
    const double *U, *V;
    size_t l, top;            /* the factors' columns; the largest rank sought (top <= l) */
    double eps;
    const size_t *ks0;        /* the first pass's ranks (nk0 > 0; else a ladder up to top) */
    size_t nk0;
    const double *err0;       /* NULL, or the first pass made by the caller: its errors ... */
    const double *rows0;      /* ... and its m x nk0 per-row bounds */
    const rsvd_opts_t *o;     /* progress and no_gap_fill, or NULL */
    rsvd_info_t *info;        /* probes and gap fills are counted here */
    int max_passes;           /* > 0: stop after this many passes once a rank is certified */
    /* out */
    size_t hi;                /* the least certified rank (0: none) */
    double best;              /* its certified error (untouched when hi = 0) */
    size_t lo;                /* the largest refuted rank below hi (0: none) */
} rsvd_search_t;

/* Least rank k <= s->top whose error on s->M is <= eps with k - 1 observed above eps (or k = 1):
 * s->hi = k (0 if none), s->best its error, s->lo the largest refuted rank below it.  First
 * probes s->ks0 (a guess; with err0 that pass is the caller's), then ladders above the largest
 * refuted rank and the ranks between refuted and certified.  AR_OK or an error. */
ar_status rsvd_search(rsvd_search_t *s);

#endif
