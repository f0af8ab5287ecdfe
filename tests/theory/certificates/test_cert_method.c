/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_method.c -- the certificate methods' name table: every method's
 * name parses back to it, unknown names are rejected (with a message, and
 * the output untouched), no two methods share a name, the names are the
 * ones the library always printed, and the predicates (trivial, ball,
 * composite labels) say what cert_method.h promises. */
#include <check.h>
#include <string.h>
#include "testutil.h"
#include "theory/certificates/cert_method.h"

START_TEST(test_round_trip)
{
    for (int m = 0; m < AR_METHOD_COUNT; m++) {
        const char *name = ar_method_name((ar_method_t)m);
        ck_assert_ptr_nonnull(name);
        ck_assert_str_ne(name, "unknown");
        ar_method_t back = AR_METHOD_COUNT;
        ck_assert_int_eq(ar_method_parse(name, &back), AR_OK);
        ck_assert_int_eq(back, m);
    }
}
END_TEST

START_TEST(test_no_duplicates)
{
    for (int a = 0; a < AR_METHOD_COUNT; a++)
        for (int b = a + 1; b < AR_METHOD_COUNT; b++)
            ck_assert_msg(strcmp(ar_method_name((ar_method_t)a), ar_method_name((ar_method_t)b)) != 0,
                          "methods %d and %d share the name '%s'", a, b, ar_method_name((ar_method_t)a));
}
END_TEST

START_TEST(test_unknown_rejected)
{
    const char *bad[] = { "Trivial", "trivial ", " svd", "ball-", "ball", "unknown", "svd/trivial", "rsvd2", "none" };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        ar_method_t m = AR_METHOD_SVD;
        ck_assert_int_eq(ar_method_parse(bad[k], &m), AR_EINVAL);
        ck_assert_int_eq(m, AR_METHOD_SVD);
        ck_assert_msg(strstr(ar_error_get(), "unknown certificate method") != NULL, "'%s': message '%s'", bad[k],
                      ar_error_get());
    }
    ar_method_t m = AR_METHOD_SVD;
    ck_assert_int_eq(ar_method_parse(NULL, &m), AR_EINVAL);
    ck_assert_int_eq(m, AR_METHOD_SVD);
    ck_assert_str_eq(ar_method_name(AR_METHOD_COUNT), "unknown");
    ck_assert_str_eq(ar_method_name((ar_method_t)-1), "unknown");
}
END_TEST

/* The printed names are part of the output (tables, JSON, shard files): they never change. */
START_TEST(test_printed_names)
{
    ck_assert_str_eq(ar_method_name(AR_METHOD_NONE), "");
    ck_assert_str_eq(ar_method_name(AR_METHOD_TRIVIAL), "trivial");
    ck_assert_str_eq(ar_method_name(AR_METHOD_DIAGDOM), "diagdom");
    ck_assert_str_eq(ar_method_name(AR_METHOD_INVNORM), "invnorm");
    ck_assert_str_eq(ar_method_name(AR_METHOD_INVNORM_VARAH), "invnorm-varah");
    ck_assert_str_eq(ar_method_name(AR_METHOD_SVD), "svd");
    ck_assert_str_eq(ar_method_name(AR_METHOD_SYMEIG), "symeig");
    ck_assert_str_eq(ar_method_name(AR_METHOD_PCHOL), "pchol");
    ck_assert_str_eq(ar_method_name(AR_METHOD_RSVD), "rsvd");
    ck_assert_str_eq(ar_method_name(AR_METHOD_RSYM), "rsym");
    ck_assert_str_eq(ar_method_name(AR_METHOD_PROJECTION), "projection");
    ck_assert_str_eq(ar_method_name(AR_METHOD_L1LP), "l1lp");
    ck_assert_str_eq(ar_method_name(AR_METHOD_CLUSTER), "cluster");
    ck_assert_str_eq(ar_method_name(AR_METHOD_BALL_DIAGDOM), "ball-diagdom");
    ck_assert_str_eq(ar_method_name(AR_METHOD_BALL_CLUSTER), "ball-cluster");
    ck_assert_str_eq(ar_method_name(AR_METHOD_TENSOR_CHEB), "tensor-cheb");
    ck_assert_str_eq(ar_method_name(AR_METHOD_POLYNOMIAL), "polynomial");
    ck_assert_str_eq(ar_method_name(AR_METHOD_CIRCULANT_BLOCKS), "circulant-blocks");
    ck_assert_str_eq(ar_method_name(AR_METHOD_CIRCULANT_L1LP), "circulant-l1lp");
    ck_assert_str_eq(ar_method_name(AR_METHOD_CIRCULANT_PROJECTION), "circulant-projection");
    ck_assert_str_eq(ar_method_name(AR_METHOD_PACKING_DIAGDOM), "packing-diagdom");
}
END_TEST

START_TEST(test_predicates)
{
    for (int m = 0; m < AR_METHOD_COUNT; m++) {
        const char *name = ar_method_name((ar_method_t)m);
        ck_assert_int_eq(ar_method_is_trivial((ar_method_t)m), !*name || strcmp(name, "trivial") == 0);
        ck_assert_int_eq(ar_method_is_ball((ar_method_t)m), strncmp(name, "ball-", 5) == 0);
        ar_method_t b = ar_method_ball((ar_method_t)m);
        if (m == AR_METHOD_DIAGDOM || m == AR_METHOD_CLUSTER) {
            ck_assert(ar_method_is_ball(b));
            ck_assert_str_eq(ar_method_name(b) + 5, name);   /* "ball-" + the cluster method's name */
        } else {
            ck_assert_int_eq(b, m);
        }
    }
}
END_TEST

START_TEST(test_label_trivial)
{
    const char *yes[] = { "", "trivial", "random/trivial", "lattice h=0.5/trivial", "a/b/trivial" };
    const char *no[] = { "svd", "random/svd", "trivial/shells", "nontrivial", "x/ntrivial", "polygon/circulant-l1lp",
                         "x/", "trivial/" };
    for (size_t k = 0; k < sizeof yes / sizeof yes[0]; k++)
        ck_assert_msg(ar_method_label_trivial(yes[k]), "'%s' names a trivial end", yes[k]);
    for (size_t k = 0; k < sizeof no / sizeof no[0]; k++)
        ck_assert_msg(!ar_method_label_trivial(no[k]), "'%s' does not name a trivial end", no[k]);
    ar_error_set("kept");
    (void)ar_method_label_trivial("random/nosuch");
    ck_assert_str_eq(ar_error_get(), "kept");              /* a predicate: no message */
}
END_TEST

Suite *suite_cert_method(void)
{
    Suite *s = suite_create("cert_method");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_no_duplicates);
    tcase_add_test(tc, test_unknown_rejected);
    tcase_add_test(tc, test_printed_names);
    tcase_add_test(tc, test_predicates);
    tcase_add_test(tc, test_label_trivial);
    suite_add_tcase(s, tc);
    return s;
}
