/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_corpus.c -- libFuzzer harness for the corpus reader
 * (constructions/formats/corpus.c): corpus_split on a fuzzed license text
 * and corpus_load against a manifest built from it.  Invariants: every
 * sentence qualifies (40..300 printable ASCII characters, at least 7 words,
 * single spaces, no space at either end, ending in '.', '?' or '!'); a
 * manifest entry with the right digest loads that very sentence, one with a
 * wrong digest or an index past the end is refused with one message line. */
#include "constructions/formats/corpus.h"
#include "base/sha256.h"
#include "fuzz_util.h"

static void check_sentence(const char *s)
{
    size_t len = strlen(s), words = 1;
    FUZZ_REQUIRE(len >= CORPUS_MIN_CHARS && len <= CORPUS_MAX_CHARS);
    for (size_t i = 0; i < len; i++) {
        FUZZ_REQUIRE((unsigned char)s[i] >= 0x20 && (unsigned char)s[i] <= 0x7E);
        FUZZ_REQUIRE(!(s[i] == ' ' && (i == 0 || i + 1 == len || s[i + 1] == ' ')));
        words += s[i] == ' ';
    }
    FUZZ_REQUIRE(words >= CORPUS_MIN_WORDS);
    FUZZ_REQUIRE(s[len - 1] == '.' || s[len - 1] == '?' || s[len - 1] == '!');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size);
    char **s = (char **)1;
    size_t n = 7;
    ar_status st = corpus_split(path, &s, &n);
    FUZZ_REQUIRE(st == AR_OK);   /* any text of at most 1 MiB splits */
    for (size_t i = 0; i < n; i++)
        check_sentence(s[i]);
    /* the manifest: the file as /proc/self/fd + its descriptor number */
    const char *file = strrchr(path, '/') + 1;
    char dir[64];
    snprintf(dir, sizeof dir, "%.*s", (int)(file - 1 - path), path);
    char hex[65];
    corpus_entry_t e = { file, n ? n - 1 : 0, hex };
    corpus_t C;
    if (n) {
        sha256_hex(s[n - 1], strlen(s[n - 1]), hex);
        FUZZ_REQUIRE(corpus_load(&e, 1, dir, &C) == AR_OK);
        FUZZ_REQUIRE(C.n == 1 && strcmp(C.text[0], s[n - 1]) == 0);
        corpus_clear(&C);
        hex[0] = hex[0] == '0' ? '1' : '0';
        FUZZ_REQUIRE(corpus_load(&e, 1, dir, &C) == AR_EINVAL && C.n == 0);
        FUZZ_REQUIRE_ONE_LINE();
    }
    e.index = n;
    sha256_hex("", 0, hex);
    FUZZ_REQUIRE(corpus_load(&e, 1, dir, &C) == AR_EINVAL && C.n == 0);
    FUZZ_REQUIRE_ONE_LINE();
    corpus_strings_free(s, n);
    return 0;
}
