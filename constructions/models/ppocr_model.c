/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ppocr_model.c -- the PP-OCRv4 recogniser up to its attention inputs (see
 * ppocr_model.h). */
#include "constructions/models/ppocr_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "constructions/models/onnx_exec.h"
#include "base/parallel.h"

/* Names of the two SVTR blocks' tensors in ch_PP-OCRv4_rec_infer.onnx. */
static const struct {
    const char *ln_w, *ln_b, *qkv_w, *qkv_b, *scale, *attn;
} names[PPOCR_LAYERS] = {
    { "layer_norm_43.w_0", "layer_norm_43.b_0", "linear_77.w_0", "linear_77.b_0", "p2o.helper.constant.95",
      "softmax_9.tmp_0" },
    { "layer_norm_45.w_0", "layer_norm_45.b_0", "linear_81.w_0", "linear_81.b_0", "p2o.helper.constant.105",
      "softmax_10.tmp_0" },
};

/* The node whose output 0 is `value`, or NULL. */
static const onnx_node_t *producer(const onnx_graph_t *G, const char *value)
{
    for (size_t i = 0; i < G->nnode; i++)
        if (strcmp(G->node[i].out[0], value) == 0)
            return &G->node[i];
    return NULL;
}

/* The first node of type op reading `value` as input `slot` (any slot if
 * slot < 0), or NULL. */
static const onnx_node_t *consumer(const onnx_graph_t *G, const char *op, const char *value, int slot)
{
    for (size_t i = 0; i < G->nnode; i++) {
        const onnx_node_t *N = &G->node[i];
        if (strcmp(N->op, op) != 0)
            continue;
        for (size_t k = 0; k < N->nin; k++)
            if ((slot < 0 || (size_t)slot == k) && strcmp(N->in[k], value) == 0)
                return N;
    }
    return NULL;
}

static const onnx_tensor_t *weight(const onnx_graph_t *G, const char *name, size_t rank, int64_t d0, int64_t d1)
{
    const onnx_tensor_t *T = onnx_const_find(G, name);
    if (!T || T->dtype != ONNX_F32 || T->rank != rank || (rank > 0 && T->dims[0] != d0) ||
        (rank > 1 && T->dims[1] != d1)) {
        ar_error_set("%s: not the PP-OCRv4 recogniser: constant '%s' is missing or not a float32 tensor of the "
                     "expected shape", G->source, name);
        return NULL;
    }
    return T;
}

static ar_status load_layer(const onnx_graph_t *G, size_t l, ppocr_layer_t *L)
{
    const onnx_tensor_t *lw = weight(G, names[l].ln_w, 1, PPOCR_DIM, 0),
                        *lb = lw ? weight(G, names[l].ln_b, 1, PPOCR_DIM, 0) : NULL,
                        *qw = lb ? weight(G, names[l].qkv_w, 2, PPOCR_DIM, 3 * PPOCR_DIM) : NULL,
                        *qb = qw ? weight(G, names[l].qkv_b, 1, 3 * PPOCR_DIM, 0) : NULL,
                        *sc = qb ? weight(G, names[l].scale, 0, 0, 0) : NULL;
    if (!sc)
        return AR_EINVAL;
    /* wiring: h = Add(Mul(., ln_w), ln_b); qkv = Add(MatMul(h, W), b);
     * logits = MatMul(Mul(q, scale), k^T); attn = Softmax(logits) */
    const onnx_node_t *mm = consumer(G, "MatMul", qw->name, 1);
    const onnx_node_t *hn = mm ? producer(G, mm->in[0]) : NULL;
    const onnx_node_t *gn = hn && !strcmp(hn->op, "Add") && hn->nin == 2 && !strcmp(hn->in[1], lb->name)
                                ? producer(G, hn->in[0]) : NULL;
    const onnx_node_t *bn = mm ? consumer(G, "Add", mm->out[0], 0) : NULL;
    const onnx_node_t *sm = consumer(G, "Mul", sc->name, 1);
    const onnx_node_t *lg = sm ? consumer(G, "MatMul", sm->out[0], 0) : NULL;
    const onnx_node_t *sx = lg ? consumer(G, "Softmax", lg->out[0], 0) : NULL;
    if (!gn || strcmp(gn->op, "Mul") || gn->nin != 2 || strcmp(gn->in[1], lw->name) || !bn || bn->nin != 2 ||
        strcmp(bn->in[1], qb->name) || !sx || strcmp(sx->out[0], names[l].attn)) {
        ar_error_set("%s: not the PP-OCRv4 recogniser: block %zu is not wired as LayerNorm -> qkv projection -> "
                     "scaled dot-product softmax", G->source, l);
        return AR_EINVAL;
    }
    double c = sc->data[0];
    if (!(fabs(c * sqrt(15.0) - 1.0) < 1e-6)) {
        ar_error_set("%s: block %zu query scale %g is not 1/sqrt(15)", G->source, l, c);
        return AR_EINVAL;
    }
    L->ln_scale = lw->data;
    L->ln_bias = lb->data;
    L->qkv = qw->data;
    L->qkv_bias = qb->data;
    L->scale = c;
    L->h_name = hn->out[0];
    L->attn_name = sx->out[0];
    return AR_OK;
}

