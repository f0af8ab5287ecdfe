/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ppocr_pins.h -- the pinned digests of the PP-OCRv4 part of the claim-E
 * cache (`make calib-data`: .cache/calib/ppocr): the model file and its
 * alphabet, the rendered text-line images, the graph with added outputs and
 * onnxruntime's decoded text, as committed in ppocr_pins.c.  Paths
 * are relative to the cache root.  Every file is checked (real_pins_verify)
 * before anything reads it. */
#ifndef ATTNRANK_CONSTRUCTIONS_PPOCR_PINS_H
#define ATTNRANK_CONSTRUCTIONS_PPOCR_PINS_H

#include <stddef.h>
#include "base/status.h"
#include "constructions/formats/ppm.h"
#include "constructions/models/ppocr_model.h"
#include "constructions/models/real_pins.h"

/* The model files; entry 0 is the ONNX recogniser. */
const real_pin_t *ppocr_pins_model(size_t *n);

/* The rendered text lines, p0.ppm .. p<n-1>.ppm in order. */
const real_pin_t *ppocr_pins_images(size_t *n);

/* The graph with outputs added and onnxruntime's decoded text
 * (ppocr/ref/decoded.txt); the float32 reference tensors beside it are
 * CPU-dependent and not pinned (ppocr_pins.c). */
const real_pin_t *ppocr_pins_reference(size_t *n);

/* Verify every pinned model file under ROOT, then ppocr_model_load the
 * recogniser.  Nothing is parsed before every digest matched. */
ar_status ppocr_pins_load(const char *root, ppocr_model_t *M);

/* Verify and read the pinned text-line images (*n of them, allocated; clear
 * each with ppm_clear and free the array). */
ar_status ppocr_pins_images_load(const char *root, ppm_image_t **images, size_t *n);

#endif
