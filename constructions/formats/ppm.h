/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ppm.h -- binary Netpbm images (P6 colour, P5 grey; maxval 255), the
 * rendered text lines of the PP-OCRv4 calibration (scripts/calib_data_ppocr.sh
 * writes them with ImageMagick).  Strict: the magic, three decimal header
 * fields (width, height, maxval = 255) separated by whitespace with '#'
 * comments allowed between them, exactly one whitespace byte before the
 * pixels, then exactly width * height * channels bytes and nothing after.
 * Anything else is AR_EINVAL with one line naming the file. */
#ifndef ATTNRANK_CONSTRUCTIONS_PPM_H
#define ATTNRANK_CONSTRUCTIONS_PPM_H

#include <stddef.h>
#include <stdint.h>
#include "base/status.h"

#define PPM_MAX_SIDE 16384

typedef struct {
    size_t width, height;
    uint8_t *rgb;          /* height x width x 3, row-major (P5 grey is copied to all three) */
} ppm_image_t;

/* Decode buf[0..n) (`what` names it in messages). */
ar_status ppm_read_buffer(const uint8_t *buf, size_t n, const char *what, ppm_image_t *img);

/* Read the regular file `path` (at most 64 MiB) and decode it. */
ar_status ppm_read(const char *path, ppm_image_t *img);

void ppm_clear(ppm_image_t *img);

#endif
