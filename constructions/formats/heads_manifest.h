/* SPDX-License-Identifier: GPL-3.0-or-later */
/* heads_manifest.h -- the manifest of a user's attention heads, as written
 * by scripts/export_heads.py and read by `attnrank calib --manifest FILE`:
 * one JSON object (read with constructions/formats/json.h) naming one query
 * and one key .npy file per (layer, head, input).
 *
 *   {"format": "attnrank-heads", "version": 1, "model": "NAME",
 *    "layers": [{"heads": H, "head_dim": D, "scale": S}, ...],
 *    "inputs": [{"name": "TEXT", "positions": N}, ...],
 *    "files": [{"layer": L, "head": H, "input": I, "q": "PATH", "k": "PATH"}, ...]}
 *
 * Q and K of (L, H, I) are N x D arrays (npy.h: float64 or float32) with
 * the model's attention A = rowsoftmax(S Q K^T); q includes its bias, the
 * scale S is the model's own (1/sqrt(D) for torch.nn.MultiheadAttention).
 * Strict: exactly these keys (no others), format and version as shown;
 * NAME of 1..63 characters [A-Za-z0-9._-]; input names printable ASCII of
 * at most 200 characters; integers are JSON numbers with an integer value,
 * 1 <= H, D <= 4096, 2 <= N <= 100000, at most 1024 layers, 100000 inputs
 * and 10^6 files; S finite > 0; every (L, H, I) named exactly once; PATH
 * relative to the manifest's directory: 1..4096 bytes, not starting with
 * '/', no ".." component, no control characters or backslashes.  Anything
 * else is AR_EINVAL with one line naming the manifest and the offending
 * entry.  Symbolic links: heads_manifest_load opens every PATH beneath the
 * manifest's directory one component at a time without following links
 * (base/path.h, path_open_beneath), and refuses every symbolic link on
 * the way -- a linked directory or a linked .npy file, whether it points
 * outside the directory or inside it -- (AR_EINVAL, one line naming the
 * manifest, the entry and the link), so that every file read lies inside
 * the manifest's directory.  (The manifest's own path, given on the
 * command line, may go through links.) */
#ifndef ATTNRANK_CONSTRUCTIONS_HEADS_MANIFEST_H
#define ATTNRANK_CONSTRUCTIONS_HEADS_MANIFEST_H

#include <stddef.h>
#include "base/status.h"
#include "constructions/pointsets/model_heads.h"

#define HEADS_MANIFEST_MAX_BYTES ((size_t)64 << 20)

typedef struct {
    char *q, *k;                      /* relative paths */
} heads_manifest_file_t;

typedef struct {
    char model[MODEL_HEADS_NAME_LEN];
    size_t nlayers, ninputs;
    size_t *nheads, *dh;              /* per layer */
    double *scale;                    /* per layer */
    size_t *positions;                /* per input */
    char **input_name;                /* per input */
    size_t *first;                    /* per layer: index of (layer, head 0, input 0) in file */
    size_t nfile;
    heads_manifest_file_t *file;      /* (layer, head, input) at first[layer] + head * ninputs + input */
} heads_manifest_t;

/* Parse and check buf[0..n) (`what` names it in messages). */
ar_status heads_manifest_parse(const char *buf, size_t n, const char *what, heads_manifest_t *M);

void heads_manifest_clear(heads_manifest_t *M);

/* Read the manifest `path` (at most HEADS_MANIFEST_MAX_BYTES), then its
 * first min(max_inputs, ninputs) inputs' .npy files (relative to the
 * manifest's directory, opened without following any symbolic link; each
 * must be positions x head_dim) into D.  Messages name the manifest or the
 * .npy file. */
ar_status heads_manifest_load(const char *path, size_t max_inputs, model_heads_t *D);

#endif
