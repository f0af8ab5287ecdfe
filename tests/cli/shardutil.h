/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shardutil.h -- forging shard files from real ones, for the CLI suites
 * that test `attnrank merge` (tests/cli/test_merge*.c, test_calib_shard.c):
 * read a file, cut its end record, edit its text, and seal it again with a
 * fresh, consistent end record (and an HMAC under a given key), as anyone
 * who can write a shared directory can.  Also the synthetic model that the
 * calib suites load through a manifest.  Header-only (static inline), like
 * cliutil.h. */
#ifndef ATTNRANK_TESTS_SHARDUTIL_H
#define ATTNRANK_TESTS_SHARDUTIL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "constructions/formats/npy.h"
#include "base/sha256.h"
#include "testutil.h"

/* The whole file (NUL-terminated, caller frees); its size in *n. */
static inline char *su_file_text(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "%s missing", path);
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)sz + 1);
    ck_assert(b && fread(b, 1, (size_t)sz, f) == (size_t)sz);
    fclose(f);
    b[sz] = '\0';
    *n = (size_t)sz;
    return b;
}

/* Write text (a header and records, each line ending in '\n') as a shard
 * file with a consistent end record; with key (klen bytes), also its HMAC. */
static inline void su_reseal_key(const char *path, const char *text, const void *key, size_t klen)
{
    size_t n = strlen(text), lines = 0;
    for (size_t i = 0; i < n; i++)
        lines += text[i] == '\n';
    char hex[65], mac[65];
    sha256_hex(text, n, hex);
    FILE *f = fopen(path, "wb");
    ck_assert(f != NULL);
    if (key) {
        hmac_sha256_hex(key, klen, text, n, mac);
        fprintf(f, "%s{\"end\":true,\"records\":%zu,\"sha256\":\"%s\",\"hmac\":\"%s\"}\n", text, lines - 1, hex, mac);
    } else
        fprintf(f, "%s{\"end\":true,\"records\":%zu,\"sha256\":\"%s\"}\n", text, lines - 1, hex);
    fclose(f);
}

static inline void su_reseal(const char *path, const char *text)
{
    su_reseal_key(path, text, NULL, 0);
}

/* The file without its end record (caller frees). */
static inline char *su_unsealed(const char *path)
{
    size_t n;
    char *b = su_file_text(path, &n);
    char *end = strstr(b, "{\"end\":true");
    ck_assert(end != NULL);
    *end = '\0';
    return b;
}

/* Replace the first occurrence of a by b in s (cap bytes). */
static inline void su_replace(char *s, size_t cap, const char *a, const char *b)
{
    char *p = strstr(s, a);
    ck_assert_msg(p != NULL, "'%s' not found", a);
    size_t la = strlen(a), lb = strlen(b), rest = strlen(p + la);
    ck_assert(strlen(s) - la + lb < cap);
    memmove(p + lb, p + la, rest + 1);
    memcpy(p, b, lb);
}

/* A synthetic model for `attnrank calib --manifest DIR/NAME/manifest.json`:
 * two layers (2 heads of dim 4; 1 head of dim 3), three inputs of 6, 9 and
 * 240 positions, Q and K pseudo-random in [-1.5, 1.5] (an LCG; `salt`
 * changes the data). */
static inline void su_write_model(const char *dir, const char *name, unsigned salt)
{
    size_t nh[2] = { 2, 1 }, dh[2] = { 4, 3 }, np[3] = { 6, 9, 240 };
    unsigned long long x = 12345 + salt;
    char files[8192] = "", p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    mkdir(p, 0700);
    for (size_t l = 0; l < 2; l++)
        for (size_t h = 0; h < nh[l]; h++)
            for (size_t i = 0; i < 3; i++) {
                for (int k = 0; k < 2; k++) {
                    static double v[240 * 4];
                    for (size_t r = 0; r < np[i] * dh[l]; r++) {
                        x = x * 6364136223846793005ull + 1442695040888963407ull;
                        v[r] = 3.0 * ((double)(x >> 11) / 9007199254740992.0) - 1.5;
                    }
                    snprintf(p, sizeof p, "%s/%s/%c%zu%zu%zu.npy", dir, name, k ? 'k' : 'q', l, h, i);
                    ck_assert_int_eq(npy_write(p, v, np[i], dh[l]), AR_OK);
                }
                char e[200];
                snprintf(e, sizeof e, "%s{\"layer\":%zu,\"head\":%zu,\"input\":%zu,\"q\":\"q%zu%zu%zu.npy\","
                         "\"k\":\"k%zu%zu%zu.npy\"}", files[0] ? "," : "", l, h, i, l, h, i, l, h, i);
                strcat(files, e);
            }
    char m[12288];
    snprintf(m, sizeof m, "{\"format\":\"attnrank-heads\",\"version\":1,\"model\":\"synth\","
             "\"layers\":[{\"heads\":2,\"head_dim\":4,\"scale\":1.5},{\"heads\":1,\"head_dim\":3,\"scale\":2}],"
             "\"inputs\":[{\"name\":\"a\",\"positions\":6},{\"name\":\"b\",\"positions\":9},"
             "{\"name\":\"c\",\"positions\":240}],\"files\":[%s]}", files);
    snprintf(p, sizeof p, "%s/%s", dir, name);
    ck_assert_int_eq(test_write_file(p, "manifest.json", m, strlen(m)), 0);
}

#endif
