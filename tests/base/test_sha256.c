/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_sha256.c -- SHA-256 (nettle) against the FIPS 180-4 / NIST example
 * vectors and lengths around the padding boundary against sha256sum's
 * values; files hashed in chunks (sha256_file_hex) against the same values,
 * and unreadable files refused. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"
#include "base/sha256.h"

START_TEST(sha256_vectors)
{
    char h[65];
    sha256_hex("", 0, h);
    ck_assert_str_eq(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    sha256_hex("abc", 3, h);
    ck_assert_str_eq(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sha256_hex(m, strlen(m), h);
    ck_assert_str_eq(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    char a[1000];
    memset(a, 'a', sizeof a);
    /* 55, 56, 64 and 1000 bytes of 'a' (values from coreutils sha256sum) */
    sha256_hex(a, 55, h);
    ck_assert_str_eq(h, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    sha256_hex(a, 56, h);
    ck_assert_str_eq(h, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    sha256_hex(a, 64, h);
    ck_assert_str_eq(h, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
    sha256_hex(a, 1000, h);
    ck_assert_str_eq(h, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}
END_TEST

START_TEST(sha256_files)
{
    char path[] = "/tmp/attnrank_sha_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "wb");
    ck_assert_ptr_nonnull(f);
    char h[65], g[65];
    ck_assert_int_eq(sha256_file_hex(path, "test file", h), AR_OK);
    ck_assert_str_eq(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    /* 200000 bytes of 'a': several 64 KiB chunks (value from coreutils sha256sum) */
    char *a = malloc(200000);
    ck_assert_ptr_nonnull(a);
    memset(a, 'a', 200000);
    ck_assert_uint_eq(fwrite(a, 1, 200000, f), 200000);
    fclose(f);
    ck_assert_int_eq(sha256_file_hex(path, "test file", h), AR_OK);
    ck_assert_str_eq(h, "2287d207f24a941ff3b56c04c8a25ad56b63e3023207b3bb5b4ac0c9869d74be");
    sha256_hex(a, 200000, g);
    ck_assert_str_eq(h, g);
    free(a);
    unlink(path);
    ck_assert_int_eq(sha256_file_hex(path, "test file", h), AR_EIO);
    ck_assert_ptr_nonnull(strstr(ar_error_get(), path));
    ck_assert_int_eq(sha256_file_hex("/tmp", "test file", h), AR_EINVAL);
}
END_TEST

/* RFC 4231 test cases 1, 2 and 6 (a key longer than the block), whole and
 * streamed in pieces; the constant-time comparison. */
START_TEST(hmac_sha256_vectors)
{
    unsigned char k1[20], k6[131];
    memset(k1, 0x0b, sizeof k1);
    memset(k6, 0xaa, sizeof k6);
    const char *d6 = "Test Using Larger Than Block-Size Key - Hash Key First";
    char hex[65];
    hmac_sha256_hex(k1, sizeof k1, "Hi There", 8, hex);
    ck_assert_str_eq(hex, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    hmac_sha256_hex("Jefe", 4, "what do ya want for nothing?", 28, hex);
    ck_assert_str_eq(hex, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    hmac_sha256_hex(k6, sizeof k6, d6, strlen(d6), hex);
    ck_assert_str_eq(hex, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    hmac_sha256_stream_t s;
    hmac_sha256_stream_init(&s, k6, sizeof k6);
    for (size_t i = 0; i < strlen(d6); i += 7)
        hmac_sha256_stream_update(&s, d6 + i, strlen(d6) - i < 7 ? strlen(d6) - i : 7);
    char hs[65];
    hmac_sha256_stream_hex(&s, hs);
    ck_assert_str_eq(hs, hex);
    ck_assert(sha256_hex_equal(hs, hex));
    hs[63] = hs[63] == '4' ? '5' : '4';
    ck_assert(!sha256_hex_equal(hs, hex));
    hs[63] = hex[63];
    hs[0] = hs[0] == '6' ? '7' : '6';
    ck_assert(!sha256_hex_equal(hs, hex));
}
END_TEST

Suite *suite_sha256(void)
{
    Suite *s = suite_create("sha256");
    TEST_TCASE(tc, "vectors");
    tcase_add_test(tc, sha256_vectors);
    tcase_add_test(tc, sha256_files);
    tcase_add_test(tc, hmac_sha256_vectors);
    suite_add_tcase(s, tc);
    return s;
}
