/* SPDX-License-Identifier: GPL-3.0-or-later */
/* real_model.c -- USE-lite weights, forward pass to the attention inputs,
 * per-head extraction (see real_model.h). */
#include "constructions/models/real_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "constructions/formats/tfjs_weights.h"
#include "base/parallel.h"
#include "base/path.h"
#include "numerics/vec_axpy.h"

#define P_MOD "module/Encoder_en/KonaTransformer/Encode/"
#define P_APP "module_apply_default/Encoder_en/KonaTransformer/Encode/"
#define P_TS P_APP "TransformerStack/"

static ar_status get(const tfjs_weights_t *W, double **out, size_t ndim, size_t d0, size_t d1,
                     size_t d2, size_t d3, const char *fmt, size_t l)
{
    char name[400];
    snprintf(name, sizeof name, fmt, l);
    size_t dims[4] = { d0, d1, d2, d3 };
    return tfjs_weights_get(W, name, ndim, dims, out);
}

/* A scalar float32 weight. */
static ar_status get_scalar(const tfjs_weights_t *W, double *x, const char *fmt, size_t l)
{
    double *p;
    ar_status st = get(W, &p, 0, 0, 0, 0, 0, fmt, l);
    if (st)
        return st;
    *x = p[0];
    free(p);
    return AR_OK;
}

static ar_status load_layer(const tfjs_weights_t *W, size_t l, real_layer_t *L)
{
    ar_status st;
    L->d_in = l == 0 ? 256 : 512;
    L->d = L->d_in;
    L->d_out = 512;
    L->d_ffn = 1536;
    size_t din = L->d_in, d = L->d;
#define TRY(x) do { st = (x); if (st) return st; } while (0)
    TRY(get(W, &L->ln_scale, 1, din, 0, 0, 0,
            P_APP "Layer_%zu/TransformerLayer/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat", l));
    TRY(get(W, &L->ln_bias, 1, din, 0, 0, 0,
            P_APP "Layer_%zu/TransformerLayer/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat", l));
    TRY(get(W, &L->qkv, 4, 1, 1, din, 3 * d,
            P_MOD "Layer_%zu/TransformerLayer/MultiheadAttention/qkv_transform_single/kernel/part_0", l));
    TRY(get(W, &L->qkv_bias, 1, 3 * d, 0, 0, 0,
            P_APP "Layer_%zu/TransformerLayer/MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat", l));
    TRY(get_scalar(W, &L->scale, P_TS "Layer_%zu/TransformerLayer/MultiheadAttention/mul/y", l));
    double dh = (double)(d / REAL_HEADS);
    if (!(fabs(L->scale * sqrt(dh) - 1.0) < 1e-6)) {
        ar_error_set("%s: layer %zu query scale %g is not 1/sqrt(%g)", W->path, l, L->scale, dh);
        return AR_EINVAL;
    }
    if (l != 0)
        return AR_OK;
    size_t dout = L->d_out, df = L->d_ffn;
    TRY(get(W, &L->wo, 4, 1, 1, d, dout,
            P_MOD "Layer_%zu/TransformerLayer/MultiheadAttention/output_transform_single/kernel/part_0", l));
    TRY(get(W, &L->bo, 1, dout, 0, 0, 0,
            P_APP "Layer_%zu/TransformerLayer/MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat", l));
    TRY(get(W, &L->wres, 2, din, dout, 0, 0, P_APP "Layer_%zu/TransformerLayer/dense/kernel/ConcatPartitions/concat", l));
    TRY(get(W, &L->bres, 1, dout, 0, 0, 0, P_APP "Layer_%zu/TransformerLayer/dense/bias/ConcatPartitions/concat", l));
    TRY(get(W, &L->ffn_ln_scale, 1, dout, 0, 0, 0,
            P_APP "Layer_%zu/TransformerLayer/FFN/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat", l));
    TRY(get(W, &L->ffn_ln_bias, 1, dout, 0, 0, 0,
            P_APP "Layer_%zu/TransformerLayer/FFN/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat", l));
    TRY(get(W, &L->w1, 2, dout, df, 0, 0, P_TS "Layer_%zu/TransformerLayer/FFN/conv1/Tensordot/Reshape_1", l));
    TRY(get(W, &L->b1, 1, df, 0, 0, 0, P_APP "Layer_%zu/TransformerLayer/FFN/conv1/bias/ConcatPartitions/concat", l));
    TRY(get(W, &L->w2, 2, df, dout, 0, 0, P_TS "Layer_%zu/TransformerLayer/FFN/conv2/Tensordot/Reshape_1", l));
    TRY(get(W, &L->b2, 1, dout, 0, 0, 0, P_APP "Layer_%zu/TransformerLayer/FFN/conv2/bias/ConcatPartitions/concat", l));
#undef TRY
    return AR_OK;
}

