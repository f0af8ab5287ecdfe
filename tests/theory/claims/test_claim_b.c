/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_claim_b.c -- claim B's sweep point (theory/claims/claim_b.h): the
 * lower-end choice lower_lattice (0: shells only, the default and the d = 2, 3 rows';
 * 1: shells and the D_d lattice, the larger; 2: the lattice only), its
 * method and note, and the d = 5 continuum end through the point
 * (proofs-notes/claim-B.md sections 4a and 8). */
#include <check.h>
#include <math.h>
#include <string.h>
#include "testutil.h"
#include "theory/claims/claim_b.h"

START_TEST(test_lower_lattice_choice)
{
    const double beta = 28.0;
    claim_b_opts_t o;
    law_point_t p0, p1, p2;
    claim_b_opts_default(&o);
    ck_assert_int_eq(o.lower_lattice, 0);
    o.rho0 = 0.0;
    ck_assert_int_eq(claim_b_point(4, beta, 0.1, &o, &p0), AR_OK);
    ck_assert_msg(strstr(p0.lower_method, "/shells") != NULL, "default lower end: %s", p0.lower_method);
    o.lower_lattice = 2;
    ck_assert_int_eq(claim_b_point(4, beta, 0.1, &o, &p2), AR_OK);
    ck_assert_str_eq(p2.lower_method, "ball-diagdom/D4");
    ck_assert_uint_eq(p2.lower, p2.lower_points);      /* every point of the lattice certified */
    ck_assert_uint_eq(p2.lower, 169);                  /* bench/results/claim_B_d45.md */
    ck_assert(strncmp(p2.note, "lattice rho0=0", 14) == 0);
    ck_assert(strstr(p2.note, "holds") != NULL);       /* N >= e^{beta/8} */
    o.lower_lattice = 1;
    ck_assert_int_eq(claim_b_point(4, beta, 0.1, &o, &p1), AR_OK);
    ck_assert_uint_eq(p1.lower, p0.lower > p2.lower ? p0.lower : p2.lower);
    ck_assert_str_eq(ar_cert_status_name(p1.status), "certified");
}
END_TEST

START_TEST(test_continuum_d5)
{
    claim_b_opts_t o;
    claim_b_opts_default(&o);
    o.rho0 = 0.0;
    o.lower = 0;
    o.continuum = 1;
    o.hs = 0.5;
    law_point_t p;
    ck_assert_int_eq(claim_b_point(5, 12.0, 0.1, &o, &p), AR_OK);
    ck_assert_uint_eq(p.continuum, 936);               /* test_cert_ball_harmonic's d = 5 case */
    ck_assert(strncmp(p.continuum_method, "shells-continuum hs=", 20) == 0);
    o.hs = 0.6;                                        /* coarser than CLAIM_B_HS_MAX */
    ck_assert_int_eq(claim_b_point(5, 12.0, 0.1, &o, &p), AR_EINVAL);
}
END_TEST

Suite *suite_claim_b(void)
{
    Suite *s = suite_create("claim_b");
    TEST_TCASE(tc, "claim_b");
    tcase_add_test(tc, test_lower_lattice_choice);
    tcase_add_test(tc, test_continuum_d5);
    suite_add_tcase(s, tc);
    return s;
}
