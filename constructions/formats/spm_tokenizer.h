/* SPDX-License-Identifier: GPL-3.0-or-later */
/* spm_tokenizer.h -- SentencePiece unigram tokenizer as run by the pinned
 * Universal Sentence Encoder lite package (@energetic-ai/embeddings 0.2.0).
 *
 * Vocabulary: vocab.json, a JSON array of [piece, log_prob] pairs (the
 * pinned file has 7 null scores, which the package's JS treats as 0); the index
 * is the token id; ids 0..5 are reserved (0 = unknown) and never matched.
 * Encoding (the package's own algorithm, reproduced exactly, quirks included):
 * the text becomes U+2581 + text with every ' ' replaced by U+2581; for each
 * start position every vocabulary piece that is a prefix there is a lattice
 * edge (no piece: one unknown edge of length 1, id 0, score 0); Viterbi keeps
 * per end position the best sum of log-probs, visiting start positions in
 * increasing order and replacing on ties (score >= best) or when the stored
 * best is exactly 0; back-tracking steps back by each chosen piece's length;
 * consecutive unknown ids collapse to one.  Duplicate pieces: the later id
 * wins.  Input: printable ASCII only (0x20..0x7E; NFKC is the identity on it),
 * 1..4096 bytes; anything else is AR_EINVAL. */
#ifndef ATTNRANK_CONSTRUCTIONS_SPM_TOKENIZER_H
#define ATTNRANK_CONSTRUCTIONS_SPM_TOKENIZER_H

#include <stddef.h>
#include <stdint.h>
#include "base/status.h"
#include "constructions/formats/json.h"

#define SPM_RESERVED 6
#define SPM_MAX_INPUT 4096
#define SPM_MAX_PIECE 256     /* longest accepted piece, in code points (the pinned vocabulary: 16) */

typedef struct {
    size_t n;              /* vocabulary size */
    uint32_t **cp;         /* code points of each piece */
    size_t *len;           /* number of code points */
    size_t *len16;         /* UTF-16 length (the package steps back by it) */
    double *score;         /* log-probability */
    unsigned char *active; /* 1 if the piece is a lattice candidate */
    char *path;            /* where it was read from, for messages (allocated) */
} spm_vocab_t;

/* Load vocab.json (array of [string, number]) with json_read_file and
 * spm_vocab_parse. */
ar_status spm_vocab_load(const char *path, spm_vocab_t *V);

/* Fill V from a parsed vocabulary `root` (`what` names it in messages and
 * is kept in V->path); AR_EINVAL on any other shape, invalid UTF-8, pieces
 * longer than SPM_MAX_PIECE, fewer than SPM_RESERVED+1 entries, or no
 * non-empty piece with a numeric score (an all-null vocabulary).  V is
 * cleared on failure. */
ar_status spm_vocab_parse(const char *what, const json_t *root, spm_vocab_t *V);

void spm_vocab_clear(spm_vocab_t *V);

/* Encode `text`; *ids (ar_calloc, caller frees) receives *n >= 1 ids. */
ar_status spm_encode(const spm_vocab_t *V, const char *text, int **ids, size_t *n);

#endif
