/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_vocab.c -- libFuzzer harness for the SentencePiece vocabulary reader
 * and tokenizer (constructions/formats/spm_tokenizer.c).  Input: vocab.json,
 * then optionally a NUL byte and a text to encode (else a fixed sentence).
 * Invariants: a refused vocabulary leaves a zeroed result and one message
 * line; an accepted one has more than SPM_RESERVED entries, pieces of at most
 * SPM_MAX_PIECE code points, finite scores and no active reserved id; an
 * encoding is refused with one line exactly when the text is not 1..4096
 * printable ASCII bytes, else it gives 1..len+1 ids, each 0 (unknown) or an
 * active piece, never two unknowns in a row. */
#include <math.h>
#include "constructions/formats/spm_tokenizer.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, 0, size);
    size_t jl = nul ? (size_t)(nul - data) : size;
    spm_vocab_t V;
    ar_status st = spm_vocab_load(fuzz_file(data, jl), &V);
    if (st != AR_OK) {
        FUZZ_REQUIRE(V.n == 0 && V.cp == NULL && V.path == NULL);
        FUZZ_REQUIRE_ONE_LINE();
        return 0;
    }
    FUZZ_REQUIRE(V.n > SPM_RESERVED && V.path != NULL);
    for (size_t i = 0; i < V.n; i++) {
        FUZZ_REQUIRE(V.len[i] <= SPM_MAX_PIECE && V.len16[i] >= V.len[i] && isfinite(V.score[i]));
        FUZZ_REQUIRE(!(i < SPM_RESERVED && V.active[i]));
    }
    char text[SPM_MAX_INPUT + 2];
    size_t tl = 0;
    if (nul) {
        tl = size - jl - 1;
        if (tl > SPM_MAX_INPUT + 1)
            tl = SPM_MAX_INPUT + 1;
        memcpy(text, nul + 1, tl);
    }
    text[tl] = '\0';
    if (!nul)
        strcpy(text, "The quick brown fox jumps over the lazy dog.");
    tl = strlen(text);   /* an embedded NUL ends the text */
    int ok = tl >= 1 && tl <= SPM_MAX_INPUT;
    for (size_t i = 0; i < tl; i++)
        ok = ok && (unsigned char)text[i] >= 0x20 && (unsigned char)text[i] <= 0x7E;
    int *ids = NULL;
    size_t n = 0;
    st = spm_encode(&V, text, &ids, &n);
    FUZZ_REQUIRE((st == AR_OK) == ok);
    if (st != AR_OK) {
        FUZZ_REQUIRE(ids == NULL && n == 0);
        FUZZ_REQUIRE_ONE_LINE();
    } else {
        FUZZ_REQUIRE(n >= 1 && n <= tl + 1);
        for (size_t i = 0; i < n; i++) {
            FUZZ_REQUIRE(ids[i] >= 0 && (size_t)ids[i] < V.n);
            FUZZ_REQUIRE(ids[i] == 0 || V.active[ids[i]]);
            FUZZ_REQUIRE(!(i && ids[i] == 0 && ids[i - 1] == 0));
        }
        free(ids);
    }
    spm_vocab_clear(&V);
    return 0;
}