static void layer_clear(real_layer_t *L)
{
    double *p[] = { L->ln_scale, L->ln_bias, L->qkv, L->qkv_bias, L->wo, L->bo, L->wres, L->bres,
                    L->ffn_ln_scale, L->ffn_ln_bias, L->w1, L->b1, L->w2, L->b2 };
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        free(p[i]);
    memset(L, 0, sizeof *L);
}

void real_model_clear(real_model_t *M)
{
    if (!M)
        return;
    spm_vocab_clear(&M->vocab);
    free(M->emb);
    free(M->timing);
    for (size_t l = 0; l < REAL_LAYERS; l++)
        layer_clear(&M->layer[l]);
    memset(M, 0, sizeof *M);
}

static ar_status load_all(const tfjs_weights_t *W, real_model_t *M)
{
    const tfjs_entry_t *e = tfjs_weights_find(W, "module/Embeddings_en");
    if (!e || e->ndim != 2 || e->shape[1] != 256 || e->shape[0] < M->vocab.n) {
        ar_error_set("%s: embedding table module/Embeddings_en missing or not [>=%zu, 256]", W->path, M->vocab.n);
        return AR_EINVAL;
    }
    M->n_emb = e->shape[0];
    M->d_emb = 256;
    ar_status st = get(W, &M->emb, 2, M->n_emb, 256, 0, 0, "module/Embeddings_en", 0);
    if (st) return st;
    M->n_timing = 128;
    st = get(W, &M->timing, 2, 1, 128, 0, 0, P_TS "Layer_%zu/AddTimingSignal/TimingSignal/ExpandDims_1", 0);
    if (st) return st;
    st = get_scalar(W, &M->ln_eps, P_TS "Layer_%zu/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x", 1);
    if (st) return st;
    if (!(M->ln_eps > 0 && M->ln_eps < 1e-2)) {
        ar_error_set("%s: layer-norm epsilon %g out of range", W->path, M->ln_eps);
        return AR_EINVAL;
    }
    int32_t clip;
    st = tfjs_weights_get_i32(W, "module_apply_default/Encoder_en/KonaTransformer/ClipToMaxLength/Less/y", &clip);
    if (st) return st;
    if (clip < 2 || clip > 4096) {
        ar_error_set("%s: maximum length %d out of range", W->path, (int)clip);
        return AR_EINVAL;
    }
    M->max_tokens = (size_t)clip;
    for (size_t l = 0; l < REAL_LAYERS; l++) {
        st = load_layer(W, l, &M->layer[l]);
        if (st) return st;
    }
    return AR_OK;
}

ar_status real_model_load(const char *dir, real_model_t *M)
{
    memset(M, 0, sizeof *M);
    char *p;
    ar_status st = path_join(dir, "vocab.json", &p);
    if (st)
        return st;
    st = spm_vocab_load(p, &M->vocab);
    free(p);
    if (st)
        return st;
    tfjs_weights_t W;
    st = path_join(dir, "model.json", &p);
    if (!st) {
        st = tfjs_weights_load(p, &W);
        free(p);
    }
    if (!st) {
        st = load_all(&W, M);
        tfjs_weights_clear(&W);
    }
    if (st)
        real_model_clear(M);
    return st;
}

void real_acts_clear(real_acts_t *A)
{
    if (!A)
        return;
    for (size_t l = 0; l < REAL_LAYERS; l++) {
        free(A->h[l]);
        free(A->q[l]);
        free(A->k[l]);
    }
    memset(A, 0, sizeof *A);
}

