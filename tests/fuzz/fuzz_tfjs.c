/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_tfjs.c -- libFuzzer harness for the TF.js weights reader
 * (constructions/formats/tfjs_weights.c): model.json, its weight manifest
 * and the shards it names.  Input: model.json, a NUL byte, one byte b, then
 * the shard bytes, split into files s1 (the first b/255 of them) and s2 (the
 * rest), all in one tmpfs directory.  Invariants: a refused input leaves a
 * zeroed result and one message line; an accepted one has distinct names,
 * entries that tile each group's bytes exactly (offset of each = sum of
 * 4 * count before it, total = the group's size), and every entry readable:
 * float32 tensors as finite values or refused as non-finite, int32 scalars
 * through tfjs_weights_get_i32. */
#include <math.h>
#include "constructions/formats/tfjs_weights.h"
#include "fuzz_util.h"

static void check_loaded(const tfjs_weights_t *W)
{
    for (size_t g = 0; g < W->n_groups; g++) {
        size_t off = 0;
        for (size_t i = 0; i < W->n_entries; i++) {
            const tfjs_entry_t *e = &W->entries[i];
            if (e->group != g)
                continue;
            FUZZ_REQUIRE(e->offset == off);
            off += 4 * e->count;
        }
        FUZZ_REQUIRE(off == W->group_bytes[g]);
    }
    for (size_t i = 0; i < W->n_entries; i++) {
        const tfjs_entry_t *e = &W->entries[i];
        FUZZ_REQUIRE(e->group < W->n_groups && e->ndim <= TFJS_MAX_DIMS);
        size_t count = 1;
        for (size_t k = 0; k < e->ndim; k++)
            count *= e->shape[k];
        FUZZ_REQUIRE(count == e->count);
        FUZZ_REQUIRE(tfjs_weights_find(W, e->name) == e);   /* names are distinct */
        if (e->is_int) {
            int32_t v;
            ar_status st = tfjs_weights_get_i32(W, e->name, &v);
            FUZZ_REQUIRE((st == AR_OK) == (e->count == 1 && e->ndim <= 1));
        } else {
            double *x = NULL;
            ar_status st = tfjs_weights_get(W, e->name, e->ndim, e->shape, &x);
            if (st == AR_OK) {
                for (size_t k = 0; k < e->count; k++)
                    FUZZ_REQUIRE(isfinite(x[k]));
                free(x);
            } else {
                FUZZ_REQUIRE(x == NULL && strstr(ar_error_get(), "non-finite") != NULL);
            }
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, 0, size);
    size_t jl = nul ? (size_t)(nul - data) : size;
    const uint8_t *rest = nul && jl + 1 < size ? nul + 2 : data + size;
    size_t rl = (size_t)(data + size - rest);
    size_t cut = nul && jl + 1 < size ? rl * nul[1] / 255 : 0;
    fuzz_dir_file("s1", rest, cut);
    fuzz_dir_file("s2", rest + cut, rl - cut);
    const char *dir = fuzz_dir_file("model.json", data, jl);
    char path[128];
    snprintf(path, sizeof path, "%s/model.json", dir);
    tfjs_weights_t W;
    ar_status st = tfjs_weights_load(path, &W);
    if (st != AR_OK) {
        FUZZ_REQUIRE(W.n_entries == 0 && W.entries == NULL && W.group_data == NULL && W.path == NULL);
        FUZZ_REQUIRE_ONE_LINE();
        return 0;
    }
    FUZZ_REQUIRE(strcmp(W.path, path) == 0);
    check_loaded(&W);
    tfjs_weights_clear(&W);
    return 0;
}