ar_status ppocr_model_load(const char *path, ppocr_model_t *M)
{
    memset(M, 0, sizeof *M);
    ar_status st = onnx_read_file(path, (size_t)64 << 20, &M->G);
    if (st)
        return st;
    if (M->G.ninput != 1) {
        ar_error_set("%s: not the PP-OCRv4 recogniser: %zu graph inputs", path, M->G.ninput);
        st = AR_EINVAL;
    }
    for (size_t l = 0; !st && l < PPOCR_LAYERS; l++)
        st = load_layer(&M->G, l, &M->layer[l]);
    if (st)
        ppocr_model_clear(M);
    return st;
}

void ppocr_model_clear(ppocr_model_t *M)
{
    if (!M)
        return;
    onnx_graph_clear(&M->G);
    memset(M, 0, sizeof *M);
}

ar_status ppocr_image_tensor(const ppm_image_t *img, onnx_tensor_t *x)
{
    memset(x, 0, sizeof *x);
    size_t w = img->width;
    if (img->height != PPOCR_HEIGHT || w < 8 || w > PPOCR_MAX_WIDTH) {
        ar_error_set("text-line image of %zu x %zu pixels: the recogniser reads height %d and width 8..%d",
                     img->width, img->height, PPOCR_HEIGHT, PPOCR_MAX_WIDTH);
        return AR_EINVAL;
    }
    x->rank = 4;
    x->dims[0] = 1;
    x->dims[1] = 3;
    x->dims[2] = PPOCR_HEIGHT;
    x->dims[3] = (int64_t)w;
    x->size = 3 * PPOCR_HEIGHT * w;
    x->dtype = ONNX_F32;
    x->data = ar_calloc(x->size, sizeof(double), "image tensor");
    if (!x->data)
        return AR_ENOMEM;
    for (size_t c = 0; c < 3; c++)       /* BGR: channel c reads RGB byte 2 - c */
        for (size_t y = 0; y < PPOCR_HEIGHT; y++)
            for (size_t i = 0; i < w; i++) {
                float p = (float)img->rgb[3 * (y * w + i) + 2 - c];
                float v = (p / 255.0f - 0.5f) / 0.5f;   /* float32 steps, as numpy does */
                x->data[(c * PPOCR_HEIGHT + y) * w + i] = v;
            }
    return AR_OK;
}

ar_status ppocr_forward(const ppocr_model_t *M, const ppm_image_t *img, size_t *n, double *H[PPOCR_LAYERS])
{
    *n = 0;
    for (size_t l = 0; l < PPOCR_LAYERS; l++)
        H[l] = NULL;
    onnx_tensor_t x, out[PPOCR_LAYERS];
    ar_status st = ppocr_image_tensor(img, &x);
    if (st)
        return st;
    const char *targets[PPOCR_LAYERS];
    for (size_t l = 0; l < PPOCR_LAYERS; l++)
        targets[l] = M->layer[l].h_name;
    st = onnx_exec(&M->G, &x, targets, PPOCR_LAYERS, out);
    onnx_tensor_clear(&x);
    if (st)
        return st;
    size_t m = out[0].rank == 3 ? (size_t)out[0].dims[1] : 0;
    for (size_t l = 0; !st && l < PPOCR_LAYERS; l++)
        if (out[l].rank != 3 || out[l].dims[0] != 1 || (size_t)out[l].dims[1] != m || out[l].dims[2] != PPOCR_DIM ||
            m < 1) {
            ar_error_set("%s: block %zu input is not [1, n, %d]", M->G.source, l, PPOCR_DIM);
            st = AR_EINVAL;
        }
    for (size_t l = 0; l < PPOCR_LAYERS; l++) {
        if (!st) {
            H[l] = out[l].data;             /* [1, n, 120] row-major = n x 120 */
            out[l].data = NULL;
        }
        onnx_tensor_clear(&out[l]);
    }
    if (!st)
        *n = m;
    return st;
}

