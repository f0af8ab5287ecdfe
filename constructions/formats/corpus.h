/* SPDX-License-Identifier: GPL-3.0-or-later */
/* corpus.h -- the calibration corpus of claim E: English sentences from the
 * license texts every Debian system ships (base-files,
 * /usr/share/common-licenses), fixed by a manifest of (file, sentence index,
 * sha256 of the sentence text) so that runs are reproducible.
 *
 * Splitting rule (corpus_split): the file is cut into paragraphs at blank
 * lines; inside a paragraph every run of whitespace becomes one space; a
 * sentence ends after '.', '?' or '!' followed by a space or the paragraph's
 * end.  A sentence qualifies when it is printable ASCII, 40..300 characters
 * long and has at least 7 words.  The sentence index counts qualifying
 * sentences of the file from 0. */
#ifndef ATTNRANK_CONSTRUCTIONS_CORPUS_H
#define ATTNRANK_CONSTRUCTIONS_CORPUS_H

#include <stddef.h>
#include "base/status.h"

#define CORPUS_MIN_CHARS 40
#define CORPUS_MAX_CHARS 300
#define CORPUS_MIN_WORDS 7

typedef struct {
    const char *file;      /* name inside the licenses directory */
    size_t index;          /* qualifying-sentence index in that file */
    const char *sha256;    /* hex digest of the sentence text (no newline) */
} corpus_entry_t;

typedef struct {
    size_t n;
    char **text;           /* n sentences */
    const corpus_entry_t *entry;  /* n manifest entries (not owned) */
} corpus_t;

/* Qualifying sentences of one file (at most 1 MiB); *sents owned by the
 * caller (corpus_strings_free).  AR_EIO if unreadable. */
ar_status corpus_split(const char *path, char ***sents, size_t *n);
void corpus_strings_free(char **s, size_t n);

/* The committed manifest (constructions/formats/corpus_manifest.c). */
const corpus_entry_t *corpus_manifest(size_t *n);

/* Rebuild the sentences of manifest[0..m) from dir (NULL: the default
 * /usr/share/common-licenses) and verify each digest.  AR_EINVAL with a
 * one-line message naming file and index on a missing sentence or a digest
 * mismatch; AR_EIO if a file is unreadable. */
ar_status corpus_load(const corpus_entry_t *manifest, size_t m, const char *dir, corpus_t *C);
void corpus_clear(corpus_t *C);

#endif