size_t real_model_head_dim(const real_model_t *M, size_t layer)
{
    return layer < REAL_LAYERS ? M->layer[layer].d / REAL_HEADS : 0;
}

/* y (n x c) = x (n x r) W (r x c) + b (c), b may be NULL. */
static void matmul_bias(const double *x, const double *W, const double *b, size_t n, size_t r,
                        size_t c, double *y)
{
    for (size_t i = 0; i < n; i++) {
        double *yi = y + i * c;
        for (size_t j = 0; j < c; j++)
            yi[j] = b ? b[j] : 0.0;
        for (size_t k = 0; k < r; k++)
            vec_axpy(yi, W + k * c, x[i * r + k], c);
    }
}

static void layer_norm(const double *x, size_t n, size_t d, const double *s, const double *b,
                       double eps, double *y)
{
    for (size_t i = 0; i < n; i++) {
        const double *xi = x + i * d;
        double mu = 0, var = 0;
        for (size_t j = 0; j < d; j++)
            mu += xi[j];
        mu /= (double)d;
        for (size_t j = 0; j < d; j++)
            var += (xi[j] - mu) * (xi[j] - mu);
        var /= (double)d;
        double r = 1.0 / sqrt(var + eps);
        for (size_t j = 0; j < d; j++)
            y[i * d + j] = (xi[j] - mu) * r * s[j] + b[j];
    }
}

/* Attention input, q and k of layer l from its input x (n x d_in). */
static ar_status attn_input(const real_model_t *M, size_t l, const double *x, size_t n, real_acts_t *A,
                            double **qkv_out)
{
    const real_layer_t *L = &M->layer[l];
    size_t d = L->d;
    A->h[l] = ar_calloc(n * L->d_in, sizeof(double), "activations");
    A->q[l] = ar_calloc(n * d, sizeof(double), "activations");
    A->k[l] = ar_calloc(n * d, sizeof(double), "activations");
    double *qkv = ar_calloc(n * 3 * d, sizeof(double), "activations");
    if (!A->h[l] || !A->q[l] || !A->k[l] || !qkv) {
        free(qkv);
        return AR_ENOMEM;
    }
    layer_norm(x, n, L->d_in, L->ln_scale, L->ln_bias, M->ln_eps, A->h[l]);
    matmul_bias(A->h[l], L->qkv, L->qkv_bias, n, L->d_in, 3 * d, qkv);
    for (size_t i = 0; i < n; i++) {
        memcpy(A->q[l] + i * d, qkv + i * 3 * d, d * sizeof(double));
        memcpy(A->k[l] + i * d, qkv + i * 3 * d + d, d * sizeof(double));
    }
    *qkv_out = qkv;
    return AR_OK;
}

/* Layer 0 from its qkv (n x 3d) and input x0 (n x d_in) to x2 (n x d_out). */
static ar_status layer0_rest(const real_model_t *M, const double *x0, const double *qkv, size_t n, double *x2)
{
    const real_layer_t *L = &M->layer[0];
    size_t d = L->d, dh = d / REAL_HEADS, dout = L->d_out, df = L->d_ffn;
    double *ctx = ar_calloc(n * d, sizeof(double), "activations");
    double *s = ar_calloc(n, sizeof(double), "activations");
    double *x1 = ar_calloc(n * dout, sizeof(double), "activations");
    double *res = ar_calloc(n * dout, sizeof(double), "activations");
    double *f = ar_calloc(n * dout, sizeof(double), "activations");
    double *g = ar_calloc(n * df, sizeof(double), "activations");
    ar_status st = AR_ENOMEM;
    if (!ctx || !s || !x1 || !res || !f || !g)
        goto done;
    for (size_t h = 0; h < REAL_HEADS; h++)
        for (size_t i = 0; i < n; i++) {
            const double *qi = qkv + i * 3 * d + h * dh;
            double mx = -INFINITY, tot = 0;
            for (size_t j = 0; j < n; j++) {
                const double *kj = qkv + j * 3 * d + d + h * dh;
                double a = 0;
                for (size_t c = 0; c < dh; c++)
                    a += qi[c] * L->scale * kj[c];
                s[j] = a;
                if (a > mx) mx = a;
            }
            for (size_t j = 0; j < n; j++) {
                s[j] = exp(s[j] - mx);
                tot += s[j];
            }
            for (size_t j = 0; j < n; j++) {
                const double *vj = qkv + j * 3 * d + 2 * d + h * dh;
                for (size_t c = 0; c < dh; c++)
                    ctx[i * d + h * dh + c] += s[j] / tot * vj[c];
            }
        }
    matmul_bias(ctx, L->wo, L->bo, n, d, dout, x1);
    matmul_bias(x0, L->wres, L->bres, n, L->d_in, dout, res);
    for (size_t i = 0; i < n * dout; i++)
        x1[i] += res[i];
    layer_norm(x1, n, dout, L->ffn_ln_scale, L->ffn_ln_bias, M->ln_eps, f);
    matmul_bias(f, L->w1, L->b1, n, dout, df, g);
    for (size_t i = 0; i < n * df; i++)
        if (g[i] < 0) g[i] = 0;
    matmul_bias(g, L->w2, L->b2, n, df, dout, f);
    for (size_t i = 0; i < n * dout; i++)
        x2[i] = x1[i] + f[i];
    st = AR_OK;
done:
    free(ctx); free(s); free(x1); free(res); free(f); free(g);
    return st;
}

