/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pointset.h -- a finite point set with exact multiplicities and provenance.
 *
 * Coordinates are IEEE doubles (exact dyadic rationals: the certificates are
 * about exactly these numbers).  Multiplicities are FLINT integers >= 1 of
 * any size; w == NULL means every multiplicity is 1.  Provenance is a short
 * free-text description ("fibonacci n=2000 d=3", "file X.npy", ...). */
#ifndef ATTNRANK_CONSTRUCTIONS_POINTSET_H
#define ATTNRANK_CONSTRUCTIONS_POINTSET_H

#include <stddef.h>
#include <flint/fmpz.h>
#include "base/status.h"

#define POINTSET_PROV_LEN 256

typedef struct {
    size_t n, d;                 /* number of distinct points, dimension */
    double *x;                   /* n*d, row-major: x[i*d + c] */
    fmpz *w;                     /* n multiplicities >= 1, or NULL (all ones) */
    char provenance[POINTSET_PROV_LEN];
} pointset_t;

/* Allocate an n x d zero point set without multiplicities. n, d >= 1. */
ar_status pointset_init(pointset_t *P, size_t n, size_t d);

/* 1 when a and b hold the same points: the same n and d and bit-identical coordinates in the
 * same order (multiplicities play no part: they weigh keys, and repeated queries do not change
 * the eps-rank).  The one rule by which attention on queries a and keys b is self-attention
 * (theory/brackets/route.h), whatever door the arrays came through. */
int pointset_same_points(const pointset_t *a, const pointset_t *b);

/* 1 when some multiplicity of P is not 1. */
int pointset_has_multiplicities(const pointset_t *P);

/* Attach multiplicities (all set to 1) to P. */
ar_status pointset_alloc_weights(pointset_t *P);

/* Free everything (safe on a zeroed or cleared pointset). */
void pointset_clear(pointset_t *P);

/* N = sum of multiplicities (n if w == NULL). */
void pointset_total_multiplicity(fmpz_t N, const pointset_t *P);

/* Check coordinates finite and multiplicities >= 1; AR_EINVAL with a message otherwise. */
ar_status pointset_validate(const pointset_t *P);

/* Set the provenance text (printf-style, truncated to fit). */
void pointset_set_provenance(pointset_t *P, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
