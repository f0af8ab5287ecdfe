/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_corpus.c -- sentence splitting on a file written here (exact
 * sentences), the committed manifest rebuilt from /usr/share/common-licenses
 * (skipped with a printed reason where that directory is absent), and
 * manifest mismatches rejected with one-line messages. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "testutil.h"
#include "constructions/formats/corpus.h"
#include "base/sha256.h"

static char tmpdir[64];
static char tmpfile_[128];

static void setup(void)
{
    strcpy(tmpdir, "/tmp/attnrank_corpus_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    snprintf(tmpfile_, sizeof tmpfile_, "%s/LIC", tmpdir);
    FILE *f = fopen(tmpfile_, "w");
    ck_assert_ptr_nonnull(f);
    fputs("Title line without a full stop\n\n"
          "This is the first real sentence of the text,\n   wrapped over two lines.  Short one.\n"
          "Does a question with seven words or more count? Yes!\n"
          "\t\n"
          "A paragraph ends here without any final punctuation mark at all\n\n"
          "Non-ASCII caf\xc3\xa9 sentences are never kept by the splitting rule.\n", f);
    fclose(f);
}

static void teardown(void)
{
    unlink(tmpfile_);
    rmdir(tmpdir);
}

START_TEST(split_rule)
{
    char **s;
    size_t n;
    ck_assert_int_eq(corpus_split(tmpfile_, &s, &n), AR_OK);
    ck_assert_uint_eq(n, 2);   /* unterminated text and short/non-ASCII sentences are dropped */
    ck_assert_str_eq(s[0], "This is the first real sentence of the text, wrapped over two lines.");
    ck_assert_str_eq(s[1], "Does a question with seven words or more count?");
    corpus_strings_free(s, n);
    ck_assert_int_eq(corpus_split("/nonexistent/attnrank", &s, &n), AR_EIO);
}
END_TEST

/* The 1 MiB limit: a file of exactly 1 MiB is split (its one sentence at
 * the very end is found), one byte more is refused with one line. */
START_TEST(split_size_limit)
{
    const char *tail = "This last sentence of the file has more than seven words.";
    size_t tl = strlen(tail), total = (size_t)1 << 20;
    FILE *f = fopen(tmpfile_, "w");
    ck_assert_ptr_nonnull(f);
    for (size_t i = 0; i < total - tl - 2; i++)
        fputc(i % 64 == 63 ? '\n' : 'x', f);
    fprintf(f, "\n\n%s", tail);
    fclose(f);
    char **s;
    size_t n;
    ck_assert_int_eq(corpus_split(tmpfile_, &s, &n), AR_OK);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(s[0], tail);
    corpus_strings_free(s, n);
    f = fopen(tmpfile_, "a");
    fputc(' ', f);
    fclose(f);
    ck_assert_int_eq(corpus_split(tmpfile_, &s, &n), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "larger than"));
    ck_assert_ptr_null(strchr(ar_error_get(), '\n'));
}
END_TEST

START_TEST(manifest_mismatch)
{
    char h[65];
    const char *t = "This is the first real sentence of the text, wrapped over two lines.";
    sha256_hex(t, strlen(t), h);
    corpus_entry_t ok[1] = { { "LIC", 0, h } };
    corpus_t C;
    ck_assert_int_eq(corpus_load(ok, 1, tmpdir, &C), AR_OK);
    ck_assert_uint_eq(C.n, 1);
    ck_assert_str_eq(C.text[0], t);
    corpus_clear(&C);
    corpus_entry_t bad_hash[1] = { { "LIC", 1, h } };
    ck_assert_int_eq(corpus_load(bad_hash, 1, tmpdir, &C), AR_EINVAL);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "changed"));
    ck_assert_ptr_null(strchr(ar_error_get(), '\n'));
    corpus_entry_t bad_index[1] = { { "LIC", 2, h } };
    ck_assert_int_eq(corpus_load(bad_index, 1, tmpdir, &C), AR_EINVAL);
    corpus_entry_t bad_file[1] = { { "NOPE", 0, h } };
    ck_assert_int_eq(corpus_load(bad_file, 1, tmpdir, &C), AR_EIO);
    corpus_entry_t bad_name[1] = { { "../LIC", 0, h } };
    ck_assert_int_eq(corpus_load(bad_name, 1, tmpdir, &C), AR_EINVAL);
}
END_TEST

START_TEST(committed_manifest)
{
    struct stat sb;
    if (stat("/usr/share/common-licenses/Apache-2.0", &sb) != 0) {
        printf("test_corpus: SKIP committed manifest: /usr/share/common-licenses/Apache-2.0 absent\n");
        return;
    }
    size_t m;
    const corpus_entry_t *man = corpus_manifest(&m);
    ck_assert_uint_ge(m, 64);
    corpus_t C;
    ck_assert_msg(corpus_load(man, m, NULL, &C) == AR_OK, "%s", ar_error_get());
    ck_assert_uint_eq(C.n, m);
    ck_assert_str_eq(C.text[0], "\"License\" shall mean the terms and conditions for use, reproduction, and "
                                "distribution as defined by Sections 1 through 9 of this document.");
    for (size_t i = 0; i < m; i++)
        for (size_t j = i + 1; j < m; j++)
            ck_assert_msg(strcmp(C.text[i], C.text[j]) != 0, "duplicate sentences %zu, %zu", i, j);
    corpus_clear(&C);
}
END_TEST

Suite *suite_corpus(void)
{
    Suite *s = suite_create("corpus");
    TEST_TCASE(tc, "corpus");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, split_rule);
    tcase_add_test(tc, split_size_limit);
    tcase_add_test(tc, manifest_mismatch);
    tcase_add_test(tc, committed_manifest);
    suite_add_tcase(s, tc);
    return s;
}
