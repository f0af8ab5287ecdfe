/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_real_pins.c -- the pinned digests of the claim-E model cache
 * (constructions/models/real_pins.h, issue 14 item 1): synthetic files and
 * a synthetic table (a flipped byte anywhere is refused with one line
 * naming the file, the expected and the actual digest; a missing file is
 * named too), and the committed tables (every model file and every
 * reference file present once, digests in the form the data step reads). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "testutil.h"
#include "constructions/models/real_pins.h"
#include "base/sha256.h"

static char pdir[64];

static void psetup(void)
{
    strcpy(pdir, "/tmp/attnrank_pins_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(pdir));
}

static void pteardown(void)
{
    char p[128];
    const char *names[] = { "model.json", "sub/group1-shard1of2", "sub/vocab.json" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", pdir, names[i]);
        unlink(p);
    }
    snprintf(p, sizeof p, "%s/sub", pdir);
    rmdir(p);
    rmdir(pdir);
}

static void put(const char *name, const char *data, size_t n)
{
    ck_assert_int_eq(test_write_file(pdir, name, data, n), 0);
}

/* Flip bit 0 of byte `at` of pdir/name. */
static void flip(const char *name, long at)
{
    char p[128];
    snprintf(p, sizeof p, "%s/%s", pdir, name);
    FILE *f = fopen(p, "r+b");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fseek(f, at, SEEK_SET), 0);
    int c = fgetc(f);
    ck_assert_int_ne(c, EOF);
    ck_assert_int_eq(fseek(f, at, SEEK_SET), 0);
    fputc(c ^ 1, f);
    fclose(f);
}

START_TEST(pins_synthetic)
{
    char p[128];
    snprintf(p, sizeof p, "%s/sub", pdir);
    ck_assert_int_eq(mkdir(p, 0700), 0);
    const char *docs[3] = { "{\"weightsManifest\": []}", "\x01\x02\x03\x04shard bytes", "[[\"a\", -1]]" };
    const char *names[3] = { "model.json", "sub/group1-shard1of2", "sub/vocab.json" };
    char hex[3][65];
    real_pin_t pins[3];
    for (int i = 0; i < 3; i++) {
        put(names[i], docs[i], strlen(docs[i]));
        sha256_hex(docs[i], strlen(docs[i]), hex[i]);
        pins[i].path = names[i];
        pins[i].sha256 = hex[i];
    }
    ck_assert_msg(real_pins_verify(pdir, pins, 3) == AR_OK, "%s", ar_error_get());
    for (int i = 0; i < 3; i++) {
        long at = (long)strlen(docs[i]) / 2;
        flip(names[i], at);
        ck_assert_int_eq(real_pins_verify(pdir, pins, 3), AR_EINVAL);
        const char *m = ar_error_get();
        snprintf(p, sizeof p, "%s/%s:", pdir, names[i]);
        ck_assert_msg(strncmp(m, p, strlen(p)) == 0, "message '%s' does not start with the file", m);
        char want[80];
        snprintf(want, sizeof want, "expected %s, got ", hex[i]);
        ck_assert_msg(strstr(m, want) != NULL, "message '%s'", m);
        ck_assert_ptr_null(strchr(m, '\n'));
        flip(names[i], at);
        ck_assert_int_eq(real_pins_verify(pdir, pins, 3), AR_OK);
    }
    /* a missing file is named */
    snprintf(p, sizeof p, "%s/sub/vocab.json", pdir);
    unlink(p);
    ck_assert_int_eq(real_pins_verify(pdir, pins, 3), AR_EIO);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "sub/vocab.json"));
    /* real_pins_load refuses the directory before reading anything */
    real_model_t M;
    ck_assert_int_ne(real_pins_load(pdir, &M), AR_OK);
}
END_TEST

static int is_hex64(const char *s)
{
    if (strlen(s) != 64)
        return 0;
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
            return 0;
    return 1;
}

static size_t count_path(const real_pin_t *p, size_t n, const char *path)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += strcmp(p[i].path, path) == 0;
    return c;
}

START_TEST(pins_tables)
{
    size_t nm, nr;
    const real_pin_t *m = real_pins_model(&nm), *r = real_pins_reference(&nr);
    ck_assert_uint_eq(nm, 9);
    const char *model[] = { "model.json", "vocab.json", "group1-shard1of7", "group1-shard2of7", "group1-shard3of7",
                            "group1-shard4of7", "group1-shard5of7", "group1-shard6of7", "group1-shard7of7" };
    char p[128];
    for (size_t i = 0; i < sizeof model / sizeof model[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", REAL_PINS_MODEL_DIR, model[i]);
        ck_assert_msg(count_path(m, nm, p) == 1, "%s pinned %zu times", p, count_path(m, nm, p));
    }
    /* the reference: sentences.txt and, per sentence 0..6, the ids and 8 tensors */
    ck_assert_uint_eq(nr, 1 + 7 * 9);
    ck_assert_uint_eq(count_path(r, nr, "ref/sentences.txt"), 1);
    const char *kinds[] = { "ln", "q", "k", "attn" };
    for (int s = 0; s < 7; s++) {
        snprintf(p, sizeof p, "ref/s%d.ids", s);
        ck_assert_uint_eq(count_path(r, nr, p), 1);
        for (int l = 0; l < 2; l++)
            for (int k = 0; k < 4; k++) {
                snprintf(p, sizeof p, "ref/s%d_L%d_%s.npy", s, l, kinds[k]);
                ck_assert_msg(count_path(r, nr, p) == 1, "%s", p);
            }
    }
    for (size_t i = 0; i < nm; i++)
        ck_assert_msg(is_hex64(m[i].sha256), "%s", m[i].path);
    for (size_t i = 0; i < nr; i++)
        ck_assert_msg(is_hex64(r[i].sha256), "%s", r[i].path);
}
END_TEST

Suite *suite_real_pins(void)
{
    Suite *s = suite_create("real_pins");
    TEST_TCASE(tc, "pins");
    tcase_add_checked_fixture(tc, psetup, pteardown);
    tcase_add_test(tc, pins_synthetic);
    tcase_add_test(tc, pins_tables);
    suite_add_tcase(s, tc);
    return s;
}
