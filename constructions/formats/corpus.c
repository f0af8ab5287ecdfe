/* SPDX-License-Identifier: GPL-3.0-or-later */
/* corpus.c -- license-text sentences and their manifest check (see corpus.h). */
#include "constructions/formats/corpus.h"
#include "base/infile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/path.h"
#include "base/sha256.h"

#define CORPUS_MAX_FILE (1u << 20)
#define CORPUS_DEFAULT_DIR "/usr/share/common-licenses"

void corpus_strings_free(char **s, size_t n)
{
    if (!s)
        return;
    for (size_t i = 0; i < n; i++)
        free(s[i]);
    free(s);
}

static int is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

static int qualifies(const char *s, size_t len)
{
    if (len < CORPUS_MIN_CHARS || len > CORPUS_MAX_CHARS)
        return 0;
    size_t words = 1;
    for (size_t i = 0; i < len; i++) {
        if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7E)
            return 0;
        words += s[i] == ' ';
    }
    return words >= CORPUS_MIN_WORDS;
}

/* Append a qualifying sentence; returns AR_ENOMEM on failure. */
static ar_status push(char ***v, size_t *n, size_t *cap, const char *s, size_t len)
{
    if (!qualifies(s, len))
        return AR_OK;
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 64;
        char **nv = realloc(*v, nc * sizeof *nv);
        if (!nv) { ar_error_set("out of memory splitting sentences"); return AR_ENOMEM; }
        *v = nv;
        *cap = nc;
    }
    char *c = ar_calloc(len + 1, 1, "sentence");
    if (!c) return AR_ENOMEM;
    memcpy(c, s, len);
    (*v)[(*n)++] = c;
    return AR_OK;
}

/* Sentences of one normalized paragraph p[0..len). */
static ar_status split_paragraph(const char *p, size_t len, char ***v, size_t *n, size_t *cap)
{
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        int end = (p[i] == '.' || p[i] == '?' || p[i] == '!') && (i + 1 == len || p[i + 1] == ' ');
        if (!end)
            continue;
        ar_status st = push(v, n, cap, p + start, i + 1 - start);
        if (st) return st;
        start = i + 1;
        while (start < len && p[start] == ' ')
            start++;
        i = start ? start - 1 : 0;
    }
    return AR_OK;
}

ar_status corpus_split(const char *path, char ***sents, size_t *n)
{
    *sents = NULL;
    *n = 0;
    FILE *f;
    long long size;
    ar_status ost = infile_open(path, "license text file", INFILE_REGULAR, &f, &size);
    if (ost != AR_OK)
        return ost;
    if (size > CORPUS_MAX_FILE) {
        fclose(f);
        ar_error_set("corpus: %s is larger than %u bytes", path, CORPUS_MAX_FILE);
        return AR_EINVAL;
    }
    /* a buffer that fits the file, one byte more to see a file that grew */
    size_t bufcap = (size_t)size + 1;
    char *buf = ar_calloc(bufcap, 1, "license text");
    if (!buf) { fclose(f); return AR_ENOMEM; }
    size_t len = fread(buf, 1, bufcap, f);
    int err = ferror(f);
    fclose(f);
    if (err || len == bufcap) {
        free(buf);
        ar_error_set("corpus: %s %s", path, err ? "unreadable" : "changed size while being read");
        return err ? AR_EIO : AR_EINVAL;
    }
    char *para = ar_calloc(len + 1, 1, "paragraph");
    if (!para) { free(buf); return AR_ENOMEM; }
    char **v = NULL;
    size_t cap = 0, pl = 0;
    ar_status st = AR_OK;
    size_t i = 0;
    while (i <= len && !st) {
        /* a blank line (newline, optional spaces/tabs, newline) or the end closes a paragraph */
        int brk = i == len;
        if (!brk && buf[i] == '\n') {
            size_t j = i + 1;
            while (j < len && (buf[j] == ' ' || buf[j] == '\t' || buf[j] == '\r'))
                j++;
            brk = j < len && buf[j] == '\n';
        }
        if (brk) {
            while (pl && para[pl - 1] == ' ')
                pl--;
            st = split_paragraph(para, pl, &v, n, &cap);
            pl = 0;
            i++;
            continue;
        }
        if (is_ws(buf[i])) {
            if (pl && para[pl - 1] != ' ')
                para[pl++] = ' ';
        } else {
            para[pl++] = buf[i];
        }
        i++;
    }
    free(buf);
    free(para);
    if (st) {
        corpus_strings_free(v, *n);
        *n = 0;
        return st;
    }
    *sents = v;
    return AR_OK;
}

void corpus_clear(corpus_t *C)
{
    if (!C)
        return;
    corpus_strings_free(C->text, C->n);
    memset(C, 0, sizeof *C);
}

ar_status corpus_load(const corpus_entry_t *manifest, size_t m, const char *dir, corpus_t *C)
{
    memset(C, 0, sizeof *C);
    if (!dir)
        dir = CORPUS_DEFAULT_DIR;
    C->text = ar_calloc(m ? m : 1, sizeof *C->text, "corpus");
    if (!C->text)
        return AR_ENOMEM;
    C->entry = manifest;
    char **sents = NULL;
    size_t ns = 0;
    const char *loaded = NULL;
    ar_status st = AR_OK;
    for (size_t e = 0; e < m && !st; e++) {
        const corpus_entry_t *E = &manifest[e];
        if (!loaded || strcmp(loaded, E->file) != 0) {
            corpus_strings_free(sents, ns);
            sents = NULL;
            ns = 0;
            if (strchr(E->file, '/')) {
                ar_error_set("corpus: manifest file name '%s' must not contain '/'", E->file);
                st = AR_EINVAL;
                break;
            }
            char *p;
            st = path_join(dir, E->file, &p);
            if (st) break;
            st = corpus_split(p, &sents, &ns);
            free(p);
            if (st) break;
            loaded = E->file;
        }
        if (E->index >= ns) {
            ar_error_set("corpus: %s/%s has %zu sentences, the manifest wants index %zu", dir, E->file, ns, E->index);
            st = AR_EINVAL;
            break;
        }
        char h[65];
        sha256_hex(sents[E->index], strlen(sents[E->index]), h);
        if (strcmp(h, E->sha256) != 0) {
            ar_error_set("corpus: %s/%s sentence %zu changed (sha256 %.12s..., manifest %.12s...)", dir, E->file,
                         E->index, h, E->sha256);
            st = AR_EINVAL;
            break;
        }
        C->text[e] = sents[E->index];
        sents[E->index] = NULL;   /* moved; manifest indices within one file are distinct */
        C->n = e + 1;
    }
    corpus_strings_free(sents, ns);
    if (st)
        corpus_clear(C);
    return st;
}
