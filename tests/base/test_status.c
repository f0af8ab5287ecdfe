/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_status.c -- the last-error message is one line that cannot drive a
 * terminal (control characters, C1 and invalid UTF-8 escaped as \xNN, valid
 * UTF-8 kept; a message too long keeps its head and its end), and
 * infile_open never blocks and names what it refuses. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "testutil.h"
#include "base/infile.h"
#include "base/status.h"

START_TEST(error_escapes)
{
    ar_error_set("a\nb\r\t\033]0;x\007 %s", "\x7f");
    ck_assert_str_eq(ar_error_get(), "a\\x0ab\\x0d\\x09\\x1b]0;x\\x07 \\x7f");
    /* valid UTF-8 passes (e-acute, a CJK character, an emoji) */
    ar_error_set("caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80");
    ck_assert_str_eq(ar_error_get(), "caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80");
    /* C1 control U+009B (CSI) as UTF-8, a lone continuation byte, an overlong
     * encoding, a surrogate, a truncated sequence */
    ar_error_set("\xc2\x9b|\x80|\xc0\xaf|\xed\xa0\x80|\xe4\xb8");
    ck_assert_str_eq(ar_error_get(), "\\xc2\\x9b|\\x80|\\xc0\\xaf|\\xed\\xa0\\x80|\\xe4\\xb8");
    /* re-setting with the previous message does not escape twice */
    ar_error_set("\033");
    ar_error_set("ctx: %s", ar_error_get());
    ck_assert_str_eq(ar_error_get(), "ctx: \\x1b");
    /* a long message is cut, never overflowing, and stays NUL-terminated */
    char big[2000];
    memset(big, '\001', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    ar_error_set("%s", big);
    ck_assert(strlen(ar_error_get()) < 512);
    ck_assert(strchr(ar_error_get(), '\001') == NULL);
    /* a long echoed name (escaped 4x) does not push the reason out: the head,
     * " ... " and the end of the message are kept (fuzz_tfjs finding) */
    char name[3000];
    memset(name, 0x7f, sizeof name - 1);
    name[sizeof name - 1] = '\0';
    ar_error_set("m.json: weight '%s' has a non-finite value at %d", name, 7);
    const char *m = ar_error_get();
    ck_assert_uint_lt(strlen(m), 512);
    ck_assert_msg(strncmp(m, "m.json: weight '\\x7f", 20) == 0, "%s", m);
    ck_assert_msg(strstr(m, " ... ") != NULL, "%s", m);
    size_t L = strlen(m), k = strlen("' has a non-finite value at 7");
    ck_assert_msg(L > k && strcmp(m + L - k, "' has a non-finite value at 7") == 0, "%s", m);
    ck_assert_ptr_null(strchr(m, '\n'));
    /* UTF-8 cut at a boundary: every byte of the result is in a whole sequence */
    char wide[1200] = "p: ";
    for (int i = 0; i < 380; i++)
        strcat(wide, "\xc3\xa9");
    strcat(wide, " end");
    ar_error_set("%s", wide);
    m = ar_error_get();
    ck_assert_msg(strstr(m, "\\x") == NULL, "a split sequence was escaped: %s", m);
    ck_assert_str_eq(m + strlen(m) - 4, " end");
}
END_TEST

START_TEST(infile_kinds)
{
    char dir[] = "/tmp/attnrank_infile_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char reg[128], fifo[128];
    snprintf(reg, sizeof reg, "%s/r.bin", dir);
    snprintf(fifo, sizeof fifo, "%s/f.bin", dir);
    FILE *w = fopen(reg, "wb");
    ck_assert_ptr_nonnull(w);
    fputs("abc", w);
    fclose(w);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    FILE *f;
    long long size;
    ck_assert_int_eq(infile_open(reg, "thing", INFILE_REGULAR, &f, &size), AR_OK);
    ck_assert_int_eq(size, 3);
    ck_assert_int_eq(fgetc(f), 'a');
    fclose(f);
    /* a writer-less FIFO: refused where a regular file is required ... */
    ck_assert_int_eq(infile_open(fifo, "thing", INFILE_REGULAR, &f, &size), AR_EINVAL);
    ck_assert_msg(strstr(ar_error_get(), "is a FIFO or pipe (expected a thing)") != NULL, "[%s]", ar_error_get());
    /* ... and read as empty, at once, where streams are allowed */
    ck_assert_int_eq(infile_open(fifo, "thing", INFILE_ANY, &f, &size), AR_OK);
    ck_assert_int_eq(size, -1);
    ck_assert_int_eq(fgetc(f), EOF);
    fclose(f);
    ck_assert_int_eq(infile_open(dir, "thing", INFILE_ANY, &f, NULL), AR_EINVAL);
    ck_assert_msg(strstr(ar_error_get(), "is a directory") != NULL, "[%s]", ar_error_get());
    ck_assert_int_eq(infile_open("/nonexistent/x", "thing", INFILE_ANY, &f, NULL), AR_EIO);
    ck_assert_msg(strstr(ar_error_get(), "/nonexistent/x: cannot open") != NULL, "[%s]", ar_error_get());
    ck_assert_int_eq(infile_open("", "thing", INFILE_ANY, &f, NULL), AR_EINVAL);
    unlink(reg);
    unlink(fifo);
    rmdir(dir);
}
END_TEST

Suite *suite_status(void)
{
    Suite *s = suite_create("status");
    TEST_TCASE(tc, "status");
    tcase_add_test(tc, error_escapes);
    tcase_add_test(tc, infile_kinds);
    suite_add_tcase(s, tc);
    return s;
}
