/* SPDX-License-Identifier: GPL-3.0-or-later */
/* model_heads.c -- a model's heads as point sets (see model_heads.h). */
#include "constructions/pointsets/model_heads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/sha256.h"

ar_status model_heads_alloc(model_heads_t *D, const char *name, size_t nlayers, size_t ninputs)
{
    memset(D, 0, sizeof *D);
    snprintf(D->name, sizeof D->name, "%s", name);
    D->nlayers = nlayers;
    D->ninputs = ninputs;
    D->n = ar_calloc(ninputs ? ninputs : 1, sizeof *D->n, "model heads");
    D->layer = ar_calloc(nlayers ? nlayers : 1, sizeof *D->layer, "model heads");
    if (!D->n || !D->layer) {
        model_heads_clear(D);
        return AR_ENOMEM;
    }
    for (size_t l = 0; l < nlayers; l++) {
        model_heads_layer_t *L = &D->layer[l];
        L->Q = ar_calloc(ninputs ? ninputs : 1, sizeof *L->Q, "model heads");
        L->K = ar_calloc(ninputs ? ninputs : 1, sizeof *L->K, "model heads");
        L->H = ar_calloc(ninputs ? ninputs : 1, sizeof *L->H, "model heads");
        if (!L->Q || !L->K || !L->H) {
            model_heads_clear(D);
            return AR_ENOMEM;
        }
    }
    return AR_OK;
}

void model_heads_clear(model_heads_t *D)
{
    if (!D)
        return;
    for (size_t l = 0; D->layer && l < D->nlayers; l++) {
        model_heads_layer_t *L = &D->layer[l];
        for (size_t i = 0; i < D->ninputs; i++) {
            if (L->Q) free(L->Q[i]);
            if (L->K) free(L->K[i]);
            if (L->H) free(L->H[i]);
        }
        free(L->Q); free(L->K); free(L->H);
        free(L->WQ); free(L->WK); free(L->bQ); free(L->bK);
        free(L->ln_scale); free(L->ln_bias);
    }
    free(D->layer);
    free(D->n);
    memset(D, 0, sizeof *D);
}

static int all_finite(const double *x, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (!isfinite(x[k]))
            return 0;
    return 1;
}

ar_status model_heads_validate(const model_heads_t *D)
{
    if (D->nlayers < 1 || D->ninputs < 1) {
        ar_error_set("%s: no layers or no inputs", D->name);
        return AR_EINVAL;
    }
    for (size_t i = 0; i < D->ninputs; i++)
        if (D->n[i] < 2) {
            ar_error_set("%s: input %zu has %zu positions (at least 2 needed)", D->name, i, D->n[i]);
            return AR_EINVAL;
        }
    for (size_t l = 0; l < D->nlayers; l++) {
        const model_heads_layer_t *L = &D->layer[l];
        if (L->nheads < 1 || L->dh < 1 || !(L->scale > 0) || !isfinite(L->scale)) {
            ar_error_set("%s: layer %zu needs heads, a head dimension and a finite scale > 0", D->name, l);
            return AR_EINVAL;
        }
        for (size_t i = 0; i < D->ninputs; i++) {
            size_t m = D->n[i] * L->nheads * L->dh;
            if (!L->Q[i] || !L->K[i] || !all_finite(L->Q[i], m) || !all_finite(L->K[i], m)) {
                ar_error_set("%s: layer %zu input %zu: queries or keys missing or not finite", D->name, l, i);
                return AR_EINVAL;
            }
        }
    }
    return AR_OK;
}

ar_status model_heads_split(const double *Qall, const double *Kall, size_t n, size_t w, size_t c0, size_t dh,
                            pointset_t *Q, pointset_t *K)
{
    memset(Q, 0, sizeof *Q);
    memset(K, 0, sizeof *K);
    ar_status st = pointset_init(Q, n, dh);
    if (!st)
        st = pointset_init(K, n, dh);
    if (st) {
        pointset_clear(Q);
        pointset_clear(K);
        return st;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < dh; c++) {
            Q->x[i * dh + c] = Qall[i * w + c0 + c];
            K->x[i * dh + c] = Kall[i * w + c0 + c];
        }
    return AR_OK;
}

ar_status model_heads_pointsets(const model_heads_t *D, size_t layer, size_t head, size_t input, const char *tag,
                                pointset_t *Q, pointset_t *K)
{
    memset(Q, 0, sizeof *Q);
    memset(K, 0, sizeof *K);
    if (layer >= D->nlayers || input >= D->ninputs || head >= D->layer[layer].nheads) {
        ar_error_set("%s: no layer %zu head %zu input %zu", D->name, layer, head, input);
        return AR_EINVAL;
    }
    const model_heads_layer_t *L = &D->layer[layer];
    size_t dh = L->dh;
    ar_status st = model_heads_split(L->Q[input], L->K[input], D->n[input], L->nheads * dh, head * dh, dh, Q, K);
    if (st)
        return st;
    pointset_set_provenance(Q, "%s layer %zu head %zu queries (%s)", D->name, layer, head, tag);
    pointset_set_provenance(K, "%s layer %zu head %zu keys (%s)", D->name, layer, head, tag);
    return AR_OK;
}

