/* SPDX-License-Identifier: GPL-3.0-or-later */
/* model_heads.h -- the attention heads of one model over a set of inputs,
 * as query/key point sets: what claim E's calibration (theory/heads/calib)
 * analyses, whichever model produced them (USE lite, PP-OCRv4, a user's
 * PyTorch model through a manifest).  An object, never a rank.
 *
 * Layer l has nheads heads of dimension dh; for input i it holds n[i]
 * positions with Q[i], K[i] (n[i] x nheads*dh, row-major, head h in
 * columns h*dh .. h*dh + dh - 1), so that the model's attention of head h is
 * A = rowsoftmax(scale Q_h K_h^T) (every key multiplicity 1).  Optional:
 * the attention inputs H[i] (n[i] x d_in) and the head weights WQ, WK
 * (d_in x nheads*dh, same column layout), bQ, bK (nheads*dh) with
 * Q = H WQ + 1 bQ, K = H WK + 1 bK, and the layer norm (ln_scale, ln_bias,
 * d_in) that produces H, for the weights-only analysis; NULL when the model
 * does not provide them. */
#ifndef ATTNRANK_CONSTRUCTIONS_MODEL_HEADS_H
#define ATTNRANK_CONSTRUCTIONS_MODEL_HEADS_H

#include <stddef.h>
#include "base/status.h"
#include "constructions/pointsets/pointset.h"

#define MODEL_HEADS_NAME_LEN 64

typedef struct {
    size_t nheads, dh;
    double scale;                   /* the model's own logit scale (beta at temperature scale 1) */
    size_t d_in;                    /* 0 when no weights are given */
    double *WQ, *WK, *bQ, *bK;      /* d_in x nheads*dh, nheads*dh (or NULL) */
    double *ln_scale, *ln_bias;     /* d_in (or NULL: no a priori input radius) */
    double **Q, **K, **H;           /* per input; H[i] may be NULL */
} model_heads_layer_t;

typedef struct {
    char name[MODEL_HEADS_NAME_LEN];  /* "use-lite", "pp-ocrv4", a manifest's model name */
    size_t nlayers, ninputs;
    size_t *n;                        /* positions per input (the same in every layer) */
    model_heads_layer_t *layer;
} model_heads_t;

/* Allocate nlayers x ninputs empty slots (n, per-layer Q/K/H arrays of
 * pointers, all zero); the caller fills them with ar_calloc'd arrays. */
ar_status model_heads_alloc(model_heads_t *D, const char *name, size_t nlayers, size_t ninputs);

/* Free everything (safe on a zeroed or cleared object). */
void model_heads_clear(model_heads_t *D);

/* Check the object: nlayers, ninputs >= 1, every layer nheads, dh >= 1 and
 * a finite scale > 0, every n[i] >= 2, Q and K present and finite.  AR_EINVAL
 * with one line naming the layer or input otherwise. */
ar_status model_heads_validate(const model_heads_t *D);

/* Query and key point sets (n x dh each, no provenance) from the columns
 * c0 .. c0 + dh - 1 of Qall and Kall (n x w, row-major). */
ar_status model_heads_split(const double *Qall, const double *Kall, size_t n, size_t w, size_t c0, size_t dh,
                            pointset_t *Q, pointset_t *K);

/* Query and key point sets of (layer, head, input): n x dh each, provenance
 * naming the model, layer, head and `tag`. */
ar_status model_heads_pointsets(const model_heads_t *D, size_t layer, size_t head, size_t input, const char *tag,
                                pointset_t *Q, pointset_t *K);

/* Weights of one head: WQ, WK (d_in x dh, row-major), bQ, bK (dh), each
 * allocated; AR_EINVAL when the layer has no weights. */
ar_status model_heads_weights(const model_heads_t *D, size_t layer, size_t head, double **WQ, double **WK,
                              double **bQ, double **bK);

/* Q = H W + 1 b for the columns of one layer: out = n x cols, from H
 * (n x d_in), W (d_in x ld, row-major, columns c0 .. c0 + cols - 1), b (ld).
 * Plain loops in a fixed order (the same numbers on every machine). */
void model_heads_project(const double *H, size_t n, size_t d_in, const double *W, const double *b, size_t ld,
                         size_t c0, size_t cols, double *out);

/* SHA-256 (64 hex digits and a NUL into hex) of everything in D: name,
 * shapes, logit scales, weights, layer norms and every input's Q, K and H as
 * their bytes in memory (IEEE doubles).  Two processes that loaded the same
 * model on the same inputs get the same digest; anything else (another file,
 * another --sentences) almost surely another. */
void model_heads_digest(const model_heads_t *D, char hex[65]);

#endif
