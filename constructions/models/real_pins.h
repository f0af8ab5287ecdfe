/* SPDX-License-Identifier: GPL-3.0-or-later */
/* real_pins.h -- the pinned digests of the claim-E model cache (issue 14
 * item 1): the SHA-256 of every file the USE-lite model is built from
 * (model.json, its 7 weight shards, vocab.json) and of every reference
 * tensor the tests compare with, as committed in real_pins.c.  Paths are
 * relative to the cache root (`make calib-data`: .cache/calib).  Every file
 * is checked before anything reads it: `attnrank calib`, the tests that
 * read the cache and scripts/calib_data.sh (which reads the same table). */
#ifndef ATTNRANK_CONSTRUCTIONS_REAL_PINS_H
#define ATTNRANK_CONSTRUCTIONS_REAL_PINS_H

#include <stddef.h>
#include "base/status.h"
#include "constructions/models/real_model.h"

#define REAL_PINS_MODEL_DIR "model/package/dist"   /* under the cache root */
#define REAL_PINS_MAX_BYTES ((size_t)256 << 20)   /* largest pinned file read into memory */

typedef struct {
    const char *path;     /* relative to the cache root */
    const char *sha256;   /* 64 lowercase hex digits */
} real_pin_t;

/* The files the model is built from (real_model_load reads them from
 * ROOT/model/package/dist). */
const real_pin_t *real_pins_model(size_t *n);

/* The TF.js reference run (ROOT/ref): sentences, token ids, tensors. */
const real_pin_t *real_pins_reference(size_t *n);

/* Check ROOT/path of pins[0..n) against their digests, in order.  The
 * first mismatch is AR_EINVAL with one line naming the file, the expected
 * and the actual digest; a missing or unreadable file is AR_EIO naming it.
 * Inside a pinned load (base/pinstore.h) the checked bytes are kept, so
 * that the readers that follow parse exactly them and nothing else. */
ar_status real_pins_verify(const char *root, const real_pin_t *pins, size_t n);

/* Verify every pinned model file under ROOT, then real_model_load its
 * REAL_PINS_MODEL_DIR inside one pinned load: nothing is parsed before every
 * digest matched, and what is parsed is the bytes that were hashed (each
 * file is read once; a reader asking for any other file is refused). */
ar_status real_pins_load(const char *root, real_model_t *M);

#endif
