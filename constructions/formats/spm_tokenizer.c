/* SPDX-License-Identifier: GPL-3.0-or-later */
/* spm_tokenizer.c -- SentencePiece unigram Viterbi (see spm_tokenizer.h). */
#include "constructions/formats/spm_tokenizer.h"

#include <stdlib.h>
#include <string.h>
#include "constructions/formats/json.h"

#define SPM_SEP 0x2581u
#define SPM_MAX_JSON (16u << 20)

void spm_vocab_clear(spm_vocab_t *V)
{
    if (!V)
        return;
    if (V->cp)
        for (size_t i = 0; i < V->n; i++)
            free(V->cp[i]);
    free(V->cp);
    free(V->len);
    free(V->len16);
    free(V->score);
    free(V->active);
    free(V->path);
    memset(V, 0, sizeof *V);
}

/* Decode UTF-8 s (NUL-terminated) into code points; returns count or -1 if invalid. */
static long utf8_decode(const char *s, uint32_t *out)
{
    const unsigned char *p = (const unsigned char *)s;
    long k = 0;
    while (*p) {
        uint32_t c;
        int extra;
        if (p[0] < 0x80) { c = p[0]; extra = 0; }
        else if ((p[0] & 0xE0) == 0xC0) { c = p[0] & 0x1F; extra = 1; }
        else if ((p[0] & 0xF0) == 0xE0) { c = p[0] & 0x0F; extra = 2; }
        else if ((p[0] & 0xF8) == 0xF0) { c = p[0] & 0x07; extra = 3; }
        else return -1;
        for (int j = 1; j <= extra; j++) {
            if ((p[j] & 0xC0) != 0x80)
                return -1;
            c = (c << 6) | (p[j] & 0x3F);
        }
        p += extra + 1;
        out[k++] = c;
    }
    return k;
}

static const spm_vocab_t *cmp_vocab;

static int cmp_piece(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    size_t li = cmp_vocab->len[i], lj = cmp_vocab->len[j];
    size_t l = li < lj ? li : lj;
    for (size_t k = 0; k < l; k++)
        if (cmp_vocab->cp[i][k] != cmp_vocab->cp[j][k])
            return cmp_vocab->cp[i][k] < cmp_vocab->cp[j][k] ? -1 : 1;
    if (li != lj)
        return li < lj ? -1 : 1;
    return i < j ? -1 : (i > j);
}

ar_status spm_vocab_parse(const char *what, const json_t *root, spm_vocab_t *V)
{
    memset(V, 0, sizeof *V);
    size_t n = json_array_size(root);
    if (!json_is_array(root) || n < SPM_RESERVED + 1) {
        ar_error_set("%s: vocabulary must be a JSON array of more than %d [piece, score] pairs", what, SPM_RESERVED);
        return AR_EINVAL;
    }
    V->cp = ar_calloc(n, sizeof *V->cp, "vocabulary");
    V->len = ar_calloc(n, sizeof *V->len, "vocabulary");
    V->len16 = ar_calloc(n, sizeof *V->len16, "vocabulary");
    V->score = ar_calloc(n, sizeof *V->score, "vocabulary");
    V->active = ar_calloc(n, 1, "vocabulary");
    ar_status st = AR_ENOMEM;
    if (!V->cp || !V->len || !V->len16 || !V->score || !V->active)
        goto fail;
    V->n = n;
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(root, i);
        const json_t *pc = json_array_get(e, 0), *sc = json_array_get(e, 1);
        if (!json_is_array(e) || json_array_size(e) != 2 || !json_is_string(pc) ||
            (!json_is_number(sc) && !json_is_null(sc))) {
            ar_error_set("%s: vocabulary entry %zu is not a [string, number|null] pair", what, i);
            st = AR_EINVAL;
            goto fail;
        }
        const char *str = json_string_value(pc);
        V->cp[i] = ar_calloc(strlen(str) + 1, sizeof(uint32_t), "vocabulary piece");
        st = AR_ENOMEM;
        if (!V->cp[i])
            goto fail;
        long k = utf8_decode(str, V->cp[i]);
        st = AR_EINVAL;
        if (k < 0) {
            ar_error_set("%s: vocabulary entry %zu is not valid UTF-8", what, i);
            goto fail;
        }
        if (k > SPM_MAX_PIECE) {
            ar_error_set("%s: vocabulary entry %zu is longer than %d characters", what, i, SPM_MAX_PIECE);
            goto fail;
        }
        V->len[i] = (size_t)k;
        for (long j = 0; j < k; j++)
            V->len16[i] += V->cp[i][j] >= 0x10000 ? 2 : 1;
        V->score[i] = json_is_null(sc) ? 0.0 : json_number_value(sc);  /* JS: null + x == x */
        V->active[i] = i >= SPM_RESERVED && k > 0;
    }
    size_t scored = 0;
    for (size_t i = SPM_RESERVED; i < n; i++)
        scored += V->active[i] && !json_is_null(json_array_get(json_array_get(root, i), 1));
    if (scored == 0) {
        ar_error_set("%s: no piece of the vocabulary has a score (the scores of all %zu pieces from id %d on are "
                     "null or the pieces empty), so it cannot segment text", what, n - SPM_RESERVED, SPM_RESERVED);
        st = AR_EINVAL;
        goto fail;
    }
    /* duplicates: the package's trie keeps the later id */
    size_t *ord = ar_calloc(n, sizeof *ord, "vocabulary order");
    st = AR_ENOMEM;
    if (!ord)
        goto fail;
    for (size_t i = 0; i < n; i++)
        ord[i] = i;
    cmp_vocab = V;
    qsort(ord, n, sizeof *ord, cmp_piece);
    for (size_t t = 0; t + 1 < n; t++) {
        size_t i = ord[t], j = ord[t + 1];
        if (V->len[i] == V->len[j] && memcmp(V->cp[i], V->cp[j], V->len[i] * sizeof(uint32_t)) == 0 &&
            V->active[j])
            V->active[i] = 0;
    }
    free(ord);
    V->path = strdup(what);
    if (V->path)
        return AR_OK;
    ar_error_set("out of memory");