ar_status model_heads_weights(const model_heads_t *D, size_t layer, size_t head, double **WQ, double **WK,
                              double **bQ, double **bK)
{
    *WQ = *WK = *bQ = *bK = NULL;
    if (layer >= D->nlayers || head >= D->layer[layer].nheads || !D->layer[layer].WQ) {
        ar_error_set("%s: no weights for layer %zu head %zu", D->name, layer, head);
        return AR_EINVAL;
    }
    const model_heads_layer_t *L = &D->layer[layer];
    size_t dh = L->dh, w = L->nheads * dh, din = L->d_in;
    *WQ = ar_calloc(din * dh, sizeof(double), "head weights");
    *WK = ar_calloc(din * dh, sizeof(double), "head weights");
    *bQ = ar_calloc(dh, sizeof(double), "head weights");
    *bK = ar_calloc(dh, sizeof(double), "head weights");
    if (!*WQ || !*WK || !*bQ || !*bK) {
        free(*WQ); free(*WK); free(*bQ); free(*bK);
        *WQ = *WK = *bQ = *bK = NULL;
        return AR_ENOMEM;
    }
    for (size_t r = 0; r < din; r++)
        for (size_t c = 0; c < dh; c++) {
            (*WQ)[r * dh + c] = L->WQ[r * w + head * dh + c];
            (*WK)[r * dh + c] = L->WK[r * w + head * dh + c];
        }
    for (size_t c = 0; c < dh; c++) {
        (*bQ)[c] = L->bQ ? L->bQ[head * dh + c] : 0.0;
        (*bK)[c] = L->bK ? L->bK[head * dh + c] : 0.0;
    }
    return AR_OK;
}

void model_heads_project(const double *H, size_t n, size_t d_in, const double *W, const double *b, size_t ld,
                         size_t c0, size_t cols, double *out)
{
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < cols; c++) {
            double s = b ? b[c0 + c] : 0.0;
            for (size_t r = 0; r < d_in; r++)
                s += H[i * d_in + r] * W[r * ld + c0 + c];
            out[i * cols + c] = s;
        }
}

/* a member of the digest: its tag, its length in doubles, its bytes (or "absent") */
static void digest_doubles(sha256_stream_t *h, const char *tag, const double *x, size_t n)
{
    char b[96];
    snprintf(b, sizeof b, "\n%s %zu %s\n", tag, n, x ? "" : "absent");
    sha256_stream_update(h, b, strlen(b));
    if (x && n)
        sha256_stream_update(h, x, n * sizeof *x);
}

void model_heads_digest(const model_heads_t *D, char hex[65])
{
    sha256_stream_t h;
    sha256_stream_init(&h);
    char b[160];
    snprintf(b, sizeof b, "attnrank model heads 1 name %s layers %zu inputs %zu", D->name, D->nlayers, D->ninputs);
    sha256_stream_update(&h, b, strlen(b));
    for (size_t i = 0; i < D->ninputs; i++) {
        snprintf(b, sizeof b, " %zu", D->n[i]);
        sha256_stream_update(&h, b, strlen(b));
    }
    for (size_t l = 0; l < D->nlayers; l++) {
        const model_heads_layer_t *L = &D->layer[l];
        size_t w = L->nheads * L->dh;
        snprintf(b, sizeof b, "\nlayer %zu heads %zu dh %zu scale %a d_in %zu", l, L->nheads, L->dh, L->scale, L->d_in);
        sha256_stream_update(&h, b, strlen(b));
        digest_doubles(&h, "WQ", L->WQ, L->d_in * w);
        digest_doubles(&h, "WK", L->WK, L->d_in * w);
        digest_doubles(&h, "bQ", L->bQ, w);
        digest_doubles(&h, "bK", L->bK, w);
        digest_doubles(&h, "ln_scale", L->ln_scale, L->d_in);
        digest_doubles(&h, "ln_bias", L->ln_bias, L->d_in);
        for (size_t i = 0; i < D->ninputs; i++) {
            digest_doubles(&h, "Q", L->Q ? L->Q[i] : NULL, D->n[i] * w);
            digest_doubles(&h, "K", L->K ? L->K[i] : NULL, D->n[i] * w);
            digest_doubles(&h, "H", L->H ? L->H[i] : NULL, D->n[i] * L->d_in);
        }
    }
    sha256_stream_hex(&h, hex);
}
