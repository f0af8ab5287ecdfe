/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_json.c -- the strict JSON reader on jansson (constructions/formats/json.h):
 * values decoded exactly (escapes, surrogate pairs, every number a double),
 * and every malformed input refused with one line naming the source:
 * syntax errors, control characters, bad escapes and surrogates, \u0000 and
 * raw NUL bytes, invalid UTF-8, overflowing numbers, trailing data,
 * duplicate keys (issue 14 item 8), nesting deeper than 64; files: size
 * limit, missing files, directories and FIFOs, positions in messages. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "testutil.h"
#include "constructions/formats/json.h"

static ar_status parse(const char *s, json_t **v) { return json_read_buffer(s, strlen(s), "t", v); }

/* Refused with one line starting "t: invalid JSON" and free of control bytes. */
static void refused(const char *s, size_t n)
{
    json_t *v = (json_t *)1;
    ck_assert_msg(json_read_buffer(s, n, "t", &v) == AR_EINVAL, "accepted '%s'", s);
    ck_assert_ptr_null(v);
    const char *m = ar_error_get();
    ck_assert_msg(strncmp(m, "t: invalid JSON", 15) == 0, "message '%s'", m);
    for (const char *c = m; *c; c++)
        ck_assert_msg((unsigned char)*c >= 0x20 && *c != 0x7f, "control byte 0x%02x in '%s'", *c, m);
}

START_TEST(json_valid)
{
    json_t *v;
    ck_assert_int_eq(parse(" {\"a\": [1, -2.5e3, true, null, \"x\\u00e9\\ud83d\\ude00\\n\"], \"b\": {}} ", &v), AR_OK);
    const json_t *a = json_object_get(v, "a");
    ck_assert(json_is_array(a));
    ck_assert_uint_eq(json_array_size(a), 5);
    ck_assert(json_is_real(json_array_get(a, 0)) && json_number_value(json_array_get(a, 0)) == 1.0);
    ck_assert(json_number_value(json_array_get(a, 1)) == -2500.0);
    ck_assert(json_is_true(json_array_get(a, 2)));
    ck_assert(json_is_null(json_array_get(a, 3)));
    ck_assert_str_eq(json_string_value(json_array_get(a, 4)), "x\xc3\xa9\xf0\x9f\x98\x80\n");
    ck_assert(json_is_object(json_object_get(v, "b")));
    ck_assert_ptr_null(json_object_get(v, "c"));
    json_decref(v);
    /* any value at the top level; underflow reads as a double, as strtod does */
    ck_assert_int_eq(parse(" 5 ", &v), AR_OK);
    ck_assert(json_number_value(v) == 5.0);
    json_decref(v);
    ck_assert_int_eq(parse("[1e-400, 123456789012345678901234567890, -0]", &v), AR_OK);
    ck_assert(json_number_value(json_array_get(v, 0)) == 0.0);
    ck_assert(json_number_value(json_array_get(v, 1)) == 123456789012345678901234567890.0);
    json_decref(v);
    /* equal keys in different objects are not duplicates */
    ck_assert_int_eq(parse("[{\"a\": 1}, {\"a\": {\"a\": 2}}]", &v), AR_OK);
    json_decref(v);
}
END_TEST

START_TEST(json_invalid)
{
    const char *bad[] = { "", "[1,]", "{\"a\" 1}", "[1 2]", "\"abc", "[01]", "[1.]", "[1e]", "tru",
                          "\"\\x\"", "\"\\ud800\"", "\"a\tb\"", "[1] x", "{\"a\":1,}", "-", "[1e999]",
                          "\"\\u12\"", "[-1e999]", "\"\\udc00\"", "\"\\ud800\\u0041\"", "[\"\\u0000\"]",
                          "[\"\xff\"]", "[\"\xc0\xaf\"]", "[\x1b]0;pwned\x07]", "[NaN]", "[Infinity]", "{a:1}" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        refused(bad[i], strlen(bad[i]));
    /* a raw NUL byte, inside and outside a string */
    refused("[\"a\0b\"]", 7);
    refused("[1]\0", 4);
    refused(NULL, 0);
}
END_TEST

START_TEST(json_duplicate_keys)
{
    const char *dup[] = { "{\"a\": 1, \"a\": 2}", "{\"weightsManifest\": [], \"x\": {}, \"weightsManifest\": {}}",
                          "[{\"b\": {\"c\": 1, \"c\": 1}}]", "{\"\\u0061\": 1, \"a\": 2}" };
    for (size_t i = 0; i < sizeof dup / sizeof dup[0]; i++) {
        refused(dup[i], strlen(dup[i]));
        ck_assert_msg(strstr(ar_error_get(), "duplicate") != NULL, "message '%s'", ar_error_get());
    }
}
END_TEST

/* n nested containers (alternating arrays and objects) around a 1. */
static char *nested(int n)
{
    char *s = malloc(8 * (size_t)n + 2);
    ck_assert_ptr_nonnull(s);
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        if (i % 2) { memcpy(s + k, "{\"k\":", 5); k += 5; }
        else s[k++] = '[';
    }
    s[k++] = '1';
    for (int i = n - 1; i >= 0; i--)
        s[k++] = i % 2 ? '}' : ']';
    s[k] = '\0';
    return s;
}

