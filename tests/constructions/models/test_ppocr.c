/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_ppocr.c -- the PP-OCRv4 recogniser in C against onnxruntime (needs
 * `make calib-data`; skipped with a printed reason otherwise): on every
 * pinned text-line image the attention inputs h, q and k of both blocks (q
 * and k from h with the column layout of ppocr_model.h) agree with
 * onnxruntime's own tensors to relative error (max |diff| / max |ref|)
 * <= 1e-5, and the attention weights recomputed from the C point sets do on
 * at least 20 lines (issue 18's figure; block 1's logits reach |51|, which
 * turns onnxruntime's float32 rounding of q and k, ~1e-6 relative, into
 * attention differences up to ~1.5e-5: onnxruntime's attention equals the
 * double softmax of its own q, k to 1.6e-6).  onnxruntime's tensors are not
 * pinned (their last bits depend on the CPU's kernels): their shapes and
 * finiteness are checked here.  The loader refuses files that are not this
 * graph. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "testutil.h"
#include "heads_threads.h"
#include "constructions/formats/npy.h"
#include "constructions/models/ppocr_pins.h"

static const char *calib_dir(void)
{
    const char *e = getenv("ATTNRANK_CALIB_DIR");
    return e && *e ? e : ".cache/calib";
}

static int have_cache(char *why, size_t n)
{
    size_t np;
    const real_pin_t *pins = ppocr_pins_model(&np);
    char p[800];
    struct stat sb;
    snprintf(p, sizeof p, "%s/%s", calib_dir(), pins[0].path);
    if (stat(p, &sb) != 0) {
        snprintf(why, n, "%s absent", p);
        return 0;
    }
    ck_assert_msg(real_pins_verify(calib_dir(), pins, np) == AR_OK, "%s", ar_error_get());
    pins = ppocr_pins_images(&np);
    ck_assert_msg(real_pins_verify(calib_dir(), pins, np) == AR_OK, "%s", ar_error_get());
    pins = ppocr_pins_reference(&np);
    ck_assert_msg(real_pins_verify(calib_dir(), pins, np) == AR_OK, "%s", ar_error_get());
    return 1;
}

static double *load_ref(size_t i, size_t l, const char *what, size_t rows, size_t cols)
{
    char p[800];
    snprintf(p, sizeof p, "%s/ppocr/ref/p%zu_L%zu_%s.npy", calib_dir(), i, l, what);
    double *x;
    size_t r, c;
    ck_assert_msg(npy_read(p, &x, &r, &c) == AR_OK, "%s", ar_error_get());
    ck_assert_msg(r == rows && c == cols, "%s: shape %zux%zu, expected %zux%zu", p, r, c, rows, cols);
    for (size_t k = 0; k < r * c; k++)   /* unpinned (CPU-dependent bits): fmax below would skip a NaN */
        ck_assert_msg(isfinite(x[k]), "%s: entry %zu is not finite", p, k);
    return x;
}

static double rel_err(const double *x, const double *ref, size_t m)
{
    double num = 0, den = 0;
    for (size_t k = 0; k < m; k++) {
        num = fmax(num, fabs(x[k] - ref[k]));
        den = fmax(den, fabs(ref[k]));
    }
    return num / den;
}

/* softmax(scale Q_h K_h^T) of every head, (heads n) x n head-major */
static double *attention(const model_heads_layer_t *L, size_t i, size_t n)
{
    size_t w = L->nheads * L->dh;
    double *A = malloc(L->nheads * n * n * sizeof *A);
    ck_assert_ptr_nonnull(A);
    for (size_t h = 0; h < L->nheads; h++)
        for (size_t a = 0; a < n; a++) {
            double *row = A + (h * n + a) * n, mx = -INFINITY, s = 0;
            for (size_t b = 0; b < n; b++) {
                double d = 0;
                for (size_t j = 0; j < L->dh; j++)
                    d += L->Q[i][a * w + h * L->dh + j] * L->K[i][b * w + h * L->dh + j];
                row[b] = L->scale * d;
                mx = fmax(mx, row[b]);
            }
            for (size_t b = 0; b < n; b++)
                s += (row[b] = exp(row[b] - mx));
            for (size_t b = 0; b < n; b++)
                row[b] /= s;
        }
    return A;
}

/* The pinned model and its text-line images from the calib cache: 1, or 0 (with a SKIP line naming
 * `what`) when the cache is missing. */
static int load_or_skip(const char *what, ppocr_model_t *M, ppm_image_t **img, size_t *nimg)
{
    char why[900];
    if (!have_cache(why, sizeof why)) {
        printf("test_ppocr: SKIP %s: %s (run 'make calib-data')\n", what, why);
        return 0;
    }
    ck_assert_msg(ppocr_pins_load(calib_dir(), M) == AR_OK, "%s", ar_error_get());
    ck_assert_msg(ppocr_pins_images_load(calib_dir(), img, nimg) == AR_OK, "%s", ar_error_get());
    return 1;
}

static void clear_loaded(ppocr_model_t *M, ppm_image_t *img, size_t nimg)
{
    for (size_t i = 0; i < nimg; i++)
        ppm_clear(&img[i]);
    free(img);
    ppocr_model_clear(M);
}

START_TEST(ppocr_against_onnxruntime)
{
    ppocr_model_t M;
    ppm_image_t *img;
    size_t nimg;
    if (!load_or_skip("comparison with onnxruntime", &M, &img, &nimg))
        return;
    ck_assert_uint_ge(nimg, 20);
    model_heads_t D;
    ck_assert_msg(ppocr_model_heads(&M, img, nimg, &D) == AR_OK, "%s", ar_error_get());
    ck_assert_msg(model_heads_validate(&D) == AR_OK, "%s", ar_error_get());
    double worst[4] = { 0, 0, 0, 0 };
    size_t attn_ok = 0;
    const char *tag[4] = { "h", "q", "k", "attn" };
    for (size_t i = 0; i < nimg; i++) {
        size_t n = D.n[i];
        ck_assert_uint_eq(n, img[i].width / 8);
        double line_attn = 0;
        for (size_t l = 0; l < PPOCR_LAYERS; l++) {
            const model_heads_layer_t *L = &D.layer[l];
            double *mine[4] = { L->H[i], L->Q[i], L->K[i], attention(L, i, n) };
            size_t rows[4] = { n, n, n, PPOCR_HEADS * n }, cols[4] = { PPOCR_DIM, PPOCR_DIM, PPOCR_DIM, n };
            for (int t = 0; t < 4; t++) {
                double *ref = load_ref(i, l, tag[t], rows[t], cols[t]);
                double e = rel_err(mine[t], ref, rows[t] * cols[t]);
                if (t < 3)
                    ck_assert_msg(e <= 1e-5, "image %zu block %zu %s: relative error %.3g > 1e-5", i, l, tag[t], e);
                else
                    line_attn = fmax(line_attn, e);
                worst[t] = fmax(worst[t], e);
                free(ref);
            }
            free(mine[3]);
        }
        if (line_attn <= 1e-5)
            attn_ok++;
        else
            printf("test_ppocr: line %zu: attention relative error %.3g (> 1e-5)\n", i, line_attn);
    }
    ck_assert_msg(attn_ok >= 20, "attention within 1e-5 on %zu of %zu lines (20 needed)", attn_ok, nimg);
    printf("test_ppocr: %zu text lines, C vs onnxruntime, max relative error h %.2g, q %.2g, k %.2g (bound 1e-5 "
           "on every line), attention %.2g (within 1e-5 on %zu lines)\n", nimg, worst[0], worst[1], worst[2],
           worst[3], attn_ok);
    model_heads_clear(&D);
    clear_loaded(&M, img, nimg);
}
END_TEST

/* issue 35: ppocr_model_heads runs its images side by side; the heads (digest of every number) are
 * the same for 1..64 threads. */
typedef struct {
    const ppocr_model_t *M;
    const ppm_image_t *img;
    size_t m;
} ppocr_job_t;

static ar_status ppocr_job(void *ctx, model_heads_t *D)
{
    ppocr_job_t *j = ctx;
    return ppocr_model_heads(j->M, j->img, j->m, D);
}

START_TEST(ppocr_heads_thread_counts)
{
    ppocr_model_t M;
    ppm_image_t *img;
    size_t nimg;
    if (!load_or_skip("thread counts", &M, &img, &nimg))
        return;
    ppocr_job_t job = {.M = &M, .img = img, .m = nimg < 6 ? nimg : 6};
    check_heads_thread_counts(ppocr_job, &job);
    clear_loaded(&M, img, nimg);
}
END_TEST

START_TEST(ppocr_model_errors)
{
    char dir[] = "/tmp/attnrank_ppocr_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ppocr_model_t M;
    char p[128];
    snprintf(p, sizeof p, "%s/missing.onnx", dir);
    ck_assert_int_eq(ppocr_model_load(p, &M), AR_EIO);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "missing.onnx"));
    /* not protobuf */
    ck_assert_int_eq(test_write_file(dir, "junk.onnx", "\xff\xff\xff\xff", 4), 0);
    snprintf(p, sizeof p, "%s/junk.onnx", dir);
    ck_assert_int_eq(ppocr_model_load(p, &M), AR_EINVAL);
    ck_assert_ptr_null(strchr(ar_error_get(), '\n'));
    /* an empty message is a ModelProto without a graph */
    ck_assert_int_eq(test_write_file(dir, "empty.onnx", "", 0), 0);
    snprintf(p, sizeof p, "%s/empty.onnx", dir);
    ck_assert_int_eq(ppocr_model_load(p, &M), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "no graph"));
    remove(p);
    snprintf(p, sizeof p, "%s/junk.onnx", dir);
    remove(p);
    rmdir(dir);
    /* image sizes */
    ppm_image_t im = { 16, 47, NULL };
    onnx_tensor_t x;
    ck_assert_int_eq(ppocr_image_tensor(&im, &x), AR_EINVAL);
    im.width = 4;
    im.height = 48;
    ck_assert_int_eq(ppocr_image_tensor(&im, &x), AR_EINVAL);
    uint8_t px[16 * 48 * 3];
    for (size_t k = 0; k < sizeof px; k++)
        px[k] = (uint8_t)(k % 256);
    im.width = 16;
    im.rgb = px;
    ck_assert_int_eq(ppocr_image_tensor(&im, &x), AR_OK);
    ck_assert_int_eq(x.dims[3], 16);
    /* BGR and (p/255 - 0.5)/0.5 in float32: pixel 0 has R = 0, G = 1, B = 2 */
    ck_assert(x.data[0] == (double)((2.0f / 255.0f - 0.5f) / 0.5f));
    ck_assert(x.data[2 * 48 * 16] == (double)((0.0f / 255.0f - 0.5f) / 0.5f));
    onnx_tensor_clear(&x);
}
END_TEST

Suite *suite_ppocr(void)
{
    Suite *s = suite_create("ppocr");
    TCase *tc = tcase_create("ppocr");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, ppocr_against_onnxruntime);
    tcase_add_test(tc, ppocr_heads_thread_counts);
    tcase_add_test(tc, ppocr_model_errors);
    suite_add_tcase(s, tc);
    return s;
}