static double *dup_doubles(const double *x, size_t n)
{
    double *d = ar_calloc(n, sizeof *d, "PP-OCRv4 weights");
    if (d)
        memcpy(d, x, n * sizeof *d);
    return d;
}

typedef struct {
    const ppocr_model_t *M;
    const ppm_image_t *images;
    model_heads_t *D;
} img_ctx_t;

/* Image i through the forward pass; its activations and projections into D's slots i. */
static ar_status img_one(void *arg, size_t i)
{
    img_ctx_t *F = arg;
    model_heads_t *D = F->D;
    const size_t d = PPOCR_DIM;
    double *H[PPOCR_LAYERS];
    size_t n;
    ar_status st = ppocr_forward(F->M, &F->images[i], &n, H);
    if (!st) {
        D->n[i] = n;
        for (size_t l = 0; l < PPOCR_LAYERS; l++) {
            model_heads_layer_t *L = &D->layer[l];
            L->H[i] = H[l];
            L->Q[i] = ar_calloc(n * d, sizeof(double), "PP-OCRv4 queries");
            L->K[i] = ar_calloc(n * d, sizeof(double), "PP-OCRv4 keys");
            if (!L->Q[i] || !L->K[i]) {
                st = AR_ENOMEM;
                continue;
            }
            model_heads_project(H[l], n, d, L->WQ, L->bQ, d, 0, d, L->Q[i]);
            model_heads_project(H[l], n, d, L->WK, L->bK, d, 0, d, L->K[i]);
        }
    }
    return st;
}

ar_status ppocr_model_heads(const ppocr_model_t *M, const ppm_image_t *images, size_t nimg, model_heads_t *D)
{
    ar_status st = model_heads_alloc(D, "pp-ocrv4", PPOCR_LAYERS, nimg);
    if (st)
        return st;
    const size_t d = PPOCR_DIM, w3 = 3 * PPOCR_DIM;
    for (size_t l = 0; !st && l < PPOCR_LAYERS; l++) {
        model_heads_layer_t *L = &D->layer[l];
        const ppocr_layer_t *P = &M->layer[l];
        L->nheads = PPOCR_HEADS;
        L->dh = PPOCR_DIM / PPOCR_HEADS;
        L->scale = P->scale;
        L->d_in = d;
        L->WQ = ar_calloc(d * d, sizeof(double), "PP-OCRv4 weights");
        L->WK = ar_calloc(d * d, sizeof(double), "PP-OCRv4 weights");
        L->bQ = dup_doubles(P->qkv_bias, d);
        L->bK = dup_doubles(P->qkv_bias + d, d);
        L->ln_scale = dup_doubles(P->ln_scale, d);
        L->ln_bias = dup_doubles(P->ln_bias, d);
        if (!L->WQ || !L->WK || !L->bQ || !L->bK || !L->ln_scale || !L->ln_bias) {
            st = AR_ENOMEM;
            break;
        }
        for (size_t r = 0; r < d; r++)
            for (size_t c = 0; c < d; c++) {
                L->WQ[r * d + c] = P->qkv[r * w3 + c];
                L->WK[r * d + c] = P->qkv[r * w3 + d + c];
            }
    }
    /* the images side by side (issue 35): each writes only its own slots, the same numbers as one by
     * one; the first failing image in order is reported */
    img_ctx_t F = {.M = M, .images = images, .D = D};
    if (!st)
        st = par_for_status(nimg, img_one, &F, NULL);
    if (st)
        model_heads_clear(D);
    return st;
}