START_TEST(json_depth)
{
    json_t *v;
    char *s = nested(JSON_MAX_DEPTH);
    ck_assert_msg(parse(s, &v) == AR_OK, "%s", ar_error_get());
    json_decref(v);
    free(s);
    int deeper[] = { JSON_MAX_DEPTH + 1, 100, 3000 };
    for (size_t i = 0; i < sizeof deeper / sizeof deeper[0]; i++) {
        s = nested(deeper[i]);
        refused(s, strlen(s));
        free(s);
    }
    /* the old test: 100 '[' and 99 ']' */
    char deep[200];
    memset(deep, '[', 100);
    memset(deep + 100, ']', 99);
    refused(deep, 199);
}
END_TEST

static char fdir[64];

static void fsetup(void)
{
    strcpy(fdir, "/tmp/attnrank_json_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(fdir));
}

static void fteardown(void)
{
    const char *names[] = { "a.json", "fifo.json" };
    char p[128];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", fdir, names[i]);
        unlink(p);
    }
    rmdir(fdir);
}

static const char *fpath(const char *name)
{
    static char p[128];
    snprintf(p, sizeof p, "%s/%s", fdir, name);
    return p;
}

static void fwrite_str(const char *name, const char *s)
{
    ck_assert_int_eq(test_write_file(fdir, name, s, strlen(s)), 0);
}

START_TEST(json_files)
{
    json_t *v;
    const char *doc = "{\"a\": [1, 2]}";
    fwrite_str("a.json", doc);
    ck_assert_int_eq(json_read_file(fpath("a.json"), strlen(doc), &v), AR_OK);
    ck_assert_uint_eq(json_array_size(json_object_get(v, "a")), 2);
    json_decref(v);
    /* one byte over the limit */
    ck_assert_int_eq(json_read_file(fpath("a.json"), strlen(doc) - 1, &v), AR_EINVAL);
    ck_assert_ptr_null(v);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), "too large"));
    ck_assert_ptr_nonnull(strstr(ar_error_get(), fpath("a.json")));
    /* position of the error: line and column, named file */
    fwrite_str("a.json", "{\n  \"a\": tru\n}");
    ck_assert_int_eq(json_read_file(fpath("a.json"), 1000, &v), AR_EINVAL);
    ck_assert_msg(strstr(ar_error_get(), "line 2") != NULL, "%s", ar_error_get());
    ck_assert_ptr_nonnull(strstr(ar_error_get(), fpath("a.json")));
    ck_assert_ptr_null(strchr(ar_error_get(), '\n'));
    /* empty file, missing file, directory, FIFO with no writer (never blocks) */
    fwrite_str("a.json", "");
    ck_assert_int_eq(json_read_file(fpath("a.json"), 1000, &v), AR_EINVAL);
    ck_assert_int_eq(json_read_file(fpath("none.json"), 1000, &v), AR_EIO);
    ck_assert_int_eq(json_read_file(fdir, 1000, &v), AR_EINVAL);
    ck_assert_int_eq(mkfifo(fpath("fifo.json"), 0600), 0);
    ck_assert_int_eq(json_read_file(fpath("fifo.json"), 1000, &v), AR_EINVAL);
    ck_assert_ptr_null(v);
}
END_TEST

Suite *suite_json(void)
{
    Suite *s = suite_create("json");
    TEST_TCASE(tc, "buffers");
    tcase_add_test(tc, json_valid);
    tcase_add_test(tc, json_invalid);
    tcase_add_test(tc, json_duplicate_keys);
    tcase_add_test(tc, json_depth);
    suite_add_tcase(s, tc);
    TEST_TCASE(tf, "files");
    tcase_add_checked_fixture(tf, fsetup, fteardown);
    tcase_add_test(tf, json_files);
    suite_add_tcase(s, tf);
    return s;
}
