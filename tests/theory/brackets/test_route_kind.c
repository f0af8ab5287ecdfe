/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_route_kind.c -- the routes' name table: every route's name parses back
 * to it, unknown names are rejected (message set, output untouched), no two
 * routes share a name, and the chooser's route ids (route.h) name the same
 * routes in the same order. */
#include <check.h>
#include <string.h>
#include "testutil.h"
#include "theory/brackets/route.h"
#include "theory/brackets/route_kind.h"

START_TEST(test_round_trip)
{
    for (int r = 0; r < AR_ROUTE_COUNT; r++) {
        const char *name = ar_route_name((ar_route_t)r);
        ck_assert_str_ne(name, "unknown");
        ar_route_t back = AR_ROUTE_COUNT;
        ck_assert_int_eq(ar_route_parse(name, &back), AR_OK);
        ck_assert_int_eq(back, r);
    }
}
END_TEST

START_TEST(test_no_duplicates)
{
    for (int a = 0; a < AR_ROUTE_COUNT; a++)
        for (int b = a + 1; b < AR_ROUTE_COUNT; b++)
            ck_assert_str_ne(ar_route_name((ar_route_t)a), ar_route_name((ar_route_t)b));
}
END_TEST

START_TEST(test_unknown_rejected)
{
    const char *bad[] = { "", "Dense", "dense,ball", "direct", "visible", "r(tau)", "unknown", "ball " };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        ar_route_t r = AR_ROUTE_SCALE;
        ck_assert_int_eq(ar_route_parse(bad[k], &r), AR_EINVAL);
        ck_assert_int_eq(r, AR_ROUTE_SCALE);
        ck_assert_ptr_nonnull(strstr(ar_error_get(), "unknown route"));
    }
    ar_route_t r = AR_ROUTE_SCALE;
    ck_assert_int_eq(ar_route_parse(NULL, &r), AR_EINVAL);
    ck_assert_int_eq(r, AR_ROUTE_SCALE);
    ck_assert_str_eq(ar_route_name(AR_ROUTE_COUNT), "unknown");
}
END_TEST

/* The printed names never change (the bracket JSON, the API), and the plan's route ids are the routes. */
START_TEST(test_names_and_ids)
{
    const char *want[] = { "circulant", "ball", "packing", "polynomial", "scale", "dense", "trivial" };
    ck_assert_int_eq(AR_ROUTE_COUNT, sizeof want / sizeof want[0]);
    for (int r = 0; r < AR_ROUTE_COUNT; r++)
        ck_assert_str_eq(ar_route_name((ar_route_t)r), want[r]);
    ck_assert_int_eq(ROUTE_ID_COUNT, AR_ROUTE_TRIVIAL);
    for (int id = 0; id < ROUTE_ID_COUNT; id++)
        ck_assert_str_eq(route_id_name((route_id_t)id), want[id]);
    ck_assert_str_eq(route_id_name(ROUTE_ID_COUNT), "unknown");
}
END_TEST

Suite *suite_route_kind(void)
{
    Suite *s = suite_create("route_kind");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_no_duplicates);
    tcase_add_test(tc, test_unknown_rejected);
    tcase_add_test(tc, test_names_and_ids);
    suite_add_tcase(s, tc);
    return s;
}