ar_status real_model_forward(const real_model_t *M, const int *ids, size_t n, real_acts_t *A)
{
    memset(A, 0, sizeof *A);
    if (n < 1 || n > M->max_tokens) {
        ar_error_set("forward: %zu tokens (the model reads at most %zu)", n, M->max_tokens);
        return AR_EINVAL;
    }
    for (size_t t = 0; t < n; t++)
        if (ids[t] < 0 || (size_t)ids[t] >= M->n_emb) {
            ar_error_set("forward: token id %d out of range 0..%zu", ids[t], M->n_emb - 1);
            return AR_EINVAL;
        }
    A->n = n;
    size_t de = M->d_emb, nt = M->n_timing;
    double *x0 = ar_calloc(n * de, sizeof(double), "activations");
    double *x2 = ar_calloc(n * M->layer[0].d_out, sizeof(double), "activations");
    double *qkv = NULL;
    ar_status st = AR_ENOMEM;
    if (!x0 || !x2)
        goto done;
    for (size_t t = 0; t < n; t++)
        for (size_t c = 0; c < nt; c++) {
            /* the model forms t*w in float32 */
            double arg = (double)(float)((float)t * (float)M->timing[c]);
            double e0 = M->emb[(size_t)ids[t] * de + c], e1 = M->emb[(size_t)ids[t] * de + nt + c];
            x0[t * de + c] = 2.0 * e0 + sin(arg);
            x0[t * de + nt + c] = 2.0 * e1 + cos(arg);
        }
    st = attn_input(M, 0, x0, n, A, &qkv);
    if (st) goto done;
    st = layer0_rest(M, x0, qkv, n, x2);
    if (st) goto done;
    free(qkv);
    qkv = NULL;
    st = attn_input(M, 1, x2, n, A, &qkv);
done:
    free(x0); free(x2); free(qkv);
    if (st)
        real_acts_clear(A);
    return st;
}

ar_status real_head_pointsets(const real_model_t *M, const real_acts_t *A, size_t layer,
                              size_t head, const char *tag, pointset_t *Q, pointset_t *K)
{
    memset(Q, 0, sizeof *Q);
    memset(K, 0, sizeof *K);
    if (layer >= REAL_LAYERS || head >= REAL_HEADS || !A->q[layer]) {
        ar_error_set("real model: no layer %zu head %zu", layer, head);
        return AR_EINVAL;
    }
    size_t d = M->layer[layer].d, dh = d / REAL_HEADS;
    ar_status st = model_heads_split(A->q[layer], A->k[layer], A->n, d, head * dh, dh, Q, K);
    if (st)
        return st;
    pointset_set_provenance(Q, "USE-lite layer %zu head %zu queries (%s)", layer, head, tag);
    pointset_set_provenance(K, "USE-lite layer %zu head %zu keys (%s)", layer, head, tag);
    return AR_OK;
}