fail:
    spm_vocab_clear(V);
    return st;
}

ar_status spm_vocab_load(const char *path, spm_vocab_t *V)
{
    memset(V, 0, sizeof *V);
    json_t *root;
    ar_status st = json_read_file(path, SPM_MAX_JSON, &root);
    if (st)
        return st;
    st = spm_vocab_parse(path, root, V);
    json_decref(root);
    return st;
}

ar_status spm_encode(const spm_vocab_t *V, const char *text, int **ids, size_t *n)
{
    *ids = NULL;
    *n = 0;
    size_t L = strlen(text);
    if (L == 0 || L > SPM_MAX_INPUT) {
        ar_error_set("tokenizer: input must have 1..%d characters (got %zu)", SPM_MAX_INPUT, L);
        return AR_EINVAL;
    }
    for (size_t i = 0; i < L; i++)
        if ((unsigned char)text[i] < 0x20 || (unsigned char)text[i] > 0x7E) {
            ar_error_set("tokenizer: only printable ASCII is supported (byte 0x%02x at %zu)",
                         (unsigned char)text[i], i);
            return AR_EINVAL;
        }
    size_t S = L + 1;
    uint32_t *sym = ar_calloc(S, sizeof *sym, "tokenizer symbols");
    double *best = ar_calloc(S + 1, sizeof *best, "tokenizer lattice");
    size_t *word = ar_calloc(S + 1, sizeof *word, "tokenizer lattice");
    int *res = ar_calloc(S + 1, sizeof *res, "tokenizer output");
    if (!sym || !best || !word || !res) {
        free(sym); free(best); free(word); free(res);
        return AR_ENOMEM;
    }
    sym[0] = SPM_SEP;
    for (size_t i = 0; i < L; i++)
        sym[i + 1] = text[i] == ' ' ? SPM_SEP : (uint32_t)(unsigned char)text[i];
    /* Lattice edges: for each start s, the pieces that are a prefix of
     * sym[s..] (a list of ids, at most one per length after deduplication). */
    size_t maxlen = 1;
    for (size_t v = 0; v < V->n; v++)
        if (V->active[v] && V->len[v] > maxlen)
            maxlen = V->len[v];
    size_t *edge = ar_calloc(S * (maxlen + 1), sizeof *edge, "tokenizer lattice");
    if (!edge) {
        free(sym); free(best); free(word); free(res);
        return AR_ENOMEM;
    }
    /* edge[s*(maxlen+1) + len] = id + 1 of the piece of that length at s, 0 if none */
    for (size_t s = 0; s < S; s++)
        for (size_t v = 0; v < V->n; v++)
            if (V->active[v] && V->len[v] <= S - s &&
                memcmp(V->cp[v], sym + s, V->len[v] * sizeof(uint32_t)) == 0)
                edge[s * (maxlen + 1) + V->len[v]] = v + 1;
    /* Viterbi by end position; edges ending at e are visited by increasing
     * start (the order of the package's lattice). */
    for (size_t e = 1; e <= S; e++) {
        for (size_t s = e > maxlen ? e - maxlen : 0; s < e; s++) {
            size_t len = e - s;
            const size_t *es = edge + s * (maxlen + 1);
            int any = 0;
            for (size_t l = 1; l <= maxlen && !any; l++)
                any = es[l] != 0;
            size_t v;
            double sc;
            if (es[len]) {
                v = es[len] - 1;
                sc = V->score[v] + best[s];
            } else if (!any && len == 1) {
                v = 0;                      /* unknown: id 0, score 0, length 1 */
                sc = 0.0 + best[s];
            } else {
                continue;
            }
            if (best[e] == 0.0 || sc >= best[e]) {
                best[e] = sc;
                word[e] = v;
            }
        }
    }
    free(edge);
    size_t k = 0;
    long it = (long)S;
    while (it > 0) {
        res[k++] = (int)word[it];
        size_t step = V->len16[word[it]];
        it -= (long)(step ? step : 1);   /* an empty piece would stall the walk */
    }
    /* reverse, collapsing consecutive unknowns */
    int *out = ar_calloc(k ? k : 1, sizeof *out, "token ids");
    if (!out) {
        free(sym); free(best); free(word); free(res);
        return AR_ENOMEM;
    }
    size_t m = 0;
    int prev_unk = 0;
    for (size_t i = 0; i < k; i++) {
        int id = res[i];
        if (!(prev_unk && id == 0))
            out[m++] = id;
        prev_unk = id == 0;
    }
    for (size_t i = 0; i < m / 2; i++) {
        int t = out[i]; out[i] = out[m - 1 - i]; out[m - 1 - i] = t;
    }
    free(sym); free(best); free(word); free(res);
    *ids = out;
    *n = m;
    return AR_OK;
}
