/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tfjs_weights.h -- reader for a TensorFlow.js graph model's weights:
 * model.json (its "weightsManifest") plus the binary shard files it names.
 *
 * Each manifest group lists shard paths (relative to model.json's directory)
 * and weight entries {name, shape, dtype}.  A group's shards are concatenated
 * in order; entry e starts at the byte offset sum over earlier entries of
 * 4 * prod(shape) (shape [] counts 1) and holds little-endian float32 or
 * int32 values.  Validation (AR_EINVAL, one-line message naming the file):
 * malformed JSON (constructions/formats/json.h: duplicate keys included) or
 * manifest, dtypes other than float32/int32, quantized
 * entries, negative/non-integer/too-large dimensions, more than 8 dimensions,
 * duplicate names, shard sizes that do not add up to exactly the bytes the
 * entries need (truncated or padded shards), shard paths with '/' or "..".
 * Missing files give AR_EIO.  Shard paths are model.json's directory plus
 * the shard name at their exact length (base/path.h: a path the OS
 * cannot take is an error that says so).  Float32 data is checked finite
 * when fetched. */
#ifndef ATTNRANK_CONSTRUCTIONS_TFJS_WEIGHTS_H
#define ATTNRANK_CONSTRUCTIONS_TFJS_WEIGHTS_H

#include <stddef.h>
#include <stdint.h>
#include "base/status.h"

#define TFJS_MAX_DIMS 8

typedef struct {
    char *name;
    int is_int;                 /* 0 float32, 1 int32 */
    size_t ndim;
    size_t shape[TFJS_MAX_DIMS];
    size_t count;               /* prod(shape), 1 for a scalar */
    size_t offset;              /* byte offset inside its group's concatenated shards */
    size_t group;
} tfjs_entry_t;

typedef struct {
    size_t n_entries;
    tfjs_entry_t *entries;
    size_t n_groups;
    unsigned char **group_data;  /* raw bytes of each group's concatenated shards */
    size_t *group_bytes;
    char *path;                  /* model.json path, for messages (allocated) */
} tfjs_weights_t;

/* Load model.json at `path` and every shard it lists. */
ar_status tfjs_weights_load(const char *path, tfjs_weights_t *W);

/* Free everything (safe on a zeroed struct). */
void tfjs_weights_clear(tfjs_weights_t *W);

/* The entry named `name`, or NULL. */
const tfjs_entry_t *tfjs_weights_find(const tfjs_weights_t *W, const char *name);

/* Copy float32 tensor `name` into a new array of doubles (exact conversion).
 * The shape must be exactly dims[0..ndim) (AR_EINVAL otherwise, also when the
 * name is missing, the dtype is int32 or a value is NaN/Inf).  *out is
 * allocated with ar_calloc; caller frees. */
ar_status tfjs_weights_get(const tfjs_weights_t *W, const char *name, size_t ndim,
                           const size_t *dims, double **out);

/* The int32 scalar (shape [] or [1]) named `name`; AR_EINVAL if missing or
 * of another dtype or size. */
ar_status tfjs_weights_get_i32(const tfjs_weights_t *W, const char *name, int32_t *out);

#endif
