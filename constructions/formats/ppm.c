/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ppm.c -- strict binary Netpbm reader (see ppm.h). */
#include "constructions/formats/ppm.h"
#include "base/infile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_ws(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Skip whitespace and comments, then read a decimal field (at most 9 digits). */
static int field(const uint8_t *b, size_t n, size_t *p, size_t *v)
{
    for (;;) {
        while (*p < n && is_ws(b[*p]))
            (*p)++;
        if (*p < n && b[*p] == '#') {
            while (*p < n && b[*p] != '\n')
                (*p)++;
            continue;
        }
        break;
    }
    size_t digits = 0, x = 0;
    while (*p < n && b[*p] >= '0' && b[*p] <= '9' && digits < 10) {
        x = 10 * x + (size_t)(b[*p] - '0');
        (*p)++;
        digits++;
    }
    *v = x;
    return digits >= 1 && digits <= 9;
}

ar_status ppm_read_buffer(const uint8_t *b, size_t n, const char *what, ppm_image_t *img)
{
    memset(img, 0, sizeof *img);
    if (n < 2 || b[0] != 'P' || (b[1] != '6' && b[1] != '5')) {
        ar_error_set("%s: not a binary PPM/PGM image (magic P6 or P5 expected)", what);
        return AR_EINVAL;
    }
    size_t ch = b[1] == '6' ? 3 : 1, p = 2, w, h, maxv;
    if (!field(b, n, &p, &w) || !field(b, n, &p, &h) || !field(b, n, &p, &maxv)) {
        ar_error_set("%s: malformed image header (width, height and maxval expected)", what);
        return AR_EINVAL;
    }
    if (maxv != 255) {
        ar_error_set("%s: maxval %zu (only 255 is supported)", what, maxv);
        return AR_EINVAL;
    }
    if (w < 1 || h < 1 || w > PPM_MAX_SIDE || h > PPM_MAX_SIDE) {
        ar_error_set("%s: image size %zu x %zu outside 1..%d", what, w, h, PPM_MAX_SIDE);
        return AR_EINVAL;
    }
    if (p >= n || !is_ws(b[p])) {
        ar_error_set("%s: no whitespace byte after the header", what);
        return AR_EINVAL;
    }
    p++;
    size_t need = w * h * ch;
    if (n - p != need) {
        ar_error_set("%s: %zu pixel bytes for a %zu x %zu image of %zu channels (%zu expected)", what, n - p, w, h,
                     ch, need);
        return AR_EINVAL;
    }
    img->rgb = ar_calloc(w * h, 3, "image");
    if (!img->rgb)
        return AR_ENOMEM;
    for (size_t k = 0; k < w * h; k++)
        for (size_t c = 0; c < 3; c++)
            img->rgb[3 * k + c] = b[p + k * ch + (ch == 3 ? c : 0)];
    img->width = w;
    img->height = h;
    return AR_OK;
}

ar_status ppm_read(const char *path, ppm_image_t *img)
{
    memset(img, 0, sizeof *img);
    char *buf;
    size_t n;
    ar_status st = infile_read_all(path, "PPM image", (size_t)64 << 20, &buf, &n);
    if (st)
        return st;
    st = ppm_read_buffer((const uint8_t *)buf, n, path, img);
    free(buf);
    return st;
}

void ppm_clear(ppm_image_t *img)
{
    if (!img)
        return;
    free(img->rgb);
    memset(img, 0, sizeof *img);
}
