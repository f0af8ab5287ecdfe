/* SPDX-License-Identifier: GPL-3.0-or-later */
/* head.h -- attention-head instances of a given visible dimension r
 * (THEORY 3.6 "per head"; proofs-notes/claim-R.md).
 *
 * Built in r dimensions, then embedded into a head dimension dh >= r with
 * invisible directions (a common key offset; query components in
 * coordinates where no key difference lives) and a rotation.  The stored
 * doubles are the instance; rotated data are rounded on storage (except
 * for the exact dyadic Hadamard rotation). */
#ifndef ATTNRANK_CONSTRUCTIONS_HEAD_H
#define ATTNRANK_CONSTRUCTIONS_HEAD_H

#include <stddef.h>
#include <stdint.h>
#include "constructions/pointsets/pointset.h"

/* The lattice h Z^r intersected with the closed unit r-ball, coordinates
 * h*k (k integer, product rounded to nearest; exact for dyadic h), in
 * lexicographic order.  r >= 1, 0 < h <= 1, at most 10^6 points. */
ar_status head_ball_lattice(pointset_t *P, size_t r, double h);

/* Attach Gaussian multiplicities w_j = round(2^40 exp(beta (1 - |y_j|^2) / 2))
 * (MPFR at 128 bits, exact fmpz; >= 1) to the points y_j of P (|y_j| <= 1
 * expected).  With these weights the cross-attention of a query q is
 * proportional to exp(-beta |q - y_j|^2 / 2) up to the rounding of w (the
 * query factor exp(beta |q|^2/2) is a row constant).  beta finite >= 0. */
ar_status head_gaussian_weights(pointset_t *P, double beta);

/* The claim-R construction in r dimensions: queries = keys = the lattice of
 * spacing h in the unit r-ball; keys carry Gaussian multiplicities at beta. */
ar_status head_construction(pointset_t *Q, pointset_t *K, size_t r, double beta, double h);

/* A random bounded head: m queries and n keys i.i.d. uniform in the unit
 * r-ball (seeded; no multiplicities). */
ar_status head_random_ball(pointset_t *Q, pointset_t *K, size_t r, size_t m, size_t n, uint64_t seed);

typedef enum { HEAD_ROT_NONE = 0, HEAD_ROT_RANDOM = 1, HEAD_ROT_HADAMARD = 2 } head_rotation_t;

typedef struct {
    size_t dh;             /* head dimension, >= r + nnoise */
    double key_offset;     /* the common key offset has entries key_offset * N(0,1) (0: none) */
    double query_invisible;/* query coordinates r..dh-1 get query_invisible * N(0,1) (0: none) */
    size_t nnoise;         /* key coordinates r..r+nnoise-1 get delta * N(0,1) */
    double delta;
    head_rotation_t rotate;/* none; seeded random orthogonal (modified Gram-Schmidt twice,
                              in double); or the exact dyadic H/sqrt(dh) (Sylvester
                              Hadamard, dh a power of 4) with a seeded signed permutation */
    uint64_t seed;
    int dyadic;            /* 1: offsets, invisible parts and noise rounded to multiples of 2^-8,
                              so that with dyadic inputs and the Hadamard rotation every stored
                              coordinate is exact and the visible logits are exactly those of
                              (Q, K) (the attention matrix is then exactly the same) */
} head_embed_t;

/* Embed r-dimensional Q (m x r) and K (n x r) into dh dimensions:
 *   q_i = G [z_i ; a_i],  k_j = G [y_j ; e_j ; 0] + o,
 * a_i the invisible query parts, e_j the key noise, o the offset, G the
 * rotation.  Without noise the visible logits are those of (Q, K) up to
 * the rounding of G: the visible dimension is unchanged.  Multiplicities
 * of K are copied.  The provenance records every parameter. */
ar_status head_embed(const pointset_t *Q, const pointset_t *K, const head_embed_t *e,
                     pointset_t *Qh, pointset_t *Kh);

#endif
