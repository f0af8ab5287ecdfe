/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_manifest.c -- libFuzzer harness for the heads manifest reader
 * (constructions/formats/heads_manifest.c, `attnrank calib --manifest`).
 * Invariants: a refused input leaves a zeroed manifest and one message line
 * naming the source; an accepted one has 1..1024 layers, 1..100000 inputs,
 * heads and head dimensions in 1..4096, positions >= 2, finite scales > 0, a
 * model name of [A-Za-z0-9._-], exactly one file entry per (layer, head,
 * input), every path relative (no leading '/', no ".." component, no
 * control character or backslash), and the same bytes read through a file
 * (the JSON layer's file path) parse to the same manifest. */
#include <math.h>
#include "constructions/formats/heads_manifest.h"
#include "constructions/formats/json.h"
#include "fuzz_util.h"

static void check_path(const char *p)
{
    FUZZ_REQUIRE(p && p[0] && p[0] != '/' && strlen(p) <= 4096);
    for (const char *c = p; *c; c++)
        FUZZ_REQUIRE((unsigned char)*c >= 0x20 && *c != 0x7f && *c != '\\');
    for (const char *c = p; *c;) {
        const char *e = strchr(c, '/');
        size_t len = e ? (size_t)(e - c) : strlen(c);
        FUZZ_REQUIRE(!(len == 2 && c[0] == '.' && c[1] == '.'));
        c += len + (e != NULL);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    heads_manifest_t M;
    memset(&M, 0xab, sizeof M);
    ar_status st = heads_manifest_parse((const char *)data, size, "fuzz", &M);
    if (st != AR_OK) {
        heads_manifest_t Z;
        memset(&Z, 0, sizeof Z);
        FUZZ_REQUIRE(memcmp(&M, &Z, sizeof M) == 0);
        FUZZ_REQUIRE_ONE_LINE();
        FUZZ_REQUIRE(strncmp(ar_error_get(), "fuzz", 4) == 0);
        return 0;
    }
    FUZZ_REQUIRE(M.nlayers >= 1 && M.nlayers <= 1024 && M.ninputs >= 1 && M.ninputs <= 100000);
    size_t len = strlen(M.model), want = 0;
    FUZZ_REQUIRE(len >= 1 && len < MODEL_HEADS_NAME_LEN);
    for (size_t c = 0; c < len; c++)
        FUZZ_REQUIRE(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", M.model[c]));
    for (size_t l = 0; l < M.nlayers; l++) {
        FUZZ_REQUIRE(M.nheads[l] >= 1 && M.nheads[l] <= 4096 && M.dh[l] >= 1 && M.dh[l] <= 4096);
        FUZZ_REQUIRE(isfinite(M.scale[l]) && M.scale[l] > 0);
        FUZZ_REQUIRE(M.first[l] == want);
        want += M.nheads[l] * M.ninputs;
    }
    FUZZ_REQUIRE(M.nfile == want);
    for (size_t i = 0; i < M.ninputs; i++)
        FUZZ_REQUIRE(M.positions[i] >= 2 && M.input_name[i] && strlen(M.input_name[i]) <= 200);
    for (size_t f = 0; f < M.nfile; f++) {
        check_path(M.file[f].q);
        check_path(M.file[f].k);
    }
    /* the same bytes through the JSON file reader parse the same */
    json_t *v;
    FUZZ_REQUIRE(json_read_file(fuzz_file(data, size), 1u << 20, &v) == AR_OK);
    char *dump = json_dumps(v, JSON_COMPACT);
    json_decref(v);
    FUZZ_REQUIRE(dump != NULL);
    heads_manifest_t N;
    FUZZ_REQUIRE(heads_manifest_parse(dump, strlen(dump), "dump", &N) == AR_OK);
    FUZZ_REQUIRE(N.nlayers == M.nlayers && N.ninputs == M.ninputs && N.nfile == M.nfile);
    for (size_t f = 0; f < M.nfile; f++)
        FUZZ_REQUIRE(!strcmp(N.file[f].q, M.file[f].q) && !strcmp(N.file[f].k, M.file[f].k));
    free(dump);
    heads_manifest_clear(&N);
    heads_manifest_clear(&M);
    return 0;
}