static double *copy_cols(const double *W, size_t rows, size_t ld, size_t c0, size_t cols)
{
    double *d = ar_calloc(rows * cols, sizeof *d, "head weights");
    if (d)
        for (size_t r = 0; r < rows; r++)
            memcpy(d + r * cols, W + r * ld + c0, cols * sizeof *d);
    return d;
}

/* Token ids of sentence s through the forward pass, errors naming it. */
static ar_status forward_sentence(const real_model_t *M, const corpus_t *C, size_t s, real_acts_t *A)
{
    const char *vocab = M->vocab.path ? M->vocab.path : "(unnamed vocabulary)";
    char where[160] = "";
    if (C->entry)
        snprintf(where, sizeof where, " (%s, sentence %zu)", C->entry[s].file, C->entry[s].index);
    int *ids;
    size_t n;
    ar_status st = spm_encode(&M->vocab, C->text[s], &ids, &n);
    if (st)
        return st;
    if (n > M->max_tokens) {
        free(ids);
        ar_error_set("calib: sentence %zu%s of %zu characters becomes %zu tokens under the vocabulary %s, "
                     "the model reads at most %zu: this vocabulary does not fit the model",
                     s, where, strlen(C->text[s]), n, vocab, M->max_tokens);
        return AR_EINVAL;
    }
    if (n < 2) {
        free(ids);
        ar_error_set("calib: sentence %zu%s has fewer than 2 tokens under the vocabulary %s", s, where, vocab);
        return AR_EINVAL;
    }
    st = real_model_forward(M, ids, n, A);
    free(ids);
    if (st) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", ar_error_get());
        ar_error_set("calib: sentence %zu%s: %s", s, where, msg);
    }
    return st;
}

typedef struct {
    const real_model_t *M;
    const corpus_t *C;
    model_heads_t *D;
} fw_ctx_t;

/* Sentence s through the forward pass, its activations handed to D's slots s. */
static ar_status fw_one(void *arg, size_t s)
{
    fw_ctx_t *F = arg;
    real_acts_t A;
    ar_status st = forward_sentence(F->M, F->C, s, &A);
    if (st)
        return st;
    F->D->n[s] = A.n;
    for (size_t l = 0; l < REAL_LAYERS; l++) {   /* hand the activations over */
        F->D->layer[l].H[s] = A.h[l];
        F->D->layer[l].Q[s] = A.q[l];
        F->D->layer[l].K[s] = A.k[l];
        A.h[l] = A.q[l] = A.k[l] = NULL;
    }
    real_acts_clear(&A);
    return AR_OK;
}

ar_status real_model_heads(const real_model_t *M, const corpus_t *C, model_heads_t *D)
{
    ar_status st = model_heads_alloc(D, "use-lite", REAL_LAYERS, C->n);
    if (st)
        return st;
    for (size_t l = 0; !st && l < REAL_LAYERS; l++) {
        const real_layer_t *R = &M->layer[l];
        model_heads_layer_t *L = &D->layer[l];
        size_t d = R->d, din = R->d_in;
        L->nheads = REAL_HEADS;
        L->dh = d / REAL_HEADS;
        L->scale = R->scale;
        L->d_in = din;
        L->WQ = copy_cols(R->qkv, din, 3 * d, 0, d);
        L->WK = copy_cols(R->qkv, din, 3 * d, d, d);
        L->bQ = copy_cols(R->qkv_bias, 1, 3 * d, 0, d);
        L->bK = copy_cols(R->qkv_bias, 1, 3 * d, d, d);
        L->ln_scale = copy_cols(R->ln_scale, 1, din, 0, din);
        L->ln_bias = copy_cols(R->ln_bias, 1, din, 0, din);
        if (!L->WQ || !L->WK || !L->bQ || !L->bK || !L->ln_scale || !L->ln_bias)
            st = AR_ENOMEM;
    }
    /* the sentences side by side (issue 35): each writes only its own slots, the same numbers as one
     * by one; the first failing sentence in order is reported */
    fw_ctx_t F = {.M = M, .C = C, .D = D};
    if (!st)
        st = par_for_status(C->n, fw_one, &F, NULL);
    if (st)
        model_heads_clear(D);
    return st;
}
