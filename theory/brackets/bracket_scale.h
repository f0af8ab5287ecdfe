/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bracket_scale.h -- certified eps-rank bracket of a LARGE self-attention
 * instance on the sphere, without the n x n matrix.
 *
 *   upper: the polynomial (harmonic) certificate (theory/certificates/cert_poly.h),
 *          O(n^2 d) with no n x n storage;
 *   lower: the block test-matrix certificate (theory/certificates/cert_lower.h) on the
 *          rows S = a farthest-point prefix of the points, of length at most
 *          min(n, upper): only the |S| x n rows A_S are enclosed (Arb,
 *          smx_compute with the prefix as queries and all points as keys,
 *          which gives exactly the rows of the full matrix), then the
 *          prefix search (lower_blocks) and the index-order nets among the
 *          prefix (lower_nets).
 * Needs every point within 1e-12 of the unit sphere (the polynomial
 * certificate's requirement); multiplicities are allowed. */
#ifndef ATTNRANK_THEORY_BRACKET_SCALE_H
#define ATTNRANK_THEORY_BRACKET_SCALE_H

#include "theory/brackets/bracket.h"

/* Fill out as bracket_compute does (lo/up methods "invnorm"/"diagdom" and
 * "polynomial"; up.err the certified error; up_svd/up_symeig/up_pchol
 * unused).  beta >= 0 finite, 0 < eps < 1; AR_EINVAL for points off the
 * sphere. */
ar_status bracket_compute_scale(const pointset_t *P, double beta, double eps, const bracket_opts_t *o,
                                bracket_t *out);

/* Largest accepted value of ATTNRANK_MAX_SCALE_N. */
#define BRACKET_SCALE_MAX_N_MAX 100000000

/* Largest n the scale engine accepts: the configuration's scale_max_n
 * (base/config.h; 200000 by default, ATTNRANK_MAX_SCALE_N at the
 * boundary).  Always AR_OK. */
ar_status bracket_scale_max_n(size_t *out);

/* 1 if every point of P is within 1e-12 of the unit sphere (the scale
 * engine applies), else 0. */
int bracket_scale_applies(const pointset_t *P);

#endif
